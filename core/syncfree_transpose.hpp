// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The transpose of a matrix, with sorted rows.

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_rearranged_matrix.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// A^T (rows sorted) with the source of every entry kept, for new values of A on the same pattern
/// (`RearrangedMatrix::refill`). The same for every run: the rows are sorted after the parallel
/// fill.
template <class ExecSpace, class Matrix>
RearrangedMatrix<Matrix> transpose_matrix_kept(const ExecSpace& exec, const Matrix& A) {
  using offset_type = typename Matrix::non_const_size_type;
  // The sources ride through the sort as values (exact in double below 2^53).
  using IndexMatrix = CrsMatrix<double, typename Matrix::non_const_ordinal_type, offset_type,
                                typename Matrix::device_type>;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto transposed = impl::transpose_with_sources(
      exec, "syncfree::transpose", A, KOKKOS_LAMBDA(ordinal_type, ordinal_type) { return true; });
  const Matrix& pattern = transposed.first;
  const auto sources = transposed.second;
  Kokkos::View<double*, typename Matrix::device_type> index(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::transpose::index"),
      sources.extent(0));
  Kokkos::parallel_for(
      "syncfree::transpose::index", Kokkos::RangePolicy<ExecSpace>(exec, 0, index.extent(0)),
      KOKKOS_LAMBDA(const std::size_t p) { index(p) = double(sources(p)); });
  const IndexMatrix sorted =
      make_crs<IndexMatrix>("syncfree::transpose::indices", pattern.numRows(), pattern.numCols(),
                            pattern.graph.row_map, pattern.graph.entries, index);
  impl::sort_rows(exec, sorted);
  Kokkos::parallel_for(
      "syncfree::transpose::source", Kokkos::RangePolicy<ExecSpace>(exec, 0, index.extent(0)),
      KOKKOS_LAMBDA(const std::size_t p) { sources(p) = offset_type(index(p)); });
  RearrangedMatrix<Matrix> out{pattern, sources};
  out.refill(exec, A);
  return out;
}

/// A^T, rows sorted.
template <class ExecSpace, class Matrix>
Matrix transpose_matrix(const ExecSpace& exec, const Matrix& A) {
  return transpose_matrix_kept(exec, A).matrix;
}

}  // namespace syncfree
