// Active messages over MPI point-to-point on a private duplicate communicator: non-blocking
// sends aggregated into packets per destination, pre-posted receives, a local queue for
// messages to self, and a seeded fault-injection mode that holds messages back and delivers them
// out of order.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "swcc/config.hpp"
#include "swcc/detail/protocol.hpp"

namespace swcc {

/// Every message starts with this header (32 bytes); a payload of `len` bytes may follow.
struct MsgHeader {
  MsgType type = MsgType::kReadReq;
  MsgType nacked = MsgType::kReadReq;  ///< kNack/kRemoteNack: the refused message
  /// Blocks this message stands for (a range message, see swcc/README.md "Range messages"): the
  /// same message for blocks block, block+1, ..., block+count-1, each with len/count bytes of
  /// the payload, in order.
  std::uint16_t count = 1;
  std::int32_t src = -1;     ///< sender rank
  std::uint64_t block = 0;   ///< block number in the home's segment (sc: byte offset)
  std::uint32_t offset = 0;  ///< byte offset inside the block (store, sc)
  std::uint32_t len = 0;     ///< payload bytes
  std::uint64_t tag = 0;     ///< store id, sc id or lock id
};
static_assert(sizeof(MsgHeader) == 32);

/// Message aggregation. send() to another rank appends the message (header, then payload,
/// unpadded) to that destination's outgoing buffer; the buffer goes out as one MPI message, a
/// packet, when the next message would not fit in packet_bytes(), and on flush(). poll()
/// flushes on entry (what was sent since the last poll) and before it returns (the replies its
/// handlers sent), so a message never waits for a buffer to fill while its sender waits: every
/// wait of the engine polls, and the engine flushes at the end of each call that sends and
/// returns without waiting. The receiver unpacks each packet into its logical messages and
/// delivers them one at a time, in order; packets are taken in the order MPI matched them, so
/// messages from one sender arrive in the order sent (fault injection aside).
class Transport {
 public:
  /// The MPI tag of send_large()'s payloads (packets use tag 0); per sender they are received
  /// in the order of their headers, which MPI's non-overtaking rule keeps.
  static constexpr int kLargeTag = 1;
  /// Packet limit: 32 KiB. A packet carries ~800 replies of 8-byte blocks (40 B each) or
  /// ~1000 requests (32 B), so MPI's per-message cost (~1 us here) is paid once per hundreds of
  /// protocol messages instead of once each; beyond that the handlers dominate, and 16, 32 and
  /// 64 KiB measured the same. Bigger packets would only delay the first message of a burst (a
  /// receiver starts on a packet once it is complete). 32 KiB fits one cell of MPICH's
  /// intra-node queue (68 KiB), so a packet goes eagerly, like the single messages did, and the
  /// kRecvs receive buffers cost 512 KiB per rank. A transport whose largest message (header +
  /// max_payload) is bigger uses that size instead.
  static constexpr std::size_t kPacketBytes = 32 * 1024;
  /// Packets in flight at most. Past it send() and flush() wait for their own sends to
  /// complete, and meanwhile keep receiving packets (delivered later, in order) so that the
  /// peers' sends complete too: MPI's request pool is finite, and no handler ever runs inside
  /// send() or flush(). 64: MPICH tests up to 64 requests without allocating (past it every
  /// MPI_Testsome mallocs, which showed in profiles), a sender owns 64 cells of the intra-node
  /// queue anyway, and the send buffers stay under 2 MiB.
  static constexpr std::size_t kMaxInFlight = 64;

  /// Collective over `parent`: duplicates it (non-blocking, calling `on_wait`, when given,
  /// while the duplication is pending; it may throw to give up). `max_payload`: largest payload
  /// in bytes.
  Transport(MPI_Comm parent, std::size_t max_payload, const FaultConfig& fault,
            const std::function<void()>& on_wait = {});
  /// Collective; call only when no message is in flight. Messages still in an outgoing buffer
  /// (sent but never flushed) are dropped, not sent: at that point no peer receives any more,
  /// and an unmatched packet could keep the wait for the sends below from returning. Sends
  /// already handed to MPI are waited for (a bounded time; past it their requests are freed and
  /// their buffers leaked rather than hang).
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }
  /// A wait on this transport's communicator was abandoned (by an exception): a collective may
  /// still be pending on it, which Open MPI goes on progressing, so the destructor leaks the
  /// communicator instead of freeing it under that collective.
  void abandon() { abandoned_ = true; }
  /// The packet limit of this transport: max(kPacketBytes, 32 + max_payload).
  std::size_t packet_bytes() const { return packet_bytes_; }

