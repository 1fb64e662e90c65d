// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief How many of a matrix's entries lie far from the diagonal: whether its columns are
/// scattered (a random numbering) or near their rows (a grid, a mesher's order, a netlist).

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// The entries of A whose column lies more than `reach` from their row: a thread per row.
template <class Exec, class Matrix>
long far_entries_one_per_iteration(const Exec& exec, const Matrix& A, long reach) {
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  long far = 0;
  Kokkos::parallel_reduce(
      "syncfree::far_entries", Kokkos::RangePolicy<Exec>(exec, 0, long(A.numRows())),
      KOKKOS_LAMBDA(const long i, long& count) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const long distance = long(entries(k)) - i;
          if (distance > reach || -distance > reach) ++count;
        }
      },
      far);
  return far;
}

/// The count of far entries: the generic pass above; CUDA specializes it for rows of 8 or more
/// entries on average or some of more than 512 (cuda/syncfree_far_entries_cuda.hpp).
template <class Exec, class Matrix, class Enable = void>
struct FarEntries {
  static long count(const Exec& exec, const Matrix& A, long reach, long /*longest*/ = -1) {
    return far_entries_one_per_iteration(exec, A, reach);
  }
};

/// The fraction of A's entries (0 for none) whose column lies more than max(rows / 32, 4096) from
/// their row: a grid's neighbours in its own order lie within that (3-D grids of up to 32^3 points
/// within 4096, larger ones within rows / 32), a mesher's order keeps most of them there too, a
/// random numbering puts most beyond. On `exec`; waits for it.
/// \param longest A's longest row where the caller knows it, else -1
template <class Exec, class Matrix>
double far_entry_fraction(const Exec& exec, const Matrix& A, long longest = -1) {
  const long n = long(A.numRows()), reach = n / 32 > 4096 ? n / 32 : 4096;
  if (A.nnz() == 0) return 0.0;
  return double(FarEntries<Exec, Matrix>::count(exec, A, reach, longest)) / double(A.nnz());
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_far_entries_cuda.hpp"
#endif
