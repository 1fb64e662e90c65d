// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Wall-clock timing of device work: fence, run, fence.

#include <algorithm>
#include <vector>

#include <Kokkos_Core.hpp>

namespace syncfree::bench {

/// Seconds `work` takes on the default execution space, fenced on both sides.
template <class Work>
double time_seconds(const Work& work) {
  const Kokkos::DefaultExecutionSpace exec;
  exec.fence();
  Kokkos::Timer timer;
  work();
  exec.fence();
  return timer.seconds();
}

inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

/// The median of `reps` timings of `work`, after one run untimed (first-use work, caches).
template <class Work>
double median_seconds(const Work& work, int reps = 11) {
  work();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) times.push_back(time_seconds(work));
  return median(times);
}

/// Times `work` repeatedly: at least `min_reps` times and on
/// until `max_reps` or until the timed runs add up to `budget_seconds`; but runs so slow that they
/// add up to 3 x `budget_seconds` stop early (a multi-second phase is timed once or twice).
/// `prepare` runs before each run, outside the timer. Returns every time.
template <class Work, class Prepare = void (*)()>
std::vector<double> time_repeated(
    const Work& work, int min_reps, int max_reps, double budget_seconds,
    const Prepare& prepare = [] {}) {
  std::vector<double> times;
  double spent = 0;
  for (;;) {
    const int runs = int(times.size());
    if (runs >= max_reps || (runs >= min_reps && spent >= budget_seconds) ||
        (runs >= 1 && spent >= 3 * budget_seconds && budget_seconds > 0))
      break;
    prepare();
    times.push_back(time_seconds(work));
    spent += times.back();
  }
  return times;
}

}  // namespace syncfree::bench
