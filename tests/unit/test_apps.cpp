// Unit tests of the application framework (--app): the command line (selection, parameter lists
// expanded into combinations, errors), the sweep's points with their parameters, the rows' names
// and JSON, and matmul's descriptor: buffers, inputs and reference against a plain product of
// the matrices its participants' inputs make up.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "comops/apps/matmul.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/sweep.hpp"
#include "harness/report/row.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

using test::parse;
using test::usage_error;

TEST(Apps, AreNotOpsAndHaveTheirOwnList) {
  EXPECT_EQ(all_apps(), (std::vector<OpKind>{OpKind::kMatmul, OpKind::kEm3d}));
  for (OpKind op : all_ops()) EXPECT_FALSE(op_is_app(op)) << op_name(op);
  EXPECT_TRUE(op_is_app(OpKind::kMatmul));
  EXPECT_TRUE(op_is_app(OpKind::kEm3d));
  EXPECT_EQ(app_words(), (std::vector<std::string>{"matmul", "em3d"}));
  const Config all = parse({"--op=all", "--reduce-op=max,sum"});
  EXPECT_EQ(all.ops, all_ops());
  EXPECT_TRUE(all.app_points.empty());
}

TEST(Apps, AppAloneRunsOnlyTheAppsWithTheDefaultParameters) {
  const Config c = parse({"--app=matmul"});
  EXPECT_EQ(c.ops, (std::vector<OpKind>{OpKind::kMatmul}));
  ASSERT_EQ(c.app_points.count(OpKind::kMatmul), 1u);
  EXPECT_EQ(c.app_points.at(OpKind::kMatmul), (std::vector<AppParams>{{{"n", 64}}}));
}

TEST(Apps, WithOpTheOpsRunFirstAndListsExpand) {
  const Config c = parse({"--op=barrier", "--app=matmul,matmul", "--matmul-n=256,8,256,16"});
  EXPECT_EQ(c.ops, (std::vector<OpKind>{OpKind::kBarrier, OpKind::kMatmul}));
  EXPECT_EQ(c.app_points.at(OpKind::kMatmul),
            (std::vector<AppParams>{{{"n", 256}}, {{"n", 8}}, {{"n", 16}}}));
}

TEST(Apps, ParametersExpandIntoEveryCombination) {
  OpDescriptor d = op_descriptor(OpKind::kMatmul);
  d.params = {{"a", "", "1", 0, 9}, {"b", "", "5", 0, 9}};
  EXPECT_EQ(
      expand_app_params(d, {"1,2", "3,4"}),
      (std::vector<AppParams>{
          {{"a", 1}, {"b", 3}}, {{"a", 1}, {"b", 4}}, {{"a", 2}, {"b", 3}}, {{"a", 2}, {"b", 4}}}));
  EXPECT_EQ(expand_app_params(d, {"7"}), (std::vector<AppParams>{{{"a", 7}, {"b", 5}}}));
  EXPECT_EQ(app_params_text({{"a", 1}, {"b", 3}}), "a=1 b=3");
  EXPECT_EQ(app_params_text({}), "");
}

TEST(Apps, BadInputIsAUsageError) {
  EXPECT_EQ(usage_error({"--app=nope"}), "unknown app 'nope' (available: matmul, em3d)");
  EXPECT_EQ(usage_error({"--app=matmul", "--matmul-n=-3"}),
            "invalid --matmul-n value '-3' (expected an integer from 1 to 2048)");
  EXPECT_EQ(usage_error({"--app=matmul", "--matmul-n=1e3"}),
            "invalid --matmul-n value '1e3' (expected an integer from 1 to 2048)");
  EXPECT_EQ(usage_error({"--matmul-n=8"}),
            "--matmul-n applies to the matmul app, which --app does not select");
  EXPECT_EQ(usage_error({"--op=pingpong,matmul"}),
            "'matmul' is an application, not an op: run it with --app=matmul");
}

// A backend that implements matmul only; it never runs anything.
class MatmulOnly final : public Backend {
 public:
  std::string label() const override { return "fake"; }
  Participants participants() const override { return Participants::kThreads; }
  OpTable ops() const override {
    return {{OpKind::kMatmul,
             [](Comm&, const Args&, Buffers&) -> std::unique_ptr<OpInstance> { return nullptr; }}};
  }
  int max_participants() const override { return 64; }
  void spmd(const Group&, const std::function<void(Comm&)>&) override {}
};

