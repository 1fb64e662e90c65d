// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief ILU analysis: validation, the factors' pattern, diagonal positions, level sets, and the
/// two triangular solve plans built from those level sets (U's, where it can, from L's chain
/// order) instead of a second analysis.

#include <string>
#include <vector>

#include "algorithms/ilu/impl/syncfree_ilu_plan_storage.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_symbolic.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_symbolic_device.hpp"
#include "core/impl/syncfree_sorted_search.hpp"
#include "core/syncfree_alap_levels.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// The factors' pattern: a copy of A's for ILU(0), the level-of-fill pattern for ILU(k), plus the
/// entry of the factors each entry of A lands in (left empty for ILU(0), where they coincide).
template <class ExecSpace, class Matrix>
void ilu_build_pattern(const ExecSpace& exec, IluPlanStorage<Matrix>& s, const Matrix& A,
                       int fill_level) {
  using Storage = IluPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  using RowMap = typename Matrix::row_map_type::non_const_type;
  using Entries = typename Matrix::index_type::non_const_type;
  using Values = typename Matrix::values_type::non_const_type;
  const ordinal_type n = A.numRows();

  RowMap row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::row_map"), n + 1);
  Entries entries;
  s.a_to_lu = {};
  if (fill_level == 0) {
    entries =
        Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::entries"), A.nnz());
    Kokkos::deep_copy(exec, row_map, A.graph.row_map);
    Kokkos::deep_copy(exec, entries, A.graph.entries);
  } else if (!iluk_symbolic_device(exec, A, fill_level, row_map, entries)) {
    // A fill-path search outgrew its workspace: the row merge on the host.
    const auto host_row_map =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.row_map);
    const auto host_entries =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
    std::vector<offset_type> pattern_row_map;
    std::vector<ordinal_type> pattern_entries;
    iluk_symbolic(host_row_map, host_entries, n, fill_level, pattern_row_map, pattern_entries);
    entries = Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::entries"),
                      pattern_entries.size());
    Kokkos::deep_copy(exec, row_map,
                      Kokkos::View<const offset_type*, Kokkos::HostSpace>(pattern_row_map.data(),
                                                                          pattern_row_map.size()));
    Kokkos::deep_copy(exec, entries,
                      Kokkos::View<const ordinal_type*, Kokkos::HostSpace>(pattern_entries.data(),
                                                                           pattern_entries.size()));
    exec.fence();  // the host vectors die with this scope
  }
  if (fill_level > 0) {
    // Each entry of A finds its column in the (sorted) factor row: a binary search.
    s.a_to_lu = Kokkos::View<offset_type*, device_type>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::a_to_lu"), A.nnz());
    const auto a_to_lu = s.a_to_lu;
    const auto a_row_map = A.graph.row_map;
    const auto a_entries = A.graph.entries;
    Kokkos::parallel_for(
        "syncfree::ilu::map_entries", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type i) {
          offset_type low = row_map(i);
          for (auto k = a_row_map(i); k < a_row_map(i + 1); ++k) {
            offset_type high = row_map(i + 1);
            while (low < high) {  // the factor row holds every column of A's row
              const offset_type mid = low + (high - low) / 2;
              if (entries(mid) < a_entries(k))
                low = mid + 1;
              else
                high = mid;
            }
            a_to_lu(k) = low;
          }
        });
  }
  Values values("syncfree::ilu::values", entries.extent(0));
  s.lu = make_crs<Matrix>("syncfree::ilu::factors", n, n, row_map, entries, values);
}

/// L's chain order reversed, for U, where it is one (a structurally symmetric pattern: a
/// dependency of row i in U, u_ij, is a dependent of i in L, l_ji; checked, never assumed) and
/// keeps L's chain segments on warp boundaries (n a multiple of 32; else a segment would straddle
/// two warps and pay a trip through memory). Else an empty order: U finds its own. Saves U one
/// chain order analysis.
template <class ExecSpace, class Matrix>
ChainOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
upper_chain_order_from_lower(const ExecSpace& exec, const SptrsvPlan<Matrix>& lower,
                             const Matrix& lu) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  ChainOrder<ordinal_type, typename Matrix::device_type> result;
  const ordinal_type n = lu.numRows();
  if (lower.num_chain_levels() == 0 || n % chain_segment_rows != 0) return result;
  const auto order = sptrsv_plan_storage(lower).order;
  decltype(result.order) reversed(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::chain::order"), n);
  Kokkos::parallel_for(
      "syncfree::ilu::reverse_chain_order", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p) { reversed(n - 1 - p) = order(p); });
  if (!order_respects_dependencies(exec, lu, Triangle::upper, reversed)) return result;
  result.order = reversed;
  result.num_levels = lower.num_chain_levels();
  return result;
}

