// The per-rank directory: one open-addressing hash row per home rank, indexed by the low bits of
// the block number. Entries are 24 bytes; remote entries point at their block's data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comops/swcc/protocol.hpp"

namespace comops::swcc {

/// One directory entry. A home entry uses `sharers`/`owner`; a cached entry uses `data`.
struct Entry {
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::uint64_t block = kEmpty;  ///< block number inside the home's segment
  union {
    std::uint64_t sharers;  ///< home: bit r = rank r holds Shared (busy: awaited ranks)
    std::uint8_t* data;     ///< cache: block_bytes of data, owned by the directory
  };
  std::int32_t owner = -1;  ///< home: Modified/busy owner
  State state = State::kInvalid;
  std::uint8_t pending = 0;  ///< cache: this node has a request outstanding for the block
  std::uint16_t pad = 0;
  Entry() : sharers(0) {}
};
static_assert(sizeof(Entry) == 24, "directory overhead per block");

/// One row: the entries of blocks homed at one rank.
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
  std::size_t capacity() const { return mask_ + 1; }
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
  std::unique_ptr<Entry[]> table_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

/// The directory of one rank: a row per home rank plus the storage of cached data.
class Directory {
 public:
  Directory(int self, int nranks, std::size_t block_bytes);
  DirRow& row(int home) { return rows_[home]; }
  const DirRow& row(int home) const { return rows_[home]; }
  int self() const { return self_; }
  std::size_t block_bytes() const { return block_bytes_; }
  /// The entry of (home, block), created if absent: Invalid with zeroed data for a cached
  /// block, Modified by the home for a home block. Invalidates earlier Entry pointers.
  Entry& lookup_or_create(int home, std::uint64_t block);
  /// Bytes of directory bookkeeping (tables) and of cached data.
  std::size_t table_bytes() const;
  std::size_t data_bytes() const { return data_blocks_ * block_bytes_; }
  std::size_t cached_blocks() const;
  /// One line per entry, for failure reports.
  std::string dump(int home, std::uint64_t block) const;
  std::string dump_all() const;

 private:
  std::uint8_t* alloc_data();
  int self_;
  std::size_t block_bytes_;
  std::vector<DirRow> rows_;
  std::vector<std::unique_ptr<std::uint8_t[]>> chunks_;
  std::size_t chunk_used_ = 0;
  std::size_t data_blocks_ = 0;
  static constexpr std::size_t kChunkBlocks = 64;
};

}  // namespace comops::swcc
