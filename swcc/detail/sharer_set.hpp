// The set of ranks holding Shared copies of a block (or, while a write waits for its acks, the
// ranks still to acknowledge): a bitset, bit r = rank r. Ranks 0..63 fit one word kept inline,
// so with 64 ranks or fewer a set never allocates and copies as one word; a rank of 64 or more
// moves the set to a heap array of 64-bit words (up to kMaxRanks ranks).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>

namespace swcc {

class SharerSet {
 public:
  /// Ranks a set can hold: 0..kMaxRanks-1 (Engine::key keeps a home rank in 16 bits).
  static constexpr int kMaxRanks = 65535;
  /// 64-bit words needed for ranks 0..nranks-1.
  static constexpr std::size_t words_for(int nranks) {
    return nranks <= 64 ? 1 : (static_cast<std::size_t>(nranks) + 63) / 64;
  }

  SharerSet() noexcept = default;
  /// Ranks 0..63 given as a mask, bit r = rank r (implicit: `0` is the empty set, and a mask
  /// reads as the protocol's old 64-bit sharer sets did). Never allocates.
  SharerSet(std::uint64_t mask) noexcept : inline_(mask) {}
  /// The set of the ranks listed, e.g. SharerSet::of({3, 64, 70, 99}).
  static SharerSet of(std::initializer_list<int> ranks);
  /// The ranks of words[0..n): bit r of words[r / 64] = rank r.
  static SharerSet from_words(const std::uint64_t* words, std::size_t n);

  SharerSet(const SharerSet& o) : n_(o.n_) {
    if (n_ == 0)
      inline_ = o.inline_;
    else
      copy_heap(o);
  }
  SharerSet(SharerSet&& o) noexcept { take(o); }
  SharerSet& operator=(const SharerSet& o) {
    if (this != &o) {
      if (n_ == 0 && o.n_ == 0)
        inline_ = o.inline_;
      else
        *this = SharerSet(o);
    }
    return *this;
  }
  SharerSet& operator=(SharerSet&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SharerSet() { release(); }

  /// Adds rank r (0 <= r < kMaxRanks; throws std::out_of_range otherwise).
  void insert(int r) {
    if (n_ == 0 && static_cast<unsigned>(r) < 64)
      inline_ |= std::uint64_t{1} << r;
    else
      insert_slow(r);
  }
  void erase(int r) {
    if (n_ == 0) {
      if (static_cast<unsigned>(r) < 64) inline_ &= ~(std::uint64_t{1} << r);
    } else if (static_cast<unsigned>(r) < 64 * n_) {
      heap_[r / 64] &= ~(std::uint64_t{1} << (r % 64));
    }
  }
  bool contains(int r) const {
    if (n_ == 0) return static_cast<unsigned>(r) < 64 && ((inline_ >> r) & 1) != 0;
    return static_cast<unsigned>(r) < 64 * n_ && ((heap_[r / 64] >> (r % 64)) & 1) != 0;
  }
  bool empty() const {
    if (n_ == 0) return inline_ == 0;
    for (std::uint32_t i = 0; i < n_; ++i)
      if (heap_[i] != 0) return false;
    return true;
  }
  int count() const {
    if (n_ == 0) return std::popcount(inline_);
    int c = 0;
    for (std::uint32_t i = 0; i < n_; ++i) c += std::popcount(heap_[i]);
    return c;
  }
  /// Same members, whatever the representation (inline or heap, and however many words).
  bool operator==(const SharerSet& o) const {
    if (n_ == 0 && o.n_ == 0) return inline_ == o.inline_;
    return equal_slow(o);
  }

  /// The words of the representation: words() of them, 1 while inline. Bits past the last
  /// word are empty.
  std::size_t words() const { return n_ == 0 ? 1 : n_; }
  const std::uint64_t* data() const { return n_ == 0 ? &inline_ : heap_; }
  bool is_inline() const { return n_ == 0; }
  /// Writes the set into out[0..n) (the rest of them zeroed). Throws std::out_of_range when a
  /// member is 64 * n or more.
  void copy_to(std::uint64_t* out, std::size_t n) const {
    if (n_ == 0 && n == 1)
      out[0] = inline_;
    else
      copy_to_slow(out, n);
  }
  /// "{3,64,70,99}"; "{}" when empty.
  std::string to_string() const;

  /// The members in increasing order.
  class const_iterator {
   public:
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    const_iterator(const std::uint64_t* w, std::uint32_t n, std::uint32_t i)
        : w_(w), n_(n), i_(i), cur_(i < n ? w[i] : 0) {
      skip();
    }
    int operator*() const { return static_cast<int>(i_ * 64 + std::countr_zero(cur_)); }
    const_iterator& operator++() {
      cur_ &= cur_ - 1;
      skip();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator t = *this;
      ++*this;
      return t;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_ && cur_ == o.cur_; }

   private:
    void skip() {
      while (cur_ == 0 && i_ < n_)
        if (++i_ < n_) cur_ = w_[i_];
    }
    const std::uint64_t* w_ = nullptr;
    std::uint32_t n_ = 0, i_ = 0;
    std::uint64_t cur_ = 0;
  };
  const_iterator begin() const { return {data(), static_cast<std::uint32_t>(words()), 0}; }
  const_iterator end() const {
    const auto n = static_cast<std::uint32_t>(words());
    return {data(), n, n};
  }

 private:
  std::uint64_t* mutable_data() { return n_ == 0 ? &inline_ : heap_; }
  void release() {
    if (n_ != 0) delete[] heap_;
  }
  /// Takes o's words (this holds none); o is left the empty inline set.
  void take(SharerSet& o) noexcept {
    n_ = o.n_;
    if (n_ == 0) {
      inline_ = o.inline_;
    } else {
      heap_ = o.heap_;
      o.n_ = 0;
      o.inline_ = 0;
    }
  }
  void insert_slow(int r);
  void copy_heap(const SharerSet& o);
  bool equal_slow(const SharerSet& o) const;
  void copy_to_slow(std::uint64_t* out, std::size_t n) const;

  union {
    std::uint64_t inline_ = 0;  ///< n_ == 0: ranks 0..63
    std::uint64_t* heap_;       ///< n_ > 0: n_ words, owned
  };
  std::uint32_t n_ = 0;  ///< heap words; 0 = inline
};

/// Prints to_string() (test failure messages).
std::ostream& operator<<(std::ostream& os, const SharerSet& s);

}  // namespace swcc
