#version 460
// Default geometry pass: one indirect draw per (instance, primitive). gl_InstanceIndex is the instance
// index (firstInstance of the draw record); gl_DrawID picks the draw record for its material.
#extension GL_GOOGLE_include_directive : require
#include "shared/draw.h"
#include "shared/geometry_push.h"
#include "shared/scene.h"

layout(location = 0) in vec3 inPosition;
layout(location = 1) in uint inNormal;

layout(set = 0, binding = 0, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1, std430) readonly buffer Draws { DrawCommand draws[]; };

layout(push_constant) uniform Push { GeometryPush pc; };

layout(location = 0) out vec3 outNormal;
layout(location = 1) flat out uint outMaterial;
layout(location = 2) flat out uint outInstance;
layout(location = 3) out vec3 outWorld;

void main() {
    Instance inst = instances[gl_InstanceIndex];
    vec4 p = vec4(inPosition, 1.0);
    vec3 world = vec3(dot(inst.rows[0], p), dot(inst.rows[1], p), dot(inst.rows[2], p));
    // snorm 10-10-10 (assets/normal_packing.h): sign-extend each 10-bit field.
    ivec3 q = ivec3(uvec3(inNormal) << uvec3(22, 12, 2)) >> 22;
    vec3 n = max(vec3(q) / 511.0, -1.0);
    // Linear part of the transform (exact for uniform scale, which the scenes use).
    outNormal = normalize(vec3(dot(inst.rows[0].xyz, n), dot(inst.rows[1].xyz, n), dot(inst.rows[2].xyz, n)));
    outMaterial = draws[gl_DrawID].material;
    outInstance = gl_InstanceIndex;
    outWorld = world;
    gl_Position = pc.viewProj * vec4(world, 1.0);
}
