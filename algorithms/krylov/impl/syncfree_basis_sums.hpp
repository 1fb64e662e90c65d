// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Passes over a Krylov basis that reduce one sum per basis column: the projections B'u,
/// and the update w -= B h fused with the new w's projections B'w and its squared norm w'w.
/// Each pass reads every basis column once and reduces all its sums together, so an Arnoldi step
/// costs two passes over the basis instead of one per column. The sums land in device memory in
/// a fixed order, so a run gives the same bits every time.

#include <algorithm>
#include <cstddef>

#include "algorithms/krylov/impl/syncfree_krylov_kernels.hpp"

namespace syncfree::impl {

/// Most basis columns one pass reduces; wider bases take one pass per block of columns.
inline constexpr int basis_block_width = 32;

/// Entries a buffer needs to receive the sums of `columns` columns: the passes write whole
/// blocks.
inline int basis_sums_length(int columns) {
  return (columns + basis_block_width - 1) / basis_block_width * basis_block_width;
}

namespace basis_detail {

/// sums(l) = B(:, first + l)' u for l < width <= N. The sums are kept in registers, so the loops
/// run to the compile-time N and mask the columns past `width`.
template <int N, class Exec, class Basis, class U, class Sums>
void project_block(const Exec& exec, const Basis& B, int first, int width, const U& u,
                   const Sums& sums) {
  using Scalar = typename Sums::non_const_value_type;
  reduce_into<N>(
      exec, "syncfree::krylov::project_on_basis", B.extent(0), sums,
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        const Scalar ui = u(i);
        for (int l = 0; l < N; ++l)
          if (l < width) sum[l] += B(i, first + l) * ui;
      });
}

/// w -= B h, then sums(l) = B(:, l)' w for l < width and sums(width) = w'w (width < N).
template <int N, class Exec, class Basis, class H, class W, class Sums>
void update_block(const Exec& exec, const Basis& B, int width, const H& h, const W& w,
                  const Sums& sums) {
  using Scalar = typename Sums::non_const_value_type;
  reduce_into<N>(
      exec, "syncfree::krylov::update_and_project", B.extent(0), sums,
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        Scalar b[N];
        Scalar wi = w(i);
        for (int l = 0; l < N; ++l) {
          b[l] = l < width ? B(i, l) : Scalar(0);
          if (l < width) wi -= h(l) * b[l];
        }
        w(i) = wi;
        for (int l = 0; l < N; ++l) {
          if (l < width) sum[l] += b[l] * wi;
          if (l == width) sum[l] += wi * wi;
        }
      });
}

template <class Sums>
Sums block_of(const Sums& sums, int first) {
  return Kokkos::subview(sums, std::make_pair(first, first + basis_block_width));
}

}  // namespace basis_detail

/// sums(l) = B(:, l)' u for the columns of B (n x c, LayoutLeft); `sums` (device memory) holds at
/// least basis_sums_length(c) entries, and those past c are overwritten with zeros.
template <class Exec, class Basis, class U, class Sums>
void project_on_basis(const Exec& exec, const Basis& B, const U& u, const Sums& sums) {
  const int c = int(B.extent(1));
  for (int first = 0; first < c; first += basis_block_width) {
    const int width = std::min(basis_block_width, c - first);
    const auto block = basis_detail::block_of(sums, first);
    if (width <= 8)
      basis_detail::project_block<8>(exec, B, first, width, u, block);
    else if (width <= 16)
      basis_detail::project_block<16>(exec, B, first, width, u, block);
    else
      basis_detail::project_block<basis_block_width>(exec, B, first, width, u, block);
  }
}

/// w -= B h for the c columns of B and coefficients h (device memory); then sums(l) = B(:, l)' w
/// for l < c and sums(c) = w'w of the updated w. One pass when c < 32, else an update pass and
/// the projection passes. `sums` holds at least basis_sums_length(c + 1) entries.
template <class Exec, class Basis, class H, class W, class Sums>
void update_and_project(const Exec& exec, const Basis& B, const H& h, const W& w,
                        const Sums& sums) {
  using Scalar = typename Sums::non_const_value_type;
  const int c = int(B.extent(1));
  const auto block = basis_detail::block_of(sums, 0);
  if (c < 8) {
    basis_detail::update_block<8>(exec, B, c, h, w, block);
  } else if (c < 16) {
    basis_detail::update_block<16>(exec, B, c, h, w, block);
  } else if (c < basis_block_width) {
    basis_detail::update_block<basis_block_width>(exec, B, c, h, w, block);
  } else {
    combine_basis(exec, Scalar(-1), B, Kokkos::subview(h, std::make_pair(0, c)), Scalar(1), w);
    project_on_basis(exec, B, w, sums);
    reduce_into<1>(exec, "syncfree::krylov::norm", w.extent(0), Kokkos::subview(sums, c),
                   DotBody<Scalar, typename Sums::device_type>{w, w});
  }
}

}  // namespace syncfree::impl
