// Unit tests of the op descriptors (harness/ops/op_descriptors.hpp) as the one place that describes
// an op: the table is complete and consistent, every backend's op table refers to described ops
// only, the binder finds exactly what a table holds, and --op / --reduce-op accept exactly the
// descriptors' names and aliases. "Adding an operation" in docs/contributing.md relies on these
// checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "comops/op.hpp"
#include "golden_ops.hpp"
#include "harness/cli/cli.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/ops/op_selection.hpp"
#include "op_args.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

const std::vector<std::string> kNames = test::golden_names();

// The applications (--app): descriptors with app set, after the ops; every backend runs them.
const std::vector<std::string>& kApps = test::kGoldenApps;

// The one-sided ops, passive target (the origin completes alone) and active target (-fence).
const std::vector<std::string> kPassive = {"put", "get", "put-bw", "get-bw"};
const std::vector<std::string> kFence = {"put-fence", "get-fence", "put-fence-bw", "get-fence-bw"};

// kNames without the ones in `out`, in order.
std::vector<std::string> names_without(const std::vector<std::vector<std::string>>& out) {
  std::vector<std::string> kept;
  for (const std::string& n : kNames)
    if (std::none_of(out.begin(), out.end(), [&](const std::vector<std::string>& o) {
          return std::find(o.begin(), o.end(), n) != o.end();
        }))
      kept.push_back(n);
  return kept;
}

std::vector<std::string> descriptor_names() {
  std::vector<std::string> names;
  for (const OpDescriptor& d : op_descriptors()) names.emplace_back(d.name);
  return names;
}

using test::parse;
using test::usage_error;

TEST(OpDescriptors, EveryOpHasOneUniqueNameAndKind) {
  std::vector<std::string> names_and_apps = kNames;
  names_and_apps.insert(names_and_apps.end(), kApps.begin(), kApps.end());
  EXPECT_EQ(descriptor_names(), names_and_apps);
  std::set<std::string> names;
  std::set<OpKind> kinds;
  for (const OpDescriptor& d : op_descriptors()) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_TRUE(names.insert(std::string(d.name)).second) << "name twice: " << d.name;
    EXPECT_TRUE(kinds.insert(d.kind).second) << "kind twice: " << d.name;
    EXPECT_EQ(&op_descriptor(d.kind), &d) << d.name;
    EXPECT_EQ(op_name(d.kind), d.name);
    EXPECT_EQ(parse_op(d.name), d.kind);
  }
  std::vector<OpKind> in_order, apps;
  for (const OpDescriptor& d : op_descriptors()) (d.app() ? apps : in_order).push_back(d.kind);
  EXPECT_EQ(all_ops(), in_order);
  EXPECT_EQ(all_apps(), apps);
}

TEST(OpDescriptors, EveryFieldIsSet) {
  for (const OpDescriptor& d : op_descriptors()) {
    EXPECT_NE(d.send_count, nullptr) << d.name;
    EXPECT_NE(d.recv_count, nullptr) << d.name;
    EXPECT_NE(d.fill, nullptr) << d.name;
    EXPECT_NE(d.expected, nullptr) << d.name;
    EXPECT_NE(d.fault_rank, nullptr) << d.name;
    EXPECT_NE(d.bw_factor, nullptr) << d.name;
    EXPECT_NE(d.ceiling_shared_by, nullptr) << d.name;
    EXPECT_FALSE(d.definition.empty()) << d.name;
    EXPECT_EQ(d.definition.find('\n'), std::string_view::npos) << d.name;
    EXPECT_GE(d.min_np, 1) << d.name;
  }
}

// The kind of an op, as one value.
struct Traits {
  std::string word, alias;
  Timing timing;
  OpSet set;
  Rooting rooting;
  Payload payload;
  int min_np;
  bool operator==(const Traits&) const = default;
  friend void PrintTo(const Traits& t, std::ostream* os) {
    *os << "{word '" << t.word << "', alias '" << t.alias << "', timing "
        << static_cast<int>(t.timing) << ", set " << static_cast<int>(t.set) << ", rooting "
        << static_cast<int>(t.rooting) << ", payload " << static_cast<int>(t.payload) << ", min_np "
        << t.min_np << "}";
  }
};

