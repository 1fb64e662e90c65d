// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The `wavefront` layout: chain segments in units of up to 32, a unit per warp, one
/// segment per lane, solved as a wavefront.
///
/// On a grid in row order a row depends on the row before it (its chain segment), on the row at
/// the same place of the line before, on a 3-D grid on that of the plane before, and on rows
/// further back. A unit (WavefrontUnits) holds the same piece (a segment of each line) of 32 lines:
/// 32 consecutive lines of a 2-D grid, or 8 x 4 lines of 4 planes (4 x 8 of 8) of a 3-D one. Lane
/// r of the unit's warp runs row o of its segment at step skew(r) + o, skew(r) being the lane's
/// distance in lines and planes from lane 0: the row before it is its own result of the step
/// before, and the rows at the same place of the line and the plane before are results of the
/// step before of two other lanes, one shuffle away. Only dependencies on other units travel
/// through memory: on an n x n grid a 32 x 32 tile of rows pays 2 such trips where chain order
/// paid 32; on an n^3 grid a path through 8 x 4 lines pays 3 (one per axis) where chain order
/// paid 11 (one per line and plane).
///
/// The layout is used only where every dependency of every row is of those four kinds (its own
/// segment's row before, the lane of the line or plane before at the same place, an earlier
/// unit), which is checked on the device for each matrix. Then units in claim order are a
/// topological order (a warp waits only on units claimed before its own, or on its own earlier
/// steps), and no level pass is needed at all.

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_segment_units.hpp"
#include "core/impl/syncfree_array_block.hpp"

namespace syncfree::impl {

/// The most off-diagonal entries a row of the layout may have: the CUDA kernel holds them in
/// registers. A 7-point stencil's triangle has 3.
inline constexpr int wavefront_max_entries = 4;

/// What a slot of a row holds besides a dependency's position (build_wavefront_steps).
inline constexpr int wavefront_own = -1;    ///< the row before it in its segment: a register
inline constexpr int wavefront_left = -2;   ///< the line before's row at the same place: a shuffle
inline constexpr int wavefront_none = -3;   ///< no entry: the row has fewer than the slots
inline constexpr int wavefront_below = -4;  ///< the lane a plane before's row at the same place

/// Lane r's rows start at this step of its unit: its distance in lines and planes from lane 0.
KOKKOS_INLINE_FUNCTION int wavefront_skew(int lane, int lines) {
  return lane % lines + lane / lines;
}

/// Units (p, g, b) of a box of P x G x B with p + g + b < d: for each b, the pairs (p, g) with
/// p + g < d - b.
KOKKOS_INLINE_FUNCTION std::int64_t wavefront_units_before_diagonal(std::int64_t P, std::int64_t G,
                                                                    std::int64_t B,
                                                                    std::int64_t d) {
  std::int64_t total = 0;
  for (std::int64_t b = 0; b < B && b < d; ++b) {
    const std::int64_t s = d - b;  // pairs with p + g < s: p < m, each with min(G, s - p) g's
    const std::int64_t m = s < P ? s : P;
    std::int64_t full = s - G + 1;  // p < full has all G
    full = full < 0 ? 0 : full > m ? m : full;
    total += full * G + (m - full) * s - (m - full) * (full + m - 1) / 2;
  }
  return total;
}

/// The layout's units. Segments are numbered as in the row order, P to a line and `plane`
/// (P times the lines of a plane) to a plane. A block of `planes()` consecutive planes is cut into
/// units of the same piece (one segment of each line) of `lines` consecutive lines in each of its
/// planes: lane y + lines z of a unit holds line y of plane z. On a 2-D grid a plane is taken to
/// be 32 lines, so a unit is the same piece of 32 consecutive lines (`lines` 32, one plane); on a
/// 3-D grid it is 8 x 4 (or 4 x 8) lines of 4 (8) planes, so that fewer of a path's steps
/// between planes cross units. A unit is (piece, group of lines, block) in a box of
/// `stride` x groups() x blocks(); units are claimed in order of their diagonal (the sum of the
/// three), where a unit's neighbours before it on each axis lie on the diagonal before: the
/// claimed units then stay near the front of the solve, where block order let the warps of
/// later blocks wait on units not yet claimed. The segments after the last whole block are a unit
/// each, alone on lane 0, after the others.
template <class Ordinal, class Device>
struct WavefrontUnits {
  Ordinal stride = 1;  ///< P: segments per line
  Ordinal plane = 0;   ///< segments per plane (of at least `lines` lines)
  int lines = segment_unit_size;
  Ordinal blocked = 0;  ///< segments in whole blocks: those in units of 32
  Ordinal n_segments = 0;
  /// Place in claim order of each unit of the blocks, by (block, group, piece)
  /// (rank_wavefront_units).
  Kokkos::View<Ordinal*, Device> rank;

