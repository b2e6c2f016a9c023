// InterleavedArray's mapping from an element index to its home and offset (swcc/swcc.hpp): block
// k at rank k mod P, as block k / P of that rank's part, without a division for k < 2^32.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swcc/swcc.hpp"

namespace swcc {

template <class T, std::size_t B>
inline InterleavedArray<T, B>::InterleavedArray(std::uint64_t offset, std::size_t count, int ranks)
    : offset_(offset),
      count_(count),
      ranks_(static_cast<std::uint64_t>(ranks)),
      magic_(ranks > 1 ? ~std::uint64_t{0} / static_cast<std::uint64_t>(ranks) + 1 : 0) {}

template <class T, std::size_t B>
inline global_ptr<T> InterleavedArray<T, B>::block(std::size_t k) const {
  const std::uint64_t q = div_ranks(k);
  return {static_cast<int>(k - q * ranks_), offset_ + q * B};
}

template <class T, std::size_t B>
inline global_ptr<T> InterleavedArray<T, B>::operator[](std::size_t i) const {
  return block(i / kPerBlock) + static_cast<std::ptrdiff_t>(i % kPerBlock);
}

template <class T, std::size_t B>
inline std::size_t InterleavedArray<T, B>::part_bytes(std::size_t count, int ranks) {
  const std::size_t blocks = (count + kPerBlock - 1) / kPerBlock;
  return (blocks + ranks - 1) / static_cast<std::size_t>(ranks) * B;
}

// k / P without a division for k < 2^32 (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", 2019: the high word of k * ceil(2^64 / P) is exact there); a division beyond.
// Every element access maps its block, and a 64-bit division costs tens of cycles.
template <class T, std::size_t B>
inline std::uint64_t InterleavedArray<T, B>::div_ranks(std::uint64_t k) const {
  if (ranks_ == 1) return k;
  if (k >> 32 == 0)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(k) * magic_) >> 64);
  return k / ranks_;
}

}  // namespace swcc
