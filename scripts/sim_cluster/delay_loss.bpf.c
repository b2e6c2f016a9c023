// tc egress program of sim_cluster.sh: drops LOSS_PPM per million packets, delays the rest DELAY_NS.
//
// This kernel has neither netem nor fq (so no EDT delivery times), and a tc program cannot queue
// a packet, so the delay is a busy wait in the sender's transmit path: each packet leaves DELAY_NS
// later than it was sent. Back-to-back packets queue behind each other (a link that takes DELAY_NS
// per packet, not a pure propagation delay); GSO sends up to 64 KiB as one packet. Both numbers
// come in as -D defines when sim_cluster.sh compiles this file with clang -target bpf.
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#ifndef DELAY_NS
#define DELAY_NS 0ULL
#endif
#ifndef LOSS_PPM
#define LOSS_PPM 0U
#endif

// Helper ids are a stable kernel ABI; declaring the three used here avoids needing libbpf-dev.
static __u64 (*bpf_ktime_get_ns)(void) = (void*)BPF_FUNC_ktime_get_ns;
static __u32 (*bpf_get_prandom_u32)(void) = (void*)BPF_FUNC_get_prandom_u32;
static long (*bpf_loop)(__u32 nr_loops, void* callback, void* ctx, __u64 flags) =
    (void*)BPF_FUNC_loop;

// bpf_loop callback: returns 1 (stop) once the clock has reached *end_ns.
static long wait_until(__u32 index, void* ctx) {
  (void)index;
  return bpf_ktime_get_ns() >= *(__u64*)ctx;
}

__attribute__((section("tc"), used)) int delay_loss(struct __sk_buff* skb) {
  (void)skb;
  if (LOSS_PPM > 0 && bpf_get_prandom_u32() % 1000000U < LOSS_PPM) return TC_ACT_SHOT;
  if (DELAY_NS > 0) {
    __u64 end_ns = bpf_ktime_get_ns() + DELAY_NS;
    // 1 << 23 is bpf_loop's limit: far more clock reads than any delay sim_cluster.sh allows.
    bpf_loop(1U << 23, wait_until, &end_ns, 0);
  }
  return TC_ACT_OK;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
