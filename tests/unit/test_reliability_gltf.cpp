// loadGltf on paths that are not glTF files at all: a clean error naming the path, never an exception
// or a hang.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "assets/gltf_loader.h"
#include "scratch_dir.h"

TEST(GltfPaths, ADirectoryIsRefusedWithAMessage) {
    const sieve::test::ScratchDir scratch("sieve_reliability");
    const auto dir = scratch / "scene.gltf";
    std::filesystem::create_directories(dir);
    auto r = sieve::assets::loadGltf(dir.string());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), dir.string() + ": not a regular file (a directory)");
}

TEST(GltfPaths, AFifoIsRefusedWithoutBlocking) {
    const sieve::test::ScratchDir scratch("sieve_reliability");
    const auto fifo = scratch / "scene.glb";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto r = sieve::assets::loadGltf(fifo.string());  // opening it for reading would block forever
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), fifo.string() + ": not a regular file");
}

TEST(GltfPaths, AMissingFileAndADeviceAreRefused) {
    auto missing = sieve::assets::loadGltf("/nonexistent/dir/scene.gltf");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error(), "/nonexistent/dir/scene.gltf: cannot open file");
    auto device = sieve::assets::loadGltf("/dev/null");
    ASSERT_FALSE(device);
    EXPECT_EQ(device.error(), "/dev/null: not a regular file");
}
