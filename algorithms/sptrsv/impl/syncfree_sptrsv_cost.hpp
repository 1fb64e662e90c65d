// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The performance model's formula for one SpTRSV solve, per algorithm: a launch, then
/// level after level the slower of a dependency step (a hop through memory and the latency of the
/// row work on the critical path) and the level's throughput (its rows' bytes).
///
///   T = t_launch + sum over levels l of max(step, rows_l * row_time)
///   step     = a * hop + b * t_load * work^g   (level_set: t_launch + b * t_load * work^g)
///   row_time = c * (12 r bytes streamed + 8 r bytes gathered), r = entries per row
///   work     = entries on the critical path per level (a thread walks its row alone:
///              sync_free_thread, level_set), or r (lanes share a row: the others)
///
/// Levels come from the features' width histogram; sync_free_thread in chain-segment order
/// takes the chain levels instead (the rows of a chain segment share a warp). The dimensionless
/// constants (a, b, c, g) of each algorithm were fitted by perf_tests/model/fit_model.py --kernel
/// sptrsv to solves on an H200, in log space, on part of the grid and unstructured suites (the
/// other part held back to validate); the device enters through the calibrated hop, load latency,
/// launch latency and bandwidths. `wavefront` and `band` have no formula: their layouts exist only
/// on grids and bands, where their own structure, not these features, decides. Included by
/// syncfree_sptrsv.hpp after SptrsvAlgorithm.

#include <algorithm>
#include <cmath>
#include <string>

#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_triangle_features.hpp"

namespace syncfree::impl {

struct SptrsvCostConstants {
  double hop = 0;         ///< a: dependency hops per step
  double load = 0;        ///< b: dependent loads per unit of work
  double throughput = 0;  ///< c: the level's bytes, relative to streaming them
  double exponent = 1;    ///< g: work's growth
  bool thread_per_row = false;
};

/// The fitted constants, or `hop` = 0 and `load` = 0 where the algorithm has no formula.
inline SptrsvCostConstants sptrsv_cost_constants(SptrsvAlgorithm a) {
  switch (a) {
    case SptrsvAlgorithm::sync_free_thread:
      return {0.793, 0.195, 3.248, 1.142, true};
    case SptrsvAlgorithm::level_set:
      return {0.0, 5.120, 1.000, 0.777, true};
    case SptrsvAlgorithm::sync_free_row:
      return {0.0, 10.464, 22.076, 0.192, false};
    case SptrsvAlgorithm::multirow:
      return {0.0, 2.899, 5.275, 0.569, false};
    case SptrsvAlgorithm::packed:
      return {0.0, 3.078, 4.815, 0.548, false};
    case SptrsvAlgorithm::alap_packed:
      return {0.0, 3.028, 4.746, 0.501, false};
    default:
      return {};
  }
}

inline bool sptrsv_cost_modeled(SptrsvAlgorithm a) {
  const auto c = sptrsv_cost_constants(a);
  return c.hop > 0 || c.load > 0;
}

/// The predicted time of one solve by `algorithm` of a triangle with features `f` on the device
/// `p`; `chain_levels` > 0: sync_free_thread runs chain-segment order with that many levels.
inline Prediction predict_sptrsv_solve(const DeviceParameters& p, const TriangleFeatures& f,
                                       SptrsvAlgorithm algorithm, long chain_levels = 0) {
  const auto k = sptrsv_cost_constants(algorithm);
  SYNCFREE_REQUIRE(sptrsv_cost_modeled(algorithm), InvalidArgument,
                   "the performance model has no formula for SpTRSV algorithm ",
                   to_string(algorithm));
  Prediction prediction;
  prediction.terms.push_back({"launch", p.launch_latency});
  if (f.rows == 0 || f.levels == 0) {
    prediction.seconds = p.launch_latency;
    return prediction;
  }
  const double r = double(f.entries) / double(f.rows);
  const double path_per_level = double(f.critical_path_entries) / double(f.levels);
  const double work = std::pow(k.thread_per_row ? path_per_level : r, k.exponent);
  const double step = (algorithm == SptrsvAlgorithm::level_set ? p.launch_latency : 0.0) +
                      k.hop * p.dependency_hop + k.load * p.dependent_load_latency * work;
  const double row_time =
      k.throughput * (streaming_seconds(p, 12 * r) + gather_seconds(p, 8 * r, 8.0 * f.rows));

  double steps = 0, throughput = 0;
  const auto add_levels = [&](double levels, double width) {
    if (step >= width * row_time)
      steps += levels * step;
    else
      throughput += levels * width * row_time;
  };
  if (algorithm == SptrsvAlgorithm::sync_free_thread && chain_levels > 0)
    add_levels(double(chain_levels), double(f.rows) / double(chain_levels));
  else
    for (int b = 0; b < feature_buckets; ++b)
      if (f.levels_by_width[b] > 0)
        add_levels(double(f.levels_by_width[b]),
                   double(f.rows_by_level_width[b]) / double(f.levels_by_width[b]));
  prediction.terms.push_back({"dependency steps", steps});
  prediction.terms.push_back({"level throughput", throughput});
  prediction.seconds = p.launch_latency + steps + throughput;
  return prediction;
}

/// The features of an analyzed triangle that its plan's storage already holds (level widths,
/// entries, longest row; the levels must be known), the critical path taken as a mean row per
/// level: enough to compare the algorithms that walk each row in one thread, whose work terms it
/// scales alike.
template <class Storage>
TriangleFeatures sptrsv_storage_features(const Storage& s) {
  TriangleFeatures f;
  f.rows = long(s.n);
  if (f.rows == 0) return f;
  f.entries = long(s.columns.extent(0)) + f.rows;  // a dependency per off-diagonal entry
  f.longest_row = long(s.max_row_length) + 1;
  f.levels = long(s.levels.num_levels);
  f.critical_path_entries = f.levels * std::max(1L, f.entries / f.rows);
  for (long l = 0; l < f.levels; ++l) {
    const long width = long(s.level_ptr_host(l + 1) - s.level_ptr_host(l));
    const int b = feature_bucket(std::max(1L, width));
    ++f.levels_by_width[b];
    f.rows_by_level_width[b] += width;
  }
  return f;
}

/// Whether one launch per level (`level_set`) should replace `chosen` (what `automatic` picked):
/// where `chosen` is `sync_free_thread` (on a grid's or a band's layout, or on long rows,
/// `automatic` chose by structure), no row holds more than 32 entries (a thread walks each row
/// alone), and the model predicts `level_set` at least `margin` times faster, a margin above its
/// error between these two (a few wide levels, as a multicolor order makes).
inline bool level_set_clearly_faster(const DeviceParameters& p, const TriangleFeatures& f,
                                     SptrsvAlgorithm chosen, long chain_levels,
                                     double margin = 1.3) {
  if (chosen != SptrsvAlgorithm::sync_free_thread || f.longest_row > 32 || f.levels == 0)
    return false;
  const double current = predict_sptrsv_solve(p, f, chosen, chain_levels).seconds;
  const double level_set = predict_sptrsv_solve(p, f, SptrsvAlgorithm::level_set).seconds;
  return current >= margin * level_set;
}

}  // namespace syncfree::impl
