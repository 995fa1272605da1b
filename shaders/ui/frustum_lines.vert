#version 460
// Culling debug view: the frozen culling frustum's 12 edges, drawn from the view camera (its corners
// come already projected, see shared/ui_push.h FrustumLinesPush).
#extension GL_GOOGLE_include_directive : require
#include "shared/ui_push.h"

layout(push_constant) uniform Push { FrustumLinesPush pc; };
layout(location = 0) out vec3 outColor;

// Corner pairs: the near face, the far face, then the four side edges.
const uint kEdges[24] = uint[24](0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7);

void main() {
    gl_Position = pc.corners[kEdges[gl_VertexIndex % 24u]];
    outColor = vec3(1.0, 1.0, 0.0);  // yellow (exact: the screenshot tests look for it)
}
