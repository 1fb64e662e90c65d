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
/// unit), which is checked on the device for each matrix as its step table is built. Then units in
/// claim order are a topological order (a warp waits only on units claimed before its own, or on
/// its own earlier steps), and no level pass is needed at all.

#include <cstddef>
#include <cstdint>
#include <string>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_segment_units.hpp"
#include "core/impl/syncfree_array_block.hpp"
#include "core/impl/syncfree_device_scratch.hpp"

namespace syncfree::impl {

/// The most off-diagonal entries a row of the layout may have: the CUDA kernel holds them in
/// registers. A 7-point stencil's triangle has 3.
inline constexpr int wavefront_max_entries = 4;

/// The register paths of a step (build_wavefront_steps): the row before in its segment (the
/// lane's own result of the step before), the line before's row at the same place (the lane
/// before's) and, on a 3-D layout, the plane before's (the lane a group of lines before's).
inline constexpr int wavefront_own = 0;
inline constexpr int wavefront_left = 1;
inline constexpr int wavefront_below = 2;
/// A slot's position where it reads no dependency in an earlier unit.
inline constexpr int wavefront_register = -1;
inline constexpr int wavefront_unused = -2;

/// The register paths of a layout of `units`: 2 on a 2-D grid, 3 on a 3-D one.
template <class Units>
int wavefront_paths_of(const Units& units) {
  return units.lines == segment_unit_size ? 2 : 3;
}
/// A step's slots: its paths, and one more for each entry a row (at most `longest_row`) can
/// have beyond them.
inline int wavefront_slots_for(int paths, long longest_row) {
  return longest_row > paths ? int(longest_row) : paths;
}
/// The same for the layout of plan storage `s`.
template <class Storage>
int wavefront_paths(const Storage& s) {
  return wavefront_paths_of(s.units);
}
template <class Storage>
int wavefront_slots(const Storage& s) {
  return wavefront_slots_for(wavefront_paths(s), long(s.max_row_length));
}
/// Where slot k's values lie in the step table: the paths', the diagonal's inverse, the others'.
KOKKOS_INLINE_FUNCTION int wavefront_value_index(int k, int paths) { return k < paths ? k : k + 1; }

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

/// Fills `units.rank`, from `scratch` (the analysis alone reads it): units by diagonal, then block,
/// then group.
template <class ExecSpace, class Ordinal, class Device>
void rank_wavefront_units(const ExecSpace& exec, WavefrontUnits<Ordinal, Device>& units,
                          DeviceScratch<ExecSpace>& scratch) {
  units.rank = scratch.template uninitialized<Ordinal, Device>("syncfree::wavefront::rank",
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
/// (rank_wavefront_units, in `scratch`).
template <class Device, class ExecSpace, class Ordinal>
WavefrontUnits<Ordinal, Device> wavefront_units_for(const ExecSpace& exec, Ordinal nearest,
                                                    Ordinal farthest, Ordinal n_segments,
                                                    DeviceScratch<ExecSpace>& scratch) {
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
  rank_wavefront_units(exec, units, scratch);
  return units;
}

/// An entry of the step table resolved from the structure (resolve_wavefront_entry): the row
/// (-1: none) and its position, the position each slot reads, the entry of the structure behind
/// each slot (an index into its columns and sources; -1: none), and whether a dependency fit none
/// of the slot kinds.
template <class Ordinal, class Offset>
struct WavefrontEntry {
  Ordinal row = -1;
  Ordinal at = -1;
  Ordinal position[wavefront_max_entries];
  Offset entry[wavefront_max_entries];
  bool misplaced = false;
};

/// Sets slot k of `r` (k < wavefront_max_entries, known at run time) by writing every slot, each at
/// an index known at compile time: indexed by k, r's arrays lived in local memory (an 88-byte stack
/// frame in the step table's kernel; a store under `i == k` was turned back into an indexed one).
template <class Ordinal, class Offset>
KOKKOS_INLINE_FUNCTION void set_wavefront_slot(WavefrontEntry<Ordinal, Offset>& r, int k,
                                               Ordinal position, Offset entry) {
  for (int i = 0; i < wavefront_max_entries; ++i) {
    r.position[i] = i == k ? position : r.position[i];
    r.entry[i] = i == k ? entry : r.entry[i];
  }
}

/// The plan's structure in the layout's order, which for_each_wavefront_entry copies a unit at a
/// time into a WavefrontUnitStructure: `first(v)`, `order(p)`, `row_map(p)` and `column(j)`, and
/// the entries of A behind them, `source(j)` and `diagonal(p)`.
template <class Storage>
struct WavefrontPlanStructure {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  decltype(Storage::segment_first) first_;
  decltype(Storage::order) order_;
  decltype(Storage::row_map) row_map_;
  decltype(Storage::columns) columns_;
  decltype(Storage::source) source_;
  decltype(Storage::diagonal) diagonal_;

  explicit WavefrontPlanStructure(const Storage& s)
      : first_(s.segment_first),
        order_(s.order),
        row_map_(s.row_map),
        columns_(s.columns),
        source_(s.source),
        diagonal_(s.diagonal) {}
  KOKKOS_INLINE_FUNCTION ordinal_type first(ordinal_type v) const { return first_(v); }
  KOKKOS_INLINE_FUNCTION ordinal_type order(ordinal_type p) const { return order_(p); }
  KOKKOS_INLINE_FUNCTION offset_type row_map(ordinal_type p) const { return row_map_(p); }
  KOKKOS_INLINE_FUNCTION ordinal_type column(offset_type j) const { return columns_(j); }
  KOKKOS_INLINE_FUNCTION offset_type source(offset_type j) const { return source_(j); }
  KOKKOS_INLINE_FUNCTION offset_type diagonal(ordinal_type p) const { return diagonal_(p); }
};

/// Resolves the entry of lane `lane` of unit `unit` at step `step`: the row it runs then and its
/// dependencies, in what the CUDA kernel's step needs: a slot per register path, k = 0, 1 and on
/// a 3-D layout 2, for the row before in its segment, the line before's row at the same place and
/// the plane before's (registers of the step before: wavefront_own, _left, _below), then a slot
/// for each entry a row can have beyond them (`slots`, wavefront_slots). A dependency of one of
/// the path kinds takes its path; one in an earlier unit takes the first slot its row does not
/// use as a register (a lane at the edge of its unit has no register path there: that neighbour
/// lies in the unit before). A slot's position is that of the dependency in an earlier unit it
/// reads, wavefront_register where it reads its register, wavefront_unused where it reads nothing
/// (the kernel then multiplies zero by zero, never by a register that could hold an infinity).
/// Reads the structure `at` (a unit's WavefrontUnitStructure) only at the unit's own segments and
/// rows.
template <class Units, class Structure>
KOKKOS_INLINE_FUNCTION
    WavefrontEntry<typename Structure::ordinal_type, typename Structure::offset_type>
    resolve_wavefront_entry(const Units& units, const Structure& at, int slots,
                            typename Structure::ordinal_type unit,
                            typename Structure::ordinal_type step, int lane) {
  using ordinal_type = typename Structure::ordinal_type;
  WavefrontEntry<ordinal_type, typename Structure::offset_type> r;
  for (int k = 0; k < wavefront_max_entries; ++k) {
    r.position[k] = wavefront_unused;
    r.entry[k] = -1;
  }
  const ordinal_type v = units.first_segment(unit) + lane;
  if (v >= units.first_segment(unit + 1)) return r;
  const ordinal_type place = step - wavefront_skew(lane, units.lines);
  if (place < 0 || place >= at.first(v + 1) - at.first(v)) return r;
  const ordinal_type p = at.first(v) + place;
  r.row = at.order(p);
  r.at = p;
  const bool has_left = lane % units.lines != 0, has_below = lane >= units.lines;
  const ordinal_type left = has_left && place < at.first(v) - at.first(v - 1)
                                ? at.first(v - 1) + place
                                : ordinal_type(-1);
  const ordinal_type below_first = has_below ? at.first(v - units.lines) : 0;
  const ordinal_type below = has_below && place < at.first(v - units.lines + 1) - below_first
                                 ? below_first + place
                                 : ordinal_type(-1);
  const ordinal_type unit_begin = at.first(units.first_segment(unit));
  // Registers first, so that a dependency in an earlier unit takes a path left free.
  for (auto j = at.row_map(p); j < at.row_map(p + 1); ++j) {
    const ordinal_type q = at.column(j);
    const int path = place > 0 && q == p - 1 ? wavefront_own
                     : q == left             ? wavefront_left
                     : q == below            ? wavefront_below
                                             : -1;
    if (path >= 0) set_wavefront_slot(r, path, ordinal_type(wavefront_register), j);
  }
  for (auto j = at.row_map(p); j < at.row_map(p + 1); ++j) {
    const ordinal_type q = at.column(j);
    if ((place > 0 && q == p - 1) || q == left || q == below) continue;
    int k = slots;  // the first free slot
    for (int i = wavefront_max_entries - 1; i >= 0; --i)
      if (i < slots && r.entry[i] < 0) k = i;
    r.misplaced = r.misplaced || q >= unit_begin || k == slots;
    if (k < slots) set_wavefront_slot(r, k, q, j);
  }
  return r;
}

/// Entry e = (u * S + step) * 32 + lane (S = units.steps()) of the step table: a step's loads
/// then read 32 consecutive entries.
KOKKOS_INLINE_FUNCTION std::size_t wavefront_table_entry(std::size_t unit, std::size_t steps,
                                                         std::size_t step, int lane) {
  return (unit * steps + step) * segment_unit_size + std::size_t(lane);
}

/// Most rows of a unit: 32 segments of at most 32 rows (chain_segment_rows).
inline constexpr int wavefront_unit_rows = segment_unit_size * segment_unit_size;

/// One unit's structure (positions p0 .. p0 + rows - 1, their entries from j0, its segments from
/// v0), copied into team scratch by for_each_wavefront_entry from the plan's arrays
/// (WavefrontPlanStructure), read through the same accessors. The
/// lanes of a step read rows about 32 apart, which would all fall in one bank of shared memory:
/// element i is stored at padded(i), one word of padding after every 32.
template <class Ordinal, class Offset, class ScratchSpace>
struct WavefrontUnitStructure {
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using Array = Kokkos::View<Ordinal*, ScratchSpace, Kokkos::MemoryUnmanaged>;
  using OffsetArray = Kokkos::View<Offset*, ScratchSpace, Kokkos::MemoryUnmanaged>;
  Array first_, order_, row_map_, columns_;  ///< by padded index; row_map_ from j0
  OffsetArray source_, diagonal_;            ///< by padded index
  Ordinal v0 = 0, p0 = 0;
  Offset j0 = 0;

  KOKKOS_INLINE_FUNCTION static Ordinal padded(Ordinal i) { return i + i / 32; }
  KOKKOS_INLINE_FUNCTION static std::size_t padded_size(std::size_t n) { return n + n / 32 + 1; }
  /// Bytes of team scratch for units whose rows have at most `slots` entries.
  static std::size_t scratch_bytes(int slots) {
    const std::size_t entries = padded_size(std::size_t(wavefront_unit_rows) * std::size_t(slots));
    return Array::shmem_size(segment_unit_size + 1) +
           Array::shmem_size(padded_size(wavefront_unit_rows)) +
           Array::shmem_size(padded_size(wavefront_unit_rows + 1)) + Array::shmem_size(entries) +
           OffsetArray::shmem_size(entries) +
           OffsetArray::shmem_size(padded_size(wavefront_unit_rows));
  }
  /// In the team scratch of `level`: 0 (shared memory) where scratch_bytes fits it, else 1.
  template <class Member>
  KOKKOS_INLINE_FUNCTION WavefrontUnitStructure(const Member& team, int slots, int level)
      : first_(team.team_scratch(level), segment_unit_size + 1),
        order_(team.team_scratch(level), padded_size(wavefront_unit_rows)),
        row_map_(team.team_scratch(level), padded_size(wavefront_unit_rows + 1)),
        columns_(team.team_scratch(level),
                 padded_size(std::size_t(wavefront_unit_rows) * std::size_t(slots))),
        source_(team.team_scratch(level),
                padded_size(std::size_t(wavefront_unit_rows) * std::size_t(slots))),
        diagonal_(team.team_scratch(level), padded_size(wavefront_unit_rows)) {}

  KOKKOS_INLINE_FUNCTION Ordinal first(Ordinal v) const { return first_(v - v0); }
  KOKKOS_INLINE_FUNCTION Ordinal order(Ordinal p) const { return order_(padded(p - p0)); }
  KOKKOS_INLINE_FUNCTION Offset row_map(Ordinal p) const {
    return j0 + Offset(row_map_(padded(p - p0)));
  }
  KOKKOS_INLINE_FUNCTION Ordinal column(Offset j) const {
    return columns_(padded(Ordinal(j - j0)));
  }
  KOKKOS_INLINE_FUNCTION Offset source(Offset j) const { return source_(padded(Ordinal(j - j0))); }
  KOKKOS_INLINE_FUNCTION Offset diagonal(Ordinal p) const { return diagonal_(padded(p - p0)); }
};

/// Calls f(e, r, at, count) for every entry e of the step table of `s` (wavefront_table_entry), r
/// resolved (resolve_wavefront_entry) from `at`, the unit's staged structure (whose `source` and
/// `diagonal` f may read), and returns the sum of what the calls add to count. A team
/// per unit copies the unit's structure into scratch first (WavefrontUnitStructure): the entries
/// of one step belong to 32 segments, whose rows lie 32 apart, and read from the plan's arrays each
/// would load a sector of its own. Consecutive entries go to consecutive threads.
template <class ExecSpace, class Storage, class F>
typename Storage::ordinal_type for_each_wavefront_entry(const ExecSpace& exec, const Storage& s,
                                                        const std::string& label, const F& f) {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Unit =
      WavefrontUnitStructure<ordinal_type, offset_type, typename ExecSpace::scratch_memory_space>;
  const auto units = s.units;
  const ordinal_type steps = units.steps();
  const int slots = wavefront_slots(s);
  const WavefrontPlanStructure<Storage> plan(s);
  // With 64-bit offsets the structure outgrows a block's shared memory (3-D grids: 55 KB): it then
  // lies in global memory, level 1.
  const std::size_t bytes = Unit::scratch_bytes(slots);
  const int level = bytes <= std::size_t(Policy::scratch_size_max(0)) ? 0 : 1;
  ordinal_type sum = 0;
  Kokkos::parallel_reduce(
      label,
      Policy(exec, units.count(), Kokkos::AUTO).set_scratch_size(level, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const Member& team, ordinal_type& count) {
        const ordinal_type u = team.league_rank();
        Unit at(team, slots, level);
        at.v0 = units.first_segment(u);
        const ordinal_type v1 = units.first_segment(u + 1);
        at.p0 = plan.first(at.v0);
        const ordinal_type p1 = plan.first(v1);
        at.j0 = plan.row_map(at.p0);
        const offset_type j1 = plan.row_map(p1);
        if (p1 - at.p0 > wavefront_unit_rows ||
            j1 - at.j0 > offset_type(wavefront_unit_rows) * offset_type(slots)) {
          Kokkos::single(Kokkos::PerTeam(team), [&] { ++count; });  // not a layout's unit
          return;
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, v1 - at.v0 + 1),
                             [&](const ordinal_type i) { at.first_(i) = plan.first(at.v0 + i); });
        Kokkos::parallel_for(
            Kokkos::TeamThreadRange(team, p1 - at.p0 + 1), [&](const ordinal_type i) {
              at.row_map_(Unit::padded(i)) = ordinal_type(plan.row_map(at.p0 + i) - at.j0);
              if (at.p0 + i >= p1) return;
              at.order_(Unit::padded(i)) = plan.order(at.p0 + i);
              at.diagonal_(Unit::padded(i)) = plan.diagonal(at.p0 + i);
            });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ordinal_type(j1 - at.j0)),
                             [&](const ordinal_type i) {
                               at.columns_(Unit::padded(i)) = plan.column(at.j0 + i);
                               at.source_(Unit::padded(i)) = plan.source(at.j0 + i);
                             });
        team.team_barrier();
        ordinal_type found = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, steps * ordinal_type(segment_unit_size)),
            [&](const ordinal_type i, ordinal_type& c) {
              const int lane = int(i % segment_unit_size);
              const ordinal_type step = i / segment_unit_size;
              f(wavefront_table_entry(std::size_t(u), std::size_t(steps), std::size_t(step), lane),
                resolve_wavefront_entry(units, at, slots, u, step, lane), at, c);
            },
            found);
        Kokkos::single(Kokkos::PerTeam(team), [&] { count += found; });
      },
      sum);
  return sum;
}

