// One vertex of the default geometry pass, shared by mesh.vert and cluster.mesh so that both paths put
// every vertex at the same bits: `precise` keeps the compiler from contracting either differently.
void shadeVertex(Instance inst, vec3 position, uint packedNormal, mat4 viewProj, out vec4 clip, out vec3 normal) {
    precise vec4 p = vec4(position, 1.0);
    precise vec3 world = vec3(dot(inst.rows[0], p), dot(inst.rows[1], p), dot(inst.rows[2], p));
    // snorm 10-10-10 (assets/normal_packing.h): sign-extend each 10-bit field.
    ivec3 q = ivec3(uvec3(packedNormal) << uvec3(22, 12, 2)) >> 22;
    vec3 n = max(vec3(q) / 511.0, -1.0);
    // Linear part of the transform (exact for uniform scale, which the scenes use).
    precise vec3 wn = normalize(vec3(dot(inst.rows[0].xyz, n), dot(inst.rows[1].xyz, n), dot(inst.rows[2].xyz, n)));
    precise vec4 c = viewProj * vec4(world, 1.0);
    clip = c;
    normal = wn;
}
