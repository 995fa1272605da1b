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
layout(location = 3) flat out uint outLod;
layout(location = 4) out vec3 outWorld;
layout(location = 5) flat out uint outKey;  // debug colour per draw record

#include "geometry/vertex.glsl"

void main() {
    vec4 clip;
    shadeVertex(instances[gl_InstanceIndex], inPosition, inNormal, pc.viewProj, clip, outNormal);
    outMaterial = draws[gl_DrawID].material;
    outInstance = gl_InstanceIndex;
    outLod = draws[gl_DrawID].lod;
    outKey = draws[gl_DrawID].firstIndex;
    const Instance inst = instances[gl_InstanceIndex];
    const vec4 p = vec4(inPosition, 1.0);
    outWorld = vec3(dot(inst.rows[0], p), dot(inst.rows[1], p), dot(inst.rows[2], p));
    gl_Position = clip;
}
