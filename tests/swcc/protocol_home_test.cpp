// Every (state, event) cell of the home-side transition table: exact next state, pending
// request and messages; impossible cells throw ProtocolError.
#include <gtest/gtest.h>

#include <initializer_list>

#include "swcc/detail/protocol.hpp"

namespace swcc {
namespace {

constexpr int kHome = 0;
std::uint64_t bit(int r) { return std::uint64_t{1} << r; }

const HomeEntry kExclusive{State::kModified, 0, kHome};
HomeEntry shared(const SharerSet& s) { return {State::kShared, s, -1}; }
HomeEntry modified(int o) { return {State::kModified, 0, o}; }

HomeOutcome run(const HomeEntry& e, MsgType t, int src, HomePending p = {},
                MsgType nacked = MsgType::kInval, bool locked = false) {
  return home_transition(kHome, e, p, HomeEvent{t, src, nacked, locked});
}

using Sends = std::vector<Send>;

TEST(SwccHome, ReadMissOnExclusiveBlockRepliesWithData) {
  auto o = run(kExclusive, MsgType::kReadReq, 1);
  EXPECT_EQ(o.next, shared(bit(1)));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kReadReply, 1, true}}));
}
TEST(SwccHome, HomeOwnReadOnExclusiveBlockChangesNothing) {
  auto o = run(kExclusive, MsgType::kReadReq, kHome);
  EXPECT_EQ(o.next, kExclusive);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kReadReply, kHome, false}}));
}
TEST(SwccHome, ReadOnSharedAddsSharer) {
  auto o = run(shared(bit(1)), MsgType::kReadReq, 2);
  EXPECT_EQ(o.next, shared(bit(1) | bit(2)));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kReadReply, 2, true}}));
}
TEST(SwccHome, ReadFromASharerIsNackedBecauseItsReplyIsInFlight) {
  auto o = run(shared(bit(1)), MsgType::kReadReq, 1);
  EXPECT_TRUE(o.nacked);
  EXPECT_EQ(o.next, shared(bit(1)));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kNack, 1, false}}));
}
TEST(SwccHome, HomeReadOnSharedIsServed) {
  auto o = run(shared(bit(1)), MsgType::kReadReq, kHome);
  EXPECT_EQ(o.next, shared(bit(1)));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kReadReply, kHome, false}}));
}
TEST(SwccHome, ReadOnRemoteModifiedFlushesOwner) {
  auto o = run(modified(2), MsgType::kReadReq, 1);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyRead, 0, 2}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kReadReq, 1, 1}));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kFlush, 2, false}}));
}
TEST(SwccHome, ReadFromTheOwnerIsNacked) {
  EXPECT_TRUE(run(modified(2), MsgType::kReadReq, 2).nacked);
  EXPECT_TRUE(run(modified(2), MsgType::kWriteReq, 2).nacked);
}
TEST(SwccHome, EveryRequestOnABusyBlockIsNacked) {
  for (State s : {State::kBusyRead, State::kBusyWrite})
    for (MsgType t : {MsgType::kReadReq, MsgType::kWriteReq, MsgType::kStoreReq})
      for (int src : {0, 1, 2, 3}) {
        HomeEntry e{s, 0, 2};
        HomePending p{MsgType::kReadReq, 1, 1};
        auto o = run(e, t, src, p);
        EXPECT_TRUE(o.nacked);
        EXPECT_EQ(o.next, e);
        EXPECT_EQ(o.pending, p);
        EXPECT_EQ(o.sends, (Sends{{MsgType::kNack, src, false}}));
      }
}
TEST(SwccHome, WriteMissOnExclusiveGrantsModified) {
  auto o = run(kExclusive, MsgType::kWriteReq, 1);
  EXPECT_EQ(o.next, modified(1));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kWriteReply, 1, true}}));
}
TEST(SwccHome, UpgradeOfTheOnlySharerGrantsAtOnce) {
  auto o = run(shared(bit(1)), MsgType::kWriteReq, 1);
  EXPECT_EQ(o.next, modified(1));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kWriteReply, 1, true}}));
}
TEST(SwccHome, WriteOnSharedInvalidatesOthersAndWaits) {
  auto o = run(shared(bit(1) | bit(2) | bit(3)), MsgType::kWriteReq, 1);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, bit(2) | bit(3), -1}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kWriteReq, 1, 2}));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kInval, 2, false}, {MsgType::kInval, 3, false}}));
}
TEST(SwccHome, HomeWriteOnSharedInvalidatesEverySharer) {
  auto o = run(shared(bit(1)), MsgType::kWriteReq, kHome);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, bit(1), -1}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kWriteReq, kHome, 1}));
}
TEST(SwccHome, HomeWriteOnSharedWithoutSharersIsGrantedToHome) {
  auto o = run(shared(0), MsgType::kWriteReq, kHome);
  EXPECT_EQ(o.next, kExclusive);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kWriteReply, kHome, false}}));
}
TEST(SwccHome, WriteOnRemoteModifiedFlushInvalidatesOwner) {
  auto o = run(modified(2), MsgType::kWriteReq, 1);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, 0, 2}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kWriteReq, 1, 1}));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kFlushInval, 2, false}}));
}
TEST(SwccHome, StoreOnExclusiveAppliesAndAcks) {
  auto o = run(kExclusive, MsgType::kStoreReq, 1);
  EXPECT_TRUE(o.apply_store);
  EXPECT_EQ(o.next, kExclusive);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kStoreAck, 1, false}}));
}
TEST(SwccHome, StoreOnSharedInvalidatesEveryCopyIncludingTheStorer) {
  auto o = run(shared(bit(1) | bit(2)), MsgType::kStoreReq, 1);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, bit(1) | bit(2), -1}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kStoreReq, 1, 2}));
  EXPECT_FALSE(o.apply_store);
}
TEST(SwccHome, StoreOnSharedWithoutSharersMakesHomeOwner) {
  auto o = run(shared(0), MsgType::kStoreReq, 2);
  EXPECT_TRUE(o.apply_store);
  EXPECT_EQ(o.next, kExclusive);
}
TEST(SwccHome, StoreOnModifiedFlushesEvenTheStorer) {
  for (int owner : {1, 2}) {
    auto o = run(modified(owner), MsgType::kStoreReq, 1);
    EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, 0, owner}));
    EXPECT_EQ(o.sends, (Sends{{MsgType::kFlushInval, owner, false}}));
  }
}
TEST(SwccHome, WriteLockedHomeRefusesOthersButNotItself) {
  EXPECT_TRUE(run(kExclusive, MsgType::kReadReq, 1, {}, MsgType::kInval, true).nacked);
  EXPECT_TRUE(run(kExclusive, MsgType::kStoreReq, 1, {}, MsgType::kInval, true).nacked);
  EXPECT_FALSE(run(kExclusive, MsgType::kWriteReq, kHome, {}, MsgType::kInval, true).nacked);
}
TEST(SwccHome, AcksAreCollectedBeforeTheReply) {
  HomeEntry e{State::kBusyWrite, bit(2) | bit(3), -1};
  HomePending p{MsgType::kWriteReq, 1, 2};
  auto o = run(e, MsgType::kInvalAck, 2, p);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, bit(3), -1}));
  EXPECT_EQ(o.pending.acks_left, 1);
  EXPECT_TRUE(o.sends.empty());
  auto o2 = run(o.next, MsgType::kInvalAck, 3, o.pending);
  EXPECT_EQ(o2.next, modified(1));
  EXPECT_EQ(o2.sends, (Sends{{MsgType::kWriteReply, 1, true}}));
}
TEST(SwccHome, LastAckOfAStoreAppliesItAndHomeOwns) {
  auto o = run({State::kBusyWrite, bit(2), -1}, MsgType::kInvalAck, 2, {MsgType::kStoreReq, 1, 1});
  EXPECT_TRUE(o.apply_store);
  EXPECT_EQ(o.next, kExclusive);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kStoreAck, 1, false}}));
}
TEST(SwccHome, LastAckOfHomeWriteGrantsHome) {
  auto o =
      run({State::kBusyWrite, bit(2), -1}, MsgType::kInvalAck, 2, {MsgType::kWriteReq, kHome, 1});
  EXPECT_EQ(o.next, kExclusive);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kWriteReply, kHome, false}}));
}
TEST(SwccHome, FlushDataForReadSharesWithOldOwner) {
  auto o = run({State::kBusyRead, 0, 2}, MsgType::kFlushData, 2, {MsgType::kReadReq, 1, 1});
  EXPECT_TRUE(o.take_flush_data);
  EXPECT_EQ(o.next, shared(bit(1) | bit(2)));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kReadReply, 1, true}}));
  auto h = run({State::kBusyRead, 0, 2}, MsgType::kFlushData, 2, {MsgType::kReadReq, kHome, 1});
  EXPECT_EQ(h.next, shared(bit(2)));
}
TEST(SwccHome, FlushDataForWriteMovesOwnership) {
  auto o = run({State::kBusyWrite, 0, 2}, MsgType::kFlushData, 2, {MsgType::kWriteReq, 1, 1});
  EXPECT_TRUE(o.take_flush_data);
  EXPECT_EQ(o.next, modified(1));
  auto s = run({State::kBusyWrite, 0, 2}, MsgType::kFlushData, 2, {MsgType::kStoreReq, 2, 1});
  EXPECT_TRUE(s.take_flush_data && s.apply_store);
  EXPECT_EQ(s.next, kExclusive);
}
TEST(SwccHome, RemoteNackResendsTheRefusedMessage) {
  auto f = run({State::kBusyRead, 0, 2}, MsgType::kRemoteNack, 2, {MsgType::kReadReq, 1, 1},
               MsgType::kFlush);
  EXPECT_EQ(f.sends, (Sends{{MsgType::kFlush, 2, false}}));
  EXPECT_EQ(f.next, (HomeEntry{State::kBusyRead, 0, 2}));
  auto fi = run({State::kBusyWrite, 0, 2}, MsgType::kRemoteNack, 2, {MsgType::kWriteReq, 1, 1},
                MsgType::kFlushInval);
  EXPECT_EQ(fi.sends, (Sends{{MsgType::kFlushInval, 2, false}}));
  auto i = run({State::kBusyWrite, bit(3), -1}, MsgType::kRemoteNack, 3, {MsgType::kWriteReq, 1, 1},
               MsgType::kInval);
  EXPECT_EQ(i.sends, (Sends{{MsgType::kInval, 3, false}}));
}
TEST(SwccHome, ImpossibleCellsThrow) {
  const HomePending p{MsgType::kWriteReq, 1, 1};
  // Acks, flush data and refusals outside the matching busy state.
  for (const HomeEntry& e : {kExclusive, shared(bit(2)), modified(2)}) {
    EXPECT_THROW(run(e, MsgType::kInvalAck, 2, p), ProtocolError);
    EXPECT_THROW(run(e, MsgType::kFlushData, 2, p), ProtocolError);
    for (MsgType n : {MsgType::kInval, MsgType::kFlush, MsgType::kFlushInval})
      EXPECT_THROW(run(e, MsgType::kRemoteNack, 2, p, n), ProtocolError);
  }
  EXPECT_THROW(run({State::kBusyRead, 0, 2}, MsgType::kInvalAck, 2, p), ProtocolError);
  EXPECT_THROW(run({State::kBusyWrite, bit(3), -1}, MsgType::kInvalAck, 2, p), ProtocolError);
  EXPECT_THROW(run({State::kBusyWrite, 0, 2}, MsgType::kFlushData, 3, p), ProtocolError);
  EXPECT_THROW(run({State::kBusyRead, 0, 2}, MsgType::kRemoteNack, 2, p, MsgType::kFlushInval),
               ProtocolError);
  EXPECT_THROW(run({State::kBusyWrite, 0, 2}, MsgType::kRemoteNack, 2, p, MsgType::kFlush),
               ProtocolError);
  // Messages the home never receives.
  for (MsgType t : {MsgType::kReadReply, MsgType::kWriteReply, MsgType::kStoreAck, MsgType::kNack,
                    MsgType::kInval, MsgType::kFlush, MsgType::kFlushInval})
    EXPECT_THROW(run(kExclusive, t, 1), ProtocolError);
}
TEST(SwccHome, LocalAccessChecks) {
  EXPECT_EQ(home_access(kHome, false, {}, Access::kWrite), LocalAction::kHit);
  EXPECT_EQ(home_access(kHome, true, kExclusive, Access::kWrite), LocalAction::kHit);
  EXPECT_EQ(home_access(kHome, true, shared(bit(1)), Access::kRead), LocalAction::kHit);
  EXPECT_EQ(home_access(kHome, true, shared(bit(1)), Access::kWrite), LocalAction::kSendWrite);
  EXPECT_EQ(home_access(kHome, true, shared(0), Access::kWrite), LocalAction::kHit);
  EXPECT_EQ(home_access(kHome, true, modified(1), Access::kRead), LocalAction::kSendRead);
  EXPECT_EQ(home_access(kHome, true, {State::kBusyRead, 0, 1}, Access::kRead),
            LocalAction::kSendRead);
  EXPECT_EQ(home_access(kHome, true, {State::kBusyWrite, 2, -1}, Access::kWrite),
            LocalAction::kSendWrite);
}

