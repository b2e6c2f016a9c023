// The one-sided ops (put, get and their fence and window variants) as every backend reads them
// from the op's key: direction, synchronisation, window, and the window's distinct slots.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "comops/op.hpp"

namespace comops {

/// Operations per call of a windowed one-sided op (put-bw, ...): osu_put_bw's default window.
inline constexpr int kRmaWindow = 64;

/// Most bytes the distinct slots of one window may take on each side: a window's operation j
/// writes (reads) slot j % slots, so large sizes reuse slots instead of taking 64 x size.
inline constexpr std::size_t kRmaWindowBytes = std::size_t{64} << 20;

/// How a one-sided op moves data: participant 0 (the origin) writes into (put) or reads from
/// (get) participant 1's exposed buffer; the others idle.
struct RmaShape {
  bool put = true;     ///< put: origin's send -> target's recv; get: target's send -> origin's recv
  bool fence = false;  ///< active target: each call is one epoch both sides open and close
                       ///< (MPI_Win_fence); false: passive target, the origin alone completes
                       ///< each call (MPI_Win_lock once, MPI_Win_flush per call)
  int window = 1;      ///< operations per call, completed together
  std::size_t slots = 1;  ///< distinct blocks of the exposed and the origin's buffer
};

/// True for the one-sided ops.
inline bool is_rma(OpKind kind) {
  switch (kind) {
    case OpKind::kPut:
    case OpKind::kGet:
    case OpKind::kPutBw:
    case OpKind::kGetBw:
    case OpKind::kPutFence:
    case OpKind::kGetFence:
    case OpKind::kPutFenceBw:
    case OpKind::kGetFenceBw:
      return true;
    default:
      return false;
  }
}

/// The shape of one-sided op `kind` at `bytes` per operation; throws std::logic_error for an op
/// that is not one-sided (a programming error).
inline RmaShape rma_shape(OpKind kind, std::size_t bytes) {
  if (!is_rma(kind)) throw std::logic_error("rma_shape of an op that is not one-sided");
  RmaShape s;
  s.put = kind == OpKind::kPut || kind == OpKind::kPutBw || kind == OpKind::kPutFence ||
          kind == OpKind::kPutFenceBw;
  s.fence = kind == OpKind::kPutFence || kind == OpKind::kGetFence || kind == OpKind::kPutFenceBw ||
            kind == OpKind::kGetFenceBw;
  const bool windowed = kind == OpKind::kPutBw || kind == OpKind::kGetBw ||
                        kind == OpKind::kPutFenceBw || kind == OpKind::kGetFenceBw;
  if (windowed) {
    s.window = kRmaWindow;
    s.slots = std::clamp<std::size_t>(kRmaWindowBytes / std::max<std::size_t>(bytes, kElemBytes), 1,
                                      kRmaWindow);
  }
  return s;
}

}  // namespace comops
