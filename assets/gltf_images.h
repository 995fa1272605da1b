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
    uint64_t fileBytes = 0;  // the size of the glTF or GLB file itself (PixelBudget's start)
};

// How many pixels one file's images may decode to, so that a small file cannot decode to gigabytes: a JPEG
// header of 200 bytes can declare 16384 x 16384 pixels, and stb_image decodes missing entropy data as zeros
// (found while adding image seeds for the fuzzer: a 2.6 KB GLB ran into its 10 s timeout at 1.4 GB). kPixelsPerByte pixels per
// byte of encoded data (the file's and the external image files' it reads) and kFreePixels more; real
// textures need far fewer (a flat 4096 x 4096 PNG is ~260 pixels per byte, a photo under 10).
class PixelBudget {
public:
    static constexpr uint64_t kPixelsPerByte = 1024;
    static constexpr uint64_t kFreePixels = uint64_t(1) << 22;

    explicit PixelBudget(uint64_t fileBytes) : encodedBytes_(fileBytes) {}
    void addEncoded(uint64_t bytes) { encodedBytes_ += bytes; }
    // Takes `pixels` from the budget; false (nothing taken) when they do not fit.
    bool take(uint64_t pixels);
    uint64_t left() const;

private:
    uint64_t encodedBytes_;
    uint64_t decodedPixels_ = 0;
};

// tinygltf::LoadImageDataFunction: stores the bytes in the ImageBytes that `user` points at.
bool captureImage(tinygltf::Image* image, const int index, std::string* err, std::string* warn, int reqWidth,
                  int reqHeight, const unsigned char* bytes, int size, void* user);

// Decodes image `index` (PNG or JPEG, from the captured bytes or from its URI relative to `baseDir`) to
// RGBA8, taking its pixels from `budget`. Errors: no data, an unreadable file, a format stb_image cannot
// decode, larger than 16384 on a side, more pixels than the budget has left.
Expected<Texture> decodeImage(const tinygltf::Model& model, const ImageBytes& bytes, int index,
                              const std::string& baseDir, PixelBudget& budget);

}  // namespace sieve::assets::gltf
