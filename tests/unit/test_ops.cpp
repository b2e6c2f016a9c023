// Unit tests of the backend-free meaning of each op (harness/ops/op_queries.hpp): every op is
// simulated in plain C++ over per-rank buffers, and the exact checker must find 0 wrong elements,
// exactly the one injected fault, and every element of a buffer the op never wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "comops/rma.hpp"
#include "golden_ops.hpp"
#include "harness/ops/op_queries.hpp"
#include "op_args.hpp"

namespace comops {
namespace {

constexpr std::uint64_t kSeed = 42;

// One participant's buffers, owned by the test.
struct RankBufs {
  std::vector<Elem> send, recv;
  Buffers bufs;
};

using test::make_args;

std::vector<RankBufs> allocate_and_fill(const Args& a, std::uint64_t seed) {
  std::vector<RankBufs> ranks(static_cast<std::size_t>(a.np));
  for (int r = 0; r < a.np; ++r) {
    auto& rb = ranks[static_cast<std::size_t>(r)];
    rb.send.assign(send_count(a, r), 12345);
    rb.recv.assign(recv_count(a, r), 12345);
    rb.bufs = {rb.send.data(), rb.send.size(), rb.recv.data(), rb.recv.size()};
    fill_inputs(a, r, seed, rb.bufs);
  }
  return ranks;
}

// The reduction over the np ranks' send[at]: their maximum, or their sum.
Elem reduce_at(const std::vector<RankBufs>& ranks, int np, std::size_t at, bool max) {
  Elem acc = ranks[0].send[at];
  for (int r = 1; r < np; ++r) {
    const Elem v = ranks[static_cast<std::size_t>(r)].send[at];
    acc = max ? std::max(acc, v) : acc + v;
  }
  return acc;
}

// What a reduce, allreduce or reduce-scatter must deliver.
void simulate_reduction(const Args& a, std::vector<RankBufs>& ranks) {
  const std::size_t n = a.count;
  auto& root = ranks[static_cast<std::size_t>(a.root)];
  switch (a.op) {
    case OpKind::kReduceMax:
    case OpKind::kReduceSum:
      for (std::size_t i = 0; i < n; ++i)
        root.recv[i] = reduce_at(ranks, a.np, i, a.op == OpKind::kReduceMax);
      break;
    case OpKind::kAllreduceMax:
    case OpKind::kAllreduceSum:
      for (std::size_t i = 0; i < n; ++i) {
        const Elem acc = reduce_at(ranks, a.np, i, a.op == OpKind::kAllreduceMax);
        for (auto& rb : ranks) rb.recv[i] = acc;
      }
      break;
    default: {  // reduce-scatter, osu_reduce_scatter's split: n / np, the first get more
      std::size_t at = 0;
      for (int r = 0; r < a.np; ++r) {
        const std::size_t mine = n / a.np + (static_cast<std::size_t>(r) < n % a.np ? 1 : 0);
        for (std::size_t i = 0; i < mine; ++i, ++at)
          ranks[static_cast<std::size_t>(r)].recv[i] =
              reduce_at(ranks, a.np, at, a.op == OpKind::kReduceScatterMax);
      }
      break;
    }
  }
}

// What a broadcast, gather, scatter, alltoall or allgather must deliver: copies of blocks.
void simulate_copies(const Args& a, std::vector<RankBufs>& ranks) {
  const std::size_t n = a.count;
  auto& root = ranks[static_cast<std::size_t>(a.root)];
  switch (a.op) {
    case OpKind::kBroadcast:
      for (int r = 0; r < a.np; ++r)
        if (r != a.root) ranks[static_cast<std::size_t>(r)].recv = root.send;
      break;
    case OpKind::kGather:
      for (int r = 0; r < a.np; ++r)
        std::copy(ranks[static_cast<std::size_t>(r)].send.begin(),
                  ranks[static_cast<std::size_t>(r)].send.end(), root.recv.begin() + r * n);
      break;
    case OpKind::kScatter:
      for (int r = 0; r < a.np; ++r)
        std::copy(root.send.begin() + r * n, root.send.begin() + (r + 1) * n,
                  ranks[static_cast<std::size_t>(r)].recv.begin());
      break;
    case OpKind::kAlltoall:
      for (int r = 0; r < a.np; ++r)
        for (int j = 0; j < a.np; ++j) {
          const auto& from = ranks[static_cast<std::size_t>(j)].send;
          std::copy(from.begin() + r * n, from.begin() + (r + 1) * n,
                    ranks[static_cast<std::size_t>(r)].recv.begin() + j * n);
        }
      break;
    default:  // allgather
      for (int r = 0; r < a.np; ++r)
        for (int j = 0; j < a.np; ++j) {
          const auto& from = ranks[static_cast<std::size_t>(j)].send;
          std::copy(from.begin(), from.end(),
                    ranks[static_cast<std::size_t>(r)].recv.begin() + j * n);
        }
      break;
  }
}

// What a two-party op must deliver: ping-pongs, the stream and bidirectional bandwidths, and
// the one-sided ops.
void simulate_pair(const Args& a, std::vector<RankBufs>& ranks) {
  switch (a.op) {
    case OpKind::kPingpong:
    case OpKind::kPingpongNb:
    case OpKind::kBibw:  // both ways at once, slot k into slot k
      ranks[0].recv = ranks[1].send;
      ranks[1].recv = ranks[0].send;
      break;
    case OpKind::kStreamBw:  // slot k of participant 0's window into slot k of participant 1's
      ranks[1].recv = ranks[0].send;
      break;
    default:  // one-sided: the origin's blocks land in the target's, or the reverse
      if (rma_shape(a.op, a.bytes).put)
        ranks[1].recv = ranks[0].send;
      else
        ranks[0].recv = ranks[1].send;
      break;
  }
}

// What the op must deliver, computed from the send buffers alone.
void simulate(const Args& a, std::vector<RankBufs>& ranks) {
  switch (a.op) {
    case OpKind::kReduceMax:
    case OpKind::kReduceSum:
    case OpKind::kAllreduceMax:
    case OpKind::kAllreduceSum:
    case OpKind::kReduceScatterMax:
    case OpKind::kReduceScatterSum:
      simulate_reduction(a, ranks);
      break;
    case OpKind::kBroadcast:
    case OpKind::kGather:
    case OpKind::kScatter:
    case OpKind::kAlltoall:
    case OpKind::kAllgather:
      simulate_copies(a, ranks);
      break;
    case OpKind::kBarrier:  // moves no data
      break;
    default:
      simulate_pair(a, ranks);
      break;
  }
  for (auto& rb : ranks) rb.bufs = {rb.send.data(), rb.send.size(), rb.recv.data(), rb.recv.size()};
}

struct Case {
  OpKind op;
  int np;
  std::size_t count;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = std::string(op_name(info.param.op));
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "_np" + std::to_string(info.param.np) + "_count" + std::to_string(info.param.count);
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (OpKind op : all_ops())
    for (int np = op_min_np(op); np <= 4; ++np)
      for (std::size_t count : {1u, 3u, 1000u}) cases.push_back({op, np, count});
  return cases;
}

class OpCheck : public testing::TestWithParam<Case> {};

TEST_P(OpCheck, BufferSizesMatchTheOp) {
  const auto [op, np, count] = GetParam();
  const Args a = make_args(op, np, count);
  for (int r = 0; r < np; ++r) {
    std::size_t send = 0, recv = 0;
    switch (op) {
      case OpKind::kPingpong:
        send = recv = r < 2 ? count : 0;
        break;
      case OpKind::kBroadcast:
        send = r == 0 ? count : 0;
        recv = r == 0 ? 0 : count;
        break;
      case OpKind::kReduceMax:
      case OpKind::kReduceSum:
        send = count;
        recv = r == 0 ? count : 0;
        break;
      case OpKind::kAllreduceMax:
      case OpKind::kAllreduceSum:
        send = recv = count;
        break;
      case OpKind::kReduceScatterMax:
      case OpKind::kReduceScatterSum:
        send = count;
        recv = count / np + (static_cast<std::size_t>(r) < count % np ? 1 : 0);
        break;
      case OpKind::kGather:
        send = count;
        recv = r == 0 ? count * np : 0;
        break;
      case OpKind::kScatter:
        send = r == 0 ? count * np : 0;
        recv = count;
        break;
      case OpKind::kAlltoall:
        send = recv = count * np;
        break;
      case OpKind::kAllgather:
        send = count;
        recv = count * np;
        break;
      case OpKind::kBarrier:
        break;
      case OpKind::kPingpongNb:
        send = recv = r < 2 ? count : 0;
        break;
      case OpKind::kStreamBw:  // a window of a.window messages
        send = r == 0 ? count * 3 : 0;
        recv = r == 1 ? count * 3 : 0;
        break;
      case OpKind::kBibw:  // a window each way
        send = recv = r < 2 ? count * 3 : 0;
        break;
      default: {  // one-sided: a block per distinct window slot at the origin and the target
        const RmaShape s = rma_shape(op, a.bytes);
        const std::size_t block = count * s.slots;
        send = r == (s.put ? 0 : 1) ? block : 0;
        recv = r == (s.put ? 1 : 0) ? block : 0;
        break;
      }
    }
    EXPECT_EQ(send_count(a, r), send) << "rank " << r;
    EXPECT_EQ(recv_count(a, r), recv) << "rank " << r;
  }
}

TEST_P(OpCheck, PoisonedBufferIsAllWrong) {
  const auto [op, np, count] = GetParam();
  const Args a = make_args(op, np, count);
  auto ranks = allocate_and_fill(a, kSeed);
  for (int r = 0; r < np; ++r) {
    const auto& rb = ranks[static_cast<std::size_t>(r)];
    EXPECT_EQ(count_wrong(a, r, kSeed, rb.bufs), static_cast<std::int64_t>(rb.recv.size()))
        << "rank " << r;
    for (std::size_t i = 0; i < rb.send.size(); ++i)
      ASSERT_EQ(rb.send[i], pattern(kSeed, r, i)) << "rank " << r << " send[" << i << "]";
  }
}

TEST_P(OpCheck, SimulatedOpIsRightAndOneFlipIsOneWrong) {
  const auto [op, np, count] = GetParam();
  const Args a = make_args(op, np, count);
  auto ranks = allocate_and_fill(a, kSeed);
  simulate(a, ranks);
  for (int r = 0; r < np; ++r)
    EXPECT_EQ(count_wrong(a, r, kSeed, ranks[static_cast<std::size_t>(r)].bufs), 0) << "rank " << r;

  // Checked against another seed, the delivered data is wrong everywhere.
  for (int r = 0; r < np; ++r) {
    const auto& rb = ranks[static_cast<std::size_t>(r)];
    EXPECT_EQ(count_wrong(a, r, kSeed + 1, rb.bufs), static_cast<std::int64_t>(rb.recv.size()))
        << "rank " << r;
  }

  if (!op_moves_data(op)) {
    EXPECT_EQ(ranks[0].recv.size(), 0u);
    return;
  }
  const int f = fault_rank(a);
  ASSERT_GE(f, 0);
  ASSERT_LT(f, np);
  auto& victim = ranks[static_cast<std::size_t>(f)];
  if (op == OpKind::kBroadcast && np == 1) {
    EXPECT_TRUE(victim.recv.empty());  // a lone root receives nothing: nothing to corrupt
    return;
  }
  ASSERT_FALSE(victim.recv.empty()) << "fault_rank " << f << " receives nothing";
  if (op == OpKind::kBroadcast || op == OpKind::kScatter) {
    if (np > 1) {
      EXPECT_NE(f, a.root) << "the fault must hit a receiver, not the root";
    }
  } else if (op == OpKind::kAlltoall || op == OpKind::kAllgather || op == OpKind::kAllreduceMax ||
             op == OpKind::kAllreduceSum) {
    EXPECT_EQ(f, np - 1) << "a non-rooted collective's fault hits the last participant";
  } else if (is_rma(op)) {
    EXPECT_EQ(f, rma_shape(op, a.bytes).put ? 1 : 0) << "the fault must hit the receiving side";
  } else if (!op_is_pair(op)) {
    EXPECT_EQ(f, a.root);
  }
  for (std::size_t k : {std::size_t{0}, victim.recv.size() / 2, victim.recv.size() - 1}) {
    victim.recv[k] ^= 1;
    EXPECT_EQ(count_wrong(a, f, kSeed, victim.bufs), 1) << "flipped element " << k;
    for (int r = 0; r < np; ++r) {
      if (r != f) {
        EXPECT_EQ(count_wrong(a, r, kSeed, ranks[static_cast<std::size_t>(r)].bufs), 0);
      }
    }
    victim.recv[k] ^= 1;
    EXPECT_EQ(count_wrong(a, f, kSeed, victim.bufs), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpCheck, testing::ValuesIn(all_cases()), case_name);

// stream-bw: every message of the window carries its own data, so a message delivered into
// another slot (two slots swapped, or one slot's message twice) is counted element by element.
TEST(StreamBw, MessageInTheWrongWindowSlotIsWrong) {
  for (std::size_t count : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
    const Args a = make_args(OpKind::kStreamBw, 2, count, 0, 4);
    auto ranks = allocate_and_fill(a, kSeed);
    simulate(a, ranks);
    ASSERT_EQ(ranks[1].recv.size(), 4 * count);
    ASSERT_EQ(count_wrong(a, 1, kSeed, ranks[1].bufs), 0);
    std::vector<Elem>& recv = ranks[1].recv;
    std::swap_ranges(recv.begin() + count, recv.begin() + 2 * count, recv.begin() + 3 * count);
    EXPECT_EQ(count_wrong(a, 1, kSeed, ranks[1].bufs), static_cast<std::int64_t>(2 * count))
        << "slots 1 and 3 swapped, count " << count;
    simulate(a, ranks);
    std::copy(recv.begin(), recv.begin() + count, recv.begin() + 2 * count);
    EXPECT_EQ(count_wrong(a, 1, kSeed, ranks[1].bufs), static_cast<std::int64_t>(count))
        << "slot 0's message also in slot 2, count " << count;
  }
}

// stream-bw moves the whole window per operation; its window is what Args says.
TEST(StreamBw, BytesMovedAreTheWindow) {
  Args a = make_args(OpKind::kStreamBw, 2, 128, 0, 64);
  EXPECT_EQ(op_bytes_moved(a), 64.0 * 1024);
  a.window = 1;
  EXPECT_EQ(op_bytes_moved(a), 1024.0);
  EXPECT_EQ(op_bytes_moved(make_args(OpKind::kPingpongNb, 2, 128)), 2.0 * 1024);
}

// What each receiver must hold, written out by hand from the literal patterns of seed 7 (see
// Pattern.KnownValues): np 3, 2 elements per block. Independent of the simulation above.
TEST(CountWrong, LiteralReceiveBuffersPerOp) {
  struct Expected {
    OpKind op;
    int root;
    std::vector<std::vector<Elem>> recv;  // per rank; empty: receives nothing
  };
  // pattern(7, r, i), r = 0..2, i = 0..5
  const std::vector<Expected> table = {
      {OpKind::kPingpong, 0, {{1007387448, 1258995471}, {1392324084, 255297021}, {}}},
      {OpKind::kBroadcast, 0, {{}, {1392324084, 255297021}, {1392324084, 255297021}}},
      {OpKind::kBroadcast, 1, {{1007387448, 1258995471}, {}, {1007387448, 1258995471}}},
      {OpKind::kReduceMax, 0, {{2965080157, 4293542399}, {}, {}}},
      {OpKind::kReduceSum, 0, {{5364791689, 5807834891}, {}, {}}},
      {OpKind::kReduceSum, 2, {{}, {}, {5364791689, 5807834891}}},
      {OpKind::kAllreduceMax,
       0,
       {{2965080157, 4293542399}, {2965080157, 4293542399}, {2965080157, 4293542399}}},
      {OpKind::kAllreduceSum,
       0,
       {{5364791689, 5807834891}, {5364791689, 5807834891}, {5364791689, 5807834891}}},
      {OpKind::kGather,
       0,
       {{1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399}, {}, {}}},
      {OpKind::kGather,
       1,
       {{}, {1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399}, {}}},
      {OpKind::kScatter,
       0,
       {{1392324084, 255297021}, {2153019371, 1077291290}, {2313375201, 284069091}}},
      {OpKind::kScatter,
       1,
       {{1007387448, 1258995471}, {3029104982, 2875713759}, {909011120, 3021256852}}},
      // rank r receives block r of every rank's send buffer, in rank order
      {OpKind::kAlltoall,
       0,
       {{1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399},
        {2153019371, 1077291290, 3029104982, 2875713759, 877117177, 4291840087},
        {2313375201, 284069091, 909011120, 3021256852, 39669673, 1389660879}}},
      {OpKind::kAllgather,
       0,
       {{1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399},
        {1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399},
        {1392324084, 255297021, 1007387448, 1258995471, 2965080157, 4293542399}}},
      {OpKind::kPut, 0, {{}, {1392324084, 255297021}, {}}},
      {OpKind::kPutFence, 0, {{}, {1392324084, 255297021}, {}}},
      {OpKind::kGet, 0, {{1007387448, 1258995471}, {}, {}}},
      {OpKind::kGetFence, 0, {{1007387448, 1258995471}, {}, {}}},
  };
  for (const auto& e : table) {
    const Args a = make_args(e.op, 3, 2, e.root);
    for (int r = 0; r < 3; ++r) {
      std::vector<Elem> recv = e.recv[static_cast<std::size_t>(r)];
      const std::string where = std::string(op_name(e.op)) + " root " + std::to_string(e.root) +
                                " rank " + std::to_string(r);
      ASSERT_EQ(recv_count(a, r), recv.size()) << where;
      Buffers b{nullptr, 0, recv.data(), recv.size()};
      EXPECT_EQ(count_wrong(a, r, 7, b), 0) << where;
      EXPECT_EQ(count_wrong(a, r, 8, b), static_cast<std::int64_t>(recv.size())) << where;
      for (std::size_t k = 0; k < recv.size(); ++k) {
        recv[k] += 1;
        EXPECT_EQ(count_wrong(a, r, 7, b), 1) << where << " element " << k;
        recv[k] -= 1;
      }
    }
  }
}

// The one explicit order test: all_ops() is the golden list, in its order, and every name
// parses back to its kind.
TEST(OpNames, RoundTripForEveryOp) {
  const std::vector<std::string> names = test::golden_names();
  ASSERT_EQ(all_ops().size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(op_name(all_ops()[i]), names[i]);
    const auto parsed = parse_op(names[i]);
    ASSERT_TRUE(parsed.has_value()) << names[i];
    EXPECT_EQ(*parsed, all_ops()[i]);
  }
}

TEST(OpNames, RejectsUnknownNames) {
  EXPECT_FALSE(parse_op("reduce").has_value());
  EXPECT_FALSE(parse_op("").has_value());
  EXPECT_FALSE(parse_op("Pingpong").has_value());
  EXPECT_FALSE(parse_op("reduce-min").has_value());
  EXPECT_FALSE(parse_op("all").has_value());
  EXPECT_FALSE(parse_op("allreduce").has_value());
}

TEST(OpTraits, DataSizeAndMinNp) {
  for (OpKind op : all_ops()) {
    EXPECT_EQ(op_moves_data(op), op != OpKind::kBarrier) << op_name(op);
    EXPECT_EQ(op_min_np(op), op_is_pair(op) ? 2 : 1) << op_name(op);
  }
}

TEST(OpBytesMoved, ExactPerOp) {
  for (int np : {2, 4}) {
    auto moved = [&](OpKind op) { return op_bytes_moved(make_args(op, np, 128)); };  // 1 KiB
    EXPECT_DOUBLE_EQ(moved(OpKind::kPingpong), 2048.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kBroadcast), 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kReduceMax), 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kReduceSum), 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kAllreduceMax), 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kAllreduceSum), 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kGather), (np - 1) * 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kScatter), (np - 1) * 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kAlltoall), (np - 1) * 1024.0);
    EXPECT_DOUBLE_EQ(moved(OpKind::kAllgather), (np - 1) * 1024.0);
  }
  // One-sided: one operation of size per call, or the window of 64 of them.
  for (OpKind op : {OpKind::kPut, OpKind::kGet, OpKind::kPutFence, OpKind::kGetFence})
    EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(op, 2, 128)), 1024.0) << op_name(op);
  for (OpKind op : {OpKind::kPutBw, OpKind::kGetBw, OpKind::kPutFenceBw, OpKind::kGetFenceBw}) {
    EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(op, 2, 128)), 64 * 1024.0) << op_name(op);
    // 8 MiB: still 64 operations, into 8 distinct slots of 8 MiB (64 MiB at most per side).
    EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(op, 2, 1 << 20)), 64.0 * (8 << 20)) << op_name(op);
    EXPECT_EQ(recv_count(make_args(op, 2, 1 << 20), rma_shape(op, 0).put ? 1 : 0), 8u << 20)
        << op_name(op);
  }
  EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(OpKind::kPingpongNb, 4, 128)), 2048.0);
  EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(OpKind::kStreamBw, 4, 128, 0, 3)), 3 * 1024.0);
  EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(OpKind::kBarrier, 4, 0)), 0.0);
  EXPECT_DOUBLE_EQ(op_bytes_moved(make_args(OpKind::kGather, 1, 128)), 0.0);
}