// Beyond 64 ranks (here 100): sharer sets live on the heap; every message and count stays exact.
HomeEntry shared_of(std::initializer_list<int> ranks) { return shared(SharerSet::of(ranks)); }

TEST(SwccHomeManyRanks, WriteInvalidatesExactlyTheOtherSharersInRankOrder) {
  auto o = run(shared_of({3, 64, 70, 99}), MsgType::kWriteReq, 70);
  EXPECT_EQ(o.next, (HomeEntry{State::kBusyWrite, SharerSet::of({3, 64, 99}), -1}));
  EXPECT_EQ(o.pending, (HomePending{MsgType::kWriteReq, 70, 3}));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kInval, 3, false},
                            {MsgType::kInval, 64, false},
                            {MsgType::kInval, 99, false}}));
  // Acks in any order; each one is counted once, the reply waits for the last.
  auto a1 = run(o.next, MsgType::kInvalAck, 99, o.pending);
  EXPECT_EQ(a1.next, (HomeEntry{State::kBusyWrite, SharerSet::of({3, 64}), -1}));
  EXPECT_EQ(a1.pending.acks_left, 2);
  EXPECT_TRUE(a1.sends.empty());
  EXPECT_THROW(run(a1.next, MsgType::kInvalAck, 99, a1.pending), ProtocolError);  // twice
  EXPECT_THROW(run(a1.next, MsgType::kInvalAck, 70, a1.pending), ProtocolError);  // requester
  auto a2 = run(a1.next, MsgType::kInvalAck, 3, a1.pending);
  EXPECT_EQ(a2.next, (HomeEntry{State::kBusyWrite, SharerSet::of({64}), -1}));
  EXPECT_EQ(a2.pending.acks_left, 1);
  EXPECT_TRUE(a2.sends.empty());
  auto a3 = run(a2.next, MsgType::kInvalAck, 64, a2.pending);
  EXPECT_EQ(a3.next, modified(70));
  EXPECT_EQ(a3.pending, HomePending{});
  EXPECT_EQ(a3.sends, (Sends{{MsgType::kWriteReply, 70, true}}));
}
TEST(SwccHomeManyRanks, HomeWriteAndStoreInvalidateEverySharer) {
  auto w = run(shared_of({3, 64, 70, 99}), MsgType::kWriteReq, kHome);
  EXPECT_EQ(w.next, (HomeEntry{State::kBusyWrite, SharerSet::of({3, 64, 70, 99}), -1}));
  EXPECT_EQ(w.pending, (HomePending{MsgType::kWriteReq, kHome, 4}));
  EXPECT_EQ(w.sends, (Sends{{MsgType::kInval, 3, false},
                            {MsgType::kInval, 64, false},
                            {MsgType::kInval, 70, false},
                            {MsgType::kInval, 99, false}}));
  auto st = run(shared_of({3, 64, 70, 99}), MsgType::kStoreReq, 64);  // the storer's copy too
  EXPECT_EQ(st.pending, (HomePending{MsgType::kStoreReq, 64, 4}));
  EXPECT_EQ(st.sends, w.sends);
}
TEST(SwccHomeManyRanks, UpgradeOfTheOnlySharerAbove64GrantsAtOnce) {
  auto o = run(shared_of({99}), MsgType::kWriteReq, 99);
  EXPECT_EQ(o.next, modified(99));
  EXPECT_EQ(o.sends, (Sends{{MsgType::kWriteReply, 99, true}}));
}
TEST(SwccHomeManyRanks, ReadsAddSharersAndRefuseASharerAskingAgain) {
  auto o = run(kExclusive, MsgType::kReadReq, 64);
  EXPECT_EQ(o.next, shared_of({64}));
  auto o2 = run(o.next, MsgType::kReadReq, 3);
  EXPECT_EQ(o2.next, shared_of({3, 64}));
  EXPECT_EQ(o2.sends, (Sends{{MsgType::kReadReply, 3, true}}));
  EXPECT_TRUE(run(o2.next, MsgType::kReadReq, 64).nacked);
  auto f = run({State::kBusyRead, 0, 80}, MsgType::kFlushData, 80, {MsgType::kReadReq, 90, 1});
  EXPECT_EQ(f.next, shared_of({80, 90}));
  EXPECT_EQ(f.sends, (Sends{{MsgType::kReadReply, 90, true}}));
}
TEST(SwccHomeManyRanks, RefusedInvalIsResentToThatSharer) {
  const HomeEntry e{State::kBusyWrite, SharerSet::of({64, 99}), -1};
  auto o = run(e, MsgType::kRemoteNack, 99, {MsgType::kWriteReq, 1, 2}, MsgType::kInval);
  EXPECT_EQ(o.sends, (Sends{{MsgType::kInval, 99, false}}));
  EXPECT_EQ(o.next, e);
  EXPECT_THROW(run(e, MsgType::kRemoteNack, 98, {MsgType::kWriteReq, 1, 2}, MsgType::kInval),
               ProtocolError);
}
TEST(SwccHomeManyRanks, LocalAccessSeesSharersAbove64) {
  EXPECT_EQ(home_access(kHome, true, shared_of({99}), Access::kWrite), LocalAction::kSendWrite);
  SharerSet gone = SharerSet::of({99});
  gone.erase(99);  // empty, still on the heap
  EXPECT_EQ(home_access(kHome, true, shared(gone), Access::kWrite), LocalAction::kHit);
}

}  // namespace
}  // namespace swcc