  KOKKOS_INLINE_FUNCTION int planes() const { return segment_unit_size / lines; }
  KOKKOS_INLINE_FUNCTION Ordinal groups() const { return plane / (stride * Ordinal(lines)); }
  KOKKOS_INLINE_FUNCTION Ordinal blocks() const { return blocked / (plane * Ordinal(planes())); }
  /// Steps of a unit: its 32 places and the largest skew.
  KOKKOS_INLINE_FUNCTION Ordinal steps() const {
    return Ordinal(segment_unit_size + wavefront_skew(segment_unit_size - 1, lines));
  }
  KOKKOS_INLINE_FUNCTION Ordinal blocked_units() const {
    return blocked / Ordinal(segment_unit_size);
  }
  KOKKOS_INLINE_FUNCTION Ordinal count() const { return blocked_units() + (n_segments - blocked); }
  /// Entries of the step table (build_wavefront_steps): a step of a lane of a unit each.
  KOKKOS_INLINE_FUNCTION std::size_t entries() const {
    return std::size_t(count()) * std::size_t(steps()) * segment_unit_size;
  }
  /// Place of segment v (in row order) in unit order: 32 u + lane in unit u, for the whole blocks.
  KOKKOS_INLINE_FUNCTION Ordinal position(Ordinal v) const {
    if (v >= blocked) return v;
    const Ordinal block_size = plane * Ordinal(planes());
    const Ordinal r = v % block_size;
    const Ordinal z = r / plane, line = (r % plane) / stride, piece = r % stride;
    const Ordinal unit = (v / block_size) * (groups() * stride) + (line / lines) * stride + piece;
    return rank(unit) * Ordinal(segment_unit_size) + line % lines + Ordinal(lines) * z;
  }
  /// Unit and lane of the segment at place v of unit order.
  KOKKOS_INLINE_FUNCTION void locate(Ordinal v, Ordinal& unit, Ordinal& lane) const {
    if (v < blocked) {
      unit = v / Ordinal(segment_unit_size);
      lane = v % Ordinal(segment_unit_size);
    } else {
      unit = blocked_units() + (v - blocked);
      lane = 0;
    }
  }
  /// First place of unit u (u = count() gives n_segments).
  KOKKOS_INLINE_FUNCTION Ordinal first_segment(Ordinal u) const {
    return u < blocked_units() ? u * Ordinal(segment_unit_size) : blocked + (u - blocked_units());
  }
};

/// Fills `units.rank`: units by diagonal, then block, then group.
template <class ExecSpace, class Ordinal, class Device>
void rank_wavefront_units(const ExecSpace& exec, WavefrontUnits<Ordinal, Device>& units) {
  units.rank = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::wavefront::rank"),
      units.blocked_units());
  const auto rank = units.rank;
  const std::int64_t P = units.stride, G = units.groups(), B = units.blocks();
  Kokkos::parallel_for(
      "syncfree::wavefront::rank", Kokkos::RangePolicy<ExecSpace>(exec, 0, units.blocked_units()),
      KOKKOS_LAMBDA(const Ordinal u) {
        const std::int64_t p = u % P, g = (u / P) % G, b = u / (P * G), d = p + g + b;
        std::int64_t r = wavefront_units_before_diagonal(P, G, B, d);
        for (std::int64_t c = 0; c < b; ++c) {  // on diagonal d, in blocks before b
          const std::int64_t s = d - c;
          r += wavefront_units_before_diagonal(P, G, 1, s + 1) -
               wavefront_units_before_diagonal(P, G, 1, s);
        }
        const std::int64_t low = p + g - P + 1;  // groups before g on diagonal d in block b
        r += g - (low > 0 ? low : 0);
        rank(u) = Ordinal(r);
      });
}

