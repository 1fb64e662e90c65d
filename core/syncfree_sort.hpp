// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sorting the rows of a matrix, and merging duplicate entries (Kokkos Kernels' kernels).

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree {

/// Sorts the column indices (with their values) of every row of A in place.
template <class ExecSpace, class Matrix>
void sort_rows(const ExecSpace& exec, const Matrix& A) {
  impl::sort_rows(exec, A);
}

/// A copy of A with sorted rows in which entries sharing a (row, column) are summed.
template <class ExecSpace, class Matrix>
Matrix sort_and_merge_rows(const ExecSpace& exec, const Matrix& A) {
  return impl::sort_and_merge(exec, A);
}

}  // namespace syncfree
