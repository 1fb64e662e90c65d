// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The one door through which SyncFree's other algorithms (ILU, IC) reach inside an
/// SptrsvPlan: an analysis from level sets and chain orders they computed, a solve fused with
/// their dot products, the storage of an analyzed plan, its rows renumbered, its levels found, a
/// tuned analysis' choice adopted.
/// Not for users: a busy-wait solve trusts what comes through here.

#include <string>
#include <utility>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_analyze.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_dispatch.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree {

template <class Matrix>
class SptrsvPlan;

namespace impl {

/// Static members only; the plan's one friend among SyncFree's internals.
struct SptrsvPlanAccess {
  template <class Matrix>
  using Levels = LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>;
  template <class Matrix>
  using Chains = ChainOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>;

  /// Analysis from level sets, a chain order, ALAP levels and the triangle's shape computed
  /// elsewhere (each may be null or unknown: then found here where the layout needs it) for the
  /// plan's triangle of A, by the ILU and IC analyses, which have validated the pattern; entries
  /// of the other triangle are skipped.
  template <class ExecSpace, class Matrix>
  static void analyze_trusted(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Matrix& A,
                              const Levels<Matrix>* levels, const Chains<Matrix>* chains,
                              const Levels<Matrix>* alap_levels = nullptr,
                              TriangleShape shape = {}) {
    plan.m_analyzed = false;
    plan.m_storage.io_order = {};  // the rows of the pattern analyzed now are its own
    plan.m_effective = sptrsv_build_layout(exec, plan.m_storage, A, plan.m_options.triangle, levels,
                                           plan.m_options.algorithm, chains, shape, alap_levels);
    plan.m_analyzed = true;
  }

  template <class ExecSpace, class Matrix, class BView, class XView, class U, class Sums>
  static void solve_and_dots(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan, const Matrix& A,
                             const BView& b, const XView& x, const U& u, const Sums& sums) {
    static_assert(BView::rank == 1 && XView::rank == 1, "one right-hand side");
    SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "sptrsv_solve: call sptrsv_analyze first");
    ScopedRegion region("syncfree::sptrsv::solve");
    sptrsv_solve_column_and_dots(exec, plan.m_effective, plan.m_storage, A, b, x,
                                 plan.m_options.diagonal == Diagonal::unit, u, sums);
  }

  template <class Matrix>
  static const SptrsvPlanStorage<Matrix>& storage(const SptrsvPlan<Matrix>& plan) {
    SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "sptrsv: call sptrsv_analyze first");
    return plan.m_storage;
  }

  template <class ExecSpace, class Matrix, class Perm>
  static bool renumber_rows(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Perm& perm) {
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "sptrsv: call sptrsv_analyze first");
    SYNCFREE_REQUIRE(perm.extent(0) == std::size_t(plan.num_rows()), DimensionMismatch,
                     "sptrsv_renumber_rows: ", perm.extent(0), " indices for ", plan.num_rows(),
                     " rows");
    if (!reads_io_order(plan.m_effective)) return false;
    auto& s = plan.m_storage;
    const auto order = s.order;
    Kokkos::View<ordinal_type*, typename Matrix::device_type> io_order(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::io_order"),
        order.extent(0));
    Kokkos::parallel_for(
        "syncfree::sptrsv::renumber_rows",
        Kokkos::RangePolicy<ExecSpace>(exec, 0, ordinal_type(order.extent(0))),
        KOKKOS_LAMBDA(const ordinal_type p) { io_order(p) = perm(order(p)); });
    s.io_order = io_order;
    return true;
  }

  /// Makes `plan` run what `other` (analyzed, for the same triangle of the same pattern) runs,
  /// keeping its own options: a tuned analysis adopting the candidate it measured fastest.
  template <class Matrix>
  static void adopt(SptrsvPlan<Matrix>& plan, SptrsvPlan<Matrix>&& other) {
    SYNCFREE_REQUIRE(other.analyzed(), InvalidState, "sptrsv: call sptrsv_analyze first");
    plan.m_storage = std::move(other.m_storage);
    plan.m_effective = other.m_effective;
  }

  template <class Matrix>
  static void set_choice(SptrsvPlan<Matrix>& plan, std::string choice) {
    plan.m_storage.choice = std::move(choice);
  }

  template <class ExecSpace, class Matrix>
  static void find_levels(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan) {
    const auto& s = storage(plan);
    if (s.levels_known) return;
    s.levels = LayoutLevels<ExecSpace, Matrix>::compute(exec, s);
    s.level_ptr_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.levels.level_ptr);
    s.levels_known = true;
  }
};

/// The access point's members as free functions, the names SyncFree's algorithms call.
template <class ExecSpace, class Matrix>
void sptrsv_analyze_trusted(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Matrix& A,
                            const SptrsvPlanAccess::Levels<Matrix>* levels,
                            const SptrsvPlanAccess::Chains<Matrix>* chains = nullptr,
                            const SptrsvPlanAccess::Levels<Matrix>* alap_levels = nullptr,
                            TriangleShape shape = {}) {
  SptrsvPlanAccess::analyze_trusted(exec, plan, A, levels, chains, alap_levels, shape);
}

/// sptrsv_solve for one right-hand side, then sums(0) = u'x and sums(1) = x'x into device memory,
/// in the pass that writes x where the algorithm has one (the wavefront layout on CUDA), else in a
/// pass of their own. For the ILU's apply, whose plans and vectors are already checked.
template <class ExecSpace, class Matrix, class BView, class XView, class U, class Sums>
void sptrsv_solve_and_dots(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan, const Matrix& A,
                           const BView& b, const XView& x, const U& u, const Sums& sums) {
  SptrsvPlanAccess::solve_and_dots(exec, plan, A, b, x, u, sums);
}

/// The storage of an analyzed plan: its layout, order and level sets (tests, and the ILU's apply,
/// which chains its two solves where both run the wavefront layout on CUDA).
template <class Matrix>
const SptrsvPlanStorage<Matrix>& sptrsv_plan_storage(const SptrsvPlan<Matrix>& plan) {
  return SptrsvPlanAccess::storage(plan);
}

/// Makes the solves of an analyzed plan read b and write x at row `perm(r)` where they read and
/// wrote row r: the triangle is row r of P A P^T (row perm(r) of A) and the caller's vectors are
/// numbered as A. Returns false, changing nothing, where the plan's algorithm indexes b and x by
/// tables of its own (wavefront, band); then the caller permutes the vectors itself.
template <class ExecSpace, class Matrix, class Perm>
bool sptrsv_renumber_rows(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Perm& perm) {
  return SptrsvPlanAccess::renumber_rows(exec, plan, perm);
}

}  // namespace impl
}  // namespace syncfree