TEST(OpIsTimed, PingpongTimesRanks0And1Only) {
  for (OpKind op : {OpKind::kPingpong, OpKind::kPingpongNb, OpKind::kStreamBw}) {
    const Args pp = make_args(op, 4, 1);
    EXPECT_TRUE(op_is_timed(pp, 0)) << op_name(op);
    EXPECT_TRUE(op_is_timed(pp, 1)) << op_name(op);
    EXPECT_FALSE(op_is_timed(pp, 2)) << op_name(op);
    EXPECT_FALSE(op_is_timed(pp, 3)) << op_name(op);
  }
  for (OpKind op : all_ops()) {
    const Args a = make_args(op, 4, 1);
    if (is_rma(op)) {  // one-sided: the origin alone, between the pair --pair chooses
      for (int r = 0; r < 4; ++r) EXPECT_EQ(op_is_timed(a, r), r == 0) << op_name(op) << " " << r;
      EXPECT_TRUE(op_is_pair(op)) << op_name(op);
      continue;
    }
    if (op_is_pair(op)) continue;
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(op_is_timed(a, r)) << op_name(op) << " rank " << r;
  }
}

TEST(FaultRank, ExactPerOp) {
  EXPECT_EQ(fault_rank(make_args(OpKind::kPingpong, 4, 1)), 1);
  EXPECT_EQ(fault_rank(make_args(OpKind::kPingpongNb, 4, 1)), 1);
  EXPECT_EQ(fault_rank(make_args(OpKind::kStreamBw, 4, 1)), 1);
  EXPECT_EQ(fault_rank(make_args(OpKind::kBroadcast, 4, 1)), 3);
  EXPECT_EQ(fault_rank(make_args(OpKind::kScatter, 4, 1)), 3);
  EXPECT_EQ(fault_rank(make_args(OpKind::kScatter, 1, 1)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kBroadcast, 4, 1, 3)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kReduceMax, 4, 1)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kReduceSum, 4, 1)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kGather, 4, 1)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAlltoall, 4, 1)), 3);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAllgather, 3, 1)), 2);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAllgather, 1, 1)), 0);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAllreduceMax, 4, 1)), 3);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAllreduceSum, 3, 1)), 2);
  EXPECT_EQ(fault_rank(make_args(OpKind::kAllreduceSum, 1, 1)), 0);
  for (OpKind op : {OpKind::kPut, OpKind::kPutBw, OpKind::kPutFence, OpKind::kPutFenceBw})
    EXPECT_EQ(fault_rank(make_args(op, 4, 1)), 1) << op_name(op);
  for (OpKind op : {OpKind::kGet, OpKind::kGetBw, OpKind::kGetFence, OpKind::kGetFenceBw})
    EXPECT_EQ(fault_rank(make_args(op, 4, 1)), 0) << op_name(op);
}

