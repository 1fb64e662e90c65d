// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SpTRSV analysis on the device: validation, the solve order (level sets where the
/// algorithm needs them), and the structure in that order.

#include <string>
#include <tuple>
#include <utility>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_band_layout.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_chain_order.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_packed_layout.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "core/impl/syncfree_array_block.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_row_lanes.hpp"
#include "core/syncfree_alap_levels.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// What the analysis knows of a triangle before it lays it out (negative: not known, found where
/// needed): the off-diagonal entries of its longest row, the largest distance between a row and a
/// dependency of it, and its off-diagonal entries in all.
struct TriangleShape {
  long longest_row = -1;
  long bandwidth = -1;
  long entries = -1;
};

/// Lanes per row of the plan's fill (sptrsv_build_structure) where rows average
/// `mean_row_length` entries (core/impl/syncfree_row_lanes.hpp).
template <class ExecSpace>
int sptrsv_fill_lanes(double mean_row_length) {
  return row_vector_lanes<ExecSpace>(mean_row_length);
}

/// The rows' solve order, as `sptrsv_build_structure` takes it.
template <class Ordinal, class Device>
struct SptrsvOrder {
  Kokkos::View<Ordinal*, Device> order;     ///< row at each position: a topological order
  Kokkos::View<Ordinal*, Device> position;  ///< its inverse, or empty (then computed in scratch)
  bool temporary = false;                   ///< `order` lives in scratch: the plan keeps a copy
};

/// Fills `s` for the strict `triangle` of A (entries of the other triangle are skipped) with the
/// rows in the order of `o`, and keeps the level sets when given (else they are found when first
/// asked for). `shape`: what is known of the triangle (its longest row and entry count, where
/// known, spare a reduction and a read-back each). The plan's block holds the arrays of `layout`
/// first (a layout's own, which the caller takes from `s.block`), then the structure's.
/// Validates nothing: callers validate A first (see below), so that no busy-waiting kernel is
/// ever launched on a matrix whose rows are unsorted or duplicated, or whose order does not
/// belong to it.
template <class ExecSpace, class Matrix>
void sptrsv_build_structure(
    const ExecSpace& exec, DeviceScratch<ExecSpace>& scratch, SptrsvPlanStorage<Matrix>& s,
    const Matrix& A, Triangle triangle,
    const LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>* levels,
    const SptrsvOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& o,
    const TriangleShape& shape, ArrayBlockLayout layout = {}) {
  using Storage = SptrsvPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  s.n = A.numRows();
  s.matrix = A;
  s.triangle = triangle;
  s.levels_known = levels != nullptr;
  s.levels = levels ? *levels : typename Storage::level_sets_type{};
  if (levels)
    s.level_ptr_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.levels.level_ptr);
  const auto order = o.order;
  const bool copy_order = o.temporary;
  auto position = o.position;
  if (position.extent(0) != order.extent(0)) {
    position = scratch.template uninitialized<ordinal_type, device_type>(
        "syncfree::sptrsv::position", order.extent(0));
    invert_permutation_into(exec, order, position);
  }
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const bool lower = triangle == Triangle::lower;

  // Packed rows by position, strict triangle only (a unit diagonal may still be stored; it is not
  // read). Built with the count / scan / fill pattern; `source` keeps the entry of A. Each row
  // lists its farthest dependency first and its nearest (the row before it, in a chain) last, in
  // both triangles: sync-free solves take entries in list order, and the far ones are the most
  // likely to be ready. The offsets are found in scratch and copied into the plan's block, which
  // can be allocated only once their total is known.
  const auto packed_row_map =
      scratch.template zeros<offset_type, device_type>("syncfree::sptrsv::row_counts", s.n + 1);
  Kokkos::parallel_for(
      "syncfree::sptrsv::analyze_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = order(p);
        offset_type count = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k)
          count += (lower ? entries(k) < row : entries(k) > row) ? 1 : 0;
        packed_row_map(p + 1) = count;
      });
  s.max_row_length = ordinal_type(shape.longest_row >= 0 ? shape.longest_row
                                                         : longest_count(exec, packed_row_map));
  offset_type packed_nnz = offset_type(shape.entries);
  if (shape.entries >= 0)
    inclusive_sum_in_place(exec, packed_row_map);
  else
    packed_nnz = counts_to_offsets(exec, packed_row_map);

  const auto at_order = layout.add<ordinal_type>(copy_order ? s.n : 0);
  const auto at_row_map = layout.add<offset_type>(s.n + 1);
  const auto at_columns = layout.add<ordinal_type>(packed_nnz);
  const auto at_source = layout.add<offset_type>(packed_nnz);
  const auto at_diagonal = layout.add<offset_type>(s.n);
  const auto at_x_work = layout.add<typename Storage::scalar_type>(s.n);
  const auto at_ticket = layout.add<std::uint32_t>(1);
  s.block = allocate_array_block<device_type>("syncfree::sptrsv::plan", layout);
  s.order = copy_order ? array_in(s.block, at_order) : order;
  if (copy_order) Kokkos::deep_copy(exec, s.order, order);
  s.row_map = array_in(s.block, at_row_map);
  Kokkos::deep_copy(exec, s.row_map, packed_row_map);
  s.columns = array_in(s.block, at_columns);
  s.source = array_in(s.block, at_source);
  s.diagonal = array_in(s.block, at_diagonal);
  s.x_work = array_in(s.block, at_x_work);  // set by each solve, as is the ticket
  s.ticket = Kokkos::View<std::uint32_t, device_type>(array_in(s.block, at_ticket).data());
  const auto columns = s.columns;
  const auto source = s.source;
  const auto diagonal_entry = s.diagonal;
  // A vector of lanes per row (sptrsv_fill_lanes), which ranks the row's triangle entries by a scan
  // and writes its slots side by side.
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int lanes = sptrsv_fill_lanes<ExecSpace>(s.n > 0 ? double(entries.extent(0)) / s.n : 0.0);
  const int rows_per_team = lanes == 1 ? 1 : 128 / lanes;
  const ordinal_type n = s.n;
  Kokkos::parallel_for(
      "syncfree::sptrsv::analyze_fill",
      Policy(exec, (n + rows_per_team - 1) / rows_per_team, rows_per_team, lanes),
      KOKKOS_LAMBDA(const Member& member) {
        const ordinal_type p = member.league_rank() * rows_per_team + member.team_rank();
        if (p >= n) return;
        const ordinal_type row = order(p);
        const offset_type begin = row_map(row), length = row_map(row + 1) - begin;
        const offset_type base = packed_row_map(p), count = packed_row_map(p + 1) - base;
        // The i-th entry of the triangle in this row goes to slot i (lower) or count - 1 - i
        // (upper).
        Kokkos::parallel_scan(Kokkos::ThreadVectorRange(member, length),
                              [&](const offset_type t, offset_type& i, const bool final) {
                                const offset_type k = begin + t;
                                const bool in = lower ? entries(k) < row : entries(k) > row;
                                if (final && in) {
                                  const offset_type out = base + (lower ? i : count - 1 - i);
                                  columns(out) = position(entries(k));
                                  source(out) = k;
                                }
                                if (in) ++i;
                              });
        offset_type last_diagonal = -1;  // the row's diagonal entry, or -1
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, length),
            [&](const offset_type t, offset_type& d) {
              if (entries(begin + t) == row && begin + t > d) d = begin + t;
            },
            Kokkos::Max<offset_type>(last_diagonal));
        Kokkos::single(Kokkos::PerThread(member), [&]() {
          diagonal_entry(p) = last_diagonal >= begin ? last_diagonal : offset_type(-1);
        });
      });
}

