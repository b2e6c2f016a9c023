// The pieces of a variant's job that need no MPI: reading UCX's endpoint log
// (harness/launch/ucx_log.hpp) and a measured point's round trip through JSON
// (harness/measure/point_result_json.hpp).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "comops/op.hpp"
#include "harness/launch/ucx_log.hpp"
#include "harness/launch/variant_job.hpp"
#include "harness/measure/point_result_json.hpp"
#include "temp_dir.hpp"

namespace comops {
namespace {

// UCX 1.13.1's lines at UCX_LOG_LEVEL=info, two ranks (MPICH 4.0.2 on this machine).
constexpr const char* kRank0 =
    "[1796044770.592409] [vm:27831:0]     ucp_context.c:1849 UCX  INFO  Version 1.13.1\n"
    "[1796044770.887322] [vm:27831:0]      ucp_worker.c:1763 UCX  INFO    ep_cfg[0]: "
    "tag(self/memory0 cma/memory) rma(self/memory0 sysv/memory posix/memory) am(self/memory0 "
    "cma/memory)\n"
    "[1796044770.887623] [vm:27831:0]      ucp_worker.c:1763 UCX  INFO    ep_cfg[1]: "
    "tag(sysv/memory cma/memory) rma(sysv/memory posix/memory) am(sysv/memory cma/memory)\n";
constexpr const char* kRank1 =
    "[1796044770.903135] [vm:27832:0]      ucp_worker.c:1763 UCX  INFO    ep_cfg[0]: "
    "tag(sysv/memory cma/memory) rma(sysv/memory posix/memory) am(sysv/memory cma/memory)  \n";

TEST(UcxLog, EndpointConfigsAndTransports) {
  const auto configs = ucx_endpoint_configs(std::string(kRank0) + kRank1);
  ASSERT_EQ(configs.size(), 2u);  // rank 1's endpoint equals rank 0's second one
  EXPECT_EQ(configs[0],
            "tag(self/memory0 cma/memory) rma(self/memory0 sysv/memory posix/memory) "
            "am(self/memory0 cma/memory)");
  EXPECT_EQ(configs[1],
            "tag(sysv/memory cma/memory) rma(sysv/memory posix/memory) am(sysv/memory cma/memory)");
  EXPECT_EQ(ucx_transports(configs), (std::vector<std::string>{"cma", "posix", "self", "sysv"}));
  EXPECT_EQ(ucx_transports({"tag(tcp/lo self/memory0) am(tcp/eth0)"}),
            (std::vector<std::string>{"self", "tcp"}));
  EXPECT_TRUE(ucx_endpoint_configs("UCX  INFO  Version 1.13.1\n").empty());
}

TEST(UcxLog, UsageFromTheFilesOfADirectory) {
  comops_test::TempDir dir;
  std::ofstream(dir.file("ucx.vm.27831.log")) << kRank0;
  std::ofstream(dir.file("ucx.vm.27832.log")) << kRank1;
  std::ofstream(dir.file("points.jsonl")) << "ep_cfg[9]: tag(tcp/lo)\n";  // not a UCX log
  const nlohmann::json usage = ucx_usage(read_ucx_logs(dir.path().string()));
  EXPECT_EQ(usage["transports"], (nlohmann::json{"cma", "posix", "self", "sysv"}));
  EXPECT_EQ(usage["endpoints"].size(), 2u);
  EXPECT_TRUE(ucx_usage("").is_null());  // no UCX, or the variant logged elsewhere
}

TEST(PointResultJson, RoundTripsEveryField) {
  PointResult p;
  p.backend = "mpi";
  p.args = Args{OpKind::kScatter, 3, 1024, 128, 0, 1, {}};
  p.iterations = 20;
  p.warmup = 2;
  p.repetitions = 3;
  p.time_min_us = 1.25;
  p.time_avg_us = 1.5;
  p.time_max_us = 2.75;
  p.rep_max_us = {2.5, 2.75, 3.0};
  p.percentiles_us = Percentiles{1, 2, 3, 4};
  p.wrong = 7;
  p.cores = {0, 1, -1};
  p.hosts = {"a", "b", "c"};
  p.nodes = 2;
  p.pair = Pair::kInter;
  p.counters = {{"hits", 5}, {"misses", 6}};
  p.cpu_stall_us = 12.5;
  p.cpu_stall_window_us = 1000;
  p.cpu_steal_us = 30000;
  p.cpu_steal_window_us = 1001;
  const PointResult q =
      point_result_from_json(nlohmann::json::parse(point_result_to_json(p).dump()));
  EXPECT_EQ(q.backend, "mpi");
  EXPECT_EQ(q.args.op, OpKind::kScatter);
  EXPECT_EQ(q.args.np, 3);
  EXPECT_EQ(q.args.bytes, 1024u);
  EXPECT_EQ(q.args.count, 128u);
  EXPECT_EQ(q.iterations, 20);
  EXPECT_EQ(q.warmup, 2);
  EXPECT_EQ(q.repetitions, 3);
  EXPECT_EQ(q.time_min_us, 1.25);
  EXPECT_EQ(q.time_avg_us, 1.5);
  EXPECT_EQ(q.time_max_us, 2.75);
  EXPECT_EQ(q.rep_max_us, p.rep_max_us);
  ASSERT_TRUE(q.percentiles_us.has_value());
  EXPECT_EQ(q.percentiles_us->p50, 1);
  EXPECT_EQ(q.percentiles_us->p90, 2);
  EXPECT_EQ(q.percentiles_us->p99, 3);
  EXPECT_EQ(q.percentiles_us->max, 4);
  EXPECT_EQ(q.wrong, 7);
  EXPECT_EQ(q.cores, p.cores);
  EXPECT_EQ(q.hosts, p.hosts);
  EXPECT_EQ(q.nodes, 2);
  EXPECT_EQ(q.pair, Pair::kInter);
  EXPECT_EQ(q.counters, p.counters);
  EXPECT_EQ(q.cpu_stall_us, 12.5);
  EXPECT_EQ(q.cpu_stall_window_us, 1000);
  EXPECT_EQ(q.cpu_steal_us, 30000);
  EXPECT_EQ(q.cpu_steal_window_us, 1001);

  PointResult bare;
  const PointResult b = point_result_from_json(point_result_to_json(bare));
  EXPECT_FALSE(b.percentiles_us.has_value());
  EXPECT_FALSE(b.cpu_stall_us.has_value());
  EXPECT_FALSE(b.cpu_steal_us.has_value());
  EXPECT_THROW(point_result_from_json({{"backend", "mpi"}}), RuntimeError);
}

}  // namespace
}  // namespace comops

