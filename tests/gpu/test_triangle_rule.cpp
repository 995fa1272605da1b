// The mesh path's per-triangle culling rule (geometry/triangle_rule.glsl, the code of the mesh shaders'
// culling variants, run here by test/triangle_cull.comp on the test device, so that it is checked on devices
// without mesh shaders too) against a rasterizer on the host: no triangle it culls would have drawn a sample
// with its vertices anywhere within one step of the subpixel grid in each coordinate (the rule's stated
// uncertainty: the hardware's snap and its float error), for both front faces, back and front culling, no face culling
// (double- sided bins), flipped and offset viewports. A vertex at w <= 0 or not finite leaves the triangle alone; a
// triangle naming one vertex twice is always culled; and the rule does cull: most back faces and the
// triangles between sample centres.
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "gpu_fixture.h"
#include "shared/test_push.h"
#include "shared/triangle_cull.h"
#include "sieve/pipeline.h"

namespace {

using sieve::gpu::TriangleCullCase;
using sieve::gpu::TriangleCullPush;
using sieve::gpu::vec4;
using testing_gpu::GpuTest;

struct P {
    double x, y;
};
using Tri = std::array<P, 3>;

enum Kind { kTiny, kMedium, kSliver, kBehind, kDegenerate, kKinds };

// The framebuffer position of `clip` through the viewport transform, in double.
P framebuffer(const vec4& clip, const vec4& vp) {
    return {double(clip.x) / clip.w * vp.x + vp.z, double(clip.y) / clip.w * vp.y + vp.w};
}

// Whether the rasterizer draws a sample of the triangle at framebuffer positions q (snapped): Vulkan's facing
// (a = -1/2 sum(x_i y_i+1 - x_i+1 y_i); front where a > 0 with counter-clockwise front faces, a < 0 with
// clockwise; a = 0 draws nothing), the pipeline's face culling, then a sample centre k + 0.5 inside the
// scissor on or inside all three edges (edges count as inside: stricter than the top-left rule).
bool drawsASample(const Tri& q, uint32_t mode, uint32_t width, uint32_t height) {
    const double cross = (q[1].x - q[0].x) * (q[2].y - q[0].y) - (q[1].y - q[0].y) * (q[2].x - q[0].x);
    if (cross == 0.0) return false;
    const double area = -0.5 * cross;
    const bool front = (mode & sieve::gpu::SIEVE_TRIANGLE_CULL_CLOCKWISE) ? area < 0 : area > 0;
    if (front && (mode & sieve::gpu::SIEVE_TRIANGLE_CULL_FRONT)) return false;
    if (!front && (mode & sieve::gpu::SIEVE_TRIANGLE_CULL_BACK)) return false;
    const double minX = std::min({q[0].x, q[1].x, q[2].x}), maxX = std::max({q[0].x, q[1].x, q[2].x});
    const double minY = std::min({q[0].y, q[1].y, q[2].y}), maxY = std::max({q[0].y, q[1].y, q[2].y});
    const double sign = cross > 0 ? 1.0 : -1.0;
    for (double ky = std::max(0.0, std::ceil(minY - 0.5)); ky <= std::min(height - 1.0, std::floor(maxY - 0.5)); ++ky)
        for (double kx = std::max(0.0, std::ceil(minX - 0.5)); kx <= std::min(width - 1.0, std::floor(maxX - 0.5));
             ++kx) {
            const P s{kx + 0.5, ky + 0.5};
            bool inside = true;
            for (int i = 0; i < 3 && inside; ++i) {
                const P& a = q[i];
                const P& b = q[(i + 1) % 3];
                inside = sign * ((b.x - a.x) * (s.y - a.y) - (b.y - a.y) * (s.x - a.x)) >= 0.0;
            }
            if (inside) return true;
        }
    return false;
}

// Whether any of the triangle's variants draws a sample. The rule takes every position as uncertain by one
// step of the subpixel grid (`bits`): the hardware snaps to that grid (half a step) what it computed with
// float error (far below another half step). Variants: each coordinate moved by -step or +step, unsnapped
// (the box's corners: the area and every edge function are multilinear in the coordinates), by -step/2 or
// +step/2 then snapped, and the exact positions snapped.
bool anyVariantDraws(const Tri& p, uint32_t mode, uint32_t width, uint32_t height) {
    const uint32_t bits = (mode >> sieve::gpu::SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT) & 255u;
    const double grid = std::ldexp(1.0, int(bits)), step = 1.0 / grid;
    auto snap = [&](double v) { return std::round(v * grid) / grid; };
    for (uint32_t variant = 0; variant <= 128; ++variant) {  // 0..63 unsnapped, 64..127 snapped, 128 exact
        const uint32_t corner = variant % 64;
        const bool snapped = variant >= 64;
        const double d = variant == 128 ? 0.0 : snapped ? 0.5 * step : step;
        Tri q;
        for (int i = 0; i < 3; ++i) {
            const double x = p[i].x + ((corner >> (2 * i)) & 1 ? d : -d);
            const double y = p[i].y + ((corner >> (2 * i + 1)) & 1 ? d : -d);
            q[i] = snapped ? P{snap(x), snap(y)} : P{x, y};
        }
        if (drawsASample(q, mode, width, height)) return true;
    }
    return false;
}

struct RuleSetup {
    const char* name;
    vec4 viewport;  // framebuffer xy = ndc.xy * viewport.xy + viewport.zw
    uint32_t mode;
    uint32_t width = 97, height = 61;
};

// A triangle of `kind` around a random framebuffer point, as clip positions through `s`'s viewport.
TriangleCullCase makeCase(Kind kind, const RuleSetup& s, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const P centre{-2.0 + u(rng) * (s.width + 4.0), -2.0 + u(rng) * (s.height + 4.0)};
    const double radius = kind == kTiny ? 0.001 + 1.5 * u(rng) : 1.5 + 40.0 * u(rng);
    Tri p;
    for (P& v : p) v = {centre.x + radius * (2 * u(rng) - 1), centre.y + radius * (2 * u(rng) - 1)};
    if (kind == kSliver) p[1] = {p[0].x + 0.05 * (u(rng) - 0.5), p[0].y + 0.05 * (u(rng) - 0.5)};
    TriangleCullCase c;
    vec4* clips[3] = {&c.a, &c.b, &c.c};
    for (int i = 0; i < 3; ++i) {
        const double w = 0.05 + 50.0 * u(rng);
        const double nx = (p[i].x - s.viewport.z) / s.viewport.x, ny = (p[i].y - s.viewport.w) / s.viewport.y;
        *clips[i] = vec4(float(nx * w), float(ny * w), float(0.5 * w), float(w));
    }
    c.tri = {0, 1, 2, 0};
    if (kind == kBehind) {
        const float bad[] = {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()};
        clips[rng() % 3]->w = bad[rng() % 3];
    }
    if (kind == kDegenerate) {  // one of the three pairs names one vertex
        const uint32_t pair = rng() % 3;
        if (pair == 0) c.tri.y = c.tri.x;
        if (pair == 1) c.tri.z = c.tri.y;
        if (pair == 2) c.tri.z = c.tri.x;
    }
    return c;
}

class TriangleRuleTest : public GpuTest {
protected:
    // test/triangle_cull.comp's verdict on each of `cases` under `s`.
    std::vector<uint32_t> culledOnDevice(const RuleSetup& s, const std::vector<TriangleCullCase>& cases) {
        auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/triangle_cull.comp", sizeof(TriangleCullPush)});
        EXPECT_TRUE(pipe) << pipe.error().message;
        if (!pipe) return {};
        const uint32_t n = uint32_t(cases.size());
        engine::Buffer in = makeBuffer(cases);
        engine::Buffer out = makeEmpty(n * sizeof(uint32_t));
        const TriangleCullPush push{s.viewport, s.mode, n, s.width, s.height};
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            pipe->dispatchLinear(cmd, {sieve::Binding::storage(in.range()), sieve::Binding::storage(out.range())}, push,
                                 (n + 63) / 64);
        });
        EXPECT_TRUE(r) << r.error().message;
        return r ? read<uint32_t>(out, n) : std::vector<uint32_t>{};
    }
};

}  // namespace

