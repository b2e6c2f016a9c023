// The small pieces several descriptors share (the ops' table, harness/ops/op_descriptors.cpp, and
// the applications', harness/ops/<app>_descriptor.cpp): which participant the fault-injection
// switch corrupts, how many share one sender's copy bandwidth, and "no bandwidth".
#pragma once

#include "comops/op.hpp"

namespace comops::parts {

inline int participant_0(const Args&) { return 0; }
inline int participant_1(const Args&) { return 1; }
inline int last_participant(const Args& a) { return a.np - 1; }
/// ceiling_shared_by of every op whose receivers do not share one sender's copy.
inline int one_sender_each(const Args&) { return 1; }
/// bw_factor of what reports no bandwidth (barrier, the applications).
inline double no_bytes(const Args&) { return 0.0; }

}  // namespace comops::parts