// The kind of each op, exactly: the golden list's, in its order; the applications after them.
TEST(OpDescriptors, Traits) {
  std::vector<std::pair<std::string, Traits>> got, want;
  for (const OpDescriptor& d : op_descriptors())
    got.push_back({std::string(d.name),
                   {std::string(d.reduction.word), std::string(d.reduction.alias), d.timing, d.set,
                    d.rooting, d.payload, d.min_np}});
  for (const test::GoldenOp& g : test::kGoldenOps)
    want.push_back({std::string(g.name),
                    {std::string(g.reduction.word), std::string(g.reduction.alias), g.timing, g.set,
                     g.rooting, g.payload, g.min_np}});
  want.push_back(
      {"matmul", {"", "", Timing::kCollective, OpSet::kApp, Rooting::kNone, Payload::kNone, 1}});
  want.push_back(
      {"em3d", {"", "", Timing::kCollective, OpSet::kApp, Rooting::kNone, Payload::kNone, 2}});
  // The one-sided ops are beside the COMOPS paper's set, never in it.
  for (const OpDescriptor& d : op_descriptors()) {
    if (d.one_sided()) {
      EXPECT_FALSE(d.comops_set()) << d.name;
    }
  }
  EXPECT_EQ(got, want);
  // The ops beside the paper's run only when named or with --op=all.
  EXPECT_FALSE(op_descriptor(OpKind::kAlltoall).comops_set());
  EXPECT_FALSE(op_descriptor(OpKind::kAllgather).comops_set());
  // A reduction is named after its word and alias; only the paper's reductions to a root are in
  // the COMOPS set.
  for (const OpDescriptor& d : op_descriptors()) {
    EXPECT_EQ(d.reduction.alias.empty(), d.reduction.word.empty()) << d.name;
    if (!d.reduction.alias.empty()) {
      EXPECT_EQ(std::string(d.name),
                std::string(d.reduction.word) + "-" + std::string(d.reduction.alias));
      EXPECT_EQ(d.comops_set(), d.reduction.word == "reduce") << d.name;
    }
  }
}

// An allreduce delivers the whole reduction to every participant: each receives the vector's
// count, the same values on every rank, the reduction to a root's values; the fault lands on the
// last participant (not participant 0, so the checker is proven on a rank other than the root
// of a reduce).
TEST(OpDescriptors, AllreduceDeliversTheReductionEverywhere) {
  for (auto [all, to_root] : {std::pair{OpKind::kAllreduceMax, OpKind::kReduceMax},
                              std::pair{OpKind::kAllreduceSum, OpKind::kReduceSum}}) {
    const OpDescriptor& d = op_descriptor(all);
    for (int np = 1; np <= 5; ++np) {
      const Args a = test::make_args(all, np, 5);
      const Args r = test::make_args(to_root, np, 5);
      EXPECT_EQ(d.fault_rank(a), np - 1) << d.name;
      EXPECT_EQ(d.bw_factor(a), 1.0) << d.name;
      for (int rank = 0; rank < np; ++rank) {
        EXPECT_EQ(d.send_count(a, rank), 5u) << d.name;
        EXPECT_EQ(d.recv_count(a, rank), 5u) << d.name;
        for (std::size_t i = 0; i < 5; ++i)
          EXPECT_EQ(d.expected(a, rank, 9, i), op_descriptor(to_root).expected(r, 0, 9, i))
              << d.name << " np " << np << " rank " << rank << " element " << i;
      }
    }
  }
}

