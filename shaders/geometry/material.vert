#version 460
// Default geometry pass, material mode: one indirect draw per (instance, primitive), shaded by the draw's
// material (shared/material.h). gl_InstanceIndex is the instance (firstInstance of the draw record);
// gl_DrawID picks the draw record. A list that holds every bin (SIEVE_MATERIAL_PUSH_MIXED_BINS) is drawn
// once per bin pipeline; each pipeline drops the triangles of the other bins here.
#extension GL_GOOGLE_include_directive : require
#include "shared/draw.h"
#include "shared/material.h"
#include "shared/scene.h"

layout(location = 0) in vec3 inPosition;
layout(location = 1) in uint inNormal;
layout(location = 2) in vec2 inUv;

layout(set = 0, binding = 0, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1, std430) readonly buffer Draws { DrawCommand draws[]; };
layout(set = 0, binding = 2, std430) readonly buffer Materials { Material materials[]; };
layout(set = 0, binding = 3, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };

layout(push_constant) uniform Push { MaterialPush pc; };
layout(constant_id = 1) const uint kBin = 0u;  // SIEVE_MATERIAL_SPEC_BIN

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec2 outUv;
layout(location = 2) flat out vec4 outBaseColor;
layout(location = 3) flat out uvec4 outParams;  // texture, alpha mode, alpha cutoff bits, lod
layout(location = 4) flat out vec4 outEmissive;  // factor, emissive texture index (bits)
layout(location = 5) out vec3 outWorld;
layout(location = 7) flat out uint outKey;  // debug colour per draw record
layout(location = 6) flat out vec2 outNormalMap;  // texture index (bits), scale

#include "geometry/vertex.glsl"
#include "geometry/material_vertex.glsl"

void main() {
    DrawCommand draw = draws[gl_DrawID];
    if ((pc.flags & SIEVE_MATERIAL_PUSH_MIXED_BINS) != 0u && primitives[draw.primitive].bin != kBin) {
        // Outside the clip volume on every vertex: the triangle is rejected before rasterisation.
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    // The host validates material indices; a bad one still reads inside the table.
    const Material m = materials[min(draw.material, uint(materials.length()) - 1u)];
    const MaterialVarying v =
        materialVertex(instances[gl_InstanceIndex], inPosition, inNormal, inUv, m, draw, pc.viewProj);
    outNormal = v.normal;
    outUv = v.uv;
    outBaseColor = v.baseColor;
    outEmissive = v.emissive;
    outWorld = v.world;
    outNormalMap = v.normalMap;
    outKey = v.key;
    outParams = v.params;
    gl_Position = v.clip;
}
