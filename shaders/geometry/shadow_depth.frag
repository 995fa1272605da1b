#version 460
// Depth-only shadow-map pass (engine/scene/shadow_pass.cpp): the rasterizer writes the depth.
void main() {}
