// --mpi-variant: the mpi backend run again under other environment settings (for example UCX's
// transports), labelled mpi-NAME; parsing and validating the option's values.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace comops {

/// One --mpi-variant: the mpi backend measured again by a job of its own whose ranks get `env`.
struct MpiVariant {
  std::string name;                                      ///< NAME: the label is mpi-NAME
  std::vector<std::pair<std::string, std::string>> env;  ///< VAR=VALUE, in the order given
  std::string label() const { return "mpi-" + name; }
  bool operator==(const MpiVariant&) const = default;
};

/// The variants of every --mpi-variant value, in order. A value is one or more variants separated
/// by ';', each `NAME:VAR=VALUE[,VAR=VALUE...]`; a comma starts a new VAR=VALUE only when a
/// variable name and '=' follow it, so values may hold commas (`cma:UCX_TLS=self,sysv,cma`).
/// NAME is letters, digits, '_' and '-' (at most 32); VAR is a C identifier. Throws UsageError
/// (one line naming the value) for a missing name or ':', an empty or malformed VAR=VALUE, the
/// same VAR twice in a variant, or a name given twice.
std::vector<MpiVariant> parse_mpi_variants(const std::vector<std::string>& values);

}  // namespace comops
