// Whether the machine was busy during the run, in one line.
#include "harness/report/busy_note.hpp"

#include <fmt/format.h>

#include <cmath>

namespace comops {

std::string busy_note(const std::vector<Row>& rows, std::optional<double> idle_share) {
  std::size_t contended = 0, oversubscribed = 0;
  for (const Row& r : rows) {
    contended += r.contended ? 1 : 0;
    oversubscribed += r.oversubscribed ? 1 : 0;
  }
  const bool idle_low = idle_share && *idle_share < kBusyIdleShare;
  std::string s;
  // Rounded down (0.749 is 74 %, never the 75 % that is not busy); 1e-9 absorbs 0.12 * 100
  // landing just under 12.
  const auto idle = [&] {
    return fmt::format("{:.0f} % idle before the run", std::floor(*idle_share * 100 + 1e-9));
  };
  const std::string untrustworthy = contended > 0 ? "; their times are not trustworthy" : "";
  if (idle_low)
    s = fmt::format("comops: note: the machine was busy: {}, {} of {} points contended (C){}\n",
                    idle(), contended, rows.size(), untrustworthy);
  else if (contended > 0)
    // Idle before the run (or not known), yet something took the CPU during some points.
    s = fmt::format(
        "comops: note: {} of {} points contended (C: other work took CPU time while they "
        "ran{}){}\n",
        contended, rows.size(), idle_share ? "; " + idle() : "", untrustworthy);
  if (oversubscribed > 0)
    s += fmt::format(
        "comops: note: {} of {} points oversubscribed (O): more participants than cores on a "
        "node; read them for correctness, not speed\n",
        oversubscribed, rows.size());
  return s;
}

}  // namespace comops