inline bool uses_multirow_layout(SptrsvAlgorithm a) {
  return a == SptrsvAlgorithm::multirow || a == SptrsvAlgorithm::packed ||
         a == SptrsvAlgorithm::alap_packed;
}
inline bool uses_packed_layout(SptrsvAlgorithm a) {
  return a == SptrsvAlgorithm::packed || a == SptrsvAlgorithm::alap_packed;
}

/// The shape of the strict `triangle` of A, in one pass over its rows (for callers that did not
/// validate it: the ILU analysis). One MinMax reduction: its min half takes minus each row's
/// width, its max half each row's length.
template <class ExecSpace, class Matrix>
TriangleShape triangle_shape(const ExecSpace& exec, const Matrix& A, Triangle triangle) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const bool lower = triangle == Triangle::lower;
  Kokkos::MinMaxScalar<long> result{};
  Kokkos::parallel_reduce(
      "syncfree::sptrsv::triangle_shape", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type row, Kokkos::MinMaxScalar<long>& r) {
        long count = 0, width = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k) {
          const long distance = lower ? long(row) - long(entries(k)) : long(entries(k)) - long(row);
          if (distance <= 0) continue;
          ++count;
          if (distance > width) width = distance;
        }
        if (-width < r.min_val) r.min_val = -width;
        if (count > r.max_val) r.max_val = count;
      },
      Kokkos::MinMax<long>(result));
  return {result.max_val > 0 ? result.max_val : 0, result.min_val < 0 ? -result.min_val : 0};
}

