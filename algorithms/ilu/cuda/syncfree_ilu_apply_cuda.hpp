// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA: `ilu_apply` chained where both triangular solves run the wavefront layout. The
/// lower solve leaves L^{-1} b in its work vector, by position; the upper solve reads its
/// right-hand sides there, through a table of positions made at the first apply. The apply so
/// skips the lower solve's pass that writes L^{-1} b in row order.
///
/// Right-preconditioned GMRES applies A after the apply (`ilu_apply_then_spmv`): the product
/// then reads U's result where the upper solve leaves it, through A's column indices renamed to
/// U's positions, so the pass that writes that result in row order goes too. Where A has the
/// stencil format (core/syncfree_spmv_plan.hpp), the product gathers through the positions of U's
/// rows instead, and reads no column indices.
///
/// The upper solve could also leave the lower solve's work vector all-ones as it reads it, so that
/// the next lower solve need not clear it. Measured, its scattered 8-byte stores cost more than the
/// clearing pass they replace, whether stored at each step or beside the loads a chunk ahead (which
/// then waited for them).

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include "algorithms/ilu/impl/syncfree_ilu_dispatch.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_plan_storage.hpp"
#include "algorithms/sptrsv/cuda/syncfree_sptrsv_wavefront_cuda.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_spmv.hpp"

namespace syncfree::impl {

template <class Matrix, class BView, class XView>
struct IluChainedApply<Kokkos::Cuda, Matrix, BView, XView,
                       std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BView, XView>>> {
  using Solve = LayoutSolve<SptrsvAlgorithm::wavefront, Kokkos::Cuda, Matrix, BView, XView>;

  static bool run(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s, const BView& b,
                  const XView& x) {
    if (!chained(s)) return false;
    const auto& lower = sptrsv_plan_storage(s.lower);
    Solve::solve_into_work(exec, lower, s.lu, b, unit(s.lower));
    Solve::solve_from_work(exec, sptrsv_plan_storage(s.upper), s.lu, lower, rhs_positions(exec, s),
                           x, unit(s.upper));
    return true;
  }

  template <class U, class Sums>
  static bool run_and_dots(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s,
                           const BView& b, const XView& x, const U& u, const Sums& sums) {
    if (!chained(s)) return false;
    const auto& lower = sptrsv_plan_storage(s.lower);
    Solve::solve_into_work(exec, lower, s.lu, b, unit(s.lower));
    Solve::solve_from_work_and_dots(exec, sptrsv_plan_storage(s.upper), s.lu, lower,
                                    rhs_positions(exec, s), x, unit(s.upper), u, sums);
    return true;
  }

  static bool run_then_spmv(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s,
                            const BView& b, const SpmvPlan<Matrix>& A, const XView& y) {
    if (!chained(s)) return false;
    const auto& lower = sptrsv_plan_storage(s.lower);
    const auto& upper = sptrsv_plan_storage(s.upper);
    Solve::solve_into_work(exec, lower, s.lu, b, unit(s.lower));
    Solve::launch_from_work(exec, upper, s.lu, lower, rhs_positions(exec, s), unit(s.upper));
    using Scalar = typename Matrix::non_const_value_type;
    if constexpr (cuda::has_cuda_spmv_v<Matrix, XView, XView>) {
      if (A.format() == SpmvFormat::stencil) {
        A.with_masks([&](const auto& masks) {
          StencilSpmv<Kokkos::Cuda, Matrix, std::decay_t<decltype(masks)>, XView,
                      XView>::apply_by_position(exec, A.matrix(), A.stencil(), masks,
                                                upper.x_work.data(), upper_position_of(exec, s), y);
        });
        return true;
      }
    }
    syncfree::spmv(exec, Scalar(1), by_position(exec, s, A.matrix()), upper.x_work, Scalar(0), y);
    return true;
  }

  // Public, as nvcc's extended lambdas may not live in private members.
  static bool chained(const IluPlanStorage<Matrix>& s) {
    return s.n > 0 && s.lower.effective_algorithm() == SptrsvAlgorithm::wavefront &&
           s.upper.effective_algorithm() == SptrsvAlgorithm::wavefront;
  }
  static bool unit(const SptrsvPlan<Matrix>& plan) {
    return plan.options().diagonal == Diagonal::unit;
  }

  /// For each entry of U's step table, the position of its row in L's work vector (-1: none).
  using Ordinal = typename Matrix::non_const_ordinal_type;
  using Positions = Kokkos::View<Ordinal*, typename Matrix::device_type>;
  static const Positions& rhs_positions(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s) {
    using View = Positions;
    if (s.upper_rhs_positions.data() != nullptr) return s.upper_rhs_positions;
    const auto rows = sptrsv_plan_storage(s.upper).wavefront_rows;
    const auto position_of = invert_permutation(exec, sptrsv_plan_storage(s.lower).order);
    const View positions(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::upper_rhs_positions"),
        rows.extent(0));
    Kokkos::parallel_for(
        "syncfree::ilu::upper_rhs_positions",
        Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, rows.extent(0)),
        KOKKOS_LAMBDA(const std::size_t e) {
          positions(e) = rows(e) >= 0 ? position_of(rows(e)) : Ordinal(-1);
        });
    s.upper_rhs_positions = positions;
    return s.upper_rhs_positions;
  }

  /// The position of each row in U's work vector, made once per analysis.
  static const Positions& upper_position_of(const Kokkos::Cuda& exec,
                                            const IluPlanStorage<Matrix>& s) {
    if (s.upper_position_of.data() == nullptr)
      s.upper_position_of = invert_permutation(exec, sptrsv_plan_storage(s.upper).order);
    return s.upper_position_of;
  }

  /// A with each column index renamed to the position of that row in U's work vector: it reads
  /// U's result where the solve leaves it (row order would take a pass that writes it). Made
  /// once for A's column indices; A's values are shared.
  static const Matrix& by_position(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s,
                                   const Matrix& A) {
    if (s.spmv_by_position_of == A.graph.entries.data() &&
        s.spmv_by_position.graph.row_map.data() == A.graph.row_map.data() &&
        s.spmv_by_position.values.data() == A.values.data())
      return s.spmv_by_position;
    const auto position_of = invert_permutation(exec, sptrsv_plan_storage(s.upper).order);
    const auto entries = A.graph.entries;
    const typename Matrix::index_type::non_const_type renamed(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::spmv_by_position"),
        entries.extent(0));
    Kokkos::parallel_for(
        "syncfree::ilu::spmv_by_position",
        Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, entries.extent(0)),
        KOKKOS_LAMBDA(const std::size_t k) { renamed(k) = position_of(entries(k)); });
    s.spmv_by_position = Matrix("syncfree::ilu::spmv_by_position", A.numRows(), A.numCols(),
                                A.nnz(), A.values, A.graph.row_map, renamed);
    s.spmv_by_position_of = A.graph.entries.data();
    return s.spmv_by_position;
  }
};

}  // namespace syncfree::impl

#endif
