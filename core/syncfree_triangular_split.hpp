// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Extracting the lower or upper triangle of a matrix, and splitting A into L and U.

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

namespace impl {

template <class Ordinal>
KOKKOS_INLINE_FUNCTION bool in_triangle(Ordinal row, Ordinal col, bool lower, bool with_diagonal) {
  return col == row ? with_diagonal : (lower ? col < row : col > row);
}

}  // namespace impl

/// The given triangle of `A` as a new matrix, in A's column order. With `Diagonal::stored` the
/// diagonal entries of `A` are kept; with `Diagonal::unit` they are dropped (the diagonal is then
/// implicitly one, the convention of the L factor of an LU or ILU factorization).
/// \throws DimensionMismatch when `A` is not square.
template <class ExecSpace, class Matrix>
Matrix extract_triangle(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                        Diagonal diagonal) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  SYNCFREE_REQUIRE(A.numRows() == A.numCols(), DimensionMismatch, "extract_triangle: matrix is ",
                   A.numRows(), "x", A.numCols(), ", not square");
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  const bool lower = triangle == Triangle::lower;
  const bool with_diagonal = diagonal == Diagonal::stored;
  return impl::build_crs<Matrix>(
      exec, lower ? "syncfree::L" : "syncfree::U", A.numRows(), A.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        typename Matrix::non_const_size_type count = 0;
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          count += impl::in_triangle(i, entries(k), lower, with_diagonal) ? 1 : 0;
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, typename Matrix::non_const_size_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          if (!impl::in_triangle(i, entries(k), lower, with_diagonal)) continue;
          out_entries(out) = entries(k);
          out_values(out) = values(k);
          ++out;
        }
      });
}

template <class Matrix>
struct LowerUpper {
  Matrix L;  ///< strictly lower part; its diagonal is one unless the split stored it
  Matrix U;  ///< upper part with the diagonal
};

/// Splits A into its strictly lower part L (unit diagonal implied) and its upper part U (with the
/// diagonal), so that A = L + U with L's implied ones removed; the layout of an LU factor pair.
template <class ExecSpace, class Matrix>
LowerUpper<Matrix> split_lower_upper(const ExecSpace& exec, const Matrix& A) {
  return {extract_triangle(exec, A, Triangle::lower, Diagonal::unit),
          extract_triangle(exec, A, Triangle::upper, Diagonal::stored)};
}

}  // namespace syncfree
