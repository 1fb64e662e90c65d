// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The rows of ISAI, one team each: row i of M ~ T^{-1} on the pattern J of its row solves
/// m^T T(J, J) = e_i^T, a small triangular system (Anzt, Huckle, Bräckle and Dongarra, 2018):
/// T(J, J)^T is upper triangular for a lower T (back substitution from i, the last of J) and
/// lower triangular for an upper T (forward substitution from i, the first).
///
/// T may be the combined factors of an ILU: only the entries of its triangle are read, and with
/// a unit diagonal its stored diagonal is not. The team's threads share the work of each column.

#include <cstdint>

#include "algorithms/spai/impl/syncfree_spai_batches.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

enum IsaiCode : int { isai_ok = 0, isai_zero_pivot = 1, isai_not_finite = 3 };

template <class ExecSpace, class Matrix>
struct IsaiRows {
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  typename Matrix::row_map_type m_map;  ///< M's pattern: row i lists J, sorted, holding i
  typename Matrix::index_type m_cols;
  typename Matrix::row_map_type t_map;
  typename Matrix::index_type t_cols;
  typename Matrix::values_type t_values;
  bool lower = true;
  bool unit_diagonal = false;
  typename Matrix::values_type::non_const_type result;  ///< M's values, aligned with m_cols

  KOKKOS_INLINE_FUNCTION int unknowns(const std::int64_t i) const {
    return int(m_map(i + 1) - m_map(i));
  }

  /// Work space vectors beside the m x m matrix.
  static constexpr int vectors = 1;

  /// Row i of M, with K the row's work space of m (m + vectors) entries.
  KOKKOS_INLINE_FUNCTION void solve(const member_type& team, const std::int64_t i,
                                    scalar_type* const K, std::int64_t& first_bad) const {
    const offset_type jb = m_map(i);
    const int m = int(m_map(i + 1) - jb);
    scalar_type* const rhs = K + std::int64_t(m) * m;
    const int target = lower ? m - 1 : 0;

    // K(:, l) = T(J[l], J): row J[l] of T within its triangle, so K = T(J, J)^T; rhs = e_i. The
    // zeros first, on consecutive entries; then the rows J[l] of T within the triangle
    // (fill_from_rows).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * (m + 1)), [&](const int e) {
      K[e] = e == m * m + target ? scalar_type(1) : scalar_type(0);
    });
    team.team_barrier();
    fill_from_rows(team, t_map, t_cols, t_values, m_cols, jb, m, K,
                   [&](const ordinal_type row, const ordinal_type c) {
                     return (lower ? c <= row : c >= row) && !(unit_diagonal && c == row);
                   });
    if (unit_diagonal)
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m),
                           [&](const int l) { K[std::int64_t(l) * m + l] = 1; });
    team.team_barrier();

    int code = isai_ok;
    for (int step = 0; step < m; ++step) {
      const int l = lower ? m - 1 - step : step;
      const scalar_type* const kl = K + std::int64_t(l) * m;
      const scalar_type x = rhs[l] / kl[l];
      if (kl[l] == scalar_type(0)) {
        code = isai_zero_pivot;
        break;
      }
      if (!impl::is_finite(x)) {
        code = isai_not_finite;
        break;
      }
      Kokkos::single(Kokkos::PerTeam(team), [&]() { result(jb + l) = x; });
      // The unknowns still to come: above l for a lower T, below it for an upper one.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lower ? 0 : l + 1, lower ? l : m),
                           [&](const int p) { rhs[p] -= kl[p] * x; });
      team.team_barrier();
    }
    if (code != isai_ok) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m),
                           [&](const int l) { result(jb + l) = 0; });
      if (4 * i + code < first_bad) first_bad = 4 * i + code;
    }
  }
};

}  // namespace syncfree::impl
