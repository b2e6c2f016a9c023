// swcc matmul (--app=matmul): a shared-memory program on the DSM. B is a spread array: each
// participant's rows of B are homed in its own global memory, where it writes them at the start
// of every call; after a DSM barrier every participant multiplies its rows of A (private) by B,
// with caching (swcc-N) reading B a block at a time through read views (Dsm::read_view: one
// coherence check a block, then plain loads): a view that misses fetches the block, and every
// row of A reuses it. Uncached (swcc-sc) it reads B element by element, every read of another
// participant's element a round trip: the sc program of the SWCC-Split-C paper, which caching
// is compared with (a view there would be a bulk read of the block's part of the row, another
// program). A closing barrier keeps the next call's writes of B from overtaking a reader.
#include "comops/apps/matmul.hpp"

#include <algorithm>
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
    if (d_.engine().cached())
      multiply(bufs_.send, bufs_.recv);
    else
      apps::matmul_kernel(
          bufs_.send, rows_.count, n_,
          [&](std::size_t k) {
            return Row{&d_, b_rows_[k]};
          },
          bufs_.recv);
    d_.barrier();
  }

 private:
  // Row k of B as the sc kernel indexes it: each element a DSM read.
  struct Row {
    Dsm<B>* d;
    global_ptr<Elem> p;
    Elem operator[](std::size_t j) const { return d->read(p + static_cast<std::ptrdiff_t>(j)); }
  };

  // C rows = A rows x B in apps::matmul_kernel's i-k-j order, row k of B a view at a time (a
  // view spans the row's elements in one block; nothing else is called while it is used).
  void multiply(const Elem* a, Elem* c) {
    std::fill(c, c + rows_.count * n_, Elem{0});
    for (std::size_t i = 0; i < rows_.count; ++i) {
      Elem* ci = c + i * n_;
      for (std::size_t k = 0; k < n_; ++k) {
        const Elem aik = a[i * n_ + k];
        for (std::size_t j = 0; j < n_;) {
          const ::swcc::ReadView<Elem> v =
              d_.read_view(b_rows_[k] + static_cast<std::ptrdiff_t>(j), n_ - j);
          for (const Elem b : v) ci[j++] += aik * b;
        }
      }
    }
  }

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