/// What `automatic` runs where the triangle is neither a narrow band (then `band`) nor a grid
/// with a wavefront layout (then `wavefront`), and why, in words for `SptrsvPlan::choice()`: one
/// thread per row where rows are short; where a row is long, a thread walking it alone holds up
/// every row after it, so lanes share it: `alap_packed`, the packed layout on as-late-as-possible
/// levels, the fastest variant wherever rows were that long.
inline std::pair<SptrsvAlgorithm, std::string> choose_sptrsv_algorithm(long longest_row) {
  if (longest_row <= 32)
    return {SptrsvAlgorithm::sync_free_thread,
            concat("rows of at most 32 entries (longest ", longest_row, "): a thread per row")};
  return {SptrsvAlgorithm::alap_packed,
          concat("a row of ", longest_row,
                 " entries: lanes per row by length, on as-late-as-possible levels")};
}

/// Whether `automatic` runs `alap_packed` on a triangle of this shape (as sptrsv_build_layout
/// decides below): no narrow band, rows too long for the wavefront layout and for a thread each.
inline bool automatic_runs_alap_packed(const TriangleShape& shape) {
  return !fits_band(shape.bandwidth, shape.longest_row) &&
         shape.longest_row > long(wavefront_max_entries) &&
         choose_sptrsv_algorithm(shape.longest_row).first == SptrsvAlgorithm::alap_packed;
}

