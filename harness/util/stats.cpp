// Median, min and max of repetition samples; percentiles of per-call samples.
#include "harness/util/stats.hpp"

#include <algorithm>
#include <cmath>

namespace comops {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const auto mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  const double lower = *std::max_element(v.begin(), v.begin() + mid);
  return (lower + upper) / 2.0;
}

double min_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

double max_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

namespace {

// The q-th percentile of sorted, non-empty values (see percentile in stats.hpp).
double sorted_percentile(const std::vector<double>& v, double q) {
  const double h = static_cast<double>(v.size() - 1) * std::clamp(q, 0.0, 100.0) / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= v.size()) return v.back();
  return v[lo] + (h - static_cast<double>(lo)) * (v[lo + 1] - v[lo]);
}

}  // namespace

double percentile(std::vector<double>& v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return sorted_percentile(v, q);
}

Percentiles percentiles_of(std::vector<double>& v) {
  Percentiles p;
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  p.p50 = sorted_percentile(v, 50);
  p.p90 = sorted_percentile(v, 90);
  p.p99 = sorted_percentile(v, 99);
  p.max = v.back();
  return p;
}

}  // namespace comops
