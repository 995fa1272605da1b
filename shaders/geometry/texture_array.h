// The texture array of the default geometry pass (set 1, written by GeometryPass::setTextures) and its
// lookup. The index is the same for a whole draw, but devices without shaderSampledImageArrayDynamicIndexing
// (lavapipe) may index such an array only with constants: a switch over constant indices is valid
// everywhere and, the index being uniform per draw, a uniform branch. 120 cases = SIEVE_MAX_TEXTURES.
layout(set = 1, binding = 0) uniform sampler materialSampler;
layout(set = 1, binding = 1) uniform texture2D textures[SIEVE_MAX_TEXTURES];

#define SIEVE_TEX1(i) \
    case i: return texture(sampler2D(textures[i], materialSampler), uv);
#define SIEVE_TEX4(i) SIEVE_TEX1(i) SIEVE_TEX1(i + 1) SIEVE_TEX1(i + 2) SIEVE_TEX1(i + 3)
#define SIEVE_TEX8(i) SIEVE_TEX4(i) SIEVE_TEX4(i + 4)
#define SIEVE_TEX40(i) SIEVE_TEX8(i) SIEVE_TEX8(i + 8) SIEVE_TEX8(i + 16) SIEVE_TEX8(i + 24) SIEVE_TEX8(i + 32)

vec4 sampleTexture(uint index, vec2 uv) {
    switch (int(index)) {
        SIEVE_TEX40(0)
        SIEVE_TEX40(40)
        SIEVE_TEX40(80)
        default: return vec4(1.0);
    }
}
