#pragma once
// Private to the glTF loader: image bytes and their decoding. tinygltf hands every image's encoded bytes
// (data URIs, GLB buffer views) to an image-loader callback; captureImage keeps them undecoded, so that
// only images a material uses are decoded. External image files are read here (tinygltf is built with
// TINYGLTF_NO_EXTERNAL_IMAGE and keeps only their URI).
#include <cstdint>
#include <string>
#include <vector>

#include "assets/expected.h"
#include "assets/scene.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// Encoded image bytes by image index, filled by captureImage during parsing.
struct ImageBytes {
    std::vector<std::vector<uint8_t>> encoded;
};

// tinygltf::LoadImageDataFunction: stores the bytes in the ImageBytes that `user` points at.
bool captureImage(tinygltf::Image* image, const int index, std::string* err, std::string* warn, int reqWidth,
                  int reqHeight, const unsigned char* bytes, int size, void* user);

// Decodes image `index` (PNG or JPEG, from the captured bytes or from its URI relative to `baseDir`) to
// RGBA8. Errors: no data, an unreadable file, a format stb_image cannot decode, larger than 16384 on a side.
Expected<Texture> decodeImage(const tinygltf::Model& model, const ImageBytes& bytes, int index,
                              const std::string& baseDir);

}  // namespace sieve::assets::gltf
