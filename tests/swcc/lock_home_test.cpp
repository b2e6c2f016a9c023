// The locks homed at a rank (swcc/detail/lock_home.hpp): a free lock is granted at once, a held
// one queues its askers and passes to them one by one, first come first; locks are independent.
#include "swcc/detail/lock_home.hpp"

#include <gtest/gtest.h>

namespace swcc {
namespace {

TEST(SwccLockHome, FreeLockIsGrantedAndReleasedToNoOne) {
  LockHome locks;
  EXPECT_TRUE(locks.request(3, 1));
  EXPECT_EQ(locks.release(3), -1);
  EXPECT_TRUE(locks.request(3, 2));  // free again: granted at once
}

TEST(SwccLockHome, HeldLockPassesToItsWaitersInOrder) {
  LockHome locks;
  EXPECT_TRUE(locks.request(0, 4));
  EXPECT_FALSE(locks.request(0, 2));
  EXPECT_FALSE(locks.request(0, 7));
  EXPECT_FALSE(locks.request(0, 0));
  EXPECT_EQ(locks.release(0), 2);
  EXPECT_EQ(locks.release(0), 7);
  EXPECT_FALSE(locks.request(0, 5));  // behind rank 0, which still waits
  EXPECT_EQ(locks.release(0), 0);
  EXPECT_EQ(locks.release(0), 5);
  EXPECT_EQ(locks.release(0), -1);
  EXPECT_TRUE(locks.request(0, 6));
}

TEST(SwccLockHome, LocksAreIndependent) {
  LockHome locks;
  EXPECT_TRUE(locks.request(1, 0));
  EXPECT_TRUE(locks.request(2, 1));  // another id, free
  EXPECT_FALSE(locks.request(1, 1));
  EXPECT_EQ(locks.release(2), -1);
  EXPECT_EQ(locks.release(1), 1);
  EXPECT_FALSE(locks.request(1, 3));
  EXPECT_TRUE(locks.request(2, 3));
}

}  // namespace
}  // namespace swcc
