// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SIP's factors as two CRS triangles, for the `triangular` variant, which solves them with
/// SyncFree's SpTRSV (its `wavefront` layout on grids): L with the lower neighbours and the
/// diagonal 1 / B, U with the upper neighbours and a unit diagonal (not stored). The patterns are
/// the grid's, whatever entries A stores.

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "algorithms/sip/impl/syncfree_sip_rules.hpp"
#include "core/impl/syncfree_crs_build.hpp"

namespace syncfree::impl {

/// The pattern of L (lower: true) or U of the grid, values zero.
template <class Matrix, class ExecSpace>
Matrix sip_triangle_pattern(const ExecSpace& exec, const SipStrides& grid, std::int64_t n,
                            bool lower) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  return build_crs<Matrix>(
      exec, lower ? "syncfree::sip::L" : "syncfree::sip::U", ordinal_type(n), ordinal_type(n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const SipPoint q = grid.at(p);
        return lower ? offset_type(1 + q.x + q.y + q.z) : offset_type(q.X + q.Y + q.Z);
      },
      KOKKOS_LAMBDA(const ordinal_type p, offset_type out,
                    const typename Matrix::index_type::non_const_type& entries,
                    const typename Matrix::values_type::non_const_type& values) {
        const SipPoint q = grid.at(p);
        const auto put = [&](std::int64_t column) {
          entries(out) = ordinal_type(column);
          values(out++) = 0;
        };
        if (lower) {
          if (q.z) put(p - grid.plane);
          if (q.y) put(p - grid.nx);
          if (q.x) put(p - 1);
          put(p);
        } else {
          if (q.X) put(p + 1);
          if (q.Y) put(p + grid.nx);
          if (q.Z) put(p + grid.plane);
        }
      });
}

/// Copies the factors into the values of L and U (patterns of sip_triangle_pattern).
template <class ExecSpace, class Matrix, class Factors>
void sip_fill_triangles(const ExecSpace& exec, const SipStrides& grid, const Factors& f,
                        const Matrix& L, const Matrix& U) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;
  const auto l_map = L.graph.row_map;
  const auto l_values = L.values;
  const auto u_map = U.graph.row_map;
  const auto u_values = U.values;
  Kokkos::parallel_for(
      "syncfree::sip::fill_triangles", Kokkos::RangePolicy<ExecSpace>(exec, 0, L.numRows()),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const SipPoint q = grid.at(p);
        auto l = l_map(p);
        if (q.z) l_values(l++) = f.lz(p);
        if (q.y) l_values(l++) = f.ly(p);
        if (q.x) l_values(l++) = f.lx(p);
        l_values(l) = scalar_type(1) / f.b(p);
        auto u = u_map(p);
        if (q.X) u_values(u++) = f.ux(p);
        if (q.Y) u_values(u++) = f.uy(p);
        if (q.Z) u_values(u) = f.uz(p);
      });
}

}  // namespace syncfree::impl
