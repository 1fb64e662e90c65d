// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The least-squares problems of SPAI, one team each: for problem k (a row of the result),
/// with unknowns J = row k of a pattern and equations I = row k of the product of that pattern
/// with B, min || sum_{l} m_l B(J[l], I) - e_k(I) ||, by Householder QR of the dense |I| x |J|
/// matrix in global work space.
///
/// The team's threads share each column's work, on consecutive rows (coalesced on a GPU, where a
/// team is a warp). The arithmetic of a problem depends only on the team size, so it is the same
/// in every batch and every run. The residual norm of the problem comes out of the QR for free:
/// the part of Q^T e_k below row |J|.

#include <cstdint>
#include <limits>

#include "algorithms/spai/impl/syncfree_spai_batches.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// How a least-squares problem ended (problems that failed get zeros in the result).
enum LeastSquaresCode : int {
  least_squares_ok = 0,
  least_squares_rank_deficient = 1,  ///< B(J, I) has rank below |J|
  least_squares_misses_k = 2,        ///< no row of B in J has an entry in column k
  least_squares_not_finite = 3,
};

template <class ExecSpace, class Matrix>
struct SpaiLeastSquares {
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using row_map_type = typename Matrix::row_map_type;
  using entries_type = typename Matrix::index_type;

  row_map_type j_map;  ///< the unknowns: row k lists J
  entries_type j_cols;
  row_map_type i_map;  ///< the equations: row k lists I, sorted
  entries_type i_cols;
  row_map_type b_map;  ///< the rows combined
  entries_type b_cols;
  typename Matrix::values_type b_values;
  Kokkos::View<std::int64_t*, device_type> workspace_offsets;
  Kokkos::View<scalar_type*, device_type> workspace;
  std::int64_t first_problem = 0;  ///< problem of league rank 0; its work space starts at 0
  typename Matrix::values_type::non_const_type result;  ///< aligned with j_cols
  Kokkos::View<double*, device_type> residual;          ///< || B^T m_k - e_k || per problem
  double epsilon = std::numeric_limits<scalar_type>::epsilon();
  /// A problem that fails for want of rank gets e_k / b_kk where b_kk is nonzero, counted here.
  bool fallback = false;
  Kokkos::View<std::int64_t*, device_type> fallbacks;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team, std::int64_t& first_bad) const {
    const std::int64_t k = first_problem + team.league_rank();
    const offset_type jb = j_map(k), ib = i_map(k);
    const int n_j = int(j_map(k + 1) - jb), n_i = int(i_map(k + 1) - ib);
    scalar_type* const C = &workspace(workspace_offsets(k) - workspace_offsets(first_problem));
    scalar_type* const rhs = C + std::int64_t(n_i) * n_j;
    scalar_type* const column_norm = rhs + n_i;
    scalar_type* const r_diagonal = column_norm + n_j;
    const int k_at = int(lower_bound(i_cols, ib, offset_type(n_i), ordinal_type(k)));
    const bool reaches_k = k_at < n_i && i_cols(ib + k_at) == ordinal_type(k);

    // C(:, l) = B(J[l], I); rhs = e_k(I). The zeros first, the team's threads on consecutive
    // entries; then a thread per column scatters its row of B.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_i * (n_j + 1)),
                         [&](const int e) { C[e] = 0; });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_j + 1), [&](const int l) {
      if (l == n_j) {
        if (reaches_k) rhs[k_at] = 1;
        return;
      }
      scalar_type* const column = C + std::int64_t(l) * n_i;
      const ordinal_type row = j_cols(jb + l);
      scalar_type squares = 0;
      for (auto q = b_map(row); q < b_map(row + 1); ++q) {
        const int at = int(lower_bound(i_cols, ib, offset_type(n_i), b_cols(q)));
        column[at] += b_values(q);
        squares += b_values(q) * b_values(q);
      }
      column_norm[l] = impl::sqrt(squares);
    });
    team.team_barrier();

    int code = !reaches_k  ? least_squares_misses_k
               : n_i < n_j ? least_squares_rank_deficient
                           : least_squares_ok;
    for (int j = 0; j < n_j && code == least_squares_ok; ++j) {
      const scalar_type* const v = C + std::int64_t(j) * n_i;
      scalar_type squares = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, j, n_i),
          [&](const int i, scalar_type& sum) { sum += v[i] * v[i]; }, squares);
      const scalar_type norm = impl::sqrt(squares);
      if (!impl::is_finite(norm)) {
        code = least_squares_not_finite;
        break;
      }
      if (!(norm > scalar_type(epsilon * n_i) * column_norm[j])) {
        code = least_squares_rank_deficient;
        break;
      }
      // Householder reflector H = I - tau w w^T with w = (v_j - alpha, v_{j+1}, ...): H v = alpha
      // e_j.
      const scalar_type x0 = v[j];
      const scalar_type alpha = x0 >= 0 ? -norm : norm;
      const scalar_type w0 = x0 - alpha;
      const scalar_type tau = scalar_type(1) / (norm * (norm + impl::abs(x0)));
      // The reflector on every later column and the right-hand side, one column at a time, the
      // team's threads on consecutive rows.
      for (int l = j + 1; l <= n_j; ++l) {
        scalar_type* const column = C + std::int64_t(l) * n_i;
        scalar_type dot = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, j, n_i),
            [&](const int i, scalar_type& sum) { sum += (i == j ? w0 : v[i]) * column[i]; }, dot);
        const scalar_type f = tau * dot;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j, n_i),
                             [&](const int i) { column[i] -= f * (i == j ? w0 : v[i]); });
      }
      Kokkos::single(Kokkos::PerTeam(team), [&]() { r_diagonal[j] = alpha; });
      team.team_barrier();
    }

    double residual_norm = 1;
    if (code == least_squares_ok) {
      scalar_type squares = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, n_j, n_i),
          [&](const int i, scalar_type& sum) { sum += rhs[i] * rhs[i]; }, squares);
      residual_norm = double(impl::sqrt(squares));
      // R m = (Q^T e_k)(0 .. |J|), column by column from the last.
      for (int l = n_j - 1; l >= 0; --l) {
        const scalar_type m = rhs[l] / r_diagonal[l];
        if (!impl::is_finite(m)) code = least_squares_not_finite;
        Kokkos::single(Kokkos::PerTeam(team), [&]() { result(jb + l) = m; });
        const scalar_type* const r_column = C + std::int64_t(l) * n_i;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, l),
                             [&](const int p) { rhs[p] -= r_column[p] * m; });
        team.team_barrier();
      }
    }
    if (code != least_squares_ok && fallback && code != least_squares_not_finite &&
        diagonal_fallback(team, k, jb, n_j, residual_norm))
      code = least_squares_ok;
    if (code != least_squares_ok) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_j),
                           [&](const int l) { result(jb + l) = 0; });
      if (4 * k + code < first_bad) first_bad = 4 * k + code;
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { residual(k) = residual_norm; });
  }

  /// Problem k's result becomes e_k / b_kk (the Jacobi column or row), with its residual
  /// ||B(k, :) / b_kk - e_k||, where J holds k and b_kk is nonzero and finite; false otherwise.
  KOKKOS_INLINE_FUNCTION bool diagonal_fallback(const member_type& team, std::int64_t k,
                                                offset_type jb, int n_j,
                                                double& residual_norm) const {
    const int k_in_j = int(lower_bound(j_cols, jb, offset_type(n_j), ordinal_type(k)));
    if (k_in_j >= n_j || j_cols(jb + k_in_j) != ordinal_type(k)) return false;
    const offset_type rb = b_map(k);
    const offset_type at = rb + lower_bound(b_cols, rb, b_map(k + 1) - rb, ordinal_type(k));
    if (at >= b_map(k + 1) || b_cols(at) != ordinal_type(k)) return false;
    const scalar_type diagonal = b_values(at);
    if (!(impl::abs(diagonal) > scalar_type(0)) || !impl::is_finite(diagonal)) return false;
    scalar_type off = 0;
    for (auto q = rb; q < b_map(k + 1); ++q)
      if (q != at) off += b_values(q) * b_values(q);
    residual_norm = double(impl::sqrt(off) / impl::abs(diagonal));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_j), [&](const int l) {
      result(jb + l) = l == k_in_j ? scalar_type(1) / diagonal : scalar_type(0);
    });
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { Kokkos::atomic_add(&fallbacks(0), std::int64_t(1)); });
    return true;
  }
};

/// Work space entries of one problem: the dense matrix, the right-hand side, column norms and
/// R's diagonal.
KOKKOS_INLINE_FUNCTION std::int64_t least_squares_workspace(std::int64_t n_i, std::int64_t n_j) {
  return n_i * (n_j + 1) + 2 * n_j;
}

}  // namespace syncfree::impl
