// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief IC analysis: validation (symmetry included), the factor's pattern, the lower solve's
/// plan and what the solve with L^T needs: a transposed copy and its plan (from the lower plan's
/// order reversed), or the column push's counters.

#include <limits>

#include "algorithms/ic/impl/syncfree_ic_column_push.hpp"
#include "algorithms/ic/impl/syncfree_ic_plan_storage.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_analyze.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_transpose.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// Throws InvalidMatrix naming the first row of A (validated: square, rows sorted) that is not its
/// column: an entry a_ij whose a_ji differs by more than `relative` times the largest magnitude in
/// row i (an entry stored on one side only counts as zero on the other).
template <class ExecSpace, class Matrix>
void require_symmetric(const ExecSpace& exec, const Matrix& A, double relative,
                       const std::string& context) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const Matrix T = transpose_matrix(exec, A);
  const auto a_row_map = A.graph.row_map, t_row_map = T.graph.row_map;
  const auto a_entries = A.graph.entries, t_entries = T.graph.entries;
  const auto a_values = A.values, t_values = T.values;
  const ordinal_type n = A.numRows();
  // Key row * n + column of the first asymmetric pair, in row order.
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  Kokkos::parallel_reduce(
      "syncfree::ic::symmetry", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& smallest) {
        double largest = 0;
        for (offset_type k = a_row_map(i); k < a_row_map(i + 1); ++k) {
          const double magnitude = double(impl::abs(a_values(k)));
          largest = magnitude > largest ? magnitude : largest;
        }
        const double tolerance = relative * largest;
        offset_type p = a_row_map(i), q = t_row_map(i);
        const offset_type p_end = a_row_map(i + 1), q_end = t_row_map(i + 1);
        while (p < p_end || q < q_end) {
          const ordinal_type cp = p < p_end ? a_entries(p) : n, cq = q < q_end ? t_entries(q) : n;
          const ordinal_type c = cp < cq ? cp : cq;
          const double x = cp == c ? double(a_values(p++)) : 0.0;
          const double y = cq == c ? double(t_values(q++)) : 0.0;
          if (x - y > tolerance || y - x > tolerance) {
            const std::int64_t key = std::int64_t(i) * n + c;
            smallest = key < smallest ? key : smallest;
            break;
          }
        }
      },
      Kokkos::Min<std::int64_t>(first));
  if (first == std::numeric_limits<std::int64_t>::max()) return;
  const std::int64_t row = first / n, column = first % n;
  throw InvalidMatrix(concat(context, ": the matrix is not symmetric: row ", row, ", column ",
                             column, " differs from row ", column, ", column ", row,
                             " (an incomplete Cholesky factorization reads one triangle)"),
                      row);
}

/// What the IC analysis requires of A: the ILU checks and symmetry.
/// \throws InvalidMatrix naming the first defective row.
template <class ExecSpace, class Matrix>
void ic_validate(const ExecSpace& exec, const Matrix& A) {
  require_valid(exec, A, ilu_matrix_checks, "ic_analyze");
  require_symmetric(exec, A, 1e-10, "ic_analyze");
}

/// The transposed copy of the factor's pattern and its solve plan, from the lower plan (analyzed)
/// or, where not null, the upper triangle's ALAP levels (then its levels).
template <class ExecSpace, class Matrix>
void analyze_transposed_solve(const ExecSpace& exec, IcPlanStorage<Matrix>& s, bool level_sets,
                              const LevelSets<typename Matrix::non_const_ordinal_type,
                                              typename Matrix::device_type>* upper_alap) {
  using Storage = IcPlanStorage<Matrix>;
  s.transpose = transpose_matrix_kept(exec, s.factor);
  // L^T's dependencies are L's reversed: L's chain order or levels, reversed, serve it as they are.
  const auto upper_chains =
      level_sets ? ChainOrder<typename Storage::ordinal_type, typename Storage::device_type>{}
                 : upper_chain_order_from_lower(exec, s.lower, s.transpose.matrix);
  if (upper_chains.order.extent(0) > 0) {
    sptrsv_analyze_trusted(exec, s.upper, s.transpose.matrix, nullptr, &upper_chains);
  } else if (!level_sets && (s.lower.effective_algorithm() == SptrsvAlgorithm::band ||
                             s.lower.effective_algorithm() == SptrsvAlgorithm::wavefront)) {
    sptrsv_analyze_trusted(exec, s.upper, s.transpose.matrix, nullptr);
  } else if (upper_alap) {
    sptrsv_analyze_trusted(exec, s.upper, s.transpose.matrix, upper_alap, nullptr, upper_alap);
  } else {
    const auto upper_levels = reversed_level_sets(exec, sptrsv_plan_storage(s.lower).levels);
    sptrsv_analyze_trusted(exec, s.upper, s.transpose.matrix, &upper_levels);
  }
}

