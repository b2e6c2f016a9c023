// Parsing --mpi-variant NAME:VAR=VALUE[,VAR=VALUE...][;NAME:...] into MpiVariants.
#include "harness/launch/mpi_variant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "comops/op.hpp"

namespace comops {
namespace {

constexpr std::size_t kMaxNameLength = 32;
constexpr const char* kForm = "NAME:VAR=VALUE[,VAR=VALUE...]";

bool identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Length of the variable name at text[at] when "NAME=" starts there, else 0.
std::size_t assignment_at(const std::string& text, std::size_t at) {
  if (at >= text.size() || !identifier_start(text[at])) return 0;
  std::size_t end = at + 1;
  while (end < text.size() && identifier_char(text[end])) ++end;
  return end < text.size() && text[end] == '=' ? end - at : 0;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

MpiVariant parse_one(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError(fmt::format("--mpi-variant '{}': expected {}", text, kForm));
  MpiVariant v;
  v.name = text.substr(0, colon);
  if (v.name.empty())
    throw UsageError(
        fmt::format("--mpi-variant '{}': no NAME before ':' (expected {})", text, kForm));
  if (v.name.size() > kMaxNameLength || !std::all_of(v.name.begin(), v.name.end(), [](char c) {
        return identifier_char(c) || c == '-';
      }))
    throw UsageError(fmt::format(
        "--mpi-variant '{}': NAME '{}' may hold only letters, digits, '_' and '-' (at most {})",
        text, v.name, kMaxNameLength));
  const std::string list = text.substr(colon + 1);
  if (list.empty())
    throw UsageError(
        fmt::format("--mpi-variant '{}': no VAR=VALUE after ':' (expected {})", text, kForm));
  // Each assignment starts at the beginning or after a comma followed by "VAR=".
  for (std::size_t start = 0;;) {
    const std::size_t name_length = assignment_at(list, start);
    std::size_t end = list.find(',', start);
    while (end != std::string::npos && assignment_at(list, end + 1) == 0)
      end = list.find(',', end + 1);
    const std::string item =
        list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (name_length == 0)
      throw UsageError(fmt::format(
          "--mpi-variant '{}': '{}' is not VAR=VALUE (VAR: letters, digits and '_', not first a "
          "digit)",
          text, item));
    std::string var = item.substr(0, name_length), value = item.substr(name_length + 1);
    if (std::any_of(v.env.begin(), v.env.end(), [&](const auto& e) { return e.first == var; }))
      throw UsageError(fmt::format("--mpi-variant '{}': {} is set twice", text, var));
    v.env.emplace_back(std::move(var), std::move(value));
    if (end == std::string::npos) return v;
    start = end + 1;
  }
}

}  // namespace

std::vector<MpiVariant> parse_mpi_variants(const std::vector<std::string>& values) {
  std::vector<MpiVariant> out;
  for (const auto& value : values)
    for (const auto& text : split(value, ';')) {
      MpiVariant v = parse_one(text);
      if (std::any_of(out.begin(), out.end(),
                      [&](const MpiVariant& o) { return o.name == v.name; }))
        throw UsageError(fmt::format("--mpi-variant: the name '{}' is given twice", v.name));
      out.push_back(std::move(v));
    }
  return out;
}

}  // namespace comops
