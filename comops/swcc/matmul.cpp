// swcc matmul (--app=matmul): a shared-memory program on the DSM. B is a spread array: each
// participant's rows of B are homed in its own global memory, where it writes them at the start
// of every call; after a DSM barrier every participant multiplies its rows of A (private) by B,
// reading B element by element through global pointers: with caching (swcc-N) a miss fetches a
// block that the following reads hit, and every row of A reuses it; uncached (swcc-sc) every
// read of another participant's element is a round trip. A closing barrier keeps the next
// call's writes of B from overtaking a reader.
#include "comops/apps/matmul.hpp"

#include <vector>

#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

std::size_t matmul_segment(std::size_t n, int np) {
  const std::size_t max_rows =
      (n + static_cast<std::size_t>(np) - 1) / static_cast<std::size_t>(np);
  const std::size_t need = max_rows * n * kElemBytes + (1 << 16);
  return (need + 4095) / 4096 * 4096;
}

template <std::size_t B>
class Matmul final : public DsmOpBase {
 public:
  Matmul(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : DsmOpBase(comm, cfg, matmul_segment(apps::matmul_n(args), args.np)),
        d_(*engine_),
        bufs_(bufs),
        n_(apps::matmul_n(args)),
        rows_(apps::matmul_rows(n_, args.np, comm.rank())),
        b_(d_.template alloc<Elem>((n_ + static_cast<std::size_t>(args.np) - 1) /
                                   static_cast<std::size_t>(args.np) * n_)) {
    const std::vector<int> owner = apps::matmul_owners(n_, args.np);
    for (std::size_t k = 0; k < n_; ++k) {
      const apps::RowBlock ob = apps::matmul_rows(n_, args.np, owner[k]);
      b_rows_.push_back(b_.on(owner[k]) + static_cast<std::ptrdiff_t>((k - ob.first) * n_));
    }
  }

  void run() override {
    d_.write_bulk(b_.on(d_.rank()), bufs_.send + rows_.count * n_, rows_.count * n_);
    d_.barrier();
    apps::matmul_kernel(
        bufs_.send, rows_.count, n_,
        [&](std::size_t k) {
          return Row{&d_, b_rows_[k]};
        },
        bufs_.recv);
    d_.barrier();
  }

 private:
  // Row k of B as the kernel indexes it: each element a DSM read.
  struct Row {
    Dsm<B>* d;
    global_ptr<Elem> p;
    Elem operator[](std::size_t j) const { return d->read(p + static_cast<std::ptrdiff_t>(j)); }
  };

  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t n_;
  apps::RowBlock rows_;
  SpreadArray<Elem> b_;
  std::vector<global_ptr<Elem>> b_rows_;
};

std::unique_ptr<OpInstance> make_matmul(const OpConfig& cfg, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  return make_dsm_op<Matmul>(cfg, comm, args, bufs);
}

}  // namespace

OpTable matmul_ops(const OpConfig& cfg) { return op_entries({OpKind::kMatmul}, make_matmul, cfg); }

}  // namespace comops::swcc