/// Fills `s` for A. Validation comes first: no factorization or solve kernel, all of which
/// busy-wait on the rows they depend on, ever runs on a pattern that was not checked.
/// \throws InvalidMatrix naming the first defective row.
template <class ExecSpace, class Matrix>
void ic_analyze_structure(const ExecSpace& exec, IcPlanStorage<Matrix>& s, const Matrix& A,
                          SptrsvAlgorithm solve_algorithm, bool reproducible_solves,
                          bool tune_solves, bool column_push) {
  using Storage = IcPlanStorage<Matrix>;
  using device_type = typename Storage::device_type;
  ic_validate(exec, A);
  s.n = A.numRows();
  s.a_nnz = A.nnz();
  s.a_row_map_data = A.graph.row_map.data();
  s.a_entries_data = A.graph.entries.data();
  s.factor = extract_triangle(exec, A, Triangle::lower, Diagonal::stored);
  s.mean_row_length = s.n > 0 ? double(s.factor.nnz()) / double(s.n) : 0.0;

  s.lower =
      SptrsvPlan<Matrix>({Triangle::lower, Diagonal::stored, solve_algorithm, reproducible_solves});
  s.upper =
      SptrsvPlan<Matrix>({Triangle::upper, Diagonal::stored, solve_algorithm, reproducible_solves});
  // A's triangles are the factor's and its transpose's patterns (A is symmetric: validated).
  LevelSets<typename Storage::ordinal_type, device_type> lower_alap, upper_alap;
  TriangleShape lower_shape;
  const bool alap = factor_solves_alap_levels(exec, A, s.factor, solve_algorithm, lower_alap,
                                              upper_alap, lower_shape);
  sptrsv_analyze_trusted(exec, s.lower, s.factor, nullptr, nullptr, alap ? &lower_alap : nullptr,
                         lower_shape);
  sptrsv_find_levels(exec, s.lower);
  const bool level_sets = factor_solves_prefer_level_sets(exec, s.lower, solve_algorithm);
  if (level_sets) {
    const auto lower_levels = sptrsv_plan_storage(s.lower).levels;
    s.lower = SptrsvPlan<Matrix>(
        {Triangle::lower, Diagonal::stored, SptrsvAlgorithm::level_set, reproducible_solves});
    s.upper = SptrsvPlan<Matrix>(
        {Triangle::upper, Diagonal::stored, SptrsvAlgorithm::level_set, reproducible_solves});
    sptrsv_analyze_trusted(exec, s.lower, s.factor, &lower_levels);
  }
  const bool tune = tune_solves && solve_algorithm == SptrsvAlgorithm::automatic;
  if (column_push) {
    // The push reads the lower plan's levels at each solve: those of the plan as tuned.
    if (tune) tune_factor_solves(exec, s.lower, s.factor);
    sptrsv_find_levels(exec, s.lower);
    s.push = ic_column_push_analyze(exec, s.factor, sptrsv_plan_storage(s.lower).levels);
  } else {
    analyze_transposed_solve(exec, s, level_sets, alap ? &upper_alap : nullptr);
    if (tune) tune_factor_solves(exec, s.lower, s.factor, &s.upper, &s.transpose.matrix);
  }

  s.finished = Kokkos::View<int*, device_type>("syncfree::ic::finished", s.n);
  s.ticket = Kokkos::View<std::uint32_t, device_type>("syncfree::ic::ticket");
  s.report = Kokkos::View<std::int64_t, device_type>("syncfree::ic::report");
  s.work = Kokkos::View<typename Storage::scalar_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ic::work"), s.n);
}

}  // namespace syncfree::impl