// Which ops run between participants 0 and 1 (--pair, only those two timed), which move a window
// per operation, and the column names and words every table gives their time and bandwidth.
TEST(OpDescriptors, PairAndWindowedOps) {
  std::vector<std::string> pair, windowed;
  for (const OpDescriptor& d : op_descriptors()) {
    if (d.pair()) pair.emplace_back(d.name);
    if (d.windowed()) windowed.emplace_back(d.name);
    EXPECT_TRUE(!d.pingpong() || d.pair()) << d.name << ": a ping-pong is a pair op";
    EXPECT_FALSE(d.pingpong() && d.windowed()) << d.name;
    EXPECT_FALSE(d.comops_set() && d.windowed()) << d.name;
  }
  std::vector<std::string> golden_pair, golden_windowed;
  for (const test::GoldenOp& g : test::kGoldenOps) {
    if (g.timing == Timing::kRoundTrip || g.timing == Timing::kWindow)
      golden_pair.emplace_back(g.name);
    if (g.timing == Timing::kWindow) golden_windowed.emplace_back(g.name);
  }
  EXPECT_EQ(pair, golden_pair);
  EXPECT_EQ(windowed, golden_windowed);
  for (OpKind k : {OpKind::kPingpong, OpKind::kPingpongNb}) {
    EXPECT_EQ(time_column(k), "RTT_us");
    EXPECT_EQ(time_word(k), "RTT");
    EXPECT_EQ(bw_column(k), "bw_GBps");
  }
  EXPECT_EQ(time_column(OpKind::kStreamBw), "window_us");
  EXPECT_EQ(time_word(OpKind::kStreamBw), "time per window");
  EXPECT_EQ(bw_column(OpKind::kStreamBw), "stream_GBps");
  EXPECT_EQ(time_column(OpKind::kGather), "time_us");
  EXPECT_EQ(bw_column(OpKind::kGather), "bw_GBps");
  // stream-bw's definition says what it is and what it is not, in its own column names.
  const std::string_view def = op_descriptor(OpKind::kStreamBw).definition;
  for (const char* words : {"not a ping-pong", "window_us", "stream_GBps", "W x size"})
    EXPECT_NE(def.find(words), std::string_view::npos) << words;
  EXPECT_EQ(def.find("RTT"), std::string_view::npos);
  EXPECT_EQ(def.find("rate"), std::string_view::npos);
}

// What the descriptors say must hang together for every op, np and root: an op without data
// has no buffers, moves no bytes and defines no bandwidth; the fault rank receives something;
// a ping-pong leaves participants 2.. idle and moves 2 x size per round trip.
TEST(OpDescriptors, ConsistentForEveryOpNpAndRoot) {
  for (const OpDescriptor& d : op_descriptors())
    for (int np = d.min_np; np <= 5 && !d.app(); ++np)  // applications: tests/unit/test_apps.cpp
      for (int root = 0; root < (d.rooted() ? np : 1); ++root) {
        const Args a = test::make_args(d.kind, np, 3, root);
        const std::string where =
            std::string(d.name) + " np=" + std::to_string(np) + " root=" + std::to_string(root);
        std::size_t sent = 0, received = 0;
        for (int r = 0; r < np; ++r) {
          sent += d.send_count(a, r);
          received += d.recv_count(a, r);
        }
        if (!d.moves_data()) {
          EXPECT_EQ(sent + received, 0u) << where;
          EXPECT_EQ(d.bw_factor(a), 0.0) << where;
          EXPECT_EQ(d.definition.find("bw ="), std::string_view::npos) << where;
          continue;
        }
        EXPECT_NE(d.definition.find("bw ="), std::string_view::npos) << where;
        const bool exchange = d.kind == OpKind::kAlltoall || d.kind == OpKind::kAllgather;
        EXPECT_EQ(d.ceiling_shared_by(a), d.kind == OpKind::kBroadcast ? np - 1
                                          : exchange                   ? np
                                                                       : 1)
            << where;
        if (exchange) {  // every participant sends and receives a block from each participant
          for (int r = 0; r < np; ++r) {
            EXPECT_EQ(d.recv_count(a, r), 3u * np) << where << " rank " << r;
            EXPECT_EQ(d.send_count(a, r), d.kind == OpKind::kAlltoall ? 3u * np : 3u)
                << where << " rank " << r;
          }
          EXPECT_EQ(d.bw_factor(a), np - 1.0) << where;
          EXPECT_EQ(d.fault_rank(a), np - 1) << where;
        }
        if (received == 0) {  // only a one-participant broadcast: the root keeps its data
          EXPECT_EQ(d.kind, OpKind::kBroadcast) << where;
          EXPECT_EQ(np, 1) << where;
          continue;
        }
        const int f = d.fault_rank(a);
        ASSERT_GE(f, 0) << where;
        ASSERT_LT(f, np) << where;
        EXPECT_GT(d.recv_count(a, f), 0u) << where;
        if (d.pingpong()) {
          for (int r = 2; r < np; ++r)
            EXPECT_EQ(d.send_count(a, r) + d.recv_count(a, r), 0u) << where << " idle " << r;
          EXPECT_EQ(d.bw_factor(a), 2.0) << where;
        }
        if (d.pair() || d.one_sided()) {  // participants 0 and 1 only; the others idle
          for (int r = 2; r < np; ++r)
            EXPECT_EQ(d.send_count(a, r) + d.recv_count(a, r), 0u) << where << " idle " << r;
        }
        if (d.windowed()) {  // make_args' window of 3 messages, one way or both
          EXPECT_EQ(sent, received) << where;
          EXPECT_EQ(received % (3 * a.count), 0u) << where;
          EXPECT_GT(received, 0u) << where;
          // The bandwidth counts every message of the window that arrives, each way.
          EXPECT_EQ(d.bw_factor(a) * static_cast<double>(a.count), static_cast<double>(received))
              << where;
        }
        if (d.one_sided()) {  // origin 0 and target 1 hold the same blocks
          const bool put = d.fault_rank(a) == 1;
          EXPECT_EQ(d.send_count(a, put ? 0 : 1), d.recv_count(a, put ? 1 : 0)) << where;
          EXPECT_EQ(d.send_count(a, put ? 1 : 0) + d.recv_count(a, put ? 0 : 1), 0u) << where;
          const bool windowed = d.name.size() > 3 && d.name.substr(d.name.size() - 3) == "-bw";
          EXPECT_EQ(d.bw_factor(a), windowed ? 64.0 : 1.0) << where;
          EXPECT_EQ(d.recv_count(a, f), windowed ? 64 * a.count : a.count) << where;
          EXPECT_EQ(d.name.substr(0, 3), put ? "put" : "get") << where;
        }
      }
}

