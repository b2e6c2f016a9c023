// Every (state, event) cell of the cache-side transition table of a non-home node.
#include <gtest/gtest.h>

#include "swcc/detail/protocol.hpp"

namespace swcc {
namespace {

constexpr int kSelf = 1, kHome = 0;
using Sends = std::vector<Send>;

CacheOutcome run(State s, MsgType t, bool locked = false) {
  return cache_transition(kSelf, kHome, s, t, locked);
}

TEST(SwccCache, ReadReplyInstallsShared) {
  auto o = run(State::kInvalid, MsgType::kReadReply);
  EXPECT_EQ(o.next, State::kShared);
  EXPECT_TRUE(o.install_data && o.complete);
  EXPECT_TRUE(o.sends.empty());
}
TEST(SwccCache, WriteReplyInstallsModifiedFromInvalidOrShared) {
  for (State s : {State::kInvalid, State::kShared}) {
    auto o = run(s, MsgType::kWriteReply);
    EXPECT_EQ(o.next, State::kModified);
    EXPECT_TRUE(o.install_data && o.complete);
  }
}
TEST(SwccCache, NackAsksForRecheckAndRetry) {
  for (State s : {State::kInvalid, State::kShared, State::kModified}) {
    auto o = run(s, MsgType::kNack);
    EXPECT_EQ(o.next, s);
    EXPECT_TRUE(o.retry);
    EXPECT_FALSE(o.complete);
  }
}
TEST(SwccCache, StoreAckCompletesWithoutStateChange) {
  for (State s : {State::kInvalid, State::kShared, State::kModified}) {
    auto o = run(s, MsgType::kStoreAck);
    EXPECT_EQ(o.next, s);
    EXPECT_TRUE(o.complete);
  }
}
TEST(SwccCache, InvalOnSharedAcks) {
  auto o = run(State::kShared, MsgType::kInval);
  EXPECT_EQ(o.next, State::kInvalid);
  EXPECT_TRUE(o.invalidated);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kInvalAck, kHome, false}}));
  // The write lock does not hold back an invalidation (the writer is waiting for the home).
  EXPECT_EQ(run(State::kShared, MsgType::kInval, true).next, State::kInvalid);
}
TEST(SwccCache, InvalBeforeTheReadReplyIsRefused) {
  auto o = run(State::kInvalid, MsgType::kInval);
  EXPECT_EQ(o.next, State::kInvalid);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kRemoteNack, kHome, false}}));
}
TEST(SwccCache, FlushOnModifiedSendsDataAndDowngrades) {
  auto f = run(State::kModified, MsgType::kFlush);
  EXPECT_EQ(f.next, State::kShared);
  EXPECT_EQ(f.sends, (Sends{{MsgType::kFlushData, kHome, true}}));
  auto fi = run(State::kModified, MsgType::kFlushInval);
  EXPECT_EQ(fi.next, State::kInvalid);
  EXPECT_TRUE(fi.invalidated);
  EXPECT_EQ(fi.sends, (Sends{{MsgType::kFlushData, kHome, true}}));
}
TEST(SwccCache, FlushBeforeTheGrantOrUnderWriteLockIsRefused) {
  for (MsgType t : {MsgType::kFlush, MsgType::kFlushInval}) {
    for (State s : {State::kInvalid, State::kShared}) {
      auto o = run(s, t);
      EXPECT_EQ(o.next, s);
      EXPECT_EQ(o.sends, (Sends{{MsgType::kRemoteNack, kHome, false}}));
    }
    auto l = run(State::kModified, t, true);
    EXPECT_EQ(l.next, State::kModified);
    EXPECT_EQ(l.sends, (Sends{{MsgType::kRemoteNack, kHome, false}}));
  }
}
TEST(SwccCache, ImpossibleCellsThrow) {
  EXPECT_THROW(run(State::kShared, MsgType::kReadReply), ProtocolError);
  EXPECT_THROW(run(State::kModified, MsgType::kReadReply), ProtocolError);
  EXPECT_THROW(run(State::kModified, MsgType::kWriteReply), ProtocolError);
  EXPECT_THROW(run(State::kModified, MsgType::kInval), ProtocolError);
  for (State s : {State::kBusyRead, State::kBusyWrite})
    EXPECT_THROW(run(s, MsgType::kReadReply), ProtocolError);
  for (MsgType t : {MsgType::kReadReq, MsgType::kWriteReq, MsgType::kStoreReq, MsgType::kInvalAck,
                    MsgType::kFlushData, MsgType::kRemoteNack})
    for (State s : {State::kInvalid, State::kShared, State::kModified})
      EXPECT_THROW(run(s, t), ProtocolError);
}
TEST(SwccCache, LocalAccessChecks) {
  EXPECT_EQ(cache_access(State::kInvalid, Access::kRead), LocalAction::kSendRead);
  EXPECT_EQ(cache_access(State::kShared, Access::kRead), LocalAction::kHit);
  EXPECT_EQ(cache_access(State::kModified, Access::kRead), LocalAction::kHit);
  EXPECT_EQ(cache_access(State::kInvalid, Access::kWrite), LocalAction::kSendWrite);
  EXPECT_EQ(cache_access(State::kShared, Access::kWrite), LocalAction::kSendWrite);
  EXPECT_EQ(cache_access(State::kModified, Access::kWrite), LocalAction::kHit);
}

}  // namespace
}  // namespace swcc