TEST(OpCheckRoot, NonZeroRootIsHonoured) {
  for (OpKind op : {OpKind::kBroadcast, OpKind::kReduceMax, OpKind::kReduceSum, OpKind::kGather,
                    OpKind::kScatter}) {
    const Args a = make_args(op, 4, 3, 2);
    auto ranks = allocate_and_fill(a, kSeed);
    simulate(a, ranks);
    for (int r = 0; r < 4; ++r)
      EXPECT_EQ(count_wrong(a, r, kSeed, ranks[static_cast<std::size_t>(r)].bufs), 0)
          << op_name(op) << " rank " << r;
    const int f = fault_rank(a);
    auto& victim = ranks[static_cast<std::size_t>(f)];
    ASSERT_FALSE(victim.recv.empty()) << op_name(op);
    victim.recv[1] += 1;
    EXPECT_EQ(count_wrong(a, f, kSeed, victim.bufs), 1) << op_name(op);
  }
}

TEST(Pattern, In32BitRangeAndSeedDependent) {
  std::set<Elem> seen;
  for (std::uint64_t seed : {0ULL, 1ULL, 2ULL, 42ULL, ~0ULL})
    for (int rank = 0; rank < 8; ++rank)
      for (std::size_t i = 0; i < 256; ++i) {
        const Elem v = pattern(seed, rank, i);
        ASSERT_GE(v, 0);
        ASSERT_LT(v, Elem{1} << 32);
        seen.insert(v);
      }
  EXPECT_GT(seen.size(), 5u * 8 * 256 * 99 / 100);  // essentially all distinct

  int same_seed = 0, same_rank = 0;
  for (std::size_t i = 0; i < 1000; ++i) {
    same_seed += pattern(1, 0, i) == pattern(2, 0, i);
    same_rank += pattern(1, 0, i) == pattern(1, 1, i);
  }
  EXPECT_EQ(same_seed, 0);
  EXPECT_EQ(same_rank, 0);
}

