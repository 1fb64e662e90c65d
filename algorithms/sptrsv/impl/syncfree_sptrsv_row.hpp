// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The arithmetic of one row, shared by every solve variant: what the row's entries are,
/// and how its result is finished and published.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "core/impl/syncfree_sentinel.hpp"

namespace syncfree::impl {

/// Starts a sync-free solve: every work entry "not computed" (the sentinel), the ticket at zero.
template <class ExecSpace, class Matrix>
void reset_sync_free_work(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s) {
  Kokkos::deep_copy(exec, s.x_work, Sentinel<typename Matrix::non_const_value_type>::value());
  Kokkos::deep_copy(exec, s.ticket, 0u);
}

/// Device-side view of a plan plus one matrix and one right-hand-side column: everything a kernel
/// needs, copied by value into the kernel.
template <class Matrix, class BColumn, class XColumn>
struct SptrsvRowData {
  using Storage = SptrsvPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using scalar_type = typename Storage::scalar_type;

  typename Storage::levels_view order;  ///< the row of b and x at each position (`io_rows()`)
  Kokkos::View<const offset_type*, typename Storage::device_type> row_map;
  Kokkos::View<const ordinal_type*, typename Storage::device_type> columns;
  Kokkos::View<const offset_type*, typename Storage::device_type> source;
  Kokkos::View<const offset_type*, typename Storage::device_type> diagonal;
  typename Matrix::values_type values;
  Kokkos::View<scalar_type*, typename Storage::device_type> x_work;
  BColumn b;
  XColumn x;
  ordinal_type n;
  bool unit_diagonal;

  SptrsvRowData(const Storage& s, const Matrix& A, const BColumn& b_, const XColumn& x_, bool unit)
      : order(s.io_rows()),
        row_map(s.row_map),
        columns(s.columns),
        source(s.source),
        diagonal(s.diagonal),
        values(A.values),
        x_work(s.x_work),
        b(b_),
        x(x_),
        n(s.n),
        unit_diagonal(unit) {}

  /// x(row) = (b(row) - sum) / A(row, row) for the row at position p; published to the work
  /// vector (value-as-flag) and written to the caller's x.
  KOKKOS_FORCEINLINE_FUNCTION void finish(ordinal_type p, ordinal_type row, scalar_type sum) const {
    finish_with_diagonal(p, row, sum, unit_diagonal ? scalar_type(1) : values(diagonal(p)));
  }

  /// The same with the diagonal given (the packed layout keeps its own copy).
  KOKKOS_FORCEINLINE_FUNCTION void finish_with_diagonal(ordinal_type p, ordinal_type row,
                                                        scalar_type sum, scalar_type a_pp) const {
    scalar_type value = b(row) - sum;
    if (!unit_diagonal) value /= a_pp;
    Sentinel<scalar_type>::publish(&x_work(p), value);
    x(row) = value;
  }
};

}  // namespace syncfree::impl
