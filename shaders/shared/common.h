#ifndef SIEVE_SHARED_COMMON_H
#define SIEVE_SHARED_COMMON_H
// Included by GLSL and C++. Wrap shared declarations in SIEVE_NS_BEGIN / SIEVE_NS_END; in C++ they live
// in namespace sieve::gpu with glm's vector types, so layouts cannot drift between the two languages.
#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
#define SIEVE_NS_BEGIN \
    namespace sieve::gpu { \
    using uint = uint32_t; \
    using glm::mat4; using glm::vec2; using glm::vec3; using glm::vec4; using glm::uvec2; using glm::uvec4;
#define SIEVE_NS_END }
#define SIEVE_CONST(type, name, value) inline constexpr type name = value;
#else
#define SIEVE_NS_BEGIN
#define SIEVE_NS_END
#define SIEVE_CONST(type, name, value) const type name = value;
#endif
#endif
