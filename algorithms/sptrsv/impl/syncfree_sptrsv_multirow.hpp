// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Multirow sync-free SpTRSV (the thesis' SpTRSV_mr) and its packed form (SpTRSV_Fmt, and
/// SpTRSV_FL on ALAP levels), over the multirow layout (syncfree_sptrsv_multirow_layout.hpp).
///
/// This is the primary template, generic over the execution space: one unit per warp of the
/// layout, claimed through the atomic ticket in layout order, solving the warp's rows one after
/// the other. Layout order is level order, and a warp holds rows of one level, so every row a
/// unit waits on belongs to a smaller ticket: the forward-progress and memory-ordering argument of
/// syncfree_sptrsv_syncfree.hpp holds unchanged. `Kokkos::Cuda` has the warp-level kernel
/// (cuda/syncfree_sptrsv_multirow_cuda.hpp): a vector of lanes per row.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_packed_layout.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_row.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix, class BColumn, class XColumn, class Enable = void>
struct MultirowSolve {
  /// `packed`: read the warps' entries from the packed layout (values already packed).
  static void solve(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit, bool packed) {
    using Data = SptrsvRowData<Matrix, BColumn, XColumn>;
    using ordinal_type = typename Data::ordinal_type;
    using scalar_type = typename Data::scalar_type;
    using S = Sentinel<scalar_type>;
    const Data d(s, A, b, x, unit);
    const auto ticket = s.ticket;
    const auto warp_base = s.warp_base;
    const auto warp_vector = s.warp_vector;
    const auto packed_base = s.packed_base;
    const auto packed_columns = s.packed_columns;
    const auto packed_values = s.packed_values;
    const auto packed_diagonal = s.packed_diagonal;
    reset_sync_free_work(exec, s);
    Kokkos::parallel_for(
        packed ? "syncfree::sptrsv::packed" : "syncfree::sptrsv::multirow",
        Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n_warps), KOKKOS_LAMBDA(const ordinal_type) {
          const ordinal_type w = ordinal_type(Kokkos::atomic_fetch_add(&ticket(), 1u));
          const int size = warp_vector(w);
          for (ordinal_type p = warp_base(w); p < warp_base(w + 1); ++p) {
            scalar_type sum = 0;
            auto k = d.row_map(p);
            if (packed) {
              // A row of size < 32 lies wholly in its slots; a whole-warp row continues in CSR.
              const auto first = packed_base(w) + (p - warp_base(w)) * size;
              for (int t = 0; t < size && packed_columns(first + t) >= 0; ++t)
                sum += packed_values(first + t) * S::wait(&d.x_work(packed_columns(first + t)));
              k += size;
            }
            for (; k < d.row_map(p + 1); ++k)
              sum += d.values(d.source(k)) * S::wait(&d.x_work(d.columns(k)));
            if (packed) {
              d.finish_with_diagonal(p, d.order(p), sum, packed_diagonal(p));
            } else {
              d.finish(p, d.order(p), sum);
            }
          }
        });
  }
};

}  // namespace syncfree::impl
