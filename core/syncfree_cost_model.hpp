// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The generic terms of SyncFree's performance model: a predicted time as the sum of
/// named terms (launches, a chain of dependent steps, bytes over a bandwidth), and the one that
/// bounds it. Each algorithm's own formula lives beside the algorithm and builds on these.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/syncfree_device_parameters.hpp"

namespace syncfree {

/// One named part of a predicted time.
struct CostTerm {
  std::string name;
  double seconds = 0;
};

/// A predicted time, its terms and the largest of them (`bound`).
struct Prediction {
  double seconds = 0;
  std::vector<CostTerm> terms;

  const std::string& bound() const {
    static const std::string none = "nothing";
    const auto largest = std::max_element(
        terms.begin(), terms.end(),
        [](const CostTerm& a, const CostTerm& b) { return a.seconds < b.seconds; });
    return largest == terms.end() ? none : largest->name;
  }
  /// "4.1 ms (chain 3.9 ms, launch 5.6 us)": the total and each term, largest first.
  std::string describe() const;
};

/// Seconds in the unit that reads best: "4.12 ms", "35.0 us".
inline std::string format_seconds(double seconds) {
  char text[32];
  if (seconds >= 1)
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  else if (seconds >= 1e-3)
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  return text;
}

inline std::string Prediction::describe() const {
  auto sorted = terms;
  std::sort(sorted.begin(), sorted.end(),
            [](const CostTerm& a, const CostTerm& b) { return a.seconds > b.seconds; });
  std::string text = format_seconds(seconds) + " (";
  for (std::size_t k = 0; k < sorted.size(); ++k)
    text += (k ? ", " : "") + sorted[k].name + " " + format_seconds(sorted[k].seconds);
  return text + ")";
}

/// Seconds to stream `bytes` (read or written once, in order).
inline double streaming_seconds(const DeviceParameters& p, double bytes) {
  return bytes / p.copy_bandwidth;
}

/// Seconds to gather `bytes` in 8-byte pieces at scattered places of a vector of
/// `vector_bytes`: at the L2's gather bandwidth where the vector fits in half the L2, else at
/// memory's.
inline double gather_seconds(const DeviceParameters& p, double bytes, double vector_bytes) {
  return bytes / (vector_bytes <= 0.5 * p.l2_bytes ? p.gather_bandwidth_l2 : p.gather_bandwidth);
}

}  // namespace syncfree