// The pattern is the same in every process and every build: values computed independently
// (splitmix64 in Python) from the definition in harness/ops/op_queries.cpp.
TEST(Pattern, KnownValues) {
  EXPECT_EQ(pattern(7, 3, 0), 1670208425);
  EXPECT_EQ(pattern(7, 3, 1), 616601841);
  EXPECT_EQ(pattern(7, 3, 999), 2511147812);
  EXPECT_EQ(pattern(0, 0, 0), 956087953);
  EXPECT_EQ(pattern(1, 0, 0), 2529590368);
  EXPECT_EQ(pattern(1, 1, 0), 4081072788);
  EXPECT_EQ(pattern(42, 2, 5), 2560865884);
  EXPECT_EQ(pattern(~0ULL, 7, 255), 2489216676);
  const std::vector<std::vector<Elem>> seed7 = {
      {1392324084, 255297021, 2153019371, 1077291290, 2313375201, 284069091},
      {1007387448, 1258995471, 3029104982, 2875713759, 909011120, 3021256852},
      {2965080157, 4293542399, 877117177, 4291840087, 39669673, 1389660879}};
  for (int r = 0; r < 3; ++r)
    for (std::size_t i = 0; i < 6; ++i)
      EXPECT_EQ(pattern(7, r, i), seed7[static_cast<std::size_t>(r)][i]) << r << " " << i;
}