// A backend with a table of exactly the ops it is given, each factory marking which it is.
class TableBackend final : public Backend {
 public:
  explicit TableBackend(OpTable table) : table_(std::move(table)) {}
  std::string label() const override { return "table"; }
  Participants participants() const override { return Participants::kThreads; }
  OpTable ops() const override { return table_; }
  int max_participants() const override { return 1; }
  void spmd(const Group&, const std::function<void(Comm&)>&) override {}

 private:
  OpTable table_;
};

class MarkerOp final : public OpInstance {
 public:
  explicit MarkerOp(int id) : id(id) {}
  void run() override {}
  int id;
};

OpFactory marker(int id) {
  return [id](Comm&, const Args&, Buffers&) { return std::make_unique<MarkerOp>(id); };
}

TEST(OpBinder, FindsWhatTheTableHoldsAndNothingElse) {
  const TableBackend b({{OpKind::kGather, marker(1)}, {OpKind::kBarrier, marker(2)}});
  class NoComm final : public Comm {
   public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void barrier() override {}
    void allreduce(double*, int, Reduce) override {}
    void allreduce(std::int64_t*, int, Reduce) override {}
  } comm;
  Buffers bufs;
  const Args args;
  for (auto [kind, id] : {std::pair{OpKind::kGather, 1}, std::pair{OpKind::kBarrier, 2}}) {
    const OpFactory f = bind_op(b, kind);
    ASSERT_TRUE(f) << op_name(kind);
    const auto inst = f(comm, args, bufs);
    EXPECT_EQ(dynamic_cast<MarkerOp&>(*inst).id, id) << op_name(kind);
  }
  for (OpKind kind : all_ops()) {
    if (kind != OpKind::kGather && kind != OpKind::kBarrier) {
      EXPECT_FALSE(bind_op(b, kind)) << op_name(kind);
    }
  }
}

