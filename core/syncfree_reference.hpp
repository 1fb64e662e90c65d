// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial reference implementations on the host, used as test oracles.
///
/// They are written to be obviously correct, not fast: one loop over the rows, no assumption on
/// the order of the entries within a row, duplicate entries added up (as SpMV does). They take a
/// `CrsMatrix` whose memory the host can read (`HostMatrix<M>`; use `copy_to<HostDevice>` first)
/// and `std::vector<double>`.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::reference {
namespace detail {

template <class HM>
void require_host(const HM&) {
  static_assert(
      Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace,
                                 typename HM::memory_space>::accessible,
      "syncfree::reference takes matrices the host can read; copy with copy_to<HostDevice>");
}

template <class HM>
void require_square(const HM& A, const char* function) {
  SYNCFREE_REQUIRE(A.numRows() == A.numCols(), InvalidMatrix, "reference::", function,
                   ": the matrix is ", A.numRows(), "x", A.numCols(), ", not square");
}

/// True when column j of row i belongs to the strict part of `tri`.
inline bool in_strict_triangle(std::int64_t i, std::int64_t j, Triangle tri) {
  return tri == Triangle::lower ? j < i : j > i;
}

}  // namespace detail

/// y = A x.
///
/// \tparam HM a `CrsMatrix` in host-accessible memory
/// \param[in] A the matrix
/// \param[in] x a vector of A.numCols() entries
/// \returns A x, with A.numRows() entries, accumulated in double
/// \throws DimensionMismatch when x has the wrong size
template <class HM>
std::vector<double> spmv(const HM& A, const std::vector<double>& x) {
  detail::require_host(A);
  SYNCFREE_REQUIRE(x.size() == std::size_t(A.numCols()), DimensionMismatch,
                   "reference::spmv: A has ", A.numCols(), " columns but x has ", x.size(),
                   " entries");
  std::vector<double> y(A.numRows(), 0.0);
  for (std::int64_t i = 0; i < std::int64_t(A.numRows()); ++i)
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      y[i] += double(A.values(k)) * x[A.graph.entries(k)];
  return y;
}

/// Solves T x = b, where T is the lower or upper triangle of A.
///
/// Only entries of the strict triangle `tri` and, with `Diagonal::stored`, the diagonal are used;
/// entries of the other triangle are ignored. With `Diagonal::unit` the diagonal is taken as 1 and
/// any stored diagonal is ignored.
///
/// \tparam HM a `CrsMatrix` in host-accessible memory
/// \param[in] A a square matrix
/// \param[in] tri which triangle of A to solve with
/// \param[in] diag whether the diagonal is stored in A or taken as 1
/// \param[in] b the right-hand side, A.numRows() entries
/// \returns x, computed by forward (lower) or backward (upper) substitution in double
/// \throws InvalidMatrix when A is not square, or (with `Diagonal::stored`) a row has no stored
///   diagonal or its diagonal is zero; the message names the row
/// \throws DimensionMismatch when b has the wrong size
template <class HM>
std::vector<double> triangular_solve(const HM& A, Triangle tri, Diagonal diag,
                                     const std::vector<double>& b) {
  detail::require_host(A);
  detail::require_square(A, "triangular_solve");
  const std::int64_t n = A.numRows();
  SYNCFREE_REQUIRE(b.size() == std::size_t(n), DimensionMismatch,
                   "reference::triangular_solve: A has ", n, " rows but b has ", b.size(),
                   " entries");
  std::vector<double> x(n, 0.0);
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t i = tri == Triangle::lower ? step : n - 1 - step;
    double sum = b[i];
    double d = 0;
    bool has_diagonal = false;
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) {
      const std::int64_t j = A.graph.entries(k);
      if (detail::in_strict_triangle(i, j, tri)) {
        sum -= double(A.values(k)) * x[j];
      } else if (j == i) {
        d += double(A.values(k));
        has_diagonal = true;
      }
    }
    if (diag == Diagonal::unit) {
      x[i] = sum;
      continue;
    }
    SYNCFREE_REQUIRE(has_diagonal, InvalidMatrix, "reference::triangular_solve: row ", i,
                     " has no stored diagonal");
    SYNCFREE_REQUIRE(d != 0.0, InvalidMatrix, "reference::triangular_solve: row ", i,
                     " has a zero diagonal");
    x[i] = sum / d;
  }
  return x;
}

/// The level of each row in the dependency DAG of a triangle: 0 for a row with no off-diagonal
/// entry in the strict triangle `tri`, otherwise 1 + the largest level of the rows it depends on
/// (its columns j < i for lower, j > i for upper). Rows of one level can be solved in parallel.
///
/// \tparam HM a `CrsMatrix` in host-accessible memory
/// \param[in] A a square matrix; entries outside the strict triangle are ignored
/// \param[in] tri which triangle defines the dependencies
/// \returns one level per row
/// \throws InvalidMatrix when A is not square
template <class HM>
std::vector<int> levels(const HM& A, Triangle tri) {
  detail::require_host(A);
  detail::require_square(A, "levels");
  const std::int64_t n = A.numRows();
  std::vector<int> level(n, 0);
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t i = tri == Triangle::lower ? step : n - 1 - step;
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) {
      const std::int64_t j = A.graph.entries(k);
      if (detail::in_strict_triangle(i, j, tri)) level[i] = std::max(level[i], level[j] + 1);
    }
  }
  return level;
}

/// "As late as possible" levels (Freire Picón 2025, Algorithm 17, run serially): a row no other
/// row depends on gets the last level of `levels`, any other row one less than the smallest ALAP
/// level of the rows that depend on it.
template <class HM>
std::vector<int> alap_levels(const HM& A, Triangle tri) {
  const auto asap = levels(A, tri);
  const std::int64_t n = A.numRows();
  const int last = n == 0 ? 0 : *std::max_element(asap.begin(), asap.end());
  constexpr int unset = std::numeric_limits<int>::max();
  std::vector<int> level(n, unset);
  // Reverse topological order: a row's dependents are all final when it is reached.
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t i = tri == Triangle::lower ? n - 1 - step : step;
    if (level[i] == unset) level[i] = last;
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) {
      const std::int64_t j = A.graph.entries(k);
      if (detail::in_strict_triangle(i, j, tri)) level[j] = std::min(level[j], level[i] - 1);
    }
  }
  return level;
}

}  // namespace syncfree::reference