TEST(Apps, TheSweepRunsEveryNpAndParameterSetOnce) {
  Config c = parse({"--app=matmul", "--matmul-n=8,16"});
  c.np_list = {2, 4};
  c.size_np = 2;
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(std::make_unique<MatmulOnly>());
  std::vector<std::string> skipped;
  const auto points = build_sweep(c, backends, &skipped);
  ASSERT_EQ(points.size(), 4u);
  const std::vector<std::pair<int, std::int64_t>> want = {{2, 8}, {2, 16}, {4, 8}, {4, 16}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].op, OpKind::kMatmul);
    EXPECT_EQ(points[i].np, want[i].first);
    EXPECT_EQ(points[i].bytes, 0u);
    EXPECT_TRUE(points[i].np_table);
    EXPECT_EQ(args_for(points[i]).app, (AppParams{{"n", want[i].second}}));
  }
  EXPECT_TRUE(skipped.empty());
}

TEST(Apps, RowsNameAndRecordTheParameters) {
  PointResult p;
  p.backend = "swcc-64";
  p.args.op = OpKind::kMatmul;
  p.args.np = 4;
  p.args.app = {{"n", 256}};
  EXPECT_EQ(point_name(p), "swcc-64/matmul/np:4/n:256");
  Row r;
  r.point = p;
  const auto j = to_json(r);
  EXPECT_EQ(j.at("app"), (nlohmann::json{{"n", 256}}));
  EXPECT_EQ(j.at("op"), "matmul");
  EXPECT_TRUE(j.at("bw_GBps").is_null());
}

// The descriptor against a plain product: A and B assembled from every participant's send
// buffer (its rows of A, then its rows of B), C from the expected values of every participant's
// receive buffer.
TEST(Apps, MatmulReferenceIsTheProductOfTheInputs) {
  for (int np : {1, 2, 3, 5})
    for (std::size_t n : {1u, 4u, 7u, 13u}) {
      Args a;
      a.op = OpKind::kMatmul;
      a.np = np;
      a.app = {{"n", static_cast<std::int64_t>(n)}};
      std::vector<Elem> A(n * n, -1), B(n * n, -1);
      std::size_t rows_total = 0;
      for (int r = 0; r < np; ++r) {
        const apps::RowBlock rows = apps::matmul_rows(n, np, r);
        ASSERT_EQ(send_count(a, r), 2 * rows.count * n);
        ASSERT_EQ(recv_count(a, r), rows.count * n);
        rows_total += rows.count;
        std::vector<Elem> s(send_count(a, r)), v(recv_count(a, r));
        Buffers b{s.data(), s.size(), v.data(), v.size()};
        fill_inputs(a, r, 3, b);
        for (std::size_t i = 0; i < rows.count * n; ++i) {
          A[rows.first * n + i] = s[i];
          B[rows.first * n + i] = s[rows.count * n + i];
          EXPECT_EQ(v[i], -1);  // poison: no product is negative
        }
      }
      ASSERT_EQ(rows_total, n);
      for (Elem x : A) ASSERT_TRUE(x >= 0 && x < 16);
      for (Elem x : B) ASSERT_TRUE(x >= 0 && x < 16);
      for (int r = 0; r < np; ++r) {
        const apps::RowBlock rows = apps::matmul_rows(n, np, r);
        std::vector<Elem> c(rows.count * n);
        for (std::size_t i = 0; i < rows.count; ++i)
          for (std::size_t j = 0; j < n; ++j) {
            Elem sum = 0;
            for (std::size_t k = 0; k < n; ++k) sum += A[(rows.first + i) * n + k] * B[k * n + j];
            c[i * n + j] = sum;
            EXPECT_EQ(op_descriptor(OpKind::kMatmul).expected(a, r, 3, i * n + j), sum);
          }
        Buffers b{nullptr, 0, c.data(), c.size()};
        EXPECT_EQ(count_wrong(a, r, 3, b), 0);
        if (!c.empty()) {
          c[0] += 1;
          EXPECT_EQ(count_wrong(a, r, 3, b), 1);
        }
      }
    }
}

}  // namespace
}  // namespace comops
