// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The `wavefront` layout: chain segments in units of up to 32, a unit per warp, one
/// segment per lane, solved as a wavefront.
///
/// On a grid in row order a row depends on the row before it (its chain segment), on the row at
/// the same place of the line before, and on rows further back. The unit numbering
/// (syncfree_sptrsv_segment_units.hpp) gives a unit the segments v, v + P, ..., v + 31 P of P
/// segments per line: the same piece of 32 consecutive lines. Lane r of the unit's warp runs row
/// o of its segment at step r + o: the row before it is its own result of the step before, and
/// the row of the lane before at the same place is that lane's result of the step before, one
/// shuffle away. Only dependencies on other units travel through memory: on an n x n grid a
/// 32 x 32 tile of rows pays 2 such trips where chain order paid 32, and on an n^3 grid the
/// trips between planes remain.
///
/// The layout is used only where every dependency of every row is of those three kinds (its own
/// segment's row before, the lane before at the same place, an earlier unit), which is checked on
/// the device for each matrix. Then units in numbering order are a topological order (a warp
/// waits only on units claimed before its own, or on its own earlier steps), and no level pass is
/// needed at all.

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_segment_units.hpp"

namespace syncfree::impl {

/// The most off-diagonal entries a row of the layout may have: the CUDA kernel holds them in
/// registers. A 7-point stencil's triangle has 3.
inline constexpr int wavefront_max_entries = 4;

/// What a slot of a row holds besides a dependency's position (build_wavefront_slots).
inline constexpr int wavefront_own = -1;   ///< the row before it in its segment: a register
inline constexpr int wavefront_left = -2;  ///< the lane before's row at the same place: a shuffle
inline constexpr int wavefront_none = -3;  ///< no entry: the row has fewer than the slots

/// Units of a unit numbering: the whole blocks' segments 32 to a unit, in order, then each
/// segment after them alone (those keep their numbers, so 32 of them in a row would be one piece
/// of one line, whose lanes depend on each other's last rows).
template <class Ordinal>
struct WavefrontUnits {
  SegmentUnits<Ordinal> numbering;
  Ordinal n_segments = 0;

