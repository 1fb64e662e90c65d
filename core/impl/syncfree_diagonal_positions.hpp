// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Where each row of a matrix stores its diagonal entry.

#include <cstdint>
#include <string>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// The position of each row's diagonal entry among A's entries, or -1 where the row stores none.
template <class ExecSpace, class Matrix>
Kokkos::View<std::int64_t*, typename Matrix::device_type> diagonal_positions(
    const ExecSpace& exec, const Matrix& A, const std::string& label) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  Kokkos::View<std::int64_t*, typename Matrix::device_type> position(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), A.numRows());
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  Kokkos::parallel_for(
      "syncfree::diagonal_positions", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        position(i) = -1;
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          if (entries(k) == i) position(i) = std::int64_t(k);
      });
  return position;
}

}  // namespace syncfree::impl
