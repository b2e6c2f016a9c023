// Unit tests of the op descriptors (harness/op_descriptor.hpp) as the one place that describes an
// op: the table is complete and consistent, every backend's op table refers to described ops
// only, the binder finds exactly what a table holds, and --op / --reduce-op accept exactly the
// descriptors' names and aliases. The README's "Adding an operation" relies on these checks.
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
#include "harness/cli.hpp"
#include "harness/op_binder.hpp"
#include "harness/op_descriptor.hpp"
#include "harness/op_selection.hpp"
#include "harness/ops.hpp"
#include "op_args.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

const std::vector<std::string> kNames = {"pingpong",   "broadcast",   "reduce-max",
                                         "reduce-sum", "gather",      "scatter",
                                         "barrier",    "pingpong-nb", "stream-bw"};

std::vector<std::string> descriptor_names() {
  std::vector<std::string> names;
  for (const OpDescriptor& d : op_descriptors()) names.emplace_back(d.name);
  return names;
}

using test::parse;
using test::usage_error;

TEST(OpDescriptors, EveryOpHasOneUniqueNameAndKind) {
  EXPECT_EQ(descriptor_names(), kNames);
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
  std::vector<OpKind> in_order;
  for (const OpDescriptor& d : op_descriptors()) in_order.push_back(d.kind);
  EXPECT_EQ(all_ops(), in_order);
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
  std::string alias;
  bool rooted, moves_data, pingpong;
  int min_np;
  bool operator==(const Traits&) const = default;
  friend void PrintTo(const Traits& t, std::ostream* os) {
    *os << "{alias '" << t.alias << "', rooted " << t.rooted << ", moves_data " << t.moves_data
        << ", pingpong " << t.pingpong << ", min_np " << t.min_np << "}";
  }
};

// The kind of each op, exactly.
TEST(OpDescriptors, Traits) {
  std::map<std::string, Traits> got;
  for (const OpDescriptor& d : op_descriptors())
    got[std::string(d.name)] = {std::string(d.reduce_alias), d.rooted, d.moves_data, d.pingpong,
                                d.min_np};
  const std::map<std::string, Traits> want = {
      {"pingpong", {"", false, true, true, 2}},      {"broadcast", {"", true, true, false, 1}},
      {"reduce-max", {"max", true, true, false, 1}}, {"reduce-sum", {"sum", true, true, false, 1}},
      {"gather", {"", true, true, false, 1}},        {"scatter", {"", true, true, false, 1}},
      {"barrier", {"", false, false, false, 1}},     {"pingpong-nb", {"", false, true, true, 2}},
      {"stream-bw", {"", false, true, false, 2}}};
  EXPECT_EQ(got, want);
}

// Which ops run between participants 0 and 1 (--pair, only those two timed), which move a window
// per operation, and the column names and words every table gives their time and bandwidth.
TEST(OpDescriptors, PairAndWindowedOps) {
  std::vector<std::string> pair, windowed;
  for (const OpDescriptor& d : op_descriptors()) {
    if (d.pair) pair.emplace_back(d.name);
    if (d.windowed) windowed.emplace_back(d.name);
    EXPECT_TRUE(!d.pingpong || d.pair) << d.name << ": a ping-pong is a pair op";
    EXPECT_FALSE(d.pingpong && d.windowed) << d.name;
    EXPECT_FALSE(d.comops_set && d.windowed) << d.name;
  }
  EXPECT_EQ(pair, (std::vector<std::string>{"pingpong", "pingpong-nb", "stream-bw"}));
  EXPECT_EQ(windowed, std::vector<std::string>{"stream-bw"});
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
    for (int np = d.min_np; np <= 5; ++np)
      for (int root = 0; root < (d.rooted ? np : 1); ++root) {
        const Args a = test::make_args(d.kind, np, 3, root);
        const std::string where =
            std::string(d.name) + " np=" + std::to_string(np) + " root=" + std::to_string(root);
        std::size_t sent = 0, received = 0;
        for (int r = 0; r < np; ++r) {
          sent += d.send_count(a, r);
          received += d.recv_count(a, r);
        }
        if (!d.moves_data) {
          EXPECT_EQ(sent + received, 0u) << where;
          EXPECT_EQ(d.bw_factor(a), 0.0) << where;
          EXPECT_EQ(d.definition.find("bw ="), std::string_view::npos) << where;
          continue;
        }
        EXPECT_NE(d.definition.find("bw ="), std::string_view::npos) << where;
        EXPECT_EQ(d.ceiling_shared_by(a), d.kind == OpKind::kBroadcast ? np - 1 : 1) << where;
        if (received == 0) {  // only a one-participant broadcast: the root keeps its data
          EXPECT_EQ(d.kind, OpKind::kBroadcast) << where;
          EXPECT_EQ(np, 1) << where;
          continue;
        }
        const int f = d.fault_rank(a);
        ASSERT_GE(f, 0) << where;
        ASSERT_LT(f, np) << where;
        EXPECT_GT(d.recv_count(a, f), 0u) << where;
        if (d.pingpong) {
          for (int r = 2; r < np; ++r)
            EXPECT_EQ(d.send_count(a, r) + d.recv_count(a, r), 0u) << where << " idle " << r;
          EXPECT_EQ(d.bw_factor(a), 2.0) << where;
        }
        if (d.pair)
          for (int r = 2; r < np; ++r)
            EXPECT_EQ(d.send_count(a, r) + d.recv_count(a, r), 0u) << where << " idle " << r;
        if (d.windowed) {  // make_args' window of 3 messages, one way
          EXPECT_EQ(d.bw_factor(a), 3.0) << where;
          EXPECT_EQ(sent, 3 * a.count) << where;
          EXPECT_EQ(received, 3 * a.count) << where;
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
// exactly the ops that backend implements (the sweep skips a missing one with a note).
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
      for (const std::string& name : names)
        EXPECT_TRUE(bind_op(*backend, *parse_op(name))) << backend->label() << " " << name;
    }
  // The COMOPS ops everywhere; pingpong-nb where a non-blocking round trip exists (MPI's
  // Isend/Irecv, swcc's split-phase get/put), stream-bw where a window of messages can be in
  // flight (MPI's Isend window, shm-direct's ring of slots with flags); README "Backends".
  const std::vector<std::string> paper(kNames.begin(), kNames.begin() + 7);
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> v = paper;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const std::map<std::string, std::vector<std::string>> want = {
      {"mpi", with({"pingpong-nb", "stream-bw"})},
      {"shm-direct", with({"stream-bw"})},
      {"shm-staged", paper},
      {"swcc-64", with({"pingpong-nb"})}};
  std::vector<std::string> labels;
  for (const auto& [label, names] : got) {
    labels.push_back(label);
    EXPECT_EQ(names, want.at(label)) << label;
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"mpi", "shm-direct", "shm-staged", "swcc-64"}));
}

