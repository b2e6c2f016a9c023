// Order statistics over repetitions.
#pragma once

#include <vector>

namespace comops {

/// Median (mean of the two middle values for an even count); 0 for an empty vector.
double median(std::vector<double> values);
double min_of(const std::vector<double>& values);
double max_of(const std::vector<double>& values);

}  // namespace comops