/// Whether an incomplete factorization's two solves, whose lower plan `lower` was analyzed with
/// `requested` (its levels found), should run one launch per level instead. On a GPU, a few wide
/// levels (a multicolor order) can solve faster that way than sync-free; the performance model
/// decides, by a margin (syncfree_sptrsv_cost.hpp). Only where the caller left the choice to
/// `automatic`, and never on a host backend, where every algorithm runs the rows in order.
template <class ExecSpace, class Matrix>
bool factor_solves_prefer_level_sets(const ExecSpace& exec, const SptrsvPlan<Matrix>& lower,
                                     SptrsvAlgorithm requested) {
  if (requested != SptrsvAlgorithm::automatic ||
      Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible)
    return false;
  return level_set_clearly_faster(syncfree::device_parameters(exec),
                                  sptrsv_storage_features(sptrsv_plan_storage(lower)),
                                  lower.effective_algorithm(), long(lower.num_chain_levels()));
}

/// Tunes an incomplete factorization's solve plans (sptrsv_tune): `lower`, and `upper` where
/// given, on stand-ins with the patterns of their matrices and identity values (the factors'
/// values are not known at analysis; every algorithm's solve does the same work whatever they
/// are). The lower plan's levels are found again: the factorization runs in their order.
template <class ExecSpace, class Matrix>
void tune_factor_solves(const ExecSpace& exec, SptrsvPlan<Matrix>& lower,
                        const Matrix& lower_matrix, SptrsvPlan<Matrix>* upper = nullptr,
                        const Matrix* upper_matrix = nullptr) {
  const Matrix lower_stand_in = with_identity_values(exec, lower_matrix);
  sptrsv_tune(exec, lower, lower_stand_in);
  if (upper != nullptr)
    sptrsv_tune(
        exec, *upper,
        upper_matrix == &lower_matrix ? lower_stand_in : with_identity_values(exec, *upper_matrix));
  sptrsv_find_levels(exec, lower);
}

/// Where an incomplete factorization's lower solve, on `lower` (analyzed with `requested`), would
/// lay its rows out on ALAP levels (alap_packed: rows too long for a thread each), the ALAP levels
/// of both triangles of `pattern` (the factors' rows, both triangles) from one level pass, where
/// it is symmetric, instead of a transpose and a pass for each solve
/// (core/syncfree_alap_levels.hpp). False, leaving them empty, elsewhere. `lower_shape`: the
/// lower triangle's shape where `automatic` needed it to decide, for the lower plan's analysis.
template <class ExecSpace, class Matrix>
bool factor_solves_alap_levels(
    const ExecSpace& exec, const Matrix& pattern, const Matrix& lower, SptrsvAlgorithm requested,
    LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& lower_alap,
    LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& upper_alap,
    TriangleShape& lower_shape) {
  if (requested == SptrsvAlgorithm::automatic)
    lower_shape = triangle_shape(exec, lower, Triangle::lower);
  const bool runs_alap =
      requested == SptrsvAlgorithm::alap_packed ||
      (requested == SptrsvAlgorithm::automatic && automatic_runs_alap_packed(lower_shape));
  return runs_alap && alap_level_sets_of_both_triangles(exec, pattern, lower_alap, upper_alap);
}

/// What the ILU analysis requires of A.
inline constexpr MatrixCheck ilu_matrix_checks = MatrixCheck::square | MatrixCheck::sorted_unique |
                                                 MatrixCheck::diagonal_present |
                                                 MatrixCheck::finite;