// Every configured backend of every family: its table names described ops only, each once, and
// exactly the ops it implements (the sweep skips a missing one with a note): shm-staged and
// shmp-staged (the same op code) have no one-sided ops, swcc none with passive target; hybrid has
// the COMOPS set, the allreduces and the non-blocking ping-pong, and no application.
TEST(OpTables, EveryBackendRefersToDescribedOpsOnce) {
  std::map<std::string, std::vector<std::string>> got;
  for (auto& family : backend_families())
    for (const auto& backend : family->create()) {
      std::vector<std::string>& names = got[backend->label()];
      for (const OpEntry& e : backend->ops()) {
        const auto& all = op_descriptors();
        const bool described = std::any_of(all.begin(), all.end(),
                                           [&](const OpDescriptor& d) { return d.kind == e.kind; });
        ASSERT_TRUE(described) << backend->label() << ": op kind " << static_cast<int>(e.kind)
                               << " has no descriptor";
        EXPECT_TRUE(e.make) << backend->label() << " " << op_name(e.kind);
        names.emplace_back(op_name(e.kind));
      }
      std::vector<std::string> sorted = names;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end())
          << backend->label() << " lists an op twice";
      for (OpKind kind : all_ops())
        EXPECT_EQ(bool(bind_op(*backend, kind)),
                  std::find(names.begin(), names.end(), op_name(kind)) != names.end())
            << op_name(kind);
    }
  std::map<std::string, std::vector<std::string>> want = {
      {"mpi", kNames},
      {"shm-direct", names_without({{"pingpong-nb"}})},
      {"shm-staged", names_without({kPassive, kFence, {"pingpong-nb", "stream-bw"}})},
      {"shmp-direct", names_without({{"pingpong-nb"}})},
      {"shmp-staged", names_without({kPassive, kFence, {"pingpong-nb", "stream-bw"}})},
      {"swcc-64", names_without({kPassive, {"stream-bw"}})}};
  std::vector<std::string> labels;
  for (auto& [label, names] : want) names.insert(names.end(), kApps.begin(), kApps.end());
  want["hybrid"] = {"pingpong", "pingpong-nb", "broadcast", "reduce-max",    "reduce-sum",
                    "gather",   "scatter",     "barrier",   "allreduce-max", "allreduce-sum"};
  // A table's order means nothing (the sweep follows the descriptors): compare the sets.
  const std::set<std::string> all_names(kNames.begin(), kNames.end());
  for (const auto& [label, names] : got) {
    labels.push_back(label);
    const std::vector<std::string>& expected = want.at(label);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()),
              std::set<std::string>(expected.begin(), expected.end()))
        << label;
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"hybrid", "mpi", "shm-direct", "shm-staged",
                                              "shmp-direct", "shmp-staged", "swcc-64"}));
}

