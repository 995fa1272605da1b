#include "assets/gltf_files.h"

#include <filesystem>

#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

bool readRegularFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::is_regular_file(status)) {
        if (err)
            *err += "external file '" + path + "' " +
                    (std::filesystem::exists(status) ? "is not a regular file\n" : "does not exist\n");
        return false;
    }
    return tinygltf::ReadWholeFile(out, err, path, user);
}

}  // namespace sieve::assets::gltf
