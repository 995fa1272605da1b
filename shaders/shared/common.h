#ifndef SIEVE_SHARED_COMMON_H
#define SIEVE_SHARED_COMMON_H
// Included by GLSL and C++. Wrap shared declarations in SIEVE_NS_BEGIN / SIEVE_NS_END; in C++ they live
// in namespace sieve::gpu with the small vector types below, so layouts cannot drift between the two
// languages. The C++ types are plain storage with GLSL's layouts (vec4: 16 bytes, mat4: four column
// vec4s), no math library: a host converts from its own types (anything with x, y, z, w members
// converts implicitly), and the CPU references use only the scalar functions declared here.
#ifdef __cplusplus
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sieve::gpu {
using uint = uint32_t;

struct vec2 {
    float x = 0, y = 0;
    constexpr vec2() = default;
    constexpr vec2(float x_, float y_) : x(x_), y(y_) {}
    friend constexpr bool operator==(const vec2&, const vec2&) = default;
};
struct vec3 {
    float x = 0, y = 0, z = 0;
    constexpr vec3() = default;
    constexpr vec3(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}
    friend constexpr bool operator==(const vec3&, const vec3&) = default;
};
struct vec4 {
    float x = 0, y = 0, z = 0, w = 0;
    constexpr vec4() = default;
    constexpr vec4(float x_, float y_, float z_, float w_) : x(x_), y(y_), z(z_), w(w_) {}
    // From any 4-component vector type of the host's (glm::vec4, DirectX::XMFLOAT4, ...).
    template <typename V, typename = decltype(V{}.x + V{}.y + V{}.z + V{}.w)>
    constexpr vec4(const V& v) : x(float(v.x)), y(float(v.y)), z(float(v.z)), w(float(v.w)) {}
    constexpr float& operator[](int i) { return i == 0 ? x : i == 1 ? y : i == 2 ? z : w; }
    constexpr float operator[](int i) const { return i == 0 ? x : i == 1 ? y : i == 2 ? z : w; }
    friend constexpr bool operator==(const vec4&, const vec4&) = default;
};
struct uvec2 {
    uint x = 0, y = 0;
    constexpr uvec2() = default;
    constexpr uvec2(uint x_, uint y_) : x(x_), y(y_) {}
    friend constexpr bool operator==(const uvec2&, const uvec2&) = default;
};
struct uvec4 {
    uint x = 0, y = 0, z = 0, w = 0;
    constexpr uvec4() = default;
    constexpr uvec4(uint x_, uint y_, uint z_, uint w_) : x(x_), y(y_), z(z_), w(w_) {}
    friend constexpr bool operator==(const uvec4&, const uvec4&) = default;
};
// Column-major 4x4 matrix: m[c][r] is column c, row r (GLSL's and glm's convention); 64 bytes.
struct mat4 {
    vec4 cols[4];
    constexpr mat4() = default;
    // diagonal * identity (mat4(1.0f) is the identity).
    constexpr explicit mat4(float diagonal)
        : cols{{diagonal, 0, 0, 0}, {0, diagonal, 0, 0}, {0, 0, diagonal, 0}, {0, 0, 0, diagonal}} {}
    // From any column-major matrix type of the host's whose m[c] is a 4-component vector (glm::mat4, ...).
    template <typename M, typename = decltype(M{}[0].x + M{}[0].w)>
    constexpr mat4(const M& m) : cols{vec4(m[0]), vec4(m[1]), vec4(m[2]), vec4(m[3])} {}
    // From 16 floats in column-major order (the layout of glm::mat4 and of most engines' matrices).
    static mat4 fromColumnMajor(const float* m) {
        mat4 r;
        for (int c = 0; c < 4; ++c) r.cols[c] = vec4(m[c * 4], m[c * 4 + 1], m[c * 4 + 2], m[c * 4 + 3]);
        return r;
    }
    constexpr vec4& operator[](int c) { return cols[c]; }
    constexpr const vec4& operator[](int c) const { return cols[c]; }
    friend constexpr bool operator==(const mat4&, const mat4&) = default;
};
static_assert(sizeof(vec4) == 16 && sizeof(mat4) == 64 && sizeof(uvec4) == 16, "GLSL layouts");

// The scalar functions the shared GLSL code calls, with GLSL's meaning.
inline float abs(float v) {
    return std::fabs(v);
}
inline float floor(float v) {
    return std::floor(v);
}
inline float sqrt(float v) {
    return std::sqrt(v);
}
// min and max of two floats, uints or ints (both arguments of one type, as GLSL's overloads take them).
template <typename T>
requires(std::is_same_v<T, float> || std::is_same_v<T, uint> || std::is_same_v<T, int>) inline T min(T a, T b) {
    return b < a ? b : a;
}
template <typename T>
requires(std::is_same_v<T, float> || std::is_same_v<T, uint> || std::is_same_v<T, int>) inline T max(T a, T b) {
    return a < b ? b : a;
}
inline uint floatBitsToUint(float v) {
    uint u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
}
}  // namespace sieve::gpu

#define SIEVE_NS_BEGIN namespace sieve::gpu {
#define SIEVE_NS_END }
#define SIEVE_CONST(type, name, value) inline constexpr type name = value;
#define SIEVE_FN inline       // a function both languages compile (GLSL: a plain function)
#define SIEVE_IN(T) const T&  // a parameter the function reads
#define SIEVE_OUT(T) T&       // a parameter the function writes
#else
#define SIEVE_NS_BEGIN
#define SIEVE_NS_END
#define SIEVE_CONST(type, name, value) const type name = value;
#define SIEVE_FN
#define SIEVE_IN(T) in T
#define SIEVE_OUT(T) out T
#endif
#endif
