// MPI tests of the swcc transport alone (no DSM): aggregation of messages into packets, exact
// logical and packet counts, delivery complete and in order with exact payloads, flush and poll
// semantics, fault injection on logical messages, messages to self, and a two-way flood past the
// in-flight cap.
#include "swcc/detail/transport.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "swcc/detail/load_factor.hpp"
#include "tests/mpi_world.hpp"

namespace swcc {
namespace {

using comops::test::world_rank;
using comops::test::world_size;

struct Got {
  MsgHeader h;
  std::vector<std::uint8_t> payload;
};

// The payload byte j of message `i` from `src` to `dest`.
std::uint8_t byte_of(int src, int dest, std::uint64_t i, std::size_t j) {
  return static_cast<std::uint8_t>(src * 131 + dest * 17 + i * 7 + j * 3 + 1);
}

MsgHeader header_of(int src, int dest, std::uint64_t i, std::uint32_t len) {
  MsgHeader h;
  h.type = MsgType::kScWrite;
  h.src = src;
  h.block = static_cast<std::uint64_t>(dest);
  h.offset = static_cast<std::uint32_t>(i * 3);
  h.len = len;
  h.tag = i;
  return h;
}

// Sends message i (payload of len bytes) from this rank to dest.
void send_one(Transport& t, int dest, std::uint64_t i, std::uint32_t len) {
  const int me = t.rank();
  std::vector<std::uint8_t> p(len);
  for (std::size_t j = 0; j < len; ++j) p[j] = byte_of(me, dest, i, j);
  t.send(dest, header_of(me, dest, i, len), p.data());
}

// Empty if message g is exactly message i of len bytes sent by src to dest, else what differs.
std::string mismatch(const Got& g, int src, int dest, std::uint64_t i, std::uint32_t len) {
  const MsgHeader e = header_of(src, dest, i, len);
  if (g.h.type != e.type || g.h.src != e.src || g.h.block != e.block || g.h.offset != e.offset ||
      g.h.len != e.len || g.h.tag != e.tag || g.payload.size() != len)
    return "header of message " + std::to_string(i) + " from " + std::to_string(src) +
           ": got tag " + std::to_string(g.h.tag) + " len " + std::to_string(g.h.len);
  for (std::size_t j = 0; j < len; ++j)
    if (g.payload[j] != byte_of(src, dest, i, j))
      return "payload byte " + std::to_string(j) + " of message " + std::to_string(i) + " from " +
             std::to_string(src);
  return {};
}

// A bound for hangs only, never for speed: 60 s stretched by the machine's load.
double hang_bound_s() { return 60 * load_factor(); }

// Polls until `n` messages have been delivered and none is held back, or the hang bound passed.
bool poll_until(Transport& t, std::vector<Got>& got, std::size_t n) {
  const double deadline = MPI_Wtime() + hang_bound_s();
  while (got.size() < n || t.held() > 0) {
    t.poll([&](const MsgHeader& h, const std::uint8_t* p) {
      got.push_back(
          {h, h.len ? std::vector<std::uint8_t>(p, p + h.len) : std::vector<std::uint8_t>{}});
    });
    if (MPI_Wtime() > deadline) return false;
  }
  return true;
}

// Packets that `sizes` (message bytes, header included) sent to one destination and then flushed
// make: a packet leaves when the next message would not fit in `limit`.
std::int64_t packets_for(const std::vector<std::size_t>& sizes, std::size_t limit) {
  std::int64_t packets = 0;
  std::size_t fill = 0;
  for (std::size_t s : sizes) {
    if (fill > 0 && fill + s > limit) {
      ++packets;
      fill = 0;
    }
    fill += s;
  }
  return packets + (fill > 0 ? 1 : 0);
}

// Checks that `got` holds exactly `n` messages from every other rank, each sender's in the order
// sent, with lengths len(i), and no message from this rank.
template <class Len>
void expect_in_order_from_every_peer(const std::vector<Got>& got, int me, int size, std::uint64_t n,
                                     Len&& len) {
  std::map<int, std::uint64_t> next;
  std::string first_error;
  std::size_t errors = 0;
  for (const Got& g : got) {
    const int src = g.h.src;
    if (src < 0 || src >= size || src == me) {
      ++errors;
      if (first_error.empty()) first_error = "message from rank " + std::to_string(src);
      continue;
    }
    const std::uint64_t i = next[src]++;
    std::string e = mismatch(g, src, me, i, len(i));
    if (!e.empty()) {
      ++errors;
      if (first_error.empty()) first_error = e;
    }
  }
  EXPECT_EQ(errors, 0u) << first_error;
  for (int r = 0; r < size; ++r)
    if (r != me) {
      EXPECT_EQ(next[r], n) << "messages from rank " << r;
    }
}

TEST(SwccTransport, ManySmallMessagesArriveCompleteInOrderInFewerPackets) {
  const int me = world_rank(), size = world_size();
  constexpr std::uint64_t kN = 5000;
  auto len = [](std::uint64_t i) { return static_cast<std::uint32_t>(i % 41); };  // 0..40
  std::vector<Got> got;
  {
    Transport t(MPI_COMM_WORLD, 64, FaultConfig{});
    ASSERT_EQ(t.packet_bytes(), Transport::kPacketBytes);
    // Interleaved over the destinations, no poll in between.
    for (std::uint64_t i = 0; i < kN; ++i)
      for (int d = 0; d < size; ++d)
        if (d != me) send_one(t, d, i, len(i));
    t.flush();
    std::vector<std::size_t> sizes;
    std::int64_t bytes = 0;
    for (std::uint64_t i = 0; i < kN; ++i) {
      sizes.push_back(sizeof(MsgHeader) + len(i));
      bytes += static_cast<std::int64_t>(sizes.back());
    }
    const std::int64_t peers = size - 1;
    EXPECT_EQ(t.messages_sent(), static_cast<std::int64_t>(kN) * peers);
    EXPECT_EQ(t.bytes_sent(), bytes * peers);
    EXPECT_EQ(t.packets_sent(), packets_for(sizes, t.packet_bytes()) * peers);
    EXPECT_LT(t.packets_sent() * 100, t.messages_sent());  // > 100 messages a packet
    ASSERT_TRUE(poll_until(t, got, kN * static_cast<std::uint64_t>(peers))) << "got " << got.size();
    EXPECT_EQ(t.packets_sent(), packets_for(sizes, t.packet_bytes()) * peers)
        << "polling with nothing to send sent packets";
    MPI_Barrier(MPI_COMM_WORLD);
  }
  expect_in_order_from_every_peer(got, me, size, kN, len);
}

TEST(SwccTransport, EqualMessagesMakeExactlyCeilOfBytesOverLimitPackets) {
  const int me = world_rank();
  constexpr std::uint64_t kN = 3000;
  constexpr std::uint32_t kLen = 32;  // 64-byte messages: 512 to a 32 KiB packet
  constexpr std::size_t kBytes = sizeof(MsgHeader) + kLen;
  Transport t(MPI_COMM_WORLD, kLen, FaultConfig{});
  const std::int64_t per_packet = static_cast<std::int64_t>(t.packet_bytes() / kBytes);
  const std::int64_t total = static_cast<std::int64_t>(kN * kBytes);
  const std::int64_t limit = static_cast<std::int64_t>(t.packet_bytes());
  std::vector<Got> got;
  if (me == 0) {
    for (std::uint64_t i = 0; i < kN; ++i) send_one(t, 1, i, kLen);
    // Full packets left as the next message did not fit; the last one waits for the flush.
    EXPECT_EQ(t.packets_sent(), (static_cast<std::int64_t>(kN) - 1) / per_packet);
    t.flush();
    EXPECT_EQ(t.packets_sent(), (total + limit - 1) / limit);
    EXPECT_EQ(t.packets_sent(), 6);  // 3000 x 64 B over 32 KiB
    t.flush();                       // nothing pending: no packet
    EXPECT_EQ(t.packets_sent(), 6);
    EXPECT_EQ(t.messages_sent(), static_cast<std::int64_t>(kN));
    EXPECT_EQ(t.bytes_sent(), total);
  }
  if (me == 1) {
    ASSERT_TRUE(poll_until(t, got, kN)) << "got " << got.size();
    EXPECT_EQ(t.messages_sent(), 0);
    EXPECT_EQ(t.packets_sent(), 0);
    std::size_t bad = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i) bad += !mismatch(got[i], 0, 1, i, kLen).empty();
    EXPECT_EQ(bad, 0u);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(SwccTransport, MessageAsLargeAsTheMaxPayloadGoesThrough) {
  const int me = world_rank(), size = world_size();
  // 4096: the largest block (the packet limit stays 32 KiB); 100000: larger than the packet
  // limit, which grows to fit the message.
  for (std::uint32_t max_payload : {4096u, 100000u}) {
    const std::vector<std::uint32_t> lens = {
        10, max_payload, max_payload, 0, max_payload - 1, max_payload, 5, 7};
    auto len = [&](std::uint64_t i) { return lens[i]; };
    std::vector<Got> got;
    {
      Transport t(MPI_COMM_WORLD, max_payload, FaultConfig{});
      EXPECT_EQ(t.packet_bytes(),
                std::max<std::size_t>(Transport::kPacketBytes, sizeof(MsgHeader) + max_payload));
      std::vector<std::size_t> sizes;
      for (std::uint64_t i = 0; i < lens.size(); ++i) {
        sizes.push_back(sizeof(MsgHeader) + lens[i]);
        for (int d = 0; d < size; ++d)
          if (d != me) send_one(t, d, i, lens[i]);
      }
      std::vector<std::uint8_t> big(max_payload + 1);
      EXPECT_THROW(t.send((me + 1) % size, header_of(me, 0, 99, max_payload + 1), big.data()),
                   std::length_error);
      t.flush();
      EXPECT_EQ(t.packets_sent(), packets_for(sizes, t.packet_bytes()) * (size - 1));
      if (max_payload == 100000) {
        EXPECT_EQ(packets_for(sizes, t.packet_bytes()), 7);
      }
      ASSERT_TRUE(poll_until(t, got, lens.size() * static_cast<std::size_t>(size - 1)));
      MPI_Barrier(MPI_COMM_WORLD);
    }
    expect_in_order_from_every_peer(got, me, size, lens.size(), len);
  }
}

TEST(SwccTransport, MessagesLeaveAtFlushAndArriveWithoutTheSenderPollingAgain) {
  const int me = world_rank(), size = world_size();
  constexpr std::uint64_t kN = 100;
  Transport t(MPI_COMM_WORLD, 64, FaultConfig{});
  std::vector<Got> got;
  if (me == 0)
    for (std::uint64_t i = 0; i < kN; ++i)
      for (int d = 1; d < size; ++d) send_one(t, d, i, 8);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    EXPECT_EQ(t.packets_sent(), 0);  // buffered: 100 x 40 B fit in one packet
  }
  if (me != 0) {  // nothing has left rank 0 yet
    const double until = MPI_Wtime() + 0.1;
    while (MPI_Wtime() < until)
      t.poll([&](const MsgHeader& h, const std::uint8_t*) { got.push_back({h, {}}); });
    EXPECT_EQ(got.size(), 0u);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    t.flush();
    EXPECT_EQ(t.packets_sent(), size - 1);
    MPI_Barrier(MPI_COMM_WORLD);  // rank 0 never polls again
  } else {
    EXPECT_TRUE(poll_until(t, got, kN)) << "got " << got.size();
    MPI_Barrier(MPI_COMM_WORLD);
    std::size_t bad = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i) bad += !mismatch(got[i], 0, me, i, 8).empty();
    EXPECT_EQ(got.size(), kN);
    EXPECT_EQ(bad, 0u);
  }
}

TEST(SwccTransport, ASingleMessageLeavesAtThePollThatFollowsIt) {
  // A single miss: the request leaves at the poll of the requester's wait, and the reply a
  // handler sends leaves at the end of the home's poll that delivered the request, with no
  // further poll at the home and no buffer filling up.
  const int me = world_rank();
  Transport t(MPI_COMM_WORLD, 64, FaultConfig{});
  std::vector<Got> got;
  if (me == 0) {
    send_one(t, 1, 0, 0);
    EXPECT_EQ(t.packets_sent(), 0);
    EXPECT_TRUE(poll_until(t, got, 1)) << "no reply";
    EXPECT_EQ(t.packets_sent(), 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(mismatch(got[0], 1, 0, 1, 16), "");
  }
  if (me == 1) {
    const double deadline = MPI_Wtime() + hang_bound_s();
    int n = 0;
    while (n == 0 && MPI_Wtime() < deadline)
      n = t.poll([&](const MsgHeader& h, const std::uint8_t*) {
        EXPECT_EQ(h.src, 0);
        send_one(t, 0, h.tag + 1, 16);  // the reply, sent inside the handler
      });
    EXPECT_EQ(n, 1);
    EXPECT_EQ(t.packets_sent(), 1);  // left at the end of that poll
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 1 never polls again
}

TEST(SwccTransport, FaultInjectionDeliversEveryLogicalMessageOnceAndReordersThem) {
  const int me = world_rank(), size = world_size();
  constexpr std::uint64_t kN = 2000, kSelf = 200;
  FaultConfig f;
  f.enabled = true;
  f.seed = 7;
  std::vector<Got> got;
  Transport t(MPI_COMM_WORLD, 64, f);
  auto len = [](std::uint64_t i) { return static_cast<std::uint32_t>(i % 17); };
  for (std::uint64_t i = 0; i < kN; ++i)
    for (int d = 0; d < size; ++d)
      if (d != me || i < kSelf) send_one(t, d, i, len(i));
  t.flush();
  EXPECT_EQ(t.messages_sent(), static_cast<std::int64_t>(kN) * (size - 1));  // self not counted
  EXPECT_LT(t.packets_sent(), 10 * (size - 1));
  const std::size_t expected = kN * static_cast<std::size_t>(size - 1) + kSelf;
  ASSERT_TRUE(poll_until(t, got, expected)) << "got " << got.size();
  EXPECT_EQ(t.held(), 0u);
  // Exactly once each: the sorted (source, tag) lists are equal, and every payload is exact.
  std::vector<std::pair<int, std::uint64_t>> want, have;
  for (int s = 0; s < size; ++s)
    for (std::uint64_t i = 0; i < (s == me ? kSelf : kN); ++i) want.emplace_back(s, i);
  std::size_t bad = 0, out_of_order = 0;
  std::map<int, std::uint64_t> last;
  for (const Got& g : got) {
    have.emplace_back(g.h.src, g.h.tag);
    if (g.h.src >= 0 && g.h.src < size && g.h.tag < kN)
      bad += !mismatch(g, g.h.src, me, g.h.tag, len(g.h.tag)).empty();
    auto it = last.find(g.h.src);
    if (it != last.end() && g.h.tag < it->second) ++out_of_order;
    last[g.h.src] = g.h.tag;
  }
  std::sort(have.begin(), have.end());
  EXPECT_EQ(have.size(), want.size());
  EXPECT_TRUE(have == want) << "messages lost or duplicated";
  EXPECT_EQ(bad, 0u);
  // Held messages come out later, so some messages of a sender overtake earlier ones, also
  // inside one packet.
  EXPECT_GT(out_of_order, 0u);
  MPI_Barrier(MPI_COMM_WORLD);
}

// send_large(): a payload bigger than a packet leaves as its own MPI message while its header
// keeps its place among the packed messages; every peer gets every message once, in order, with
// exact payloads, with and without fault injection. Small ones go through send(). Counts: one
// MPI message per large payload beside the packets of the headers and small messages.
TEST(SwccTransport, LargePayloadsLeaveAsTheirOwnMessagesInOrderWithThePackedOnes) {
  const int me = world_rank();
  const int size = world_size();
  const std::uint32_t packet_payload =
      static_cast<std::uint32_t>(Transport::kPacketBytes - sizeof(MsgHeader));
  // Large, small, exactly a packet (not large), large, large, 0 bytes, 1 MiB.
  const std::vector<std::uint32_t> lens = {100000, 17, packet_payload, packet_payload + 1,
                                           40000,  0,  1u << 20};
  auto len = [&](std::uint64_t i) { return lens[i]; };
  for (const bool faults : {false, true}) {
    SCOPED_TRACE(faults ? "with fault injection" : "without faults");
    FaultConfig f;
    f.enabled = faults;
    f.seed = 7;
    std::vector<Got> got;
    std::vector<std::vector<std::uint8_t>> payloads;  // unchanged until the receivers have them
    {
      Transport t(MPI_COMM_WORLD, packet_payload, f);
      for (std::uint64_t i = 0; i < lens.size(); ++i)
        for (int d = 0; d < size; ++d) {
          if (d == me) continue;
          payloads.emplace_back(lens[i]);
          for (std::size_t j = 0; j < lens[i]; ++j) payloads.back()[j] = byte_of(me, d, i, j);
          t.send_large(d, header_of(me, d, i, lens[i]), payloads.back().data());
        }
      t.flush();
      EXPECT_EQ(t.messages_sent(), static_cast<std::int64_t>(lens.size()) * (size - 1));
      // Per peer: 4 large payloads, and 3 packets: the first header and the 17-byte message
      // (81 bytes) leave when the packet-sized message does not fit beside them; that one
      // leaves when the next header does not fit; the last 4 headers leave at the flush.
      EXPECT_EQ(t.packets_sent(), (4 + 3) * (size - 1));
      ASSERT_TRUE(poll_until(t, got, lens.size() * static_cast<std::size_t>(size - 1)));
      EXPECT_TRUE(t.wait_large(hang_bound_s()));
      MPI_Barrier(MPI_COMM_WORLD);
    }
    if (faults) {
      // Fault injection reorders messages: compare each sender's messages as a set.
      std::map<std::pair<int, std::uint64_t>, int> seen;
      std::size_t bad = 0;
      for (const Got& g : got) {
        ++seen[{g.h.src, g.h.tag}];
        bad += g.h.tag >= lens.size() || !mismatch(g, g.h.src, me, g.h.tag, len(g.h.tag)).empty();
      }
      EXPECT_EQ(bad, 0u);
      EXPECT_EQ(seen.size(), lens.size() * static_cast<std::size_t>(size - 1));
    } else {
      expect_in_order_from_every_peer(got, me, size, lens.size(), len);
    }
  }
}

TEST(SwccTransport, SelfMessagesAreQueuedLocallyAndNotCounted) {
  const int me = world_rank();
  constexpr std::uint64_t kN = 300;
  Transport t(MPI_COMM_WORLD, 4096, FaultConfig{});
  auto len = [](std::uint64_t i) { return static_cast<std::uint32_t>((i * 37) % 4097); };
  for (std::uint64_t i = 0; i < kN; ++i) send_one(t, me, i, len(i));
  t.flush();
  EXPECT_EQ(t.messages_sent(), 0);
  EXPECT_EQ(t.bytes_sent(), 0);
  EXPECT_EQ(t.packets_sent(), 0);
  std::vector<Got> got;
  ASSERT_TRUE(poll_until(t, got, kN));
  EXPECT_EQ(t.poll([](const MsgHeader&, const std::uint8_t*) {}), 0);
  ASSERT_EQ(got.size(), kN);
  std::size_t bad = 0;
  for (std::uint64_t i = 0; i < kN; ++i) bad += !mismatch(got[i], me, me, i, len(i)).empty();
  EXPECT_EQ(bad, 0u);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(SwccTransport, TwoWayFloodPastTheInFlightCapWithoutPolling) {
  // Every rank sends about twice the in-flight cap of full packets to every other rank before it
  // polls once: send() may have to wait for send slots, and meanwhile it takes in the peers'
  // packets without delivering them. Everything arrives, in order, exactly.
  const int me = world_rank(), size = world_size();
  constexpr std::uint32_t kLen = 4096;
  Transport t(MPI_COMM_WORLD, kLen, FaultConfig{});
  const std::uint64_t per_packet = t.packet_bytes() / (sizeof(MsgHeader) + kLen);
  const std::uint64_t n = (2 * Transport::kMaxInFlight + 3) * per_packet;
  for (std::uint64_t i = 0; i < n; ++i)
    for (int d = 0; d < size; ++d)
      if (d != me) send_one(t, d, i, kLen);
  t.flush();
  EXPECT_EQ(t.packets_sent(),
            static_cast<std::int64_t>((n + per_packet - 1) / per_packet) * (size - 1));
  std::vector<Got> got;
  ASSERT_TRUE(poll_until(t, got, n * static_cast<std::uint64_t>(size - 1))) << "got " << got.size();
  expect_in_order_from_every_peer(got, me, size, n, [](std::uint64_t) { return kLen; });
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace swcc
