// The block-size table and its one dispatch: every size reaches its own compiled constant, any
// other size is a ConfigError naming the table.
#include "swcc/block_sizes.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace swcc {
namespace {

TEST(SwccBlockSizes, TableAndDefault) {
  EXPECT_EQ(std::vector<std::size_t>(kBlockSizes.begin(), kBlockSizes.end()),
            (std::vector<std::size_t>{8, 64, 256, 1024, 4096}));
  EXPECT_EQ(kDefaultBlockBytes, 64u);
  EXPECT_TRUE(valid_block_bytes(kDefaultBlockBytes));
  EXPECT_EQ(block_sizes_text(), "8, 64, 256, 1024, 4096");
  EXPECT_EQ(block_sizes_text(","), "8,64,256,1024,4096");
}

TEST(SwccBlockSizes, ValidOnlyForTheTable) {
  for (std::size_t b : kBlockSizes) EXPECT_TRUE(valid_block_bytes(b)) << b;
  for (std::size_t b : {0, 1, 4, 16, 32, 63, 65, 128, 512, 2048, 8192})
    EXPECT_FALSE(valid_block_bytes(b)) << b;
}

TEST(SwccBlockSizes, DispatchReachesEachCompiledSize) {
  for (std::size_t b : kBlockSizes) {
    const std::size_t compiled = with_block_size(b, [](auto B) { return decltype(B)::value; });
    EXPECT_EQ(compiled, b);
  }
}

TEST(SwccBlockSizes, DispatchRefusesOtherSizes) {
  for (std::size_t b : {0, 3, 128, 8192}) {
    int called = 0;
    try {
      with_block_size(b, [&](auto) { ++called; });
      ADD_FAILURE() << b << " was dispatched";
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()),
                "swcc: block size " + std::to_string(b) + " not one of 8, 64, 256, 1024, 4096");
    }
    EXPECT_EQ(called, 0);
  }
}

}  // namespace
}  // namespace swcc