/// Units for a triangle whose segments depend on segments `nearest` .. `farthest` back (besides
/// the one right before): a 2-D grid where the two are equal (P = nearest), a 3-D one where
/// `farthest` is a multiple of P by a number of lines per plane divisible by 8 or 4. None
/// (count() 0) where P is below 2 or the triangle has no whole block. Ranked
/// (rank_wavefront_units).
template <class Device, class ExecSpace, class Ordinal>
WavefrontUnits<Ordinal, Device> wavefront_units_for(const ExecSpace& exec, Ordinal nearest,
                                                    Ordinal farthest, Ordinal n_segments) {
  WavefrontUnits<Ordinal, Device> units;
  if (nearest < 2) return units;
  const Ordinal lines_per_plane =
      farthest > nearest && farthest % nearest == 0 ? farthest / nearest : 1;
  units.stride = nearest;
  units.lines = lines_per_plane % 8 == 0 ? 8 : lines_per_plane % 4 == 0 ? 4 : segment_unit_size;
  units.plane = units.lines == segment_unit_size ? nearest * Ordinal(segment_unit_size) : farthest;
  const std::int64_t block_size = std::int64_t(units.plane) * units.planes();
  if (block_size > std::int64_t(n_segments)) return {};
  units.blocked = n_segments - Ordinal(n_segments % block_size);
  units.n_segments = n_segments;
  rank_wavefront_units(exec, units);
  return units;
}

/// Counts the rows of the triangle (t: topological position, as in ChainSegments) that the
/// wavefront cannot run: more than wavefront_max_entries off-diagonal entries, or a dependency
/// that is neither in an earlier unit, nor the row before in the same segment, nor the row at the
/// same place of the lane of the line or the plane before. `segment_begin`: first t of each
/// segment.
template <class ExecSpace, class Segments, class Begin, class Ordinal, class Device>
Ordinal count_wavefront_violations(const ExecSpace& exec, const Segments& g,
                                   const Begin& segment_begin,
                                   const WavefrontUnits<Ordinal, Device>& units) {
  Ordinal count = 0;
  Kokkos::parallel_reduce(
      "syncfree::wavefront::check", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
      KOKKOS_LAMBDA(const Ordinal t, Ordinal& violations) {
        const auto where = [&](Ordinal tt, Ordinal& unit, Ordinal& lane, Ordinal& place) {
          const Ordinal s = g.segment_of(tt);
          place = tt - segment_begin(s);
          units.locate(units.position(s), unit, lane);
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
          const bool own = l == lane && o + 1 == place;
          const bool left = l + 1 == lane && lane % units.lines != 0 && o == place;
          const bool below = l + units.lines == lane && o == place;
          ok = ok && (u < unit || (u == unit && (own || left || below)));
        }
        if (!ok || entries > wavefront_max_entries) ++violations;
      },
      count);
  return count;
}

