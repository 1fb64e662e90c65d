// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The performance model's formula for one SpMV y = A x, per format: a launch, the bytes
/// streamed (values, indices or masks, row pointers, y) and the sectors of x gathered.
///
///   T = l * t_launch + a * streamed / copy bandwidth + b * 32 x_sectors / gather bandwidth
///   streamed: CSR (v + 4) per entry + 4 per row pointer + 8 per row of y; stencil v per entry +
///             4 per row (its mask) + 8 per row of y; v the bytes of a value (8, or 4 where the
///             values are read in float: SpmvPrecision::single)
///
/// x_sectors counts the distinct 32-byte pieces of x that each warp's 32 consecutive rows read,
/// summed over the warps: n/4 where the columns follow the rows (a grid), up to the entries where
/// they scatter (a randomly numbered matrix). x is gathered at the L2's bandwidth where it fits in
/// half the L2. l (1 to 3: a call the caller waits for costs more than a launch in a stream) and
/// the constants (a, b) of each format were fitted by perf_tests/model/fit_model.py --kernel spmv
/// to SpMVs on an H200, on part of the grid and unstructured suites.

#include <algorithm>
#include <vector>

#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_spmv_plan.hpp"

namespace syncfree {

struct SpmvFeatures {
  long rows = 0;
  long cols = 0;
  long entries = 0;
  double x_sectors = 0;  ///< 32-byte sectors of x read, per warp of 32 rows, summed
  int value_bytes = 8;   ///< bytes of a value as the product reads it
};

/// The features of the host matrix A, in one pass over its rows.
template <class HostMatrix>
SpmvFeatures spmv_features(const HostMatrix& A) {
  SpmvFeatures f;
  f.rows = A.numRows();
  f.cols = A.numCols();
  f.entries = long(A.nnz());
  std::vector<long> sectors;
  for (long first = 0; first < f.rows; first += 32) {
    const long last = std::min(f.rows, first + 32);
    sectors.clear();
    for (auto k = A.graph.row_map(first); k < A.graph.row_map(last); ++k)
      sectors.push_back(long(A.graph.entries(k)) / 4);  // 4 doubles to a sector
    std::sort(sectors.begin(), sectors.end());
    f.x_sectors += double(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
  }
  return f;
}

/// The features of a plan's products: its matrix's (a host copy's) and the bytes of a value as
/// the products read them (SpmvPlan::precision).
template <class Matrix>
SpmvFeatures spmv_features(const SpmvPlan<Matrix>& plan) {
  SpmvFeatures f = spmv_features(copy_to<HostDevice>(plan.matrix()));
  f.value_bytes = plan.precision() == SpmvPrecision::single
                      ? int(sizeof(float))
                      : int(sizeof(typename Matrix::non_const_value_type));
  return f;
}

namespace impl {
struct SpmvCostConstants {
  double launches = 1;  ///< l
  double streamed = 1;  ///< a
  double gathered = 1;  ///< b
};

inline SpmvCostConstants spmv_cost_constants(SpmvFormat format) {
  return format == SpmvFormat::stencil ? SpmvCostConstants{3.0, 1.173, 0.0}
                                       : SpmvCostConstants{3.0, 1.193, 0.347};
}
}  // namespace impl

/// The predicted time of one SpMV in `format` (csr or stencil) of a matrix with features `f`.
inline Prediction predict_spmv(const DeviceParameters& p, const SpmvFeatures& f,
                               SpmvFormat format) {
  SYNCFREE_REQUIRE(format != SpmvFormat::automatic, InvalidArgument,
                   "predict_spmv: name a format (csr or stencil), not auto");
  const auto k = impl::spmv_cost_constants(format);
  const double rows = double(f.rows), entries = double(f.entries);
  const double v = double(f.value_bytes);
  const double streamed = format == SpmvFormat::stencil
                              ? v * entries + 12 * rows
                              : (v + 4) * entries + 4 * (rows + 1) + 8 * rows;
  Prediction prediction;
  prediction.terms = {{"launch", k.launches * p.launch_latency},
                      {"streaming", k.streamed * streaming_seconds(p, streamed)},
                      {"x gather", k.gathered * gather_seconds(p, 32 * f.x_sectors, 8.0 * f.cols)}};
  for (const auto& t : prediction.terms) prediction.seconds += t.seconds;
  return prediction;
}

}  // namespace syncfree