TEST_F(TriangleRuleTest, CullsOnlyWhatDrawsNoSample) {
    using namespace sieve::gpu;
    const uint32_t back = SIEVE_TRIANGLE_CULL_ON | SIEVE_TRIANGLE_CULL_BACK,
                   bits8 = 8u << SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT;
    const RuleSetup setups[] = {
        {"back faces, counter-clockwise", {48.5f, 30.5f, 48.5f, 30.5f}, back | bits8},
        {"back faces, clockwise", {48.5f, 30.5f, 48.5f, 30.5f}, back | SIEVE_TRIANGLE_CULL_CLOCKWISE | bits8},
        {"back faces, flipped viewport", {48.5f, -30.5f, 48.5f, 30.5f}, back | bits8},
        {"front faces, clockwise",
         {48.5f, 30.5f, 48.5f, 30.5f},
         SIEVE_TRIANGLE_CULL_ON | SIEVE_TRIANGLE_CULL_FRONT | SIEVE_TRIANGLE_CULL_CLOCKWISE | bits8},
        {"no face culling", {48.5f, 30.5f, 48.5f, 30.5f}, SIEVE_TRIANGLE_CULL_ON | bits8},
        {"4 subpixel bits, offset viewport",
         {30.0f, 20.0f, 40.0f, 25.0f},
         back | (4u << SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT)},
    };
    std::mt19937 rng(23);
    const uint32_t n = 6000;
    for (const RuleSetup& s : setups) {
        SCOPED_TRACE(s.name);
        std::vector<TriangleCullCase> cases(n);
        std::vector<Kind> kinds(n);
        for (uint32_t i = 0; i < n; ++i) cases[i] = makeCase(kinds[i] = Kind(i % kKinds), s, rng);
        const std::vector<uint32_t> culled = culledOnDevice(s, cases);
        ASSERT_EQ(culled.size(), n);
        uint32_t wrong = 0, culledCount[kKinds] = {}, total[kKinds] = {};
        for (uint32_t i = 0; i < n; ++i) {
            const Kind k = kinds[i];
            ++total[k];
            culledCount[k] += culled[i];
            if (k == kBehind || k == kDegenerate) {
                EXPECT_EQ(culled[i], k == kDegenerate ? 1u : 0u) << "case " << i << " kind " << k;
                continue;
            }
            const TriangleCullCase& c = cases[i];
            const Tri p = {framebuffer(c.a, s.viewport), framebuffer(c.b, s.viewport), framebuffer(c.c, s.viewport)};
            if (culled[i] && anyVariantDraws(p, s.mode, s.width, s.height) && ++wrong <= 5)
                ADD_FAILURE() << "case " << i << " culled but draws a sample: (" << p[0].x << ", " << p[0].y << ") ("
                              << p[1].x << ", " << p[1].y << ") (" << p[2].x << ", " << p[2].y << ")";
        }
        EXPECT_EQ(wrong, 0u);
        std::printf("[ triangle rule ] %s: culled %u of %u tiny, %u of %u medium, %u of %u slivers\n", s.name,
                    culledCount[kTiny], total[kTiny], culledCount[kMedium], total[kMedium], culledCount[kSliver],
                    total[kSliver]);
        // Not vacuous: about half of the random triangles face away, and many tiny ones hold no sample.
        const bool faces = s.mode & (SIEVE_TRIANGLE_CULL_BACK | SIEVE_TRIANGLE_CULL_FRONT);
        EXPECT_GT(culledCount[kMedium], faces ? total[kMedium] / 3 : 0u);
        EXPECT_GT(culledCount[kTiny], total[kTiny] / (faces ? 2 : 5));
    }
}
