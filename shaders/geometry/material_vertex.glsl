// One vertex of the material pipelines (material.frag's inputs), shared by material.vert and
// cluster_material.mesh so that the indirect and the mesh-shader paths put every vertex and every varying at
// the same bits: shadeVertex's `precise` position and normal, and `precise` world position and UV here.
// The includer includes shared/draw.h, shared/material.h, shared/scene.h and geometry/vertex.glsl first.
struct MaterialVarying {
    vec4 clip;
    vec3 normal;
    vec2 uv;
    vec4 baseColor;
    uvec4 params;  // texture, alpha mode, alpha cutoff bits, lod
    vec4 emissive;  // factor, emissive texture index (bits)
    vec3 world;
    vec2 normalMap;  // texture index (bits), scale
    uint key;        // debug colour per draw record (its first index: per cluster in a cluster list)
};

MaterialVarying materialVertex(Instance inst, vec3 position, uint packedNormal, vec2 uv, Material m, DrawCommand draw,
                               mat4 viewProj) {
    MaterialVarying o;
    shadeVertex(inst, position, packedNormal, viewProj, o.clip, o.normal);
    precise vec4 p = vec4(position, 1.0);
    precise vec3 world = vec3(dot(inst.rows[0], p), dot(inst.rows[1], p), dot(inst.rows[2], p));
    precise vec2 t = vec2(dot(m.uvRow0.xyz, vec3(uv, 1.0)), dot(m.uvRow1.xyz, vec3(uv, 1.0)));
    o.world = world;
    o.uv = t;
    o.baseColor = m.baseColorFactor;
    o.emissive = vec4(m.emissive.rgb, uintBitsToFloat(m.emissiveTexture));
    o.normalMap = vec2(uintBitsToFloat(m.normalTexture), m.normalScale);
    o.key = draw.firstIndex;
    o.params = uvec4(m.baseColorTexture, m.alphaMode, floatBitsToUint(m.alphaCutoff), draw.lod);
    return o;
}
