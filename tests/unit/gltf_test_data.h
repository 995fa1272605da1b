#pragma once
// The glTF files of tests/data/gltf/ (scripts/make_gltf_test_data.py) for the unit tests.
#include <gtest/gtest.h>

#include <filesystem>

#include "assets/gltf_loader.h"

namespace sieve::test {

inline const std::filesystem::path kGltfData =
    std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "gltf";

// Loads tests/data/gltf/<file>; a failure is a test failure and gives an empty scene.
inline assets::SceneData loadGltfData(const char* file) {
    auto r = assets::loadGltf((kGltfData / file).string());
    EXPECT_TRUE(r) << r.error();
    return r ? std::move(r).value() : assets::SceneData{};
}

}  // namespace sieve::test
