// Active messages over MPI point-to-point on a private duplicate communicator: non-blocking
// sends, pre-posted receives, a local queue for messages to self, and a seeded fault-injection
// mode that holds messages back and delivers them out of order.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "comops/swcc/protocol.hpp"

namespace comops::swcc {

/// Every message starts with this header (32 bytes); a payload of `len` bytes may follow.
struct MsgHeader {
  MsgType type = MsgType::kReadReq;
  MsgType nacked = MsgType::kReadReq;  ///< kNack/kRemoteNack: the refused message
  std::uint16_t pad = 0;
  std::int32_t src = -1;     ///< sender rank
  std::uint64_t block = 0;   ///< block number in the home's segment (sc: byte offset)
  std::uint32_t offset = 0;  ///< byte offset inside the block (store, sc)
  std::uint32_t len = 0;     ///< payload bytes
  std::uint64_t tag = 0;     ///< store id, sc id or lock id
};
static_assert(sizeof(MsgHeader) == 32);

/// Fault injection: each delivered message is held back with probability `hold_probability`
/// and released at a random later poll; reproducible from `seed`.
struct FaultConfig {
  bool enabled = false;
  std::uint64_t seed = 1;
  double hold_probability = 0.3;
  double release_probability = 0.2;  ///< per held message per poll
};

class Transport {
 public:
  /// Collective over `parent`: duplicates it. `max_payload`: largest payload in bytes.
  Transport(MPI_Comm parent, std::size_t max_payload, const FaultConfig& fault);
  ~Transport();  ///< collective; call only when no message is in flight
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }

  /// Sends without blocking (to self: queued locally). Payload copied.
  void send(int dest, const MsgHeader& h, const void* payload);

  /// Delivers messages that have arrived, calling deliver(header, payload) for each; returns
  /// how many. deliver may call send.
  template <class F>
  int poll(F&& deliver) {
    reap_sends();
    int n = 0;
    for (int round = 0; round < kMaxPerPoll; ++round) {
      Incoming m;
      if (!next(m)) break;
      deliver(m.header, m.payload.data());
      ++n;
    }
    return n;
  }

  std::int64_t messages_sent() const { return messages_sent_; }  ///< network only
  std::int64_t bytes_sent() const { return bytes_sent_; }        ///< headers included
  std::size_t held() const { return held_.size(); }

 private:
  struct Incoming {
    MsgHeader header;
    std::vector<std::uint8_t> payload;
  };
  static constexpr int kRecvs = 16;
  static constexpr int kMaxPerPoll = 64;
  /// Sends in flight at most. Past it send() waits for its own sends to complete, and meanwhile
  /// keeps receiving into `stash_` (delivered later, in order) so that the peers' sends complete
  /// too: MPI's request pool is finite (a bulk transfer of 8-byte blocks would exhaust it), and
  /// no handler ever runs inside send().
  static constexpr std::size_t kMaxInFlight = 1024;
  bool next(Incoming& m);
  bool arrived(Incoming& m);
  bool from_network(Incoming& m);
  void wait_for_send_slot();
  void reap_sends();
  void post(int i);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::size_t max_bytes_;
  std::vector<std::vector<std::uint8_t>> recv_bufs_;
  std::vector<MPI_Request> recv_reqs_;
  // Send slots: a buffer each (sized to its message), reused once its MPI_Isend completed. Only
  // the sends in flight are tested, so a burst of requests (a bulk get) does not make every later
  // poll pay for the burst's high-water mark.
  std::vector<std::vector<std::uint8_t>> send_bufs_;
  std::vector<int> send_free_;
  std::vector<int> active_slots_;         ///< slots whose send is in flight
  std::vector<MPI_Request> active_reqs_;  ///< their requests, same order
  std::vector<int> done_;                 ///< Testsome output, kept to avoid reallocating
  std::deque<Incoming> self_;
  std::deque<Incoming> stash_;  ///< network messages received while send() waited
  FaultConfig fault_;
  std::mt19937_64 rng_;
  std::vector<Incoming> held_;
  std::int64_t messages_sent_ = 0, bytes_sent_ = 0;
};

}  // namespace comops::swcc