/// Fills `s` for `algorithm` (`automatic` first becomes its choice, which is returned) from the
/// (validated) triangle of A and its level sets, when `given`, else computed here where the
/// layout needs them: `sync_free_thread` lays the rows out in chain-segment order
/// (syncfree_sptrsv_chain_order.hpp; `given_chains` when not null) where chains are long enough
/// (and needs no levels), else in the triangle's own order (rows ascending, or descending in an
/// upper triangle: no levels either), `wavefront` its layout where the matrix has one
/// (else it becomes `sync_free_thread`), `band` its table where the triangle is a narrow band
/// (else it becomes `sync_free_thread`; `automatic` takes it there), `alap_packed` replaces the
/// levels by ALAP ones,
/// the multirow family groups each level by vector size and cuts it into warps, the packed ones
/// lay their columns out. `shape`: what the validation found of the triangle. `alap_levels`: ALAP
/// level sets of the triangle where the caller has them (alap_packed then takes them instead of
/// finding its own).
template <class ExecSpace, class Matrix>
SptrsvAlgorithm sptrsv_build_layout(
    const ExecSpace& exec, SptrsvPlanStorage<Matrix>& s, const Matrix& A, Triangle triangle,
    const LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>* given,
    SptrsvAlgorithm algorithm,
    const ChainOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>*
        given_chains = nullptr,
    TriangleShape shape = {},
    const LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>*
        alap_levels = nullptr) {
  using Order = SptrsvOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>;
  s.n_warps = 0;
  s.warp_base = {};
  s.warp_vector = {};
  s.packed_base = {};
  s.packed_columns = {};
  s.packed_values = {};
  s.packed_diagonal = {};
  s.packed_values_of = nullptr;
  s.chain_levels = 0;
  s.drop_wavefront_layout();
  s.band_entries = 0;
  s.band_block = {};
  s.band_values = {};
  s.band_offsets = {};
  s.choice = "requested";
  DeviceScratch<ExecSpace> scratch(exec);
  // The structure in the triangle's own order (rows ascending, or descending in an upper one).
  const auto in_triangle_order = [&]() {
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    using device_type = typename Matrix::device_type;
    const auto order =
        triangle_order<ExecSpace, ordinal_type, device_type>(exec, A.numRows(), triangle);
    sptrsv_build_structure(exec, scratch, s, A, triangle, given, Order{order, order, false}, shape);
  };
  if (algorithm == SptrsvAlgorithm::automatic || algorithm == SptrsvAlgorithm::band) {
    if (shape.longest_row < 0 || shape.bandwidth < 0) {
      const auto found = triangle_shape(exec, A, triangle);
      shape.longest_row = found.longest_row;
      shape.bandwidth = found.bandwidth;
    }
    if (fits_band(shape.bandwidth, shape.longest_row)) {
      in_triangle_order();
      build_band_table(exec, s);
      if (algorithm == SptrsvAlgorithm::automatic)
        s.choice = concat("a band (entries at most ", shape.bandwidth,
                          " rows from the diagonal): a warp sweeps it 32 rows at a time");
      return SptrsvAlgorithm::band;
    }
    // A grid's triangle (at most wavefront_max_entries entries a row) tries the wavefront
    // layout first, and takes sync_free_thread's order where it has none.
    if (algorithm == SptrsvAlgorithm::band) {
      algorithm = SptrsvAlgorithm::sync_free_thread;
      s.choice = "requested band, but the triangle is no narrow band: sync_free_thread";
    } else if (shape.longest_row <= wavefront_max_entries) {
      algorithm = SptrsvAlgorithm::wavefront;
      s.choice = concat("rows of at most ", wavefront_max_entries,
                        " entries: the wavefront layout where the triangle is a grid's, else a "
                        "thread per row");
    } else {
      std::tie(algorithm, s.choice) = choose_sptrsv_algorithm(shape.longest_row);
    }
  }
  if (algorithm == SptrsvAlgorithm::sync_free_thread || algorithm == SptrsvAlgorithm::wavefront) {
    // The wavefront holds rows of at most wavefront_max_entries entries.
    if (algorithm == SptrsvAlgorithm::wavefront && shape.longest_row < 0)
      shape.longest_row = triangle_shape(exec, A, triangle).longest_row;
    const bool wavefront =
        algorithm == SptrsvAlgorithm::wavefront && shape.longest_row <= long(wavefront_max_entries);
    algorithm = SptrsvAlgorithm::sync_free_thread;
    auto chains =
        given_chains ? *given_chains : chain_segment_order(exec, A, triangle, &scratch, wavefront);
    bool chains_in_scratch = given_chains == nullptr;  // then the plan keeps a copy of the order
    if (chains.units.count() > 0) {
      // The step table shares the plan's block (one allocation, and one free, the fewer).
      ArrayBlockLayout layout;
      const auto table = add_wavefront_table<typename Matrix::non_const_value_type,
                                             typename Matrix::non_const_size_type>(
          layout, chains.units, shape.longest_row);
      sptrsv_build_structure(exec, scratch, s, A, triangle, given,
                             Order{chains.order, chains.position, true}, shape, layout);
      s.units = chains.units;
      if (build_wavefront_steps(exec, s, table, chains.segment_first))
        return SptrsvAlgorithm::wavefront;
      // A row the layout cannot run: chain order instead.
      s.drop_wavefront_layout();
      chains = chain_segment_order(exec, A, triangle, &scratch);
      chains_in_scratch = true;
    }
    const Order order{chains.order, chains.position, chains_in_scratch};
    if (chains.num_levels > 0) {
      sptrsv_build_structure(exec, scratch, s, A, triangle, given, order, shape);
      s.chain_levels = chains.num_levels;
      return algorithm;
    }
  }
  if (algorithm == SptrsvAlgorithm::sync_free_thread) {
    // Chains are short (else chain order above): a band or a scattered pattern. The triangle's own
    // order is topological and needs no level pass; the kernel resolves dependencies inside a warp
    // or block where they fall. On a wide random band it solved a little faster than level order,
    // after a far shorter analysis.
    in_triangle_order();
    return algorithm;
  }
  // The other algorithms run in level order.
  DeviceScratch<ExecSpace>* const no_scratch = nullptr;  // the plan keeps the levels
  const auto scheduled = algorithm == SptrsvAlgorithm::alap_packed
                             ? (alap_levels ? *alap_levels : alap_level_sets(exec, A, triangle))
                         : given ? *given
                                 : compute_level_sets(exec, A, triangle, no_scratch);
  if (!uses_multirow_layout(algorithm)) {
    sptrsv_build_structure(exec, scratch, s, A, triangle, &scheduled,
                           Order{scheduled.order, {}, false}, shape);
    return algorithm;
  }
  const auto grouped = group_levels_by_vector_size(exec, A, triangle, scheduled);
  sptrsv_build_structure(exec, scratch, s, A, triangle, &grouped, Order{grouped.order, {}, false},
                         shape);
  sptrsv_build_warps(exec, s);
  if (uses_packed_layout(algorithm)) sptrsv_build_packed_columns(exec, s);
  return algorithm;
}

/// Validates the given triangle of A before any layout is built from it, so that no busy-waiting
/// kernel is ever launched on a matrix whose dependencies could point forward (an entry outside
/// the triangle), whose rows are unsorted or duplicated, or whose diagonal is missing, zero or
/// NaN, and returns its shape, found in the same pass (the entry count where the diagonal is
/// stored: then every row holds exactly one).
/// \throws InvalidMatrix naming the first defective row.
template <class ExecSpace, class Matrix>
TriangleShape sptrsv_validate(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                              Diagonal diagonal) {
  const auto report = require_valid(exec, A, triangular_checks(triangle, diagonal),
                                    std::string("sptrsv_analyze (") + to_string(triangle) + ", " +
                                        to_string(diagonal) + " diagonal)");
  const long nnz = long(A.graph.entries.extent(0));
  return {long(report.longest_off_diagonal), long(report.bandwidth),
          diagonal == Diagonal::stored ? nnz - long(A.numRows()) : -1};
}

}  // namespace syncfree::impl