/// Where the step table (build_wavefront_steps) lies in a plan's block.
template <class Ordinal, class Offset, class Scalar>
struct WavefrontTableSlots {
  ArrayBlockLayout::Slot<Ordinal> segment_first, rows, positions;
  ArrayBlockLayout::Slot<Offset> sources;
  ArrayBlockLayout::Slot<Scalar> values;
};

/// Adds to `layout` the step table of a layout of `units` whose longest row has `longest_row`
/// off-diagonal entries, and a copy of its segments' first positions.
template <class Scalar, class Offset, class Ordinal, class Device>
WavefrontTableSlots<Ordinal, Offset, Scalar> add_wavefront_table(
    ArrayBlockLayout& layout, const WavefrontUnits<Ordinal, Device>& units, long longest_row) {
  const std::size_t entries = units.entries();
  const auto slots = std::size_t(wavefront_slots_for(wavefront_paths_of(units), longest_row));
  WavefrontTableSlots<Ordinal, Offset, Scalar> table;
  table.segment_first = layout.add<Ordinal>(std::size_t(units.n_segments) + 1);
  table.rows = layout.add<Ordinal>(entries);
  table.positions = layout.add<Ordinal>(entries * slots);
  table.sources = layout.add<Offset>(entries * (slots + 1));
  table.values = layout.add<Scalar>(entries * (slots + 1));
  return table;
}