namespace comops {
namespace {

TEST(VariantJob, DropsTheCallingJobsVariablesAndKeepsTheUsers) {
  for (const char* job :
       {"PMI_RANK", "PMIX_NAMESPACE", "HYDRA_CONTROL_FD", "OMPI_COMM_WORLD_RANK",
        "OMPI_MCA_orte_hnp_uri", "OMPI_MCA_ess_base_jobid", "OMPI_MCA_ess", "OMPI_MCA_pmix",
        "OMPI_MCA_initial_wdir", "OMPI_FILE_LOCATION", "OMPI_UNIVERSE_SIZE", "COMOPS_LAUNCHED"})
    EXPECT_TRUE(variant_job_drops(job)) << job;
  for (const char* user : {"OMPI_MCA_btl", "OMPI_MCA_pml", "OMPI_ALLOW_RUN_AS_ROOT", "UCX_TLS",
                           "MPIR_CVAR_CH4_NETMOD", "PATH", "HOME"})
    EXPECT_FALSE(variant_job_drops(user)) << user;
}

// Open MPI 4.1.4's output when OMPI_MCA_btl names a BTL it does not have (two ranks; Open MPI
// prints the component's box only now and then, so the MPI_INIT box may come alone).
constexpr const char* kComponentBox =
    "--------------------------------------------------------------------------\n"
    "A requested component was not found, or was unable to be opened.  This\n"
    "means that this component is either not installed or is unable to be\n"
    "used on your system.\n"
    "\n"
    "Host:      vm\n"
    "Framework: btl\n"
    "Component: nosuchbtl\n"
    "--------------------------------------------------------------------------\n";
constexpr const char* kInitBox =
    "--------------------------------------------------------------------------\n"
    "It looks like MPI_INIT failed for some reason; your parallel process is\n"
    "likely to abort.  There are many reasons that a parallel process can\n"
    "fail during MPI_INIT.\n"
    "\n"
    "  mca_bml_base_open() failed\n"
    "--------------------------------------------------------------------------\n"
    "[vm:27684] *** An error occurred in MPI_Init_thread\n";

TEST(VariantJob, ErrorLineOfAFailedJob) {
  EXPECT_EQ(variant_job_error(std::string(kInitBox) + kComponentBox),
            "Open MPI: A requested component was not found, or was unable to be opened (btl "
            "nosuchbtl)");
  EXPECT_EQ(variant_job_error(kInitBox),
            "Open MPI: It looks like MPI_INIT failed for some reason; your parallel process is "
            "likely to abort");
  EXPECT_EQ(variant_job_error("[1.2] [vm:1:0] ucp_context.c:1 UCX  ERROR no usable transports\n" +
                              std::string(kInitBox)),
            "UCX: no usable transports");
  EXPECT_EQ(variant_job_error(std::string(kInitBox) + "comops: error: --sizes: bad size\n"),
            "--sizes: bad size");
  EXPECT_EQ(
      variant_job_error("Abort(1) on node 0: Fatal error in internal_Init: Other MPI error\n"),
      "Abort(1) on node 0: Fatal error in internal_Init: Other MPI error");
  EXPECT_EQ(variant_job_error("some output\nwithout an error\n"), "");
}

// Under load Open MPI's launcher at times loses the box a failing rank sent it and logs its own
// error instead (seen in CI): that line is the reason, and a box still wins over it.
TEST(VariantJob, OpenMpiRuntimeErrorWhenTheBoxIsLost) {
  const std::string lost =
      "[vm:31147] [[5461,0],0] ORTE_ERROR_LOG: Data unpack had inadequate space in file "
      "../../../orte/util/show_help.c at line 513\n"
      "[vm:31147] [[5461,0],0] ORTE_ERROR_LOG: Out of resource in file "
      "../../../orte/util/show_help.c at line 501\n";
  EXPECT_EQ(variant_job_error(lost),
            "Open MPI's runtime: Data unpack had inadequate space (orte/util/show_help.c:513)");
  EXPECT_EQ(variant_job_error(lost + kComponentBox),
            "Open MPI: A requested component was not found, or was unable to be opened (btl "
            "nosuchbtl)");
}

}  // namespace
}  // namespace comops
