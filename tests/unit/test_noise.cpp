// The noise probes: parsing /proc texts, the stall over a window from a fake counter and clock
// (exact stall and contended decisions), and the calling thread's real run delay.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <optional>
#include <thread>

#include "harness/machine/noise.hpp"
#include "tests/allowed_cpu.hpp"

namespace comops {
namespace {

TEST(Noise, ParsesPsiSomeTotal) {
  EXPECT_EQ(parse_psi_some_total_us("some avg10=11.64 avg60=2.58 avg300=5.77 total=10271944712\n"
                                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"),
            10271944712u);
  // the "full" line alone, a "some" line without total=, or a total that is no number: none
  EXPECT_EQ(parse_psi_some_total_us("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"),
            std::nullopt);
  EXPECT_EQ(parse_psi_some_total_us("some avg10=0.00\n"), std::nullopt);
  EXPECT_EQ(parse_psi_some_total_us("some avg10=0.00 total=x\n"), std::nullopt);
  EXPECT_EQ(parse_psi_some_total_us(""), std::nullopt);
}

TEST(Noise, ParsesSchedstatRunDelay) {
  EXPECT_EQ(parse_schedstat_run_delay_ns("164935 2661480 2\n"), 2661480u);
  EXPECT_EQ(parse_schedstat_run_delay_ns("0 0 1\n"), 0u);
  EXPECT_EQ(parse_schedstat_run_delay_ns("164935 2661480\n"), std::nullopt);
  EXPECT_EQ(parse_schedstat_run_delay_ns(""), std::nullopt);
}

TEST(Noise, SourceNames) {
  EXPECT_STREQ(stall_source_name(StallSource::kSchedstat), "schedstat");
  EXPECT_STREQ(stall_source_name(StallSource::kPsi), "psi");
  EXPECT_STREQ(stall_source_name(StallSource::kNone), "none");
}

// A StallWindow over scripted counter and clock readings, in the order the window reads them.
struct Script {
  std::deque<std::optional<double>> counter;
  std::deque<double> clock;
  StallWindow window() {
    return StallWindow(
        [this] {
          auto v = counter.front();
          counter.pop_front();
          return v;
        },
        [this] {
          double v = clock.front();
          clock.pop_front();
          return v;
        });
  }
};

StallWindow run_window(std::optional<double> c0, std::optional<double> c1, double t0, double t1) {
  static Script script;  // outlives the returned window's use below
  script = Script{{c0, c1}, {t0, t1}};
  StallWindow w = script.window();
  w.start();
  w.stop();
  EXPECT_TRUE(script.counter.empty() && script.clock.empty()) << "each read once at each end";
  return w;
}

TEST(StallWindow, ExactStallAndWindow) {
  const StallWindow w = run_window(1000.0, 1600.0, 5e6, 5e6 + 10000.0);
  ASSERT_TRUE(w.stall_us().has_value());
  EXPECT_DOUBLE_EQ(*w.stall_us(), 600.0);
  EXPECT_DOUBLE_EQ(w.window_us(), 10000.0);
  EXPECT_TRUE(is_contended(w.stall_us(), w.window_us()));  // 6 % of the window
}

TEST(StallWindow, FivePercentIsNotContended) {
  const StallWindow at = run_window(1000.0, 1500.0, 0.0, 10000.0);
  EXPECT_DOUBLE_EQ(*at.stall_us(), 500.0);
  EXPECT_FALSE(is_contended(at.stall_us(), at.window_us()));  // not above 5 %
  const StallWindow above = run_window(1000.0, 1501.0, 0.0, 10000.0);
  EXPECT_TRUE(is_contended(above.stall_us(), above.window_us()));
  const StallWindow idle = run_window(7.0, 7.0, 0.0, 10000.0);
  EXPECT_DOUBLE_EQ(*idle.stall_us(), 0.0);
  EXPECT_FALSE(is_contended(idle.stall_us(), idle.window_us()));
}

TEST(StallWindow, UnreadableOrBackwardCounterGivesNoStall) {
  EXPECT_EQ(run_window(std::nullopt, 1600.0, 0.0, 10000.0).stall_us(), std::nullopt);
  EXPECT_EQ(run_window(1000.0, std::nullopt, 0.0, 10000.0).stall_us(), std::nullopt);
  EXPECT_EQ(run_window(1000.0, 999.0, 0.0, 10000.0).stall_us(), std::nullopt);
  const StallWindow none = run_window(std::nullopt, std::nullopt, 0.0, 10000.0);
  EXPECT_FALSE(is_contended(none.stall_us(), none.window_us()));
}

TEST(StallWindow, ContendedNeedsAStallAndAWindow) {
  EXPECT_FALSE(is_contended(std::nullopt, 10000.0));
  EXPECT_FALSE(is_contended(600.0, 0.0));
  EXPECT_FALSE(is_contended(0.0, 10000.0));
  EXPECT_TRUE(is_contended(600.0, 10000.0));
}

// Spins on `cpu` until `stop`, the calling thread pinned there.
void spin_on(int cpu, const std::atomic<bool>& stop) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  while (!stop.load(std::memory_order_relaxed)) {
  }
}

using comops_test::first_allowed_cpu;

// The calling thread's own run delay: never more than the window, and a thread sharing its core
// with a busy thread waits for it (the scheduler shares the core, so well above 5 %).
// A participant that waited at the first barrier for a preempted partner has the longer window:
// the point shows the preempted one's stall with its own window, never one participant's stall
// over another's window (CI once saw 8002 us of stall over a 3711 us window that way).
TEST(StallWindow, MostStalledParticipantKeepsItsOwnWindow) {
  const ParticipantStall worst = most_stalled({{8002.0, 12000.0}, {300.0, 3711.0}, {0.0, 5000.0}});
  ASSERT_TRUE(worst.stall_us.has_value());
  EXPECT_EQ(*worst.stall_us, 8002.0);  // 67 % of its window, against 8 % and 0 %
  EXPECT_EQ(worst.window_us, 12000.0);
  const ParticipantStall share = most_stalled({{900.0, 1000.0}, {5000.0, 100000.0}});
  EXPECT_EQ(*share.stall_us, 900.0);  // the largest share, not the largest stall
  EXPECT_EQ(share.window_us, 1000.0);
  EXPECT_FALSE(most_stalled({{10.0, 100.0}, {std::nullopt, 200.0}}).stall_us.has_value());
  const ParticipantStall none = most_stalled({});
  EXPECT_FALSE(none.stall_us.has_value());
  EXPECT_EQ(none.window_us, 0.0);
}

TEST(StallWindow, ThreadSharingItsCoreWaits) {
  if (stall_source() != StallSource::kSchedstat)
    GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel (source "
                 << stall_source_name(stall_source()) << ")";
  const int cpu = first_allowed_cpu();
  std::optional<double> stall;
  double window = 0;
  std::atomic<bool> stop{false};
  std::thread busy([&] { spin_on(cpu, stop); });
  std::thread measured([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    StallWindow w = thread_stall_window();
    w.start();
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    while (std::chrono::steady_clock::now() < end) {
    }
    w.stop();
    stall = w.stall_us();
    window = w.window_us();
  });
  measured.join();
  stop = true;
  busy.join();
  ASSERT_TRUE(stall.has_value());
  EXPECT_LE(*stall, window);
  EXPECT_TRUE(is_contended(stall, window)) << *stall << " us of " << window << " us";
}

}  // namespace
}  // namespace comops