/// The step table of the layout (resolve_wavefront_entry), entry e of E
/// (wavefront_table_entry):
/// - `s.wavefront_rows(e)`: the row, -1 where the lane has none at that step;
/// - `s.wavefront_positions(k * E + e)`, k < wavefront_slots(s): the position slot k reads (or
///   wavefront_register, wavefront_unused);
/// - `s.wavefront_sources(i * E + e)`: the entries of A behind the values below (-1: none; the
///   diagonal's also where the lane has no row, or the diagonal is not stored), so that copying
///   the values is a gather;
/// - `s.wavefront_values(i * E + e)`, copied at the first solve (sptrsv_pack_wavefront_values):
///   the slots' coefficients divided by the diagonal, and the diagonal's inverse, at
///   i = wavefront_value_index(k, paths) and i = paths: a step is then a product and an FMA a
///   slot.
/// Its arrays lie at `table` in `s.block` (add_wavefront_table), with `s.segment_first`, copied
/// from `segment_first`. Needs the structure (`s.order`, `s.row_map`, `s.columns`) in the
/// layout's order, and `s.units`.
/// Returns false where the layout cannot run the triangle: a row with a dependency of none of the
/// kinds above (the solve would wait on a row of its own unit, or a later one, that no earlier
/// step computes), or more than the slots hold, or a unit of more rows or entries than a unit
/// holds. The table is then not to be solved with. This is the layout's check, on every row of the
/// matrix, made while the table is built (a pass of its own would add its time and a read-back to
/// the analysis).
template <class ExecSpace, class Storage>
bool build_wavefront_steps(
    const ExecSpace& exec, Storage& s,
    const WavefrontTableSlots<typename Storage::ordinal_type, typename Storage::offset_type,
                              typename Storage::scalar_type>& table,
    const decltype(Storage::segment_first)& segment_first) {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using Entry = WavefrontEntry<ordinal_type, offset_type>;
  using Unit =
      WavefrontUnitStructure<ordinal_type, offset_type, typename ExecSpace::scratch_memory_space>;
  s.segment_first = array_in(s.block, table.segment_first);
  Kokkos::deep_copy(exec, s.segment_first, segment_first);
  s.wavefront_rows = array_in(s.block, table.rows);
  s.wavefront_positions = array_in(s.block, table.positions);
  s.wavefront_sources = array_in(s.block, table.sources);
  s.wavefront_values = array_in(s.block, table.values);
  s.packed_values_of = nullptr;
  const int paths = wavefront_paths(s), slots = wavefront_slots(s);
  const std::size_t entries = s.units.entries();
  const auto rows = s.wavefront_rows;
  const auto positions = s.wavefront_positions;
  const auto sources = s.wavefront_sources;
  const ordinal_type misplaced = for_each_wavefront_entry(
      exec, s, "syncfree::wavefront::steps",
      KOKKOS_LAMBDA(const std::size_t e, const Entry& r, const Unit& at, ordinal_type& count) {
        rows(e) = r.row;
        sources(std::size_t(paths) * entries + e) = r.row < 0 ? offset_type(-1) : at.diagonal(r.at);
        for (int k = 0; k < wavefront_max_entries; ++k) {  // constant bounds: r in registers
          if (k >= slots) break;
          positions(std::size_t(k) * entries + e) = r.position[k];
          sources(std::size_t(wavefront_value_index(k, paths)) * entries + e) =
              r.entry[k] < 0 ? offset_type(-1) : at.source(r.entry[k]);
        }
        if (r.misplaced) ++count;
      });
  return misplaced == 0;
}

