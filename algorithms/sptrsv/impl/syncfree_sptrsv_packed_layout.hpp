// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The packed layout of SpTRSV_Fmt (the thesis' HYB_syncfree format, §4.2.1): the entries
/// of each warp of the multirow layout side by side, lane by lane, so that a warp of small rows
/// loads all its entries with one coalesced access, each lane its own entry.
///
/// Row v of a warp of vector size m < 32 owns the warp's slots v m .. v m + m - 1, padded with
/// column -1. A row of more than 16 entries has a warp to itself: its first 32 entries fill the
/// slots and the rest stay in the level-ordered CSR of the plan. Two departures from the thesis:
///  - A warp owns rows x m slots, not 32: with 32, a level of a few rows (a chain: one) would
///    take 32 slots per row, far above the 2.2x the CSR bytes the layout may cost.
///  - The thesis stores a pointer into CSR in slot 0 of a long row so as not to keep row_ptr; the
///    plan keeps its level-ordered row_map anyway, so every slot holds an entry here.
/// Columns are built at analysis; values and diagonals are copied from A when a solve first sees
/// its values.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_multirow_layout.hpp"
#include "core/impl/syncfree_crs_build.hpp"

namespace syncfree::impl {

/// Device-side view of the layout's index arrays: where each slot's entry comes from.
template <class Storage>
struct PackedSlots {
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  Kokkos::View<const ordinal_type*, device_type> warp_base;
  Kokkos::View<const std::int8_t*, device_type> warp_vector;
  Kokkos::View<const offset_type*, device_type> row_map;
  Kokkos::View<const offset_type*, device_type> packed_base;

  explicit PackedSlots(const Storage& s)
      : warp_base(s.warp_base),
        warp_vector(s.warp_vector),
        row_map(s.row_map),
        packed_base(s.packed_base) {}

  KOKKOS_INLINE_FUNCTION ordinal_type slots(ordinal_type w) const {
    return ordinal_type(warp_base(w + 1) - warp_base(w)) * warp_vector(w);
  }
  /// The entry of the level-ordered CSR that `lane` of warp w holds (lane < slots(w)), or -1.
  KOKKOS_INLINE_FUNCTION offset_type entry(ordinal_type w, int lane) const {
    const int size = warp_vector(w);
    const ordinal_type p = warp_base(w) + lane / size;
    const int t = lane % size;
    return offset_type(t) < row_map(p + 1) - row_map(p) ? row_map(p) + t : offset_type(-1);
  }
};

/// Runs write(slot, k) for every slot of the layout, k being the entry of the level-ordered CSR
/// the slot holds, or -1 for padding.
template <class ExecSpace, class Storage, class Write>
void for_each_packed_slot(const ExecSpace& exec, const Storage& s, const char* label,
                          const Write& write) {
  using ordinal_type = typename Storage::ordinal_type;
  const PackedSlots<Storage> slots(s);
  const auto base = s.packed_base;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace>(exec, 0, std::size_t(s.n_warps) * 32),
      KOKKOS_LAMBDA(const std::size_t i) {
        const ordinal_type w = ordinal_type(i / 32);
        const int lane = int(i % 32);
        if (lane < slots.slots(w)) write(base(w) + lane, slots.entry(w, lane));
      });
}

/// Lays out the packed columns of `s` (its multirow warps are built); values come later.
template <class ExecSpace, class Matrix>
void sptrsv_build_packed_columns(const ExecSpace& exec, SptrsvPlanStorage<Matrix>& s) {
  using Storage = SptrsvPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  s.packed_base =
      Kokkos::View<offset_type*, device_type>("syncfree::packed::base", std::size_t(s.n_warps) + 1);
  const auto base = s.packed_base;
  const PackedSlots<Storage> slots(s);
  Kokkos::parallel_for(
      "syncfree::packed::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n_warps),
      KOKKOS_LAMBDA(const ordinal_type w) { base(w + 1) = slots.slots(w); });
  const offset_type total = counts_to_offsets(exec, base);
  s.packed_columns = Kokkos::View<ordinal_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::packed::columns"), total);
  s.packed_values = Kokkos::View<typename Storage::scalar_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::packed::values"), total);
  s.packed_diagonal = Kokkos::View<typename Storage::scalar_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::packed::diagonal"), s.n);
  s.packed_values_of = nullptr;
  const auto out = s.packed_columns;
  const auto columns = s.columns;
  for_each_packed_slot(
      exec, s, "syncfree::packed::columns",
      KOKKOS_LAMBDA(const offset_type slot, const offset_type k) {
        out(slot) = k < 0 ? ordinal_type(-1) : columns(k);
      });
}

/// Copies A's values into the packed layout of `s` unless it holds that values array already.
template <class ExecSpace, class Matrix>
void sptrsv_pack_values(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                        bool unit) {
  using Storage = SptrsvPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using scalar_type = typename Storage::scalar_type;
  if (s.packed_values_of == A.values.data()) return;
  const auto values = A.values;
  const auto source = s.source;
  const auto diagonal = s.diagonal;
  const auto out = s.packed_values;
  const auto out_diagonal = s.packed_diagonal;
  for_each_packed_slot(
      exec, s, "syncfree::packed::values",
      KOKKOS_LAMBDA(const offset_type slot, const offset_type k) {
        out(slot) = k < 0 ? scalar_type(0) : values(source(k));
      });
  Kokkos::parallel_for(
      "syncfree::packed::diagonal", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        out_diagonal(p) = unit ? scalar_type(1) : values(diagonal(p));
      });
  s.packed_values_of = A.values.data();
}

}  // namespace syncfree::impl