/// The step table of the layout: entry e = (u * S + step) * 32 + lane (S = units.steps()) is the
/// row that lane `lane` of unit u runs at that step, so that a step's loads read 32 consecutive
/// entries. `s.wavefront_rows(e)`: the row, -1 where the lane has none at that step;
/// `s.wavefront_slots(k * E + e)` (E entries, k < wavefront_slot_count()): where the row's k-th
/// off-diagonal entry's value comes from (wavefront_own, wavefront_left, wavefront_below, the
/// position of a dependency in an earlier unit, or wavefront_none);
/// `s.wavefront_source(k * E + e)`: that entry of A, and at k = wavefront_slot_count() the
/// diagonal's (-1: none). The values are copied in that shape at the first solve
/// (sptrsv_pack_wavefront_values). Needs the structure (`s.order`, `s.row_map`, `s.columns`,
/// `s.source`, `s.diagonal`) in the layout's order. \throws std::logic_error where an entry is of
/// none of the kinds, which the layout's check (count_wavefront_violations) rules out: the solve
/// would wait on a row of its own unit that no earlier step computes.
template <class ExecSpace, class Storage>
void build_wavefront_steps(const ExecSpace& exec, Storage& s) {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  const int slot_count = int(s.wavefront_slot_count());
  const std::size_t entries = s.units.entries();
  // One allocation: each cudaMalloc of a MiB or more costs tens of microseconds
  // (core/impl/syncfree_array_block.hpp).
  ArrayBlockLayout layout;
  const auto at_rows = layout.add<ordinal_type>(entries);
  const auto at_slots = layout.add<ordinal_type>(entries * slot_count);
  const auto at_source = layout.add<offset_type>(entries * (slot_count + 1));
  const auto at_values = layout.add<typename Storage::scalar_type>(entries * (slot_count + 1));
  s.wavefront_block = allocate_array_block<device_type>("syncfree::wavefront::steps", layout);
  s.wavefront_rows = array_in(s.wavefront_block, at_rows);
  s.wavefront_slots = array_in(s.wavefront_block, at_slots);
  s.wavefront_source = array_in(s.wavefront_block, at_source);
  s.wavefront_values = array_in(s.wavefront_block, at_values);
  s.packed_values_of = nullptr;
  const auto rows = s.wavefront_rows;
  const auto slots = s.wavefront_slots;
  const auto slot_source = s.wavefront_source;
  const auto first = s.segment_first;
  const auto order = s.order;
  const auto row_map = s.row_map;
  const auto columns = s.columns;
  const auto source = s.source;
  const auto diagonal = s.diagonal;
  const auto units = s.units;
  const ordinal_type steps = units.steps();
  ordinal_type misplaced = 0;
  Kokkos::parallel_reduce(
      "syncfree::wavefront::steps", Kokkos::RangePolicy<ExecSpace>(exec, 0, entries),
      KOKKOS_LAMBDA(const std::size_t e, ordinal_type& count) {
        const int lane = int(e % segment_unit_size);
        const ordinal_type unit = ordinal_type(e / (std::size_t(steps) * segment_unit_size));
        const ordinal_type step = ordinal_type((e / segment_unit_size) % std::size_t(steps));
        const ordinal_type v = units.first_segment(unit) + lane;
        ordinal_type p = -1;
        if (v < units.first_segment(unit + 1)) {
          const ordinal_type place = step - wavefront_skew(lane, units.lines);
          if (place >= 0 && place < first(v + 1) - first(v)) p = first(v) + place;
        }
        rows(e) = p < 0 ? ordinal_type(-1) : order(p);
        slot_source(std::size_t(slot_count) * entries + e) = p < 0 ? offset_type(-1) : diagonal(p);
        int k = 0;
        if (p >= 0) {
          const ordinal_type place = p - first(v);
          const bool has_left = lane % units.lines != 0, has_below = lane >= units.lines;
          const ordinal_type left =
              has_left && place < first(v) - first(v - 1) ? first(v - 1) + place : ordinal_type(-1);
          const ordinal_type below_first = has_below ? first(v - units.lines) : 0;
          const ordinal_type below = has_below && place < first(v - units.lines + 1) - below_first
                                         ? below_first + place
                                         : ordinal_type(-1);
          const ordinal_type unit_begin = first(units.first_segment(unit));
          for (auto j = row_map(p); j < row_map(p + 1); ++j, ++k) {
            const ordinal_type q = columns(j);
            const bool own = place > 0 && q == p - 1;
            slots(std::size_t(k) * entries + e) = own          ? ordinal_type(wavefront_own)
                                                  : q == left  ? ordinal_type(wavefront_left)
                                                  : q == below ? ordinal_type(wavefront_below)
                                                               : q;
            slot_source(std::size_t(k) * entries + e) = source(j);
            if (!own && q != left && q != below && q >= unit_begin) ++count;
          }
        }
        for (; k < slot_count; ++k) {
          slots(std::size_t(k) * entries + e) = ordinal_type(wavefront_none);
          slot_source(std::size_t(k) * entries + e) = offset_type(-1);
        }
      },
      misplaced);
  if (misplaced != 0)
    throw std::logic_error("syncfree: wavefront layout with a dependency inside its own unit");
}

/// Copies A's values into the shape of the step table of `s` (the diagonal's: 1 where `unit`, or
/// where no row is), unless it holds that values array already.
template <class ExecSpace, class Storage, class Matrix>
void sptrsv_pack_wavefront_values(const ExecSpace& exec, const Storage& s, const Matrix& A,
                                  bool unit) {
  using scalar_type = typename Storage::scalar_type;
  if (s.packed_values_of == A.values.data()) return;
  const std::size_t entries = s.units.entries();
  const std::size_t slot_count = std::size_t(s.wavefront_slot_count());
  const auto values = A.values;
  const auto source = s.wavefront_source;
  const auto out = s.wavefront_values;
  Kokkos::parallel_for(
      "syncfree::wavefront::values", Kokkos::RangePolicy<ExecSpace>(exec, 0, source.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        const bool diagonal = i >= slot_count * entries;
        const auto k = source(i);
        out(i) = diagonal && (unit || k < 0) ? scalar_type(1) : k < 0 ? scalar_type(0) : values(k);
      });
  s.packed_values_of = A.values.data();
}

}  // namespace syncfree::impl
