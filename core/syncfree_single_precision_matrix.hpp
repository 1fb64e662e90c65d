// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A matrix's values rounded to float on its own graph: what a preconditioner kept in
/// single precision is built from (syncfree_single_precision.hpp), and what an SpMV reads where
/// its values are kept in single precision (SpmvPrecision::single).

#include <cfloat>
#include <cstdint>
#include <limits>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// The matrix type of `Matrix` with float values.
template <class Matrix>
using SinglePrecisionMatrix =
    CrsMatrix<float, typename Matrix::non_const_ordinal_type, typename Matrix::non_const_size_type,
              typename Matrix::device_type>;

/// Writes A's values rounded to float into `values` (A's number of entries). NaN and Inf stay what
/// they are (the preconditioner's own checks name them).
/// \throws InvalidMatrix naming the first row with a finite entry beyond float's range (3.4e38).
template <class ExecSpace, class Matrix, class Values>
void round_values_to_single(const ExecSpace& exec, const Matrix& A, const Values& values) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto from = A.values;
  // Rounds and finds the first row holding a finite entry beyond float's range in one pass.
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  Kokkos::parallel_reduce(
      "syncfree::single::round", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& row) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const double v = double(from(k));
          const bool beyond = impl::abs(v) > double(FLT_MAX) && impl::is_finite(v);
          values(k) = static_cast<float>(beyond ? 0.0 : v);  // a finite double beyond: no float
          if (beyond && i < row) row = i;
        }
      },
      Kokkos::Min<std::int64_t>(first));
  if (first != std::numeric_limits<std::int64_t>::max())
    throw InvalidMatrix(impl::concat("row ", first,
                                     ": an entry is beyond single precision's range (3.4e38); "
                                     "keep this preconditioner in double precision"),
                        first);
}

/// A's values rounded to float (round_values_to_single), on A's graph (shared, not copied).
/// \throws as round_values_to_single.
template <class ExecSpace, class Matrix>
SinglePrecisionMatrix<Matrix> round_to_single(const ExecSpace& exec, const Matrix& A) {
  using Single = SinglePrecisionMatrix<Matrix>;
  typename Single::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::single::values"),
      A.values.extent(0));
  round_values_to_single(exec, A, values);
  return Single("syncfree::single::matrix", A.numCols(), values, A.graph);
}

}  // namespace syncfree
