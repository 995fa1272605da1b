#include <gtest/gtest.h>

#include "sieve/spirv.h"

TEST(EmbeddedSpirv, ShadersAreEmbeddedAndStartWithTheMagicNumber) {
    auto words = sieve::embeddedSpirv("test/fill.comp");
    ASSERT_GT(words.size(), 5u);
    EXPECT_EQ(words[0], 0x07230203u);
    EXPECT_TRUE(sieve::embeddedSpirv("does/not/exist.comp").empty());
}
