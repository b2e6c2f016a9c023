// Parsing message sizes ("8", "1K", "800K", "2M"; K/M/G = 1024) and building size sweeps.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace comops {

/// Parses one size in bytes; K, M, G (either case, optional trailing B) multiply by 1024^n.
/// Throws UsageError with the offending text on anything else, zero, or overflow.
std::size_t parse_size(const std::string& text);

/// Formats bytes with the largest exact suffix: 8 -> "8", 1024 -> "1K", 819200 -> "800K".
std::string format_size(std::size_t bytes);

/// min, min*factor, ... up to max (inclusive when reached); max is appended if the steps skip it.
/// Throws UsageError when min > max or factor < 2.
std::vector<std::size_t> geometric_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                         std::size_t factor);

/// Checks that every size is a multiple of the 8-byte element (throws UsageError naming it).
void check_element_multiple(const std::vector<std::size_t>& sizes);

}  // namespace comops
