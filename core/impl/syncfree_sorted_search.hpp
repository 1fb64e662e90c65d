// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Binary search among sorted column indices, in device code.

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// Position of `column` among the sorted columns [low, high), read through `column_at(k)`, or -1.
template <class Ordinal, class Offset, class ColumnAt>
KOKKOS_FORCEINLINE_FUNCTION Offset find_sorted(Ordinal column, Offset low, Offset high,
                                               const ColumnAt& column_at) {
  while (low < high) {
    const Offset mid = low + (high - low) / 2;
    const Ordinal c = column_at(mid);
    if (c == column) return mid;
    if (c < column)
      low = mid + 1;
    else
      high = mid;
  }
  return Offset(-1);
}

}  // namespace syncfree::impl
