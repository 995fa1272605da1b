// The one translation unit with stb_image's implementation, static: libstb and other users of stb keep
// their own symbols, and ours do not interpose on theirs. Compiled with -fwrapv (see assets/CMakeLists.txt).
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#include "assets/gltf_images.h"

#include <stb_image.h>

#include <algorithm>
#include <memory>

#include "assets/gltf_files.h"
#include "assets/image_checks.h"

namespace sieve::assets::gltf {
namespace {

constexpr int kMaxSide = 16384;

// glTF URIs are RFC 3986 references: %XX escapes (spaces in file names are common).
std::string percentDecode(const std::string& uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        auto hex = [](char c) {
            return c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
        };
        if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
            out.push_back(char(hex(uri[i + 1]) * 16 + hex(uri[i + 2])));
            i += 2;
        } else {
            out.push_back(uri[i]);
        }
    }
    return out;
}

// An external image file, through the loader's reader of regular files (a directory or a device is refused).
Expected<std::vector<uint8_t>> readFile(const std::string& path) {
    std::vector<unsigned char> bytes;
    std::string err;
    if (!readRegularFile(&bytes, &err, path, nullptr)) {
        while (!err.empty() && err.back() == '\n') err.pop_back();
        return Unexpected{err.empty() ? "cannot read " + path : err};
    }
    return bytes;
}

}  // namespace

uint64_t PixelBudget::left() const {
    const uint64_t total = std::min(encodedBytes_, uint64_t(1) << 40) * kPixelsPerByte + kFreePixels;
    return total > decodedPixels_ ? total - decodedPixels_ : 0;
}

bool PixelBudget::take(uint64_t pixels) {
    if (pixels > left()) return false;
    decodedPixels_ += pixels;
    return true;
}

bool captureImage(tinygltf::Image*, const int index, std::string*, std::string*, int, int, const unsigned char* bytes,
                  int size, void* user) {
    auto* store = static_cast<ImageBytes*>(user);
    if (index < 0 || size < 0) return false;
    if (store->encoded.size() <= size_t(index)) store->encoded.resize(size_t(index) + 1);
    store->encoded[size_t(index)].assign(bytes, bytes + size);
    return true;
}

Expected<Texture> decodeImage(const tinygltf::Model& model, const ImageBytes& bytes, int index,
                              const std::string& baseDir, PixelBudget& budget) {
    if (index < 0 || size_t(index) >= model.images.size())
        return Unexpected{"image " + std::to_string(index) + " does not exist"};
    const tinygltf::Image& image = model.images[size_t(index)];
    const std::string name = "image " + std::to_string(index) + (image.name.empty() ? "" : " '" + image.name + "'");
    std::vector<uint8_t> file;
    const std::vector<uint8_t>* data = size_t(index) < bytes.encoded.size() ? &bytes.encoded[size_t(index)] : nullptr;
    if ((!data || data->empty()) && !image.uri.empty()) {
        auto read = readFile((baseDir.empty() ? std::string(".") : baseDir) + "/" + percentDecode(image.uri));
        if (!read) return Unexpected{name + ": " + read.error()};
        file = std::move(read).value();
        data = &file;
        budget.addEncoded(file.size());
    }
    if (!data || data->empty()) return Unexpected{name + " has no data"};
    if (data->size() > size_t(INT32_MAX)) return Unexpected{name + " is larger than 2 GiB"};
    for (std::string e : {checkPngChunks(*data), checkJpegHuffmanTables(*data)})
        if (!e.empty()) return Unexpected{name + ": " + e};
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_memory(data->data(), int(data->size()), &w, &h, &channels))
        return Unexpected{name + ": not a PNG or JPEG image stb_image can decode (" + stbi_failure_reason() + ")"};
    if (w <= 0 || h <= 0 || w > kMaxSide || h > kMaxSide)
        return Unexpected{name + ": " + std::to_string(w) + "x" + std::to_string(h) + " is outside 1.." +
                          std::to_string(kMaxSide) + " per side"};
    if (const uint64_t left = budget.left(); !budget.take(uint64_t(w) * uint64_t(h)))
        return Unexpected{name + ": " + std::to_string(w) + "x" + std::to_string(h) +
                          " pixels are more than the file's images may decode to (" + std::to_string(left) + " left, " +
                          std::to_string(PixelBudget::kPixelsPerByte) + " per byte of image data)"};
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(data->data(), int(data->size()), &w, &h, &channels, 4), stbi_image_free);
    if (!pixels) return Unexpected{name + ": decoding failed (" + std::string(stbi_failure_reason()) + ")"};
    Texture t;
    t.width = uint32_t(w);
    t.height = uint32_t(h);
    t.rgba.assign(pixels.get(), pixels.get() + size_t(w) * size_t(h) * 4);
    t.name =
        image.name.empty() ? (image.uri.empty() || image.uri.rfind("data:", 0) == 0 ? name : image.uri) : image.name;
    return t;
}

}  // namespace sieve::assets::gltf
