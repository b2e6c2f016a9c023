// The out-of-line parts of SharerSet: growth to the heap, copies of heap sets, comparison
// across representations, printing.
#include "swcc/detail/sharer_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <stdexcept>

namespace swcc {

SharerSet SharerSet::of(std::initializer_list<int> ranks) {
  SharerSet s;
  for (int r : ranks) s.insert(r);
  return s;
}

SharerSet SharerSet::from_words(const std::uint64_t* words, std::size_t n) {
  SharerSet s;
  if (n <= 1) {
    s.inline_ = n == 1 ? words[0] : 0;
    return s;
  }
  if (n > words_for(kMaxRanks))
    throw std::out_of_range(fmt::format("swcc: a sharer set of {} words", n));
  s.heap_ = new std::uint64_t[n];
  s.n_ = static_cast<std::uint32_t>(n);
  std::copy(words, words + n, s.heap_);
  return s;
}

void SharerSet::insert_slow(int r) {
  if (r < 0 || r >= kMaxRanks)
    throw std::out_of_range(
        fmt::format("swcc: rank {} outside a sharer set (0..{})", r, kMaxRanks - 1));
  const std::size_t need = static_cast<std::size_t>(r) / 64 + 1;
  if (need > words()) {  // grow: the old words, then zeros
    auto* w = new std::uint64_t[need]();
    std::copy(data(), data() + words(), w);
    release();
    heap_ = w;
    n_ = static_cast<std::uint32_t>(need);
  }
  mutable_data()[r / 64] |= std::uint64_t{1} << (r % 64);
}

void SharerSet::copy_heap(const SharerSet& o) {
  heap_ = new std::uint64_t[o.n_];
  std::copy(o.heap_, o.heap_ + o.n_, heap_);
}

bool SharerSet::equal_slow(const SharerSet& o) const {
  const std::uint64_t *a = data(), *b = o.data();
  const std::size_t na = words(), nb = o.words(), common = std::min(na, nb);
  if (!std::equal(a, a + common, b)) return false;
  return std::all_of(a + common, a + na, [](std::uint64_t w) { return w == 0; }) &&
         std::all_of(b + common, b + nb, [](std::uint64_t w) { return w == 0; });
}

void SharerSet::copy_to_slow(std::uint64_t* words, std::size_t n) const {
  const std::uint64_t* w = data();
  const std::size_t have = this->words(), common = std::min(have, n);
  for (std::size_t i = common; i < have; ++i)
    if (w[i] != 0)
      throw std::out_of_range(
          fmt::format("swcc: sharer set {} does not fit {} ranks", to_string(), 64 * n));
  std::copy(w, w + common, words);
  std::fill(words + common, words + n, std::uint64_t{0});
}

std::string SharerSet::to_string() const {
  std::string s = "{";
  for (int r : *this) {
    if (s.size() > 1) s += ',';
    s += std::to_string(r);
  }
  return s + "}";
}

std::ostream& operator<<(std::ostream& os, const SharerSet& s) { return os << s.to_string(); }

}  // namespace swcc
