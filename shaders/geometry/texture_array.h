// The texture array of the default geometry pass (set 1, written by GeometryPass::setTextures) and its
// lookup. The index is the same for a whole draw, but devices without shaderSampledImageArrayDynamicIndexing
// (lavapipe) may index such an array only with constants: a switch over constant indices is valid
// everywhere and, the index being uniform per draw, a uniform branch. 120 cases = SIEVE_MAX_TEXTURES.
// kTextureCount (the slots the host fills) removes the cases above it when the pipeline is compiled:
// lavapipe runs every case of a switch under a mask, so each case left costs a texture fetch per fragment.
// Slot 0 (SIEVE_TEXTURE_WHITE) means no texture and has no case that samples it: a scene without
// textures has no texture fetch at all.
layout(constant_id = 0) const uint kTextureCount = SIEVE_MAX_TEXTURES;  // SIEVE_MATERIAL_SPEC_TEXTURE_SLOTS
layout(set = 1, binding = 0) uniform sampler materialSampler;
layout(set = 1, binding = 1) uniform texture2D textures[SIEVE_MAX_TEXTURES];

#define SIEVE_TEX1(i)                                                                                \
    case i:                                                                                          \
        if (i > 0 && i < kTextureCount) return texture(sampler2D(textures[i], materialSampler), uv); \
        break;
#define SIEVE_TEX4(i) SIEVE_TEX1(i) SIEVE_TEX1(i + 1) SIEVE_TEX1(i + 2) SIEVE_TEX1(i + 3)
#define SIEVE_TEX8(i) SIEVE_TEX4(i) SIEVE_TEX4(i + 4)
#define SIEVE_TEX40(i) SIEVE_TEX8(i) SIEVE_TEX8(i + 8) SIEVE_TEX8(i + 16) SIEVE_TEX8(i + 24) SIEVE_TEX8(i + 32)

vec4 sampleTexture(uint index, vec2 uv) {
    if (index == SIEVE_TEXTURE_WHITE) return vec4(1.0);
    switch (int(index)) {
        SIEVE_TEX40(0)
        SIEVE_TEX40(40)
        SIEVE_TEX40(80)
    }
    return vec4(1.0);
}
