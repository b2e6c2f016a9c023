// The common part of the COMOPS ops on swcc: each instance owns a DSM engine on the point's
// communicator, picks the compiled block size once, and reports the DSM counters.
#pragma once

#include <memory>

#include "comops/op.hpp"
#include "comops/swcc/swcc_comm.hpp"
#include "swcc/swcc.hpp"

namespace comops::swcc {

// The DSM library's names (namespace ::swcc, front door swcc/swcc.hpp) that the ops use as their
// own.
using ::swcc::Config;
using ::swcc::Dsm;
using ::swcc::Engine;
using ::swcc::global_ptr;
using ::swcc::SpreadArray;
using ::swcc::Stats;
using ::swcc::toglobal;
using ::swcc::with_block_size;
using ::swcc::with_dsm;

/// Backend settings an op needs (block size, uncached).
struct OpConfig {
  std::size_t block_bytes = ::swcc::kDefaultBlockBytes;
  bool uncached = false;
  /// Test only (hidden --swcc-drop-closing-barrier): broadcast and scatter leave out their
  /// closing barrier, so that a test can show the back-to-back validation catches the overlap.
  bool drop_closing_barrier = false;
};

/// Base of every swcc op: the engine (collective construction) and counters().
class DsmOpBase : public OpInstance {
 public:
  DsmOpBase(Comm& comm, const OpConfig& cfg, std::size_t segment_bytes);
  ~DsmOpBase() override;
  Counters counters() const override;

 protected:
  SwccComm& comm_;
  std::unique_ptr<Engine> engine_;
};

/// The shape of broadcast, reduce, gather and scatter: the DSM view at block size B, this
/// participant's buffers, elements per block, the root, and one spread global array of
/// `global_count` elements.
template <std::size_t B>
class SharedArrayOp : public DsmOpBase {
 protected:
  SharedArrayOp(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs,
                std::size_t segment_bytes, std::size_t global_count)
      : DsmOpBase(comm, cfg, segment_bytes),
        d_(*engine_),
        bufs_(bufs),
        count_(args.count),
        root_(args.root),
        buf_(d_.template alloc<Elem>(global_count)) {}

  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t count_;  ///< elements per block
  int root_;
  SpreadArray<Elem> buf_;
};

/// Instantiates Op<B> for the configured block size (the library's with_block_size); a size
/// outside swcc::kBlockSizes throws swcc::ConfigError.
template <template <std::size_t> class Op, class... A>
std::unique_ptr<OpInstance> make_dsm_op(const OpConfig& cfg, A&&... a) {
  return with_block_size(cfg.block_bytes, [&](auto b) -> std::unique_ptr<OpInstance> {
    return std::make_unique<Op<decltype(b)::value>>(cfg, a...);
  });
}

/// Segment bytes for `bytes` of payload per rank and np ranks, with room for flags.
std::size_t segment_for(std::size_t bytes, int np);

/// The ops swcc implements, bound to a configuration: generated from COMOPS_OPS
/// (cmake/comops_ops.cmake) less the EXCEPT list of comops/swcc/CMakeLists.txt.
OpTable op_table(const OpConfig& cfg);

}  // namespace comops::swcc
