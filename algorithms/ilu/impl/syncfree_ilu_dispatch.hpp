// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Runtime switch on the ILU variant: which kernel, at which vector width; the two solves
/// of `ilu_apply`.

#include <limits>

#include "algorithms/ilu/impl/syncfree_ilu_factor.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_factor_parallel.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_factor_shared.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_factor_vector.hpp"
#include "core/syncfree_spmv_plan.hpp"

namespace syncfree::impl {

/// Rows per level of the factorization's L graph: the parallelism a level offers.
template <class Matrix>
double ilu_rows_per_level(const IluPlanStorage<Matrix>& s) {
  return s.lower.num_levels() > 0 ? double(s.n) / s.lower.num_levels() : 0.0;
}

/// Lanes per row of the `adaptive` and `level_set` launches (ILU_adapt's 2^p; the thesis leaves the
/// mapping open): with wide levels, the smallest power of two >= the mean row length, so that more
/// rows are in flight (7-point 3-D stencils: 8 lanes); with narrow levels (under 4096 rows) or long
/// rows, a whole warp, so that each row's chain of dependent loads is short (5-point 2-D: 32). The
/// same choice was the fastest for CUDA's value-flag kernel on every benchmark matrix, which takes
/// at least 4 lanes.
template <class Matrix>
int ilu_vector_width(const IluPlanStorage<Matrix>& s) {
  if (ilu_rows_per_level(s) < 4096) return 32;
  int width = 1;
  while (width < 32 && width < s.mean_row_length) width *= 2;
  return width;
}

template <class Matrix>
int ilu_value_flag_width(const IluPlanStorage<Matrix>& s) {
  const int width = ilu_vector_width(s);
  return width < 4 ? 4 : width;
}

/// A backend's factorization in which every value of the factors is its own ready flag (CUDA:
/// cuda/syncfree_ilu_value_flag_cuda.hpp; on a warp per row it takes rows of any length). `fits`
/// says whether it takes rows as long as the plan's on `width` lanes; `run` then loads A's values,
/// factors and returns true, and otherwise returns false, doing nothing.
template <class ExecSpace, class Matrix, class Enable = void>
struct IluValueFlagFactor {
  static bool fits(const IluPlanStorage<Matrix>&, int) { return false; }
  static bool run(const ExecSpace&, const IluPlanStorage<Matrix>&, const Matrix&, const IluOptions&,
                  int) {
    return false;
  }
};

/// A backend's `gather` factorization (CUDA: cuda/syncfree_ilu_gather_cuda.hpp). `takes` says
/// whether it takes rows as long as the plan's; `run` then factors and returns true, and otherwise
/// returns false, doing nothing (the caller then runs `vector`).
template <class ExecSpace, class Matrix, class Enable = void>
struct IluGatherFactor {
  static bool takes(const IluPlanStorage<Matrix>&) { return false; }
  static bool run(const ExecSpace&, const IluPlanStorage<Matrix>&, const Matrix&,
                  const IluOptions&) {
    return false;
  }
};

/// Entries per row of the factors, on average, from which `automatic` runs `gather` where the
/// backend has it: rows with many L entries (finite-element meshes, random geometric graphs) gain
/// from polling them together; on shorter ones (grids, 2-D meshes) a warp per row leaves most
/// lanes idle, and the value-flag kernel's narrower vectors keep more rows in flight.
inline constexpr double ilu_gather_mean_row_length = 14;

/// Entries of the longest row the value-flag factorization keeps in registers (a warp, 8 a lane):
/// it eliminates longer rows in global memory, a round trip to the L2 per L entry, where `gather`
/// holds them in a block's shared memory.
inline constexpr long ilu_register_row_limit = 256;

/// What `automatic` runs. Where the backend has a `gather` factorization that takes the rows and
/// they are long enough (above), or some are longer than registers hold; else, where it has a
/// value-flag factorization (CUDA) and the rows fit it: `adaptive` on it. Elsewhere, level-set
/// launches whenever levels hold a few hundred rows or more (the generic sync-free kernels' polls
/// and fences cost more than a launch), and the sync-free warp per row for narrower levels.
template <class ExecSpace, class Matrix>
IluAlgorithm choose_ilu_algorithm(const IluPlanStorage<Matrix>& s) {
  if ((s.mean_row_length >= ilu_gather_mean_row_length || s.longest_row > ilu_register_row_limit) &&
      IluGatherFactor<ExecSpace, Matrix>::takes(s))
    return IluAlgorithm::gather;
  if (IluValueFlagFactor<ExecSpace, Matrix>::fits(s, ilu_value_flag_width(s)))
    return IluAlgorithm::adaptive;
  return ilu_rows_per_level(s) >= 256 ? IluAlgorithm::level_set : IluAlgorithm::vector;
}

template <class ExecSpace, class Matrix>
IluFactorResult ilu_factor_values(const ExecSpace& exec, IluAlgorithm algorithm,
                                  const IluPlanStorage<Matrix>& s, const Matrix& A,
                                  const IluOptions& options) {
  SYNCFREE_REQUIRE(A.numRows() == s.n && A.nnz() == s.a_nnz &&
                       A.graph.row_map.data() == s.a_row_map_data &&
                       A.graph.entries.data() == s.a_entries_data,
                   StructureMismatch,
                   "ilu_factor: the matrix is not the one the plan analyzed (same row_map and "
                   "entries arrays are required)");
  auto report = Kokkos::create_mirror_view(Kokkos::HostSpace(), s.report);
  report(0) = std::numeric_limits<std::int64_t>::max();
  report(1) = 0;
  Kokkos::deep_copy(exec, s.report, report);
  // A NaN or Inf in A is recorded by the load and the factorization still runs (it cannot hang:
  // the flags are not values, and value flags are never the sentinel), so one read of the report
  // at the end serves both.
  if (algorithm == IluAlgorithm::gather &&
      IluGatherFactor<ExecSpace, Matrix>::run(exec, s, A, options))
    return ilu_read_report(exec, s);
  if (algorithm == IluAlgorithm::vector || algorithm == IluAlgorithm::adaptive ||
      algorithm == IluAlgorithm::gather) {
    const int width = algorithm == IluAlgorithm::adaptive ? ilu_value_flag_width(s) : 32;
    if (IluValueFlagFactor<ExecSpace, Matrix>::run(exec, s, A, options, width))
      return ilu_read_report(exec, s);
  }
  ilu_load_values(exec, s, A, s.lu.values, options);
  const bool replace = options.replace_tiny_pivots;
  switch (algorithm) {
    case IluAlgorithm::level_set:
      IluLevelSetLaunch<ExecSpace, Matrix>::run(exec, s, replace, ilu_vector_width(s));
      break;
    case IluAlgorithm::shared:
      ilu_factor_shared(exec, s, replace, 32);
      break;
    case IluAlgorithm::vector:
    case IluAlgorithm::gather:
      ilu_factor_vector(exec, s, replace, 32);
      break;
    case IluAlgorithm::adaptive:
      ilu_factor_vector(exec, s, replace, ilu_vector_width(s));
      break;
    case IluAlgorithm::parallel:
      ilu_factor_parallel(exec, s, replace);
      break;
    case IluAlgorithm::automatic:
      throw InvalidState("ilu_factor: no variant chosen (analysis missing)");
  }
  return ilu_read_report(exec, s);
}

/// A backend's apply that runs the two solves as one chain (CUDA: cuda/syncfree_ilu_apply_cuda.hpp)
/// for one right-hand side; `run`, `run_and_dots` and `run_then_spmv` return false where it has
/// none for these plans and views.
template <class ExecSpace, class Matrix, class BView, class XView, class Enable = void>
struct IluChainedApply {
  static bool run(const ExecSpace&, const IluPlanStorage<Matrix>&, const BView&, const XView&) {
    return false;
  }
  template <class U, class Sums>
  static bool run_and_dots(const ExecSpace&, const IluPlanStorage<Matrix>&, const BView&,
                           const XView&, const U&, const Sums&) {
    return false;
  }
  /// y = A x with x the apply of b (ilu_apply_then_spmv), XView being y's type.
  static bool run_then_spmv(const ExecSpace&, const IluPlanStorage<Matrix>&, const BView&,
                            const SpmvPlan<Matrix>&, const XView&) {
    return false;
  }
};

/// x = U^{-1} L^{-1} b through the two solve plans of the analysis.
template <class ExecSpace, class Matrix, class BView, class XView>
void ilu_apply_solves(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, const BView& b,
                      const XView& x) {
  static_assert(int(BView::rank) == int(XView::rank) && (BView::rank == 1 || BView::rank == 2),
                "ilu_apply: b and x must both be vectors or both be multivectors");
  SYNCFREE_REQUIRE(b.extent(0) == std::size_t(s.n) && x.extent(0) == std::size_t(s.n) &&
                       b.extent(1) == x.extent(1),
                   DimensionMismatch, "ilu_apply: the factors have ", s.n, " rows, b is ",
                   b.extent(0), "x", b.extent(1), ", x is ", x.extent(0), "x", x.extent(1));
  if constexpr (BView::rank == 1) {
    if (IluChainedApply<ExecSpace, Matrix, BView, XView>::run(exec, s, b, x)) return;
    sptrsv_solve(exec, s.lower, s.lu, b, s.work);
    sptrsv_solve(exec, s.upper, s.lu, s.work, x);
  } else {
    for (std::size_t j = 0; j < b.extent(1); ++j) {
      sptrsv_solve(exec, s.lower, s.lu, Kokkos::subview(b, Kokkos::ALL(), j), s.work);
      sptrsv_solve(exec, s.upper, s.lu, s.work, Kokkos::subview(x, Kokkos::ALL(), j));
    }
  }
}

/// x = U^{-1} L^{-1} b for one right-hand side, then sums(0) = u'x and sums(1) = x'x (device
/// memory), reduced in the pass that writes x where the upper solve has one.
template <class ExecSpace, class Matrix, class BView, class XView, class U, class Sums>
void ilu_apply_solves_and_dots(const ExecSpace& exec, const IluPlanStorage<Matrix>& s,
                               const BView& b, const XView& x, const U& u, const Sums& sums) {
  static_assert(BView::rank == 1 && XView::rank == 1, "one right-hand side");
  SYNCFREE_REQUIRE(b.extent(0) == std::size_t(s.n) && x.extent(0) == std::size_t(s.n) &&
                       u.extent(0) == std::size_t(s.n) && sums.extent(0) >= 2,
                   DimensionMismatch, "ilu_apply: the factors have ", s.n, " rows, b has ",
                   b.extent(0), ", x ", x.extent(0), ", u ", u.extent(0), " entries");
  if (IluChainedApply<ExecSpace, Matrix, BView, XView>::run_and_dots(exec, s, b, x, u, sums))
    return;
  sptrsv_solve(exec, s.lower, s.lu, b, s.work);
  sptrsv_solve_and_dots(exec, s.upper, s.lu, s.work, x, u, sums);
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "algorithms/ilu/cuda/syncfree_ilu_apply_cuda.hpp"
#include "algorithms/ilu/cuda/syncfree_ilu_gather_cuda.hpp"
#include "algorithms/ilu/cuda/syncfree_ilu_value_flag_cuda.hpp"
#endif
