// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Where each row of a matrix stores its diagonal entry.

#include <cstdint>
#include <string>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// Fills `position` with the position of each row's diagonal entry among A's entries (the last
/// one where a row stores several), or -1 where the row stores none: a thread per row.
template <class ExecSpace, class Matrix, class Positions>
void diagonal_positions_one_per_iteration(const ExecSpace& exec, const Matrix& A,
                                          const Positions& position) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  Kokkos::parallel_for(
      "syncfree::diagonal_positions", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        position(i) = -1;
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          if (entries(k) == i) position(i) = std::int64_t(k);
      });
}

/// The pass that fills the positions: the generic one above; CUDA specializes it for rows of 8 or
/// more entries on average or some of more than 512 (cuda/syncfree_diagonal_positions_cuda.hpp).
template <class ExecSpace, class Matrix, class Enable = void>
struct DiagonalPositions {
  template <class Positions>
  static void run(const ExecSpace& exec, const Matrix& A, const Positions& position,
                  long /*longest*/ = -1) {
    diagonal_positions_one_per_iteration(exec, A, position);
  }
};

/// The position of each row's diagonal entry among A's entries (the last one where a row stores
/// several), or -1 where the row stores none. A's row pointers must be sound (validated).
/// \param longest A's longest row where the caller knows it (validation reports it), else -1
template <class ExecSpace, class Matrix>
Kokkos::View<std::int64_t*, typename Matrix::device_type> diagonal_positions(
    const ExecSpace& exec, const Matrix& A, const std::string& label, long longest = -1) {
  Kokkos::View<std::int64_t*, typename Matrix::device_type> position(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), A.numRows());
  DiagonalPositions<ExecSpace, Matrix>::run(exec, A, position, longest);
  return position;
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_diagonal_positions_cuda.hpp"
#endif