TEST(OpSelection, AcceptedWordsAreTheDescriptorsNamesPlusAliases) {
  const std::vector<std::string> words = {"pingpong",    "broadcast", "reduce",  "reduce-max",
                                          "reduce-sum",  "gather",    "scatter", "barrier",
                                          "pingpong-nb", "stream-bw", "comops",  "all"};
  EXPECT_EQ(op_words(), words);
  std::set<std::string> from_descriptors = {"reduce", "comops", "all"};
  for (const OpDescriptor& d : op_descriptors()) from_descriptors.insert(std::string(d.name));
  EXPECT_EQ(std::set<std::string>(words.begin(), words.end()), from_descriptors);
  EXPECT_EQ(reduce_op_words(), (std::vector<std::string>{"max", "sum"}));

  // Each accepted word, through the real command line, picks exactly what it names.
  for (const OpDescriptor& d : op_descriptors())
    EXPECT_EQ(parse({"--op=" + std::string(d.name)}).ops, std::vector<OpKind>{d.kind}) << d.name;
  EXPECT_EQ(parse({"--op=reduce", "--reduce-op=sum"}).ops, std::vector<OpKind>{OpKind::kReduceSum});
  EXPECT_EQ(parse({"--op=all", "--reduce-op=max,sum"}).ops, all_ops());
  // The default is the COMOPS paper's set: every op whose descriptor says comops_set, with the
  // reductions --reduce-op names (max by default).
  std::vector<OpKind> paper_set;
  for (const OpDescriptor& d : op_descriptors())
    if (d.comops_set && d.kind != OpKind::kReduceSum) paper_set.push_back(d.kind);
  EXPECT_EQ(parse({}).ops, paper_set);
  EXPECT_EQ(parse({"--op=comops"}).ops, paper_set);
  for (const std::string& alias : reduce_op_words())
    EXPECT_EQ(parse({"--op=reduce", "--reduce-op=" + alias}).ops.size(), 1u) << alias;

  // Anything else is refused with the list of the accepted words.
  for (const std::string bad : {"reduce-min", "Pingpong", "reduce-prod", "max", "ping-pong"})
    EXPECT_EQ(usage_error({"--op=" + bad}),
              "unknown op '" + bad +
                  "' (available: pingpong, broadcast, reduce, reduce-max, reduce-sum, gather, "
                  "scatter, barrier, pingpong-nb, stream-bw, comops, all)");
  EXPECT_EQ(usage_error({"--reduce-op=min"}), "unknown --reduce-op 'min' (expected max or sum)");
  EXPECT_EQ(usage_error({"--op=reduce", "--reduce-op=,"}), "--op names no operation");
}

TEST(OpSelection, HelpTextsComeFromTheDescriptors) {
  EXPECT_EQ(op_option_help(),
            "Operations, comma-separated: pingpong, broadcast, reduce (by --reduce-op), "
            "reduce-max, reduce-sum, gather, scatter, barrier, pingpong-nb, stream-bw, comops "
            "(the COMOPS paper's set, the default), or all (every op)");
  EXPECT_EQ(reduce_op_option_help(), "Reductions that 'reduce', 'comops' and 'all' run: max, sum");
}

}  // namespace
}  // namespace comops