/// Fills `s` for A. Validation comes first: no factorization or solve kernel, all of which
/// busy-wait on the rows they depend on, ever runs on a pattern that was not checked.
/// \throws InvalidMatrix naming the first defective row.
template <class ExecSpace, class Matrix>
void ilu_analyze_structure(const ExecSpace& exec, IluPlanStorage<Matrix>& s, const Matrix& A,
                           int fill_level, SptrsvAlgorithm solve_algorithm,
                           bool reproducible_solves = false, bool tune_solves = false) {
  using Storage = IluPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  require_valid(exec, A, ilu_matrix_checks, "ilu_analyze");
  s.level_set_recording.reset();  // it names the views this analysis replaces
  s.upper_rhs_positions = {};     // it indexes the step tables this analysis replaces
  s.spmv_by_position = {};        // and this, the positions
  s.spmv_by_position_of = nullptr;
  s.upper_position_of = {};
  s.n = A.numRows();
  s.a_nnz = A.nnz();
  s.a_row_map_data = A.graph.row_map.data();
  s.a_entries_data = A.graph.entries.data();
  ilu_build_pattern(exec, s, A, fill_level);

  const auto row_map = s.lu.graph.row_map;
  const auto entries = s.lu.graph.entries;
  s.diagonal = Kokkos::View<offset_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::diagonal"), s.n);
  const auto diagonal = s.diagonal;
  // The factors' rows are sorted and hold their diagonal (A was checked): a binary search, so a
  // hub row of thousands of entries costs its thread a dozen loads, not a pass over the row.
  Kokkos::parallel_for(
      "syncfree::ilu::diagonal", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        diagonal(i) =
            find_sorted(i, row_map(i), row_map(i + 1), [&](offset_type k) { return entries(k); });
      });
  s.mean_row_length = s.n > 0 ? double(s.lu.nnz()) / double(s.n) : 0.0;

  s.lower =
      SptrsvPlan<Matrix>({Triangle::lower, Diagonal::unit, solve_algorithm, reproducible_solves});
  s.upper =
      SptrsvPlan<Matrix>({Triangle::upper, Diagonal::stored, solve_algorithm, reproducible_solves});
  LevelSets<ordinal_type, device_type> lower_alap, upper_alap;
  TriangleShape lower_shape;
  const bool alap = factor_solves_alap_levels(exec, s.lu, s.lu, solve_algorithm, lower_alap,
                                              upper_alap, lower_shape);
  // L's levels, the factorization's row order, come from L's plan: from its layout's kernel
  // where it has one (CUDA's wavefront), else from the level pass, which a layout that needs
  // levels runs itself.
  sptrsv_analyze_trusted(exec, s.lower, s.lu, nullptr, nullptr, alap ? &lower_alap : nullptr,
                         lower_shape);
  sptrsv_find_levels(exec, s.lower);
  const auto lower_levels = sptrsv_plan_storage(s.lower).levels;
  const bool level_sets = factor_solves_prefer_level_sets(exec, s.lower, solve_algorithm);
  if (level_sets) {
    s.lower = SptrsvPlan<Matrix>(
        {Triangle::lower, Diagonal::unit, SptrsvAlgorithm::level_set, reproducible_solves});
    s.upper = SptrsvPlan<Matrix>(
        {Triangle::upper, Diagonal::stored, SptrsvAlgorithm::level_set, reproducible_solves});
    sptrsv_analyze_trusted(exec, s.lower, s.lu, &lower_levels);
  }
  const auto upper_chains = level_sets ? ChainOrder<ordinal_type, device_type>{}
                                       : upper_chain_order_from_lower(exec, s.lower, s.lu);
  if (upper_chains.order.extent(0) > 0) {
    // U runs in L's chain order reversed and needs no levels: its plan finds them on request.
    sptrsv_analyze_trusted(exec, s.upper, s.lu, nullptr, &upper_chains);
  } else if (!level_sets && (s.lower.effective_algorithm() == SptrsvAlgorithm::band ||
                             s.lower.effective_algorithm() == SptrsvAlgorithm::wavefront)) {
    // L is a narrow band or a grid, and so is U where the fill kept the pattern: its sweep or
    // wavefront needs no levels (a level pass over U is costly on a long band). Where U is not one,
    // its plan finds what its layout needs.
    sptrsv_analyze_trusted(exec, s.upper, s.lu, nullptr);
  } else if (alap) {
    // The one pass above gave U its levels (as late as possible, checked against U).
    sptrsv_analyze_trusted(exec, s.upper, s.lu, &upper_alap, nullptr, &upper_alap);
  } else {
    // A structurally symmetric pattern (stencils; ILU(k) fill keeps it symmetric) gives U its
    // levels without a second level pass: L's, reversed. Checked against U, never assumed.
    auto upper_levels = reversed_level_sets(exec, lower_levels);
    if (!levels_respect_dependencies(exec, s.lu, Triangle::upper, upper_levels))
      upper_levels = compute_level_sets(exec, s.lu, Triangle::upper);
    sptrsv_analyze_trusted(exec, s.upper, s.lu, &upper_levels);
  }
  if (tune_solves && solve_algorithm == SptrsvAlgorithm::automatic)
    tune_factor_solves(exec, s.lower, s.lu, &s.upper, &s.lu);

  // The solve plans bound the longest row by their own longest rows, up to twice too high. Where
  // that bound is above 32, which kernels take the rows depends on the exact length (a reduction
  // and a read); at or below it, the bound only sets registers per lane, as it always did.
  const long bound = long(s.lower.max_row_length()) + long(s.upper.max_row_length()) + 1;
  s.longest_row = bound > 32 ? longest_row(exec, s.lu) : bound;

  s.finished = Kokkos::View<int*, device_type>("syncfree::ilu::finished", s.n);
  s.ticket = Kokkos::View<std::uint32_t, device_type>("syncfree::ilu::ticket");
  s.threshold = Kokkos::View<typename Storage::magnitude_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::threshold"), s.n);
  s.report = Kokkos::View<std::int64_t[2], device_type>("syncfree::ilu::report");
  s.work = Kokkos::View<typename Storage::scalar_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::work"), s.n);
}

}  // namespace syncfree::impl