TEST(Pattern, FillWritesPatternAndPoison) {
  const Args a = make_args(OpKind::kGather, 3, 5);
  std::vector<Elem> send(5, 0), recv(15, 0);
  Buffers b{send.data(), send.size(), recv.data(), recv.size()};
  fill_inputs(a, 0, 9, b);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(send[i], pattern(9, 0, i));
  for (Elem v : recv) EXPECT_LT(v, 0);  // the poison no pattern can take
}

TEST(CountWrong, BarrierAndNonReceiversCountZero) {
  const Args bar = make_args(OpKind::kBarrier, 4, 0);
  Buffers none;
  for (int r = 0; r < 4; ++r) EXPECT_EQ(count_wrong(bar, r, kSeed, none), 0);
  const Args pp = make_args(OpKind::kPingpong, 4, 8);
  EXPECT_EQ(count_wrong(pp, 2, kSeed, none), 0);
  EXPECT_EQ(count_wrong(pp, 3, kSeed, none), 0);
}

// osu_reduce_scatter's split, exactly: the blocks tile the vector in rank order, the first
// count % np one element longer; with fewer elements than participants the last get none.
TEST(ReduceScatterBlock, OsuSplit) {
  auto blocks = [](std::size_t count, int np) {
    std::vector<std::pair<std::size_t, std::size_t>> v;
    for (int r = 0; r < np; ++r) {
      const ScatterBlock b = reduce_scatter_block(count, np, r);
      v.emplace_back(b.offset, b.count);
    }
    return v;
  };
  using V = std::vector<std::pair<std::size_t, std::size_t>>;
  EXPECT_EQ(blocks(8, 4), (V{{0, 2}, {2, 2}, {4, 2}, {6, 2}}));
  EXPECT_EQ(blocks(10, 4), (V{{0, 3}, {3, 3}, {6, 2}, {8, 2}}));
  EXPECT_EQ(blocks(2, 3), (V{{0, 1}, {1, 1}, {2, 0}}));
  EXPECT_EQ(blocks(5, 1), (V{{0, 5}}));
}

}  // namespace
}  // namespace comops
