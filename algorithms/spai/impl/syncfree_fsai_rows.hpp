// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The rows of FSAI's factor G, one team each: for row i with pattern J (sorted, ending
/// with i), A(J, J) = L L^T by Cholesky in global work space, then G(i, J) = L^{-T} e_{|J|}, which
/// is A(J, J)^{-1} e_{|J|} scaled so that (G A G^T)(i, i) = 1.
///
/// The team's threads share each column's work, on consecutive rows; the arithmetic of a row
/// depends only on the team size, so it is the same in every batch and every run. Column j of the
/// factor is kept unscaled (K(:, j) = L(:, j) L(j, j)): the updates divide by the pivot instead of
/// scaling first.

#include <cstdint>
#include <limits>

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
  Kokkos::View<std::int64_t*, device_type> workspace_offsets;
  Kokkos::View<scalar_type*, device_type> workspace;
  std::int64_t first_problem = 0;
  typename Matrix::values_type::non_const_type result;  ///< G's values, aligned with g_cols

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team, std::int64_t& first_bad) const {
    const std::int64_t i = first_problem + team.league_rank();
    const offset_type jb = g_map(i);
    const int m = int(g_map(i + 1) - jb);
    scalar_type* const K = &workspace(workspace_offsets(i) - workspace_offsets(first_problem));
    scalar_type* const rhs = K + std::int64_t(m) * m;

    // K(:, l) = A(J[l], J) (A symmetric: the column of row J[l]); rhs = e_{m-1}. The zeros
    // first, on consecutive entries; then a thread per column scatters its row of A.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * (m + 1)), [&](const int e) {
      K[e] = e == m * m + m - 1 ? scalar_type(1) : scalar_type(0);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](const int l) {
      scalar_type* const column = K + std::int64_t(l) * m;
      const ordinal_type row = g_cols(jb + l);
      for (auto q = a_map(row); q < a_map(row + 1); ++q) {
        const int at = int(lower_bound(g_cols, jb, offset_type(m), a_cols(q)));
        if (at < m && g_cols(jb + at) == a_cols(q)) column[at] += a_values(q);
      }
    });
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
      for (int l = j + 1; l < m; ++l) {
        scalar_type* const column = K + std::int64_t(l) * m;
        const scalar_type f = kj[l] / pivot;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, l, m),
                             [&](const int p) { column[p] -= f * kj[p]; });
      }
      team.team_barrier();
    }

    if (code == fsai_ok) {
      // L^T h = e_{m-1}, from the last unknown; L(l, p) = K(l, p) / sqrt(K(p, p)) for l >= p.
      for (int l = m - 1; l >= 0; --l) {
        const scalar_type* const kl = K + std::int64_t(l) * m;
        const scalar_type h = rhs[l] / impl::sqrt(kl[l]);
        if (!impl::is_finite(h)) code = fsai_not_finite;
        Kokkos::single(Kokkos::PerTeam(team), [&]() { result(jb + l) = h; });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, l), [&](const int p) {
          const scalar_type* const kp = K + std::int64_t(p) * m;
          rhs[p] -= kp[l] / impl::sqrt(kp[p]) * h;
        });
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
