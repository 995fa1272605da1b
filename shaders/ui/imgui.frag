#version 460
// Vertex colour times the bound texture (the font atlas, or an image the overlay shows).
layout(set = 0, binding = 0) uniform sampler2D tex;

layout(location = 0) in vec4 inColor;
layout(location = 1) in vec2 inUv;
layout(location = 0) out vec4 outColor;

void main() { outColor = inColor * texture(tex, inUv); }
