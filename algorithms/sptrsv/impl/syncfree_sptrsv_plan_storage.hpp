// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What `sptrsv_analyze` stores: the level sets and the level-ordered ("packed") structure
/// that every solve variant reads. No kernels here.

#include <cstddef>
#include <cstdint>
#include <string>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"
#include "core/impl/syncfree_array_block.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// The triangle in solve order: level order, or for `sync_free_thread` chain segments in level
/// order (syncfree_sptrsv_chain_order.hpp). Position p is the p-th row in that order
/// (`order(p)`); row p of the packed structure holds that row's off-diagonal entries, with each
/// column rewritten as the position of the row it names, so a solve reads and writes one ordered
/// work vector and rows that run together read neighbouring memory. Values are not copied:
/// `source(k)` indexes the entry of A, so new values with the same pattern need no new analysis.
template <class Matrix>
struct SptrsvPlanStorage {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  ordinal_type n = 0;
  /// The analyzed matrix (shallow): solve refuses one with other pattern arrays, and levels found
  /// on request read it.
  Matrix matrix;

  using levels_view = typename LevelSets<ordinal_type, device_type>::view_type;
  using level_sets_type = LevelSets<ordinal_type, device_type>;
  /// The level sets, and level_ptr on the host (for the one-launch-per-level solve). A layout
  /// that needs no levels (sync_free_thread in chain order) leaves them to `sptrsv_find_levels`.
  mutable level_sets_type levels;
  mutable typename Kokkos::View<ordinal_type*, device_type>::HostMirror level_ptr_host;
  mutable bool levels_known = false;
  Triangle triangle = Triangle::lower;
  /// Why the analysis runs its algorithm: "requested", or the rule `automatic` applied.
  std::string choice;

  /// One allocation holding row_map, columns, source, diagonal, x_work, the ticket, the order
  /// unless the level sets hold it, and the wavefront's step table and segment_first (those views
  /// do not own their memory).
  ArrayBlock<device_type> block;
  Kokkos::View<ordinal_type*, device_type> order;  ///< row at each position
  /// Where the solve reads b and writes x at each position, where the caller numbers them
  /// otherwise than the triangle's rows (an ILU in a permuted order); empty: `order`. Read by
  /// the layouts for which `reads_io_order` holds.
  Kokkos::View<ordinal_type*, device_type> io_order;
  const Kokkos::View<ordinal_type*, device_type>& io_rows() const {
    return io_order.extent(0) > 0 ? io_order : order;
  }
  Kokkos::View<offset_type*, device_type> row_map;   ///< n + 1 offsets, by position
  Kokkos::View<ordinal_type*, device_type> columns;  ///< dependency positions
  Kokkos::View<offset_type*, device_type> source;    ///< entry of A for each packed entry
  Kokkos::View<offset_type*, device_type>
      diagonal;                     ///< entry of A holding the diagonal, by position
  ordinal_type max_row_length = 0;  ///< off-diagonal entries of the longest row
  ordinal_type chain_levels = 0;    ///< levels between chain segments (sync_free_thread)

  // Wavefront layout (syncfree_sptrsv_wavefront_layout.hpp): segments in unit numbering order,
  // segment v at positions segment_first(v) .. segment_first(v + 1) - 1.
  /// None (count() 0) where the plan has no such layout.
  WavefrontUnits<ordinal_type, device_type> units;
  Kokkos::View<ordinal_type*, device_type> segment_first;
  /// Its step table (build_wavefront_steps): units.entries() entries, each a row (or none),
  /// the positions its slots read, the entries of A behind their values and the diagonal's, and
  /// those values.
  Kokkos::View<ordinal_type*, device_type> wavefront_rows;
  Kokkos::View<ordinal_type*, device_type> wavefront_positions;
  Kokkos::View<offset_type*, device_type> wavefront_sources;
  Kokkos::View<scalar_type*, device_type> wavefront_values;  ///< copied as the packed values are
  /// Forgets the wavefront layout (units.count() 0 again).
  void drop_wavefront_layout() {
    units = {};
    segment_first = {};
    wavefront_rows = {};
    wavefront_positions = {};
    wavefront_sources = {};
    wavefront_values = {};
  }

