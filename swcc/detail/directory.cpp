// The directory's hash rows (open addressing, linear probing, grown at 3/4 load) and the slabs
// that hold cached block data and, past 64 ranks, the home entries' sharer sets. Entries are
// never removed, so slab slots are never freed; growth copies the pointers, not what they hold.
#include "swcc/detail/directory.hpp"

#include <fmt/format.h>

#include <cstring>

namespace swcc {

constinit Entry DirRow::no_entries_[1];

DirRow::DirRow() : table_(no_entries_) {}

Entry& DirRow::insert(std::uint64_t block) {
  if ((count_ + 1) * 4 > capacity() * 3) grow();
  std::size_t i = block & mask_;
  while (table_[i].block != Entry::kEmpty) i = (i + 1) & mask_;
  table_[i] = Entry();
  table_[i].block = block;
  ++count_;
  return table_[i];
}

void DirRow::grow() {
  const std::size_t old_cap = capacity();
  const std::size_t cap = old_cap == 0 ? 256 : old_cap * 2;
  std::unique_ptr<Entry[]> old = std::move(owned_);
  owned_.reset(new Entry[cap]);
  table_ = owned_.get();
  mask_ = cap - 1;
  for (std::size_t j = 0; j < old_cap; ++j) {
    if (old[j].block == Entry::kEmpty) continue;
    std::size_t i = old[j].block & mask_;
    while (table_[i].block != Entry::kEmpty) i = (i + 1) & mask_;
    table_[i] = old[j];
  }
}

Directory::Directory(int self, int nranks, std::size_t block_bytes)
    : self_(self),
      block_bytes_(block_bytes),
      sharer_words_(nranks <= 64 ? 0 : SharerSet::words_for(nranks)),
      rows_(nranks) {}

std::uint8_t* Directory::alloc_data() {
  if (chunks_.empty() || chunk_used_ == kChunkBlocks) {
    chunks_.emplace_back(new std::uint8_t[kChunkBlocks * block_bytes_]);
    chunk_used_ = 0;
  }
  ++data_blocks_;
  std::uint8_t* p = chunks_.back().get() + chunk_used_++ * block_bytes_;
  std::memset(p, 0, block_bytes_);
  return p;
}

std::uint64_t* Directory::alloc_sharer_words() {
  if (sharer_chunks_.empty() || sharer_chunk_used_ == kChunkBlocks) {
    sharer_chunks_.emplace_back(new std::uint64_t[kChunkBlocks * sharer_words_]());  // zeroed
    sharer_chunk_used_ = 0;
  }
  ++sharer_sets_;
  return sharer_chunks_.back().get() + sharer_chunk_used_++ * sharer_words_;
}

Entry& Directory::lookup_or_create(int home, std::uint64_t block) {
  DirRow& r = rows_[home];
  if (Entry* e = r.find(block)) return *e;
  std::uint8_t* data = home == self_ ? nullptr : alloc_data();
  std::uint64_t* words = home == self_ && sharer_words_ != 0 ? alloc_sharer_words() : nullptr;
  Entry& e = r.insert(block);
  if (home == self_) {
    e.state = State::kModified;
    e.owner = self_;
    if (words)
      e.sharer_words = words;  // fresh words are zero: no sharers
    else
      e.sharers = 0;
  } else {
    e.state = State::kInvalid;
    e.data = data;
  }
  return e;
}

std::size_t Directory::table_bytes() const {
  std::size_t b = 0;
  for (const DirRow& r : rows_) b += r.capacity() * sizeof(Entry);
  return b;
}

std::size_t Directory::cached_blocks() const {
  std::size_t n = 0;
  for (const DirRow& r : rows_) n += r.size();
  return n;
}

std::string Directory::dump(int home, std::uint64_t block) const {
  DirRow& r = const_cast<DirRow&>(rows_[home]);
  const Entry* e = r.find(block);
  if (!e) return fmt::format("rank {} block {}:{} no entry", self_, home, block);
  if (home == self_)
    return fmt::format("rank {} home block {}: {} owner={} sharers={}", self_, block,
                       state_name(e->state), e->owner, sharers(*e).to_string());
  return fmt::format("rank {} cached block {}:{}: {} pending={}", self_, home, block,
                     state_name(e->state), int(e->pending));
}

std::string Directory::dump_all() const {
  std::string s;
  for (int h = 0; h < static_cast<int>(rows_.size()); ++h)
    rows_[h].for_each([&](const Entry& e) { s += dump(h, e.block) + "\n"; });
  return s;
}

}  // namespace swcc
