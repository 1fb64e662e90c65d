// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The matrices the SpTRSV benchmark solves: the lower triangle (with its diagonal) of a
/// generated problem, of a Matrix Market file, or a bidiagonal chain; with b and the oracle's x.

#include <memory>
#include <string>
#include <vector>

#include "core/syncfree_triangle_features.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"

namespace syncfree::bench {

using Matrix = BenchCrs;

struct BenchMatrix {
  std::string name;
  Matrix L;
  Vector<double> b;
  std::vector<double> expected;  ///< serial oracle's solution
  int levels = 0;
  double rows_per_level = 0;
  int longest_row = 0;  ///< entries of L's longest row, the diagonal included
  double mean_row = 0;  ///< entries of L per row
  /// Share of L's off-diagonal entries whose column lies fewer than 32 rows before their row:
  /// dependencies that a warp of consecutive rows could resolve among its own rows.
  double near_dependencies = 0;
  TriangleFeatures features;  ///< what the performance model reads of L
  /// Least traffic of one solve: values and column indices, row pointers, b read, x written.
  double bytes = 0;
};

/// The lower triangle of `load_matrix(source)`, its right-hand side and the oracle's solution.
std::shared_ptr<BenchMatrix> load_bench_matrix(const std::string& source);

/// Largest entry-wise difference between x and the oracle, relative to max(1, |expected|).
double max_relative_error(const BenchMatrix& m, const Vector<double>& x);

}  // namespace syncfree::bench
