// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What the performance model reads of a triangular matrix: its size, row lengths, the
/// widths of its levels and its critical path, gathered in one pass over its rows on the host.

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/syncfree_types.hpp"

namespace syncfree {

/// Histograms count in powers of two: bucket k holds the values in [2^k, 2^(k+1)).
inline constexpr int feature_buckets = 32;

struct TriangleFeatures {
  long rows = 0;
  long entries = 0;      ///< the diagonal included
  long levels = 0;       ///< of the dependency graph: the longest path, in rows
  long longest_row = 0;  ///< entries, the diagonal included
  /// The most entries on one dependency path (each row on it counting all its entries): the work a
  /// solve that walks each row in one thread cannot run in parallel.
  long critical_path_entries = 0;
  /// Off-diagonal entries whose column lies fewer than 32 rows before their row (in a lower
  /// triangle; after, in an upper one), as a share of all off-diagonal entries: dependencies a
  /// warp of consecutive rows holds.
  double near_share = 0;
  std::array<long, feature_buckets> rows_by_length{};       ///< rows, by their entries
  std::array<long, feature_buckets> levels_by_width{};      ///< levels, by their rows
  std::array<long, feature_buckets> rows_by_level_width{};  ///< rows, by their level's width

  double mean_row() const { return rows ? double(entries) / double(rows) : 0; }
  /// Launch-wide waves of a level-by-level solve: the sum over levels of
  /// ceil(rows of the level / `resident` rows at once), from the histograms (each bucket's levels
  /// taken at their mean width).
  double level_waves(double resident) const {
    double waves = 0;
    for (int k = 0; k < feature_buckets; ++k)
      if (levels_by_width[k] > 0) {
        const double width = double(rows_by_level_width[k]) / double(levels_by_width[k]);
        waves += double(levels_by_width[k]) * std::max(1.0, std::ceil(width / resident));
      }
    return waves;
  }
};

namespace impl {
inline int feature_bucket(long value) {
  int k = 0;
  while (k + 1 < feature_buckets && value >= (2L << k)) ++k;
  return k;
}
}  // namespace impl

/// The features of the `triangle` of the host matrix L (its entries outside the triangle are
/// not read; rows sorted or not).
template <class HostMatrix>
TriangleFeatures triangle_features(const HostMatrix& L, Triangle triangle) {
  const long n = L.numRows();
  const auto& row_map = L.graph.row_map;
  const auto& entries = L.graph.entries;
  const bool lower = triangle == Triangle::lower;
  TriangleFeatures f;
  f.rows = n;
  std::vector<int> level(n, 0);
  std::vector<long> path(n, 0);  // entries on the heaviest path ending at each row
  long off_diagonal = 0, near = 0;
  for (long step = 0; step < n; ++step) {
    const long i = lower ? step : n - 1 - step;  // dependencies come first
    int depth = 0;
    long heaviest = 0, length = 0;
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const long j = entries(k);
      const long distance = lower ? i - j : j - i;
      if (distance < 0) continue;
      ++length;
      if (distance == 0) continue;
      ++off_diagonal;
      near += distance < 32;
      depth = std::max(depth, level[j]);
      heaviest = std::max(heaviest, path[j]);
    }
    level[i] = depth + 1;
    path[i] = heaviest + length;
    f.entries += length;
    f.longest_row = std::max(f.longest_row, length);
    f.levels = std::max<long>(f.levels, level[i]);
    f.critical_path_entries = std::max(f.critical_path_entries, path[i]);
    ++f.rows_by_length[impl::feature_bucket(std::max(1L, length))];
  }
  f.near_share = off_diagonal ? double(near) / double(off_diagonal) : 0;
  std::vector<long> width(f.levels + 1, 0);
  for (long i = 0; i < n; ++i) ++width[level[i]];
  for (long l = 1; l <= f.levels; ++l) {
    const int k = impl::feature_bucket(width[l]);
    ++f.levels_by_width[k];
    f.rows_by_level_width[k] += width[l];
  }
  return f;
}

}  // namespace syncfree
