// The reduction that swcc reduce and allreduce share, a shared-memory program on the DSM: the
// root seeds a shared vector in its own memory, DSM barrier, every other rank folds its vector
// in under a DSM lock, DSM barrier.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "comops/op.hpp"
#include "swcc/swcc.hpp"

namespace comops::swcc {

/// Collective: reduces every rank's send (n elements) into acc, a vector in root's memory, with
/// max (max = true) or sum; tmp is n elements of scratch. Returns after the DSM barrier that
/// ends the fold, when acc holds the result on every rank's view.
template <std::size_t B>
void fold_into(Dsm<B>& d, global_ptr<Elem> acc, int root, const Elem* send, std::size_t n, bool max,
               std::vector<Elem>& tmp) {
  if (d.rank() == root) d.write_bulk(acc, send, n);
  d.barrier();
  if (d.rank() != root) {
    d.lock(0);
    d.read_bulk(tmp.data(), acc, n);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = max ? std::max(tmp[i], send[i]) : tmp[i] + send[i];
    d.write_bulk(acc, tmp.data(), n);
    d.unlock(0);
  }
  d.barrier();
}

}  // namespace comops::swcc
