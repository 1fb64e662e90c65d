// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The microbenchmarks of `syncfree-calibrate`, one function per device parameter, each
/// generic Kokkos on the default execution space and returning its medians.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

namespace syncfree::app {

using Exec = Kokkos::DefaultExecutionSpace;

/// Sizes of the measurements: `quick` for a smoke test, else large enough to leave every cache.
struct CalibrationSizes {
  std::size_t copy_bytes;     ///< each of the two buffers of the copy
  std::size_t gather_far;     ///< entries of x beyond the L2
  std::size_t gather_near;    ///< entries of x within it
  std::size_t gathers;        ///< entries gathered
  int launches;               ///< kernels in the launch chain
  std::size_t chase_entries;  ///< entries of the pointer-chase cycle (beyond the L2)
  int chase_steps;
  int hops;  ///< teams of the dependency chain
  int barriers;
  std::size_t atomics;
  int reps;  ///< timed repetitions of each measurement (median)
};

CalibrationSizes calibration_sizes(bool quick, double l2_bytes);

double measure_copy_bandwidth(const CalibrationSizes& s);
/// Bytes used (8 of x, 4 of the index, 8 of y per entry) per second; `x_entries` decides whether
/// x fits in the L2.
double measure_gather_bandwidth(const CalibrationSizes& s, std::size_t x_entries);
double measure_launch_latency(const CalibrationSizes& s);
double measure_host_sync(const CalibrationSizes& s);
double measure_dependent_load_latency(const CalibrationSizes& s);
/// Seconds per hop of a flag passed from team to team among `teams` resident teams.
double measure_dependency_hop(const CalibrationSizes& s, int teams);
double measure_block_barrier(const CalibrationSizes& s);
double measure_atomic_rate(const CalibrationSizes& s);

}  // namespace syncfree::app