  // Band layout (syncfree_sptrsv_band_layout.hpp): band_entries slots per position (0: none).
  ordinal_type band_entries = 0;
  ArrayBlock<device_type> band_block;                   ///< holds the two arrays below
  Kokkos::View<scalar_type*, device_type> band_values;  ///< copied as the packed values are
  Kokkos::View<std::int8_t*, device_type> band_offsets;

  // Multirow layout (multirow, packed, alap_packed): positions are grouped by (level, vector
  // size) and cut into warps; warp w holds positions warp_base(w) .. warp_base(w+1)-1, each row
  // on warp_vector(w) lanes (0: rows without off-diagonal entries, 32 to a warp).
  ordinal_type n_warps = 0;
  Kokkos::View<ordinal_type*, device_type> warp_base;
  Kokkos::View<std::int8_t*, device_type> warp_vector;

  // Packed layout (packed, alap_packed): warp w owns slots packed_base(w) .. packed_base(w+1)-1
  // (rows x vector size of them, at most 32), slot v * size + t holding the t-th entry of its
  // v-th row (column -1: padding); a whole-warp row keeps its first 32 entries there and the
  // rest in the level-ordered CSR above. Values and diagonals are copied from A at the first
  // solve, and again after `sptrsv_values_changed` (the wavefront's and the band's too).
  Kokkos::View<offset_type*, device_type> packed_base;
  Kokkos::View<ordinal_type*, device_type> packed_columns;
  Kokkos::View<scalar_type*, device_type> packed_values;
  Kokkos::View<scalar_type*, device_type> packed_diagonal;  ///< by position; 1 for a unit diagonal
  mutable const void* packed_values_of = nullptr;           ///< A.values.data() of the copy

  std::size_t packed_bytes() const {
    return packed_base.span() * sizeof(offset_type) + packed_columns.span() * sizeof(ordinal_type) +
           packed_values.span() * sizeof(scalar_type) +
           packed_diagonal.span() * sizeof(scalar_type);
  }

  // Work space of one solve, reused: the solution by position (NaN sentinel until computed)
  // and the ticket counter of the sync-free kernels.
  Kokkos::View<scalar_type*, device_type> x_work;
  Kokkos::View<std::uint32_t, device_type> ticket;

  std::size_t bytes() const {
    return levels.level.span() * sizeof(ordinal_type) +
           levels.level_ptr.span() * sizeof(ordinal_type) +
           levels.order.span() * sizeof(ordinal_type) + row_map.span() * sizeof(offset_type) +
           (order.data() == levels.order.data() ? 0 : order.span() * sizeof(ordinal_type)) +
           columns.span() * sizeof(ordinal_type) + source.span() * sizeof(offset_type) +
           diagonal.span() * sizeof(offset_type) + x_work.span() * sizeof(scalar_type) +
           warp_base.span() * sizeof(ordinal_type) + warp_vector.span() + packed_bytes() +
           segment_first.span() * sizeof(ordinal_type) +
           wavefront_rows.span() * sizeof(ordinal_type) +
           wavefront_positions.span() * sizeof(ordinal_type) +
           wavefront_sources.span() * sizeof(offset_type) +
           wavefront_values.span() * sizeof(scalar_type) +
           band_values.span() * sizeof(scalar_type) + band_offsets.span() +
           io_order.span() * sizeof(ordinal_type);
  }
};

/// Whether an algorithm's solve reads b and writes x through `io_rows()` (those whose row
/// arithmetic is SptrsvRowData's or the CUDA rounds operation's); wavefront and band index them by
/// their own tables.
constexpr bool reads_io_order(SptrsvAlgorithm a) {
  return a == SptrsvAlgorithm::level_set || a == SptrsvAlgorithm::sync_free_thread ||
         a == SptrsvAlgorithm::sync_free_row || a == SptrsvAlgorithm::multirow ||
         a == SptrsvAlgorithm::packed || a == SptrsvAlgorithm::alap_packed;
}

}  // namespace syncfree::impl
