// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief How many rows of a matrix are not diagonally dominant: |a_ii| < sum_{j != i} |a_ij|.

#include <cstdint>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// Rounding the comparison forgives: a row whose off-diagonal sum exceeds its diagonal by no more
/// than this share of both counts as dominant (a graph Laplacian's rows, equal in exact
/// arithmetic, stay so).
inline constexpr double dominance_slack = 1e-10;

/// Whether a row with |diagonal| `diagonal` (0 where none is stored; duplicates added) and
/// off-diagonal absolute sum `off` is not diagonally dominant.
KOKKOS_INLINE_FUNCTION bool falls_short_of_dominance(double diagonal, double off) {
  return off - diagonal > dominance_slack * (off + diagonal);
}

/// Rows of A that are not diagonally dominant, by a thread per row, on `exec`; waits for it.
template <class Exec, class Matrix>
std::int64_t rows_not_dominant_one_per_iteration(const Exec& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "syncfree::rows_not_dominant", Kokkos::RangePolicy<Exec>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& c) {
        double diagonal = 0, off = 0;
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const double v = impl::abs(double(values(k)));
          if (entries(k) == i)
            diagonal += v;
          else
            off += v;
        }
        if (falls_short_of_dominance(diagonal, off)) ++c;
      },
      count);
  return count;
}

/// The count: the generic pass above; CUDA specializes it for rows of 8 or more entries on
/// average or some of more than 512 (cuda/syncfree_diagonal_dominance_cuda.hpp).
template <class Exec, class Matrix, class Enable = void>
struct RowsNotDominant {
  static std::int64_t count(const Exec& exec, const Matrix& A, long /*longest*/ = -1) {
    return rows_not_dominant_one_per_iteration(exec, A);
  }
};

/// Rows of A whose diagonal entry's magnitude falls short of the sum of the others' (a row that
/// stores no diagonal counts). A's row pointers must be sound (validated). On `exec`; waits for it.
/// \param longest A's longest row where the caller knows it (validation reports it), else -1
template <class Exec, class Matrix>
std::int64_t rows_not_diagonally_dominant(const Exec& exec, const Matrix& A, long longest = -1) {
  if (A.numRows() == 0) return 0;
  return RowsNotDominant<Exec, Matrix>::count(exec, A, longest);
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_diagonal_dominance_cuda.hpp"
#endif