  KOKKOS_INLINE_FUNCTION Ordinal blocked_units() const {
    return numbering.blocked / Ordinal(segment_unit_size);
  }
  Ordinal count() const { return blocked_units() + (n_segments - numbering.blocked); }
  /// Unit and lane of the segment numbered v.
  KOKKOS_INLINE_FUNCTION void locate(Ordinal v, Ordinal& unit, Ordinal& lane) const {
    if (v < numbering.blocked) {
      unit = v / Ordinal(segment_unit_size);
      lane = v % Ordinal(segment_unit_size);
    } else {
      unit = blocked_units() + (v - numbering.blocked);
      lane = 0;
    }
  }
  /// First segment number of unit u (u = count() gives n_segments).
  KOKKOS_INLINE_FUNCTION Ordinal first_segment(Ordinal u) const {
    return u < blocked_units() ? u * Ordinal(segment_unit_size)
                               : numbering.blocked + (u - blocked_units());
  }
};

/// Counts the rows of the triangle (t: topological position, as in ChainSegments) that the
/// wavefront cannot run: more than wavefront_max_entries off-diagonal entries, or a dependency
/// that is neither in an earlier unit, nor the row before in the same segment, nor the row at the
/// same place of the lane before. `segment_begin`: first t of each segment.
template <class ExecSpace, class Segments, class Begin, class Ordinal>
Ordinal count_wavefront_violations(const ExecSpace& exec, const Segments& g,
                                   const Begin& segment_begin,
                                   const WavefrontUnits<Ordinal>& units) {
  Ordinal count = 0;
  Kokkos::parallel_reduce(
      "syncfree::wavefront::check", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
      KOKKOS_LAMBDA(const Ordinal t, Ordinal& violations) {
        const auto where = [&](Ordinal tt, Ordinal& unit, Ordinal& lane, Ordinal& place) {
          const Ordinal s = g.segment_of(tt);
          place = tt - segment_begin(s);
          units.locate(units.numbering.position(s), unit, lane);
        };
        Ordinal unit, lane, place;
        where(t, unit, lane, place);
        const Ordinal row = g.row_of(t);
        int entries = 0;
        bool ok = true;
        for (auto k = g.row_map(row); k < g.row_map(row + 1); ++k) {
          const Ordinal j = g.entries(k);
          if (g.lower ? j >= row : j <= row) continue;
          ++entries;
          Ordinal u, l, o;
          where(g.lower ? j : g.n - 1 - j, u, l, o);
          ok = ok && (u < unit || (u == unit && ((l == lane && o + 1 == place) ||
                                                 (l + 1 == lane && o == place))));
        }
        if (!ok || entries > wavefront_max_entries) ++violations;
      },
      count);
  return count;
}

/// Slots of the layout: each position p gets `s.wavefront_slot_count()` slots, one per off-diagonal
/// entry of its row (the rest wavefront_none): in `s.wavefront_slots` where the entry's value
/// comes from (wavefront_own, wavefront_left, or the position of a dependency in an earlier
/// unit), in `s.wavefront_source` its entry of A. The solve then reads a row's slots straight
/// from its position, where the structure's rows need their offsets first, and does not
/// classify entries. Needs the structure (`s.row_map`, `s.columns`, `s.source`) in the layout's
/// order. One thread per segment. \throws std::logic_error where an entry is of none of the three
/// kinds, which the layout's check (count_wavefront_violations) rules out: the solve would wait
/// on a row of its own unit that no earlier step computes.
template <class ExecSpace, class Storage>
void build_wavefront_slots(const ExecSpace& exec, Storage& s) {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  const ordinal_type slot_count = s.wavefront_slot_count();
  const std::size_t total = std::size_t(s.n) * std::size_t(slot_count);
  s.wavefront_slots = Kokkos::View<ordinal_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::wavefront::slots"), total);
  s.wavefront_source = Kokkos::View<offset_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::wavefront::source"), total);
  const auto slots = s.wavefront_slots;
  const auto slot_source = s.wavefront_source;
  const auto first = s.segment_first;
  const auto row_map = s.row_map;
  const auto columns = s.columns;
  const auto source = s.source;
  const auto units = s.units;
  const ordinal_type n_segments = ordinal_type(first.extent(0)) - 1;
  ordinal_type misplaced = 0;
  Kokkos::parallel_reduce(
      "syncfree::wavefront::slots", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
      KOKKOS_LAMBDA(const ordinal_type v, ordinal_type& count) {
        ordinal_type unit, lane;
        units.locate(v, unit, lane);
        const ordinal_type unit_begin = first(units.first_segment(unit));
        const ordinal_type left_first = lane > 0 ? first(v - 1) : 0;
        const ordinal_type left_length = lane > 0 ? first(v) - left_first : 0;
        for (ordinal_type p = first(v); p < first(v + 1); ++p) {
          const ordinal_type place = p - first(v);
          std::size_t slot = std::size_t(p) * std::size_t(slot_count);
          for (auto k = row_map(p); k < row_map(p + 1); ++k, ++slot) {
            const ordinal_type q = columns(k);
            const bool own = place > 0 && q == p - 1;
            const bool left = place < left_length && q == left_first + place;
            slots(slot) = own    ? ordinal_type(wavefront_own)
                          : left ? ordinal_type(wavefront_left)
                                 : q;
            slot_source(slot) = source(k);
            if (!own && !left && q >= unit_begin) ++count;
          }
          for (; slot < std::size_t(p + 1) * std::size_t(slot_count); ++slot) {
            slots(slot) = ordinal_type(wavefront_none);
            slot_source(slot) = offset_type(0);
          }
        }
      },
      misplaced);
  if (misplaced != 0)
    throw std::logic_error("syncfree: wavefront layout with a dependency inside its own unit");
}

}  // namespace syncfree::impl
