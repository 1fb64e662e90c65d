// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The leading square block of a matrix: a distributed matrix's local diagonal block.

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree {

/// Rows and columns 0..n-1 of A as an n x n matrix. On a rank of a distributed matrix whose column
/// map lists the owned rows first (Tpetra's do), this drops the ghost columns and leaves the local
/// diagonal block that block-Jacobi and local preconditioners work on.
/// \throws DimensionMismatch when A has fewer than n rows or columns.
template <class ExecSpace, class Matrix>
Matrix extract_leading_block(const ExecSpace& exec, const Matrix& A,
                             typename Matrix::non_const_ordinal_type n) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  SYNCFREE_REQUIRE(n >= 0 && n <= A.numRows() && n <= A.numCols(), DimensionMismatch,
                   "extract_leading_block: cannot take ", n, " rows and columns of a ", A.numRows(),
                   "x", A.numCols(), " matrix");
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  return impl::build_crs<Matrix>(
      exec, "syncfree::leading_block", n, n,
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 0;
        for (auto k = row_map(i); k < row_map(i + 1); ++k) count += entries(k) < n ? 1 : 0;
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          if (entries(k) >= n) continue;
          out_entries(out) = entries(k);
          out_values(out) = values(k);
          ++out;
        }
      });
}

}  // namespace syncfree
