// The pointer and request checks of swcc/detail/bounds.hpp, without MPI: the edges of a segment
// and a block, overflow, and the exact texts of AccessError and ProtocolError.
#include "swcc/detail/bounds.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "swcc/detail/protocol.hpp"
#include "swcc/errors.hpp"
#include "tests/swcc/thrown.hpp"

namespace swcc {
namespace {

constexpr std::uint64_t kMax = ~std::uint64_t{0};

TEST(SwccBounds, InsideSegmentAtTheEdgesAndOnOverflow) {
  EXPECT_TRUE(inside_segment(0, 1024, 1024));
  EXPECT_TRUE(inside_segment(1016, 8, 1024));
  EXPECT_TRUE(inside_segment(1024, 0, 1024));
  EXPECT_FALSE(inside_segment(1017, 8, 1024));
  EXPECT_FALSE(inside_segment(1024, 1, 1024));
  EXPECT_FALSE(inside_segment(0, 1025, 1024));
  EXPECT_FALSE(inside_segment(kMax - 3, 8, 1024));  // off + bytes wraps round
  EXPECT_FALSE(inside_segment(8, kMax, 1024));
}

TEST(SwccBounds, CrossesBlockAtTheEdges) {
  EXPECT_FALSE(crosses_block(56, 8, 64));
  EXPECT_TRUE(crosses_block(57, 8, 64));
  EXPECT_TRUE(crosses_block(48, 24, 64));  // the element 2 of a 24-byte struct
  EXPECT_FALSE(crosses_block(64, 64, 64));
  EXPECT_TRUE(crosses_block(0, 16, 8));  // larger than the block
}

TEST(SwccBounds, PointerErrorsNameThePointerTheBytesAndTheSegment) {
  EXPECT_EQ(thrown<AccessError>([] { check_pointer("read", 0, 2, 1, 64 << 20, 8, 1 << 20); }),
            "swcc rank 0: read of 8 bytes at (1, 67108864) is outside rank 1's segment of "
            "1048576 bytes");
  EXPECT_EQ(thrown<AccessError>([] { check_pointer("get", 1, 3, 3, 0, 16, 1 << 20); }),
            "swcc rank 1: get of 16 bytes at (3, 0): no rank 3 (ranks 0..2)");
  EXPECT_EQ(thrown<AccessError>([] { check_pointer("put", 1, 3, -1, 0, 16, 1 << 20); }),
            "swcc rank 1: put of 16 bytes at (-1, 0): no rank -1 (ranks 0..2)");
  EXPECT_EQ(thrown<AccessError>([] { check_pointer("read", 0, 2, 1, (1 << 20) - 8, 8, 1 << 20); }),
            "(nothing thrown)");
  EXPECT_EQ(thrown<AccessError>([] { check_local_pointer("local", 0, 2, 1, 128, 8, 1 << 20); }),
            "swcc rank 0: local of 8 bytes at (1, 128): not this rank's memory (use read or get)");
  EXPECT_EQ(thrown<AccessError>([] { check_one_block("write", 0, 1, 60, 8, 64); }),
            "swcc rank 0: write of 8 bytes at (1, 60) crosses a 64-byte block (use get or put)");
  EXPECT_EQ(thrown<AccessError>([] { check_one_block("write", 0, 1, 56, 8, 64); }),
            "(nothing thrown)");
}

// What the home's handlers check before they copy: a corrupt request is a ProtocolError.
TEST(SwccBounds, AHomeRefusesARequestOutsideItsSegment) {
  EXPECT_EQ(
      thrown<ProtocolError>([] { check_home_request("ScWrite", 0, 1, 1 << 20, 8, 1 << 20); }),
      "swcc rank 0: ScWrite from rank 1 names 8 bytes at offset 1048576, outside the segment of "
      "1048576 bytes");
  EXPECT_EQ(thrown<ProtocolError>([] { check_home_request("StoreReq", 0, 1, 60, 8, 64); }),
            "swcc rank 0: StoreReq from rank 1 names 8 bytes at offset 60, outside the segment "
            "of 64 bytes");
  EXPECT_EQ(thrown<ProtocolError>([] { check_home_request("ReadReq", 0, 1, 0, 64, 64); }),
            "(nothing thrown)");
  // A block number past the segment, however large (it would wrap round when shifted to bytes).
  EXPECT_EQ(thrown<ProtocolError>([] { check_home_block("WriteReq", 1, 0, 16384, 16384); }),
            "swcc rank 1: WriteReq from rank 0 names block 16384, beyond the segment's 16384 "
            "blocks");
  EXPECT_EQ(thrown<ProtocolError>(
                [] { check_home_block("ReadReq", 1, 0, (std::uint64_t{1} << 60) + 3, 16384); }),
            "swcc rank 1: ReadReq from rank 0 names block 1152921504606846979, beyond the "
            "segment's 16384 blocks");
  EXPECT_EQ(thrown<ProtocolError>([] { check_home_block("ReadReq", 1, 0, 16383, 16384); }),
            "(nothing thrown)");
}

}  // namespace
}  // namespace swcc
