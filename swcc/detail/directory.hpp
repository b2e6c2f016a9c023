// The per-rank directory: one open-addressing hash row per home rank, indexed by the low bits of
// the block number. Entries are 24 bytes; remote entries point at their block's data; home
// entries hold their sharer set inline (64 ranks or fewer) or point at its words (more ranks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "swcc/detail/protocol.hpp"

namespace swcc {

/// One directory entry. A home entry uses `sharers` (or `sharer_words`) and `owner`; a cached
/// entry uses `data`. Read and write a home entry's sharer set through Directory::sharers() and
/// Directory::set_sharers(), which pick the member that the rank count uses.
struct Entry {
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::uint64_t block = kEmpty;  ///< block number inside the home's segment
  union {
    std::uint64_t sharers;        ///< home, 64 ranks or fewer: bit r = rank r holds Shared (busy:
                                  ///< awaited ranks)
    std::uint64_t* sharer_words;  ///< home, more ranks: the same bits in Directory::sharer_words()
                                  ///< words, owned by the directory (they never move)
    std::uint8_t* data;           ///< cache: block_bytes of data, owned by the directory
  };
  std::int32_t owner = -1;  ///< home: Modified/busy owner
  State state = State::kInvalid;
  std::uint8_t pending = 0;  ///< cache: this node has a request outstanding for the block
  std::uint16_t pad = 0;
  constexpr Entry() : sharers(0) {}
};
static_assert(sizeof(Entry) == 24, "directory overhead per block");

/// One row: the entries of blocks homed at one rank. A row allocates its table at its first
/// insert (256 entries), so ranks that this rank never talks to cost no table.
class DirRow {
 public:
  DirRow();
  /// The entry of `block`, or null. The hit path: usually one probe.
  Entry* find(std::uint64_t block) {
    std::size_t i = block & mask_;
    for (;;) {
      Entry& e = table_[i];
      if (e.block == block) return &e;
      if (e.block == Entry::kEmpty) return nullptr;
      i = (i + 1) & mask_;
    }
  }
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  std::size_t capacity() const { return owned_ ? mask_ + 1 : 0; }
  /// Inserts a fresh entry (the block must be absent). Rehashing moves entries: pointers from
  /// find() die on insert.
  Entry& insert(std::uint64_t block);
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i <= mask_; ++i)
      if (table_[i].block != Entry::kEmpty) f(table_[i]);
  }

 private:
  void grow();
  static Entry no_entries_[1];  ///< the table of a row before its first insert: one empty slot
  Entry* table_;                ///< owned_ or no_entries_
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
  std::unique_ptr<Entry[]> owned_;
};

/// The directory of one rank: a row per home rank plus the storage of cached data and, past 64
/// ranks, of the home entries' sharer sets.
class Directory {
 public:
  Directory(int self, int nranks, std::size_t block_bytes);
  DirRow& row(int home) { return rows_[home]; }
  const DirRow& row(int home) const { return rows_[home]; }
  int self() const { return self_; }
  std::size_t block_bytes() const { return block_bytes_; }
  /// Words of a home entry's sharer set kept out of line: 0 with 64 ranks or fewer (the set is
  /// Entry::sharers), else ceil(nranks / 64) (Entry::sharer_words points at them).
  std::size_t sharer_words() const { return sharer_words_; }
  /// The sharer set of a home entry. With 64 ranks or fewer it is one inline word: no
  /// allocation.
  SharerSet sharers(const Entry& e) const {
    return sharer_words_ == 0 ? SharerSet(e.sharers)
                              : SharerSet::from_words(e.sharer_words, sharer_words_);
  }
  /// Stores `s` as the sharer set of home entry `e` (s holds ranks of this directory only).
  void set_sharers(Entry& e, const SharerSet& s) const {
    if (sharer_words_ == 0)
      s.copy_to(&e.sharers, 1);
    else
      s.copy_to(e.sharer_words, sharer_words_);
  }
  /// The entry of (home, block), created if absent: Invalid with zeroed data for a cached
  /// block, Modified by the home with no sharers for a home block. Invalidates earlier Entry
  /// pointers (the data and sharer words they point at stay put).
  Entry& lookup_or_create(int home, std::uint64_t block);
  /// Bytes of directory bookkeeping (tables), of out-of-line sharer sets and of cached data.
  std::size_t table_bytes() const;
  std::size_t sharer_bytes() const { return sharer_sets_ * sharer_words_ * 8; }
  std::size_t data_bytes() const { return data_blocks_ * block_bytes_; }
  std::size_t cached_blocks() const;
  /// One line per entry, for failure reports; a home entry lists its sharers, e.g. {3,64,70}.
  std::string dump(int home, std::uint64_t block) const;
  std::string dump_all() const;

 private:
  std::uint8_t* alloc_data();
  std::uint64_t* alloc_sharer_words();
  int self_;
  std::size_t block_bytes_;
  std::size_t sharer_words_;
  std::vector<DirRow> rows_;
  std::vector<std::unique_ptr<std::uint8_t[]>> chunks_;
  std::size_t chunk_used_ = 0;
  std::size_t data_blocks_ = 0;
  std::vector<std::unique_ptr<std::uint64_t[]>> sharer_chunks_;  ///< kChunkBlocks sets each
  std::size_t sharer_chunk_used_ = 0;
  std::size_t sharer_sets_ = 0;
  static constexpr std::size_t kChunkBlocks = 64;
};

}  // namespace swcc
