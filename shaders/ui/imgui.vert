#version 460
// Dear ImGui vertices: pixel positions mapped to clip space by a scale and translation.
#extension GL_GOOGLE_include_directive : require
#include "shared/ui_push.h"
layout(location = 0) in vec2 inPosition;
layout(location = 1) in vec2 inUv;
layout(location = 2) in vec4 inColor;  // R8G8B8A8_UNORM

layout(push_constant) uniform Push { ImGuiPush pc; };

layout(location = 0) out vec4 outColor;
layout(location = 1) out vec2 outUv;

void main() {
    outColor = inColor;
    outUv = inUv;
    gl_Position = vec4(inPosition * pc.scale + pc.translate, 0.0, 1.0);
}
