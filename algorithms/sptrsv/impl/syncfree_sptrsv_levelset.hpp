// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Level-scheduled SpTRSV (Anderson & Saad 1989; Saltz 1990): one launch per level, rows of
/// a level in parallel. The baseline, and a second oracle for the sync-free kernels: it never
/// waits, so it is correct on every backend whatever the hardware's forward-progress rules.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_row.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix, class BColumn, class XColumn>
void sptrsv_solve_level_set(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s,
                            const Matrix& A, const BColumn& b, const XColumn& x, bool unit) {
  using Data = SptrsvRowData<Matrix, BColumn, XColumn>;
  using ordinal_type = typename Data::ordinal_type;
  using scalar_type = typename Data::scalar_type;
  const Data d(s, A, b, x, unit);
  for (ordinal_type level = 0; level < s.levels.num_levels; ++level) {
    Kokkos::parallel_for(
        "syncfree::sptrsv::level_set",
        Kokkos::RangePolicy<ExecSpace>(exec, s.level_ptr_host(level), s.level_ptr_host(level + 1)),
        KOKKOS_LAMBDA(const ordinal_type p) {
          scalar_type sum = 0;
          for (auto k = d.row_map(p); k < d.row_map(p + 1); ++k)
            sum += d.values(d.source(k)) * d.x_work(d.columns(k));
          d.finish(p, d.order(p), sum);
        });
  }
}

}  // namespace syncfree::impl