  /// Sends without blocking (to self: queued locally). Payload copied. To another rank the
  /// message is buffered; it leaves at the latest at the next flush() or poll().
  void send(int dest, const MsgHeader& h, const void* payload);
  /// Like send(), for a payload too large for a packet (len > packet_bytes() - 32; smaller ones
  /// go through send()): the header travels in the packet stream, the payload leaves as its own
  /// MPI message straight from `payload`, not copied (MPI's single copy, where a packet costs a
  /// copy in and out and MPI streams 32 KiB messages at a third of the speed of one large one).
  /// The caller must leave the payload unchanged until the receiver has taken the message (the
  /// engine sends only home memory that nobody may write before the receiver answers).
  /// Messages to self are copied as by send(). The receiver takes the payload when it reaches
  /// the header (a blocking receive of a message already sent).
  void send_large(int dest, const MsgHeader& h, const void* payload);
  /// Where a large payload (see send_large()) may be received in place: called with its header
  /// before the payload is received; a non-null result must have room for header.len bytes and
  /// becomes the payload pointer of the delivered message. Unset or null: the transport's own
  /// buffer. The engine receives a range ReadReply straight into the cache's data.
  void set_large_destination(std::function<std::uint8_t*(const MsgHeader&)> f) {
    large_dest_ = std::move(f);
  }
  /// Waits up to `seconds` for the sends of send_large() to complete, receiving meanwhile;
  /// true when none is left. The engine calls it before it unmaps the memory they read.
  bool wait_large(double seconds);
  /// Hands every message sent so far to MPI (one packet per destination with messages
  /// pending). The engine calls it at the end of each call that sends and returns without
  /// waiting (get, put, store, unlock); poll() does it too.
  void flush();

  /// Delivers messages that have arrived, calling deliver(header, payload) for each; returns
  /// how many. deliver may call send. Flushes on entry and before returning.
  template <class F>
  int poll(F&& deliver) {
    reap_sends();
    flush();
    network_dry_ = false;
    int n = 0;
    for (int round = 0; round < kMaxPerPoll; ++round) {
      View v;
      if (!next(v)) break;
      deliver(v.header, v.payload);
      ++n;
    }
    flush();
    return n;
  }

  /// Logical protocol messages sent to other ranks (not to self), one per send().
  std::int64_t messages_sent() const { return messages_sent_; }
  /// Their bytes, headers included (packets add nothing: they are the messages back to back).
  std::int64_t bytes_sent() const { return bytes_sent_; }
  /// MPI messages (packets) handed to MPI; at most messages_sent().
  std::int64_t packets_sent() const { return packets_sent_; }
  std::size_t held() const { return held_.size(); }

 private:
  /// A message owned by the transport: to self, or held back by fault injection.
  struct Incoming {
    MsgHeader header;
    std::vector<std::uint8_t> payload;
  };
  /// The message being delivered: its payload lies in the current packet (valid until the next
  /// message is taken) or in `taken_`.
  struct View {
    MsgHeader header;
    const std::uint8_t* payload = nullptr;
  };
  /// A received packet; its messages are read in place.
  struct Packet {
    std::unique_ptr<std::uint8_t[]> bytes;
    std::size_t len = 0;
    int src = -1;  ///< the sending rank (a large payload is received from it)
  };
  static constexpr int kRecvs = 16;
  static constexpr int kMaxPerPoll = 64;
  bool next(View& v);
  bool arrived(View& v);
  bool from_network(View& v);
  void take(Incoming&& m, View& v);
  bool receive_packet();
  void ship(int dest);
  void wait_for_send_slot();
  void reap_sends();
  void post(int i);
  std::unique_ptr<std::uint8_t[]> packet_buffer();

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool abandoned_ = false;  ///< see abandon()
  int rank_ = 0, size_ = 1;
  std::size_t max_bytes_;     ///< largest message: header + max_payload
  std::size_t packet_bytes_;  ///< packet limit
  // Receives: kRecvs buffers of packet_bytes_, all posted; recv_order_ holds their indices in
  // the order posted, which is the order MPI matches them (identical receives), so testing only
  // the oldest one takes packets in matching order. A completed receive's buffer moves to
  // packets_ and a spare one is posted in its place.
  std::vector<std::unique_ptr<std::uint8_t[]>> recv_bufs_;
  std::vector<MPI_Request> recv_reqs_;
  std::deque<int> recv_order_;
  std::deque<Packet> packets_;  ///< received, not yet read to the end, in order; front: current
  std::size_t cursor_ = 0;      ///< next message's offset in packets_.front()
  /// This poll found no packet to receive: the rest of it takes messages to self (and packets
  /// already received) without asking MPI again for each one. A poll of the home's own bulk
  /// requests otherwise paid an MPI_Test per message to self.
  bool network_dry_ = false;
  std::vector<std::unique_ptr<std::uint8_t[]>> spare_;  ///< packet buffers to post again
  Incoming taken_;  ///< the self or held message being delivered
  // Outgoing buffers, one per destination, and the destinations whose buffer is not empty.
  std::vector<std::vector<std::uint8_t>> out_;
  std::vector<int> dirty_;
  // Send slots: a packet buffer each, reused once its MPI_Isend completed (a shipped buffer is
  // swapped into a slot, the slot's old buffer becomes the empty outgoing one). Only the sends
  // in flight are tested, so a burst of packets does not make every later poll pay for the
  // burst's high-water mark.
  std::vector<std::vector<std::uint8_t>> send_bufs_;
  std::vector<int> send_free_;
  std::vector<int> active_slots_;         ///< slots whose send is in flight
  std::vector<MPI_Request> active_reqs_;  ///< their requests, same order
  std::vector<int> done_;                 ///< Testsome output, kept to avoid reallocating
  std::size_t large_in_flight_ = 0;       ///< sends of send_large() among them (slot -1)
  std::vector<std::uint8_t> large_;       ///< the large payload being delivered
  std::function<std::uint8_t*(const MsgHeader&)> large_dest_;
  std::deque<Incoming> self_;
  FaultConfig fault_;
  std::mt19937_64 rng_;
  std::vector<Incoming> held_;
  std::int64_t messages_sent_ = 0, bytes_sent_ = 0, packets_sent_ = 0;
};

}  // namespace swcc