/// Copies A's values into the step table of `s` (see build_wavefront_steps), unless it holds
/// that values array already. Where `unit`, the diagonal is 1. An entry per thread, gathered
/// through the table's sources: resolving each entry from the plan's arrays instead was slower, its
/// reads of 32 segments a step each a sector of its own.
template <class ExecSpace, class Storage, class Matrix>
void sptrsv_pack_wavefront_values(const ExecSpace& exec, const Storage& s, const Matrix& A,
                                  bool unit) {
  using scalar_type = typename Storage::scalar_type;
  if (s.packed_values_of == A.values.data()) return;
  const int paths = wavefront_paths(s), slots = wavefront_slots(s);
  const std::size_t entries = s.units.entries();
  const auto rows = s.wavefront_rows;
  const auto sources = s.wavefront_sources;
  const auto values = A.values;
  const auto out = s.wavefront_values;
  Kokkos::parallel_for(
      "syncfree::wavefront::values", Kokkos::RangePolicy<ExecSpace>(exec, 0, entries),
      KOKKOS_LAMBDA(const std::size_t e) {
        const bool active = rows(e) >= 0;
        const std::size_t at_diagonal = std::size_t(paths) * entries + e;
        const scalar_type diagonal =
            unit || !active ? scalar_type(1) : values(sources(at_diagonal));
        out(at_diagonal) = active ? scalar_type(1) / diagonal : scalar_type(0);
        for (int k = 0; k < slots; ++k) {
          const std::size_t at = std::size_t(wavefront_value_index(k, paths)) * entries + e;
          const auto j = sources(at);
          out(at) = j < 0 ? scalar_type(0) : values(j) / diagonal;
        }
      });
  s.packed_values_of = A.values.data();
}

}  // namespace syncfree::impl
