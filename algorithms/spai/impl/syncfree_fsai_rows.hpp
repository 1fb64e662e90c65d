// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The rows of FSAI's factor G, one team each: for row i with pattern J (sorted, ending
/// with i), A(J, J) = L L^T by Cholesky in the row's work space, then G(i, J) = L^{-T} e_{|J|},
/// which is A(J, J)^{-1} e_{|J|} scaled so that (G A G^T)(i, i) = 1.
///
/// The work space holds A(J, J), the right-hand side and one more vector (m (m + 2) entries).
/// Each step of the factorization updates the trailing columns at once, a thread per entry of the
/// square behind the pivot (half of them idle: only the lower triangle is kept), with the step's
/// multipliers divided out once. Column j is kept unscaled (K(:, j) = L(:, j) L(j, j)) until every
/// step is done: no square root on the critical path of the steps. Every entry gets the same
/// operations in the same order whatever the team size or where the work space lies, so G is the
/// same bit for bit in scratch or global memory, in any batches.

#include <cstdint>

#include "algorithms/spai/impl/syncfree_spai_batches.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// How a row of G ended (rows that failed get zeros in G).
enum FsaiCode : int {
  fsai_ok = 0,
  fsai_not_positive_definite = 1,  ///< A(J, J) has a pivot <= 0
  fsai_not_finite = 3,
};

template <class ExecSpace, class Matrix>
struct FsaiRows {
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  typename Matrix::row_map_type g_map;  ///< G's pattern: row i lists J, sorted, last i
  typename Matrix::index_type g_cols;
  typename Matrix::row_map_type a_map;
  typename Matrix::index_type a_cols;
  typename Matrix::values_type a_values;
  typename Matrix::values_type::non_const_type result;  ///< G's values, aligned with g_cols

  KOKKOS_INLINE_FUNCTION int unknowns(const std::int64_t i) const {
    return int(g_map(i + 1) - g_map(i));
  }

  /// Work space vectors beside the m x m matrix.
  static constexpr int vectors = 2;

  /// Row i of G, with K the row's work space of m (m + vectors) entries.
  KOKKOS_INLINE_FUNCTION void solve(const member_type& team, const std::int64_t i,
                                    scalar_type* const K, std::int64_t& first_bad) const {
    const offset_type jb = g_map(i);
    const int m = int(g_map(i + 1) - jb);
    scalar_type* const rhs = K + std::int64_t(m) * m;
    scalar_type* const f = rhs + m;  // a step's multipliers; at the end, the columns' scales

    // K(:, l) = A(J[l], J) (A symmetric: the column of row J[l]); rhs = e_{m-1}. The zeros
    // first, on consecutive entries; then the rows J[l] of A (fill_from_rows).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * (m + 1)), [&](const int e) {
      K[e] = e == m * m + m - 1 ? scalar_type(1) : scalar_type(0);
    });
    team.team_barrier();
    fill_from_rows(team, a_map, a_cols, a_values, g_cols, jb, m, K,
                   [](ordinal_type, ordinal_type) { return true; });
    team.team_barrier();

    int code = fsai_ok;
    for (int j = 0; j < m; ++j) {
      const scalar_type* const kj = K + std::int64_t(j) * m;
      const scalar_type pivot = kj[j];
      if (!impl::is_finite(pivot)) {
        code = fsai_not_finite;
        break;
      }
      if (!(pivot > 0)) {
        code = fsai_not_positive_definite;
        break;
      }
      // f(l) = K(l, j) / pivot once each, then K(p, l) -= f(l) K(p, j) for j < l <= p.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j + 1, m),
                           [&](const int l) { f[l] = kj[l] / pivot; });
      team.team_barrier();
      const int s = m - 1 - j;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, s * s), [&](const int e) {
        const int l = j + 1 + e / s, p = j + 1 + e % s;
        if (p >= l) K[std::int64_t(l) * m + p] -= f[l] * kj[p];
      });
      team.team_barrier();
    }

    if (code == fsai_ok) {
      // L(:, p) = K(:, p) / sqrt(K(p, p)), then L^T h = e_{m-1} from the last unknown.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m),
                           [&](const int p) { f[p] = impl::sqrt(K[std::int64_t(p) * m + p]); });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * m), [&](const int e) {
        const int p = e / m, l = e % m;
        if (l >= p) K[e] /= f[p];
      });
      team.team_barrier();
      for (int l = m - 1; l >= 0; --l) {
        const scalar_type h = rhs[l] / K[std::int64_t(l) * m + l];
        if (!impl::is_finite(h)) code = fsai_not_finite;
        Kokkos::single(Kokkos::PerTeam(team), [&]() { result(jb + l) = h; });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, l),
                             [&](const int p) { rhs[p] -= K[std::int64_t(p) * m + l] * h; });
        team.team_barrier();
      }
    }
    if (code != fsai_ok) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m),
                           [&](const int l) { result(jb + l) = 0; });
      if (4 * i + code < first_bad) first_bad = 4 * i + code;
    }
  }
};

}  // namespace syncfree::impl
