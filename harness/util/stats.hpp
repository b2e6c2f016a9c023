// Order statistics over repetitions and over per-call samples.
#pragma once

#include <vector>

namespace comops {

/// Median (mean of the two middle values for an even count); 0 for an empty vector.
double median(std::vector<double> values);
double min_of(const std::vector<double>& values);
double max_of(const std::vector<double>& values);

/// The q-th percentile (0 <= q <= 100) of `values` by linear interpolation between the two
/// nearest ranks, numpy's default (`numpy.percentile(values, q)`, method "linear"): with the
/// values sorted as x[0..n-1], h = (n - 1) q / 100 and the result x[floor h] + (h - floor h) x
/// (x[floor h + 1] - x[floor h]). 0 for an empty vector. Sorts `values` in place.
double percentile(std::vector<double>& values, double q);

/// Per-call time percentiles of one point, in us.
struct Percentiles {
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double max = 0;
};

/// p50, p90, p99 (percentile above) and the maximum of `values`; all 0 for an empty vector.
/// Sorts `values` in place.
Percentiles percentiles_of(std::vector<double>& values);

}  // namespace comops
