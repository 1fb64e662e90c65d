// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One TRSM seen as a left-side solve E X = B with E triangular, and its two block
/// operations: solve a diagonal block, subtract a block product (GEMM).

#include <cstdint>
#include <utility>

#include "algorithms/trsm/impl/syncfree_trsm_diagonal_solve.hpp"
#include "core/impl/syncfree_kokkos_blas3.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// A TRSM case in left-side form. Left side: E = op(A), right-hand sides the columns of B.
/// Right side: X op(A) = B is op(A)^T X^T = B^T, so E = op(A)^T and the right-hand sides are B's
/// rows. E is `lower` when A's triangle is lower and E transposes A an even number of times.
template <class ExecSpace, class AView, class BView>
struct TrsmBlocks {
  ExecSpace exec;
  AView A;
  BView B;
  bool right;       ///< right-hand sides are the rows of B
  bool transposed;  ///< E(i, j) = A(j, i)
  bool lower;       ///< E is lower triangular
  bool unit;

  TrsmBlocks(const ExecSpace& exec_, const AView& A_, const BView& B_, bool right_side,
             bool a_lower, bool transpose, bool unit_diagonal)
      : exec(exec_),
        A(A_),
        B(B_),
        right(right_side),
        transposed(transpose != right_side),
        lower(a_lower != (transpose != right_side)),
        unit(unit_diagonal) {}

  std::int64_t size() const { return A.extent(0); }

  /// X(first:first+count) = E(first.., first..)^{-1} X(first:first+count).
  void solve_diagonal(std::int64_t first, std::int64_t count) const {
    trsm_solve_diagonal_block(exec, A, B, first, int(count), right, transposed, lower, unit);
  }

  /// X(rows) -= E(rows, cols) X(cols), for disjoint row ranges of E.
  void update(std::int64_t row_first, std::int64_t row_count, std::int64_t col_first,
              std::int64_t col_count) const {
    if (row_count == 0 || col_count == 0) return;
    using range = std::pair<std::int64_t, std::int64_t>;
    const range rows(row_first, row_first + row_count), cols(col_first, col_first + col_count);
    // E(rows, cols) is A(rows, cols), or A(cols, rows) transposed.
    const auto a = transposed ? Kokkos::subview(A, cols, rows) : Kokkos::subview(A, rows, cols);
    using scalar_type = typename BView::non_const_value_type;
    if (!right) {
      gemm(exec, transposed ? "T" : "N", "N", scalar_type(-1), a,
           Kokkos::subview(B, cols, Kokkos::ALL), scalar_type(1),
           Kokkos::subview(B, rows, Kokkos::ALL));
    } else {
      // X^T(rows) -= E(rows, cols) X^T(cols) is X(:, rows) -= X(:, cols) E(rows, cols)^T.
      gemm(exec, "N", transposed ? "N" : "T", scalar_type(-1),
           Kokkos::subview(B, Kokkos::ALL, cols), a, scalar_type(1),
           Kokkos::subview(B, Kokkos::ALL, rows));
    }
  }
};

/// The first row whose diagonal entry A(i, i) is zero (`zero_pivot`) or not finite
/// (`not_finite`), whichever comes first; success when there is none.
template <class ExecSpace, class AView>
Outcome check_trsm_diagonal(const ExecSpace& exec, const AView& A) {
  using scalar_type = typename AView::non_const_value_type;
  const std::int64_t n = A.extent(0);
  std::int64_t first = 0;  // Kokkos::Min starts from the largest int64: none found
  Kokkos::parallel_reduce(
      "syncfree::trsm::check_diagonal", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& low) {
        const scalar_type d = A(i, i);
        if ((d == scalar_type(0) || !is_finite(d)) && i < low) low = i;
      },
      Kokkos::Min<std::int64_t>(first));
  if (first >= n) return {};
  scalar_type d{};
  Kokkos::deep_copy(d, Kokkos::subview(A, first, first));
  Outcome outcome;
  outcome.status = d == scalar_type(0) ? Status::zero_pivot : Status::not_finite;
  outcome.index = first;
  outcome.reason = concat("trsm: the diagonal entry A(", first, ", ", first, ") is ",
                          d == scalar_type(0) ? "zero" : "not finite");
  return outcome;
}

}  // namespace syncfree::impl
