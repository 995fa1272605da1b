#pragma once
// Private to assets/: every translation unit that includes tiny_gltf.h does so through this header so
// the configuration macros agree (tinygltf's class layout depends on them). No image decoding or
// writing: Sieve draws untextured geometry, and the engine may own the stb implementations.
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
