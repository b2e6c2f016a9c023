// Unit tests of size parsing, formatting and geometric size sweeps (harness/util/sizes.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/util/sizes.hpp"

namespace comops {
namespace {

// Expects parse_size(text) to throw UsageError whose message names the text and contains `why`.
void expect_bad_size(const std::string& text, const std::string& why) {
  try {
    const auto v = parse_size(text);
    ADD_FAILURE() << "parse_size('" << text << "') returned " << v << " instead of throwing";
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'" + text + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(why), std::string::npos) << msg;
  }
}

TEST(ParseSize, PlainAndSuffixed) {
  EXPECT_EQ(parse_size("8"), 8u);
  EXPECT_EQ(parse_size("1K"), 1024u);
  EXPECT_EQ(parse_size("800K"), 819200u);
  EXPECT_EQ(parse_size("2M"), 2u * 1024 * 1024);
  EXPECT_EQ(parse_size("1G"), 1024u * 1024 * 1024);
  EXPECT_EQ(parse_size("1kb"), 1024u);
  EXPECT_EQ(parse_size("8B"), 8u);
  EXPECT_EQ(parse_size("8b"), 8u);
  EXPECT_EQ(parse_size("4m"), 4u << 20);
  EXPECT_EQ(parse_size("3g"), std::size_t{3} << 30);
  EXPECT_EQ(parse_size("16MB"), 16u << 20);
}

TEST(ParseSize, RejectsBadText) {
  expect_bad_size("", "expected a number of bytes");
  expect_bad_size("abc", "expected a number of bytes");
  expect_bad_size("0", "must be at least 1 byte");
  expect_bad_size("0K", "must be at least 1 byte");
  expect_bad_size("12Q", "expected a number of bytes");
  expect_bad_size("1KX", "unexpected characters after the unit");
  expect_bad_size("1KBB", "unexpected characters after the unit");
  expect_bad_size("8BK", "unexpected characters after the unit");
  expect_bad_size("-8", "expected a number of bytes");
  expect_bad_size(" 8", "expected a number of bytes");
  expect_bad_size("99999999999999999999", "too large");
  expect_bad_size("17179869184G", "too large");  // 2^34 G = 2^64 bytes
}

TEST(FormatSize, LargestExactSuffix) {
  EXPECT_EQ(format_size(8), "8");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(1024), "1K");
  EXPECT_EQ(format_size(1536), "1536");
  EXPECT_EQ(format_size(819200), "800K");
  EXPECT_EQ(format_size(8u << 20), "8M");
  EXPECT_EQ(format_size(std::size_t{1} << 30), "1G");
  EXPECT_EQ(format_size(std::size_t{2048} << 30), "2048G");
  EXPECT_EQ(format_size(0), "0");
}

TEST(FormatSize, RoundTripsThroughParseSize) {
  for (std::size_t bytes : std::vector<std::size_t>{1, 8, 24, 1000, 1024, 1032, 4096, 819200,
                                                    1u << 20, 3u << 20, std::size_t{5} << 30}) {
    EXPECT_EQ(parse_size(format_size(bytes)), bytes) << format_size(bytes);
  }
  for (const std::string text : {"8", "1K", "800K", "2M", "1G", "12K"})
    EXPECT_EQ(format_size(parse_size(text)), text);
}

TEST(GeometricSizes, PowersOfTwoFrom8To8M) {
  const auto sizes = geometric_sizes(8, 8u << 20, 2);
  ASSERT_EQ(sizes.size(), 21u);
  for (std::size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(sizes[i], std::size_t{8} << i);
  EXPECT_EQ(sizes.front(), 8u);
  EXPECT_EQ(sizes.back(), 8388608u);
}

TEST(GeometricSizes, AppendsMaxWhenStepsSkipIt) {
  EXPECT_EQ(geometric_sizes(8, 100, 3), (std::vector<std::size_t>{8, 24, 72, 100}));
  EXPECT_EQ(geometric_sizes(64, 1024, 4), (std::vector<std::size_t>{64, 256, 1024}));
  EXPECT_EQ(geometric_sizes(8, 8, 2), (std::vector<std::size_t>{8}));
  EXPECT_EQ(geometric_sizes(8, 9, 2), (std::vector<std::size_t>{8, 9}));
}

TEST(GeometricSizes, NoOverflowNearTheTop) {
  const std::size_t top = ~std::size_t{0};
  const auto sizes = geometric_sizes(top / 2 + 1, top, 2);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{top / 2 + 1, top}));
}

TEST(GeometricSizes, RejectsMinAboveMaxAndSmallFactor) {
  try {
    geometric_sizes(1024, 8, 2);
    ADD_FAILURE() << "min > max did not throw";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--min-bytes 1K is larger than --max-bytes 8");
  }
  try {
    geometric_sizes(8, 1024, 1);
    ADD_FAILURE() << "factor 1 did not throw";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--step-factor 1 must be at least 2");
  }
  EXPECT_THROW(geometric_sizes(8, 1024, 0), UsageError);
}

TEST(CheckElementMultiple, AcceptsMultiplesOf8) {
  EXPECT_NO_THROW(check_element_multiple({8, 16, 1024, 819200}));
  EXPECT_NO_THROW(check_element_multiple({}));
}

TEST(CheckElementMultiple, NamesTheOffendingSize) {
  try {
    check_element_multiple({8, 12, 16});
    ADD_FAILURE() << "12 did not throw";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "size 12 is not a multiple of 8 bytes (every op moves 8-byte integers)");
  }
  EXPECT_THROW(check_element_multiple({1}), UsageError);
  EXPECT_THROW(check_element_multiple({100}), UsageError);
}

}  // namespace
}  // namespace comops