// The words --op accepts, from the golden list: each op's name, a reduction's word (with
// " (by --reduce-op)" when `marked`) just before the first op of its word, then comops and all.
std::vector<std::string> golden_op_words(bool marked) {
  std::vector<std::string> words;
  for (const test::GoldenOp& g : test::kGoldenOps) {
    const std::string word(g.reduction.word);
    const std::string entry = word + (marked ? " (by --reduce-op)" : "");
    if (!word.empty() && std::find(words.begin(), words.end(), entry) == words.end())
      words.push_back(entry);
    words.emplace_back(g.name);
  }
  words.push_back(marked ? "comops (the COMOPS paper's set, the default)" : "comops");
  words.push_back(marked ? "or all (every op)" : "all");
  return words;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

TEST(OpSelection, AcceptedWordsAreTheDescriptorsNamesPlusAliases) {
  const std::vector<std::string> words = golden_op_words(false);
  ASSERT_GE(words.size(), test::kGoldenOps.size() + 4);  // reduce, allreduce, comops, all
  EXPECT_EQ(words[2], "reduce");
  EXPECT_EQ(op_words(), words);
  std::set<std::string> from_descriptors = {"comops", "all"};
  for (const OpDescriptor& d : op_descriptors()) {
    if (!d.app()) from_descriptors.insert(std::string(d.name));
    if (!d.reduction.word.empty()) from_descriptors.insert(std::string(d.reduction.word));
  }
  EXPECT_EQ(std::set<std::string>(words.begin(), words.end()), from_descriptors);
  EXPECT_EQ(reduce_op_words(), (std::vector<std::string>{"max", "sum"}));

  // Each accepted word, through the real command line, picks exactly what it names.
  for (const OpDescriptor& d : op_descriptors()) {
    if (!d.app()) {
      EXPECT_EQ(parse({"--op=" + std::string(d.name)}).ops, std::vector<OpKind>{d.kind}) << d.name;
    }
  }
  EXPECT_EQ(parse({"--op=reduce", "--reduce-op=sum"}).ops, std::vector<OpKind>{OpKind::kReduceSum});
  EXPECT_EQ(parse({"--op=all", "--reduce-op=max,sum"}).ops, all_ops());
  // reduce picks the reductions to a root only, allreduce the allreduces only, each by
  // --reduce-op (max by default); all picks every op with the reductions --reduce-op names.
  EXPECT_EQ(parse({"--op=reduce", "--reduce-op=max,sum"}).ops,
            (std::vector<OpKind>{OpKind::kReduceMax, OpKind::kReduceSum}));
  EXPECT_EQ(parse({"--op=allreduce"}).ops, std::vector<OpKind>{OpKind::kAllreduceMax});
  EXPECT_EQ(parse({"--op=allreduce", "--reduce-op=sum"}).ops,
            std::vector<OpKind>{OpKind::kAllreduceSum});
  EXPECT_EQ(parse({"--op=allreduce", "--reduce-op=sum,max"}).ops,
            (std::vector<OpKind>{OpKind::kAllreduceMax, OpKind::kAllreduceSum}));
  EXPECT_EQ(parse({"--op=allreduce,reduce", "--reduce-op=sum"}).ops,
            (std::vector<OpKind>{OpKind::kReduceSum, OpKind::kAllreduceSum}));
  EXPECT_EQ(parse({"--op=allreduce-sum,barrier,reduce-max"}).ops,
            (std::vector<OpKind>{OpKind::kReduceMax, OpKind::kBarrier, OpKind::kAllreduceSum}));
  std::vector<OpKind> all_with_max;
  for (OpKind k : all_ops())
    if (op_descriptor(k).reduction.alias != "sum") all_with_max.push_back(k);
  EXPECT_EQ(parse({"--op=all"}).ops, all_with_max);
  // The default is the COMOPS paper's set: every op whose descriptor says comops_set, with the
  // reductions --reduce-op names (max by default).
  std::vector<OpKind> paper_set;
  for (const OpDescriptor& d : op_descriptors())
    if (d.comops_set() && d.kind != OpKind::kReduceSum) paper_set.push_back(d.kind);
  EXPECT_EQ(parse({}).ops, paper_set);
  EXPECT_EQ(parse({"--op=comops"}).ops, paper_set);
  for (const std::string& alias : reduce_op_words()) {
    EXPECT_EQ(parse({"--op=reduce", "--reduce-op=" + alias}).ops.size(), 1u) << alias;
    EXPECT_EQ(parse({"--op=allreduce", "--reduce-op=" + alias}).ops.size(), 1u) << alias;
  }

  // Anything else is refused with the list of the accepted words.
  for (const std::string bad :
       {"reduce-min", "Pingpong", "reduce-prod", "max", "ping-pong", "allreduce-min", "all-reduce"})
    EXPECT_EQ(usage_error({"--op=" + bad}),
              "unknown op '" + bad + "' (available: " + joined(words) + ")");
  EXPECT_EQ(usage_error({"--reduce-op=min"}), "unknown --reduce-op 'min' (expected max or sum)");
  EXPECT_EQ(usage_error({"--op=reduce", "--reduce-op=,"}), "--op names no operation");
  EXPECT_EQ(usage_error({"--op=allreduce", "--reduce-op=,"}), "--op names no operation");
  EXPECT_EQ(usage_error({"--op=allreduce", "--reduce-op=min"}),
            "unknown --reduce-op 'min' (expected max or sum)");
}

TEST(OpSelection, HelpTextsComeFromTheDescriptors) {
  EXPECT_EQ(op_option_help(), "Operations, comma-separated: " + joined(golden_op_words(true)));
  std::string reductions;  // the golden list's reduction words, quoted, in order
  for (const std::string& w : golden_op_words(false))
    if (std::any_of(test::kGoldenOps.begin(), test::kGoldenOps.end(),
                    [&](const test::GoldenOp& g) { return g.reduction.word == w; }))
      reductions += "'" + w + "', ";
  EXPECT_EQ(reductions.rfind("'reduce', 'allreduce', ", 0), 0u) << reductions;
  EXPECT_EQ(reduce_op_option_help(),
            "Reductions that " + reductions + "'comops' and 'all' run: max, sum");
}

}  // namespace
}  // namespace comops
