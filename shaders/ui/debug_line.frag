#version 460
// Culling debug view lines: the colour the vertex shader chose, opaque.
layout(location = 0) in vec3 inColor;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = vec4(inColor, 1.0);
}
