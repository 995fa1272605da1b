// loadGltf on paths that are not glTF files at all: a clean error naming the path, never an exception
// or a hang.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "assets/gltf_loader.h"

namespace {
std::filesystem::path scratchDir() {
    auto dir = std::filesystem::temp_directory_path() / ("sieve_reliability_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}
}  // namespace

TEST(GltfPaths, ADirectoryIsRefusedWithAMessage) {
    const auto dir = scratchDir() / "scene.gltf";
    std::filesystem::create_directories(dir);
    auto r = sieve::assets::loadGltf(dir.string());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), dir.string() + ": not a regular file (a directory)");
    std::filesystem::remove_all(dir.parent_path());
}

TEST(GltfPaths, AFifoIsRefusedWithoutBlocking) {
    const auto fifo = scratchDir() / "scene.glb";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto r = sieve::assets::loadGltf(fifo.string());  // opening it for reading would block forever
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), fifo.string() + ": not a regular file");
    std::filesystem::remove_all(fifo.parent_path());
}

TEST(GltfPaths, AMissingFileAndADeviceAreRefused) {
    auto missing = sieve::assets::loadGltf("/nonexistent/dir/scene.gltf");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error(), "/nonexistent/dir/scene.gltf: cannot open file");
    auto device = sieve::assets::loadGltf("/dev/null");
    ASSERT_FALSE(device);
    EXPECT_EQ(device.error(), "/dev/null: not a regular file");
}
