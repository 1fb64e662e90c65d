// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Passes over a Krylov basis B: the projections B'u (and B'v) of one or two vectors, in
/// one pass that reduces every column's sums together, and the update w -= B h that also gives
/// the new w'w. An Arnoldi step so reads the basis twice whatever its length, instead of once per
/// column. The columns are reduced in groups of two, the groups side by side (on CUDA one launch),
/// so that a thread keeps 2 or 4 sums in registers whatever the basis length: groups of 2 columns
/// gave faster Arnoldi steps than groups of 1, 4 or 8. The sums land in device memory in a fixed
/// order, so a run gives the same bits every time.

#include <cstddef>

#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree::impl {

/// Columns of a group.
inline constexpr int basis_group_width = 2;

/// Sums one thread of a pass keeps when projecting K vectors: a group's columns against each.
template <int K>
inline constexpr int basis_group_sums = K* basis_group_width;

inline int basis_groups(int columns) {
  return (columns + basis_group_width - 1) / basis_group_width;
}

/// Entries a buffer needs to receive the sums of `columns` columns against one or two vectors.
inline int basis_sums_length(int columns) { return basis_group_sums<2> * basis_groups(columns); }

/// Where project_on_basis<K> leaves B(:, l)'u (k = 0) or B(:, l)'v (k = 1): group by group, each
/// group's K runs of basis_group_width sums. With K = 1, entry l.
template <int K>
KOKKOS_INLINE_FUNCTION int basis_sum_index(int l, int k) {
  return (l / basis_group_width) * basis_group_sums<K> + k * basis_group_width +
         l % basis_group_width;
}

/// The sums B(:, l)'u (and, with K = 2, B(:, l)'v) for the columns of B (n x c, LayoutLeft), at
/// basis_sum_index<K>(l, k) of `sums` (device memory, basis_sums_length(c) entries).
template <int K, class Exec, class Basis, class U, class V, class Sums>
void project_on_basis(const Exec& exec, const Basis& B, const U& u, const V& v, const Sums& sums) {
  static_assert(K == 1 || K == 2, "one or two vectors");
  using Scalar = typename Sums::non_const_value_type;
  constexpr int width = basis_group_width;
  const int c = int(B.extent(1));
  reduce_groups_into<basis_group_sums<K>>(
      exec, "syncfree::krylov::project_on_basis", B.extent(0), basis_groups(c), sums,
      KOKKOS_LAMBDA(const std::size_t i, const int group, Scalar* sum) {
        const int first = group * width;
        const Scalar ui = u(i);
        const Scalar vi = K == 2 ? v(i) : Scalar(0);
        for (int l = 0; l < width; ++l) {
          if (first + l < c) {
            const Scalar b = B(i, first + l);
            sum[l] += b * ui;
            if (K == 2) sum[width + l] += b * vi;
          }
        }
      });
}

/// w -= B h for the c columns of B and coefficients h (device memory), the terms summed in column
/// order; then norm(0) = w'w of the updated w.
template <class Exec, class Basis, class H, class W, class Norm>
void update_with_basis(const Exec& exec, const Basis& B, const H& h, const W& w, const Norm& norm) {
  using Scalar = typename W::non_const_value_type;
  const int c = int(B.extent(1));
  reduce_into<1>(
      exec, "syncfree::krylov::update_with_basis", B.extent(0), norm,
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        Scalar wi = w(i);
        for (int l = 0; l < c; ++l) wi -= h(l) * B(i, l);
        w(i) = wi;
        sum[0] += wi * wi;
      });
}

}  // namespace syncfree::impl
