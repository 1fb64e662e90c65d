// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The stencil pattern of a CSR matrix: where every entry lies on one of at most 32
/// diagonals (offsets column - row), row i's columns are i + offsets(d) for the set bits d of
/// one mask, in ascending order, so a product needs no column indices. A 7-point 3-D stencil
/// (7 offsets) then reads a byte per row instead of 28, and its SpMV moves about 30 % fewer bytes.
///
/// `find_stencil_pattern` finds the offsets in one pass over the entries (a set of at most 32
/// slots, filled by compare-and-swap) and the masks in a second. A matrix with unsorted or
/// repeated column indices in a row, or with entries on more than 32 diagonals, has none.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

inline constexpr int stencil_max_offsets = 32;
/// Masks take a byte where the offsets fit in 8 bits.
inline constexpr int stencil_byte_offsets = 8;

template <class Device>
struct StencilPattern {
  Kokkos::View<std::int64_t*, Device> offsets;   ///< ascending; empty where there is no pattern
  Kokkos::View<std::uint8_t*, Device> masks8;    ///< by row, where there are at most 8 offsets
  Kokkos::View<std::uint32_t*, Device> masks32;  ///< by row, where there are more
  int diagonal_bit = -1;                         ///< the bit of offset 0, or -1
  std::string why_not;                           ///< where there is no pattern, the reason

  /// Whether find_stencil_pattern found one (a pattern it made; an empty matrix has one).
  bool found() const { return why_not.empty(); }
  int count() const { return int(offsets.extent(0)); }
};

namespace stencil_detail {

inline constexpr std::int64_t empty_slot = std::numeric_limits<std::int64_t>::min();
/// Entries of the report: the first row whose columns are not strictly increasing (n where
/// none), and whether an entry found the set full.
inline constexpr int report_unsorted_row = 0;
inline constexpr int report_full = 1;

/// Adds row i's offsets to the set `slots`; a slot, once filled, never changes, so a stale read
/// of an empty slot is corrected by the compare-and-swap.
template <class Matrix, class Slots, class Report>
struct CollectOffsets {
  typename Matrix::const_type::row_map_type row_map;
  typename Matrix::const_type::index_type entries;
  Slots slots;
  Report report;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    if (report(report_full) != 0) return;
    std::int64_t previous = -1;
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const std::int64_t col = std::int64_t(entries(k));
      if (col <= previous) {
        Kokkos::atomic_fetch_min(&report(report_unsorted_row), i);
        return;
      }
      previous = col;
      const std::int64_t offset = col - i;
      int s = 0;
      for (; s < stencil_max_offsets; ++s) {
        std::int64_t seen = slots(s);
        if (seen == empty_slot)
          seen = Kokkos::atomic_compare_exchange(&slots(s), empty_slot, offset);
        if (seen == empty_slot || seen == offset) break;
      }
      if (s == stencil_max_offsets) {
        report(report_full) = 1;
        return;
      }
    }
  }
};

template <class Matrix, class Offsets, class Masks>
struct FillMasks {
  typename Matrix::const_type::row_map_type row_map;
  typename Matrix::const_type::index_type entries;
  Offsets offsets;
  Masks masks;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    typename Masks::non_const_value_type mask = 0;
    int d = 0;  // columns ascend, so each entry's diagonal lies after the one before
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const std::int64_t offset = std::int64_t(entries(k)) - i;
      while (offsets(d) != offset) ++d;
      mask |= typename Masks::non_const_value_type(1) << d;
    }
    masks(i) = mask;
  }
};

}  // namespace stencil_detail

/// The stencil pattern of A, or the reason it has none (`why_not`), on `exec`; waits for it.
template <class Exec, class Matrix>
StencilPattern<typename Matrix::device_type> find_stencil_pattern(const Exec& exec,
                                                                  const Matrix& A) {
  using namespace stencil_detail;
  using device_type = typename Matrix::device_type;
  using policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = A.numRows();
  StencilPattern<device_type> pattern;

  Kokkos::View<std::int64_t[stencil_max_offsets], device_type> slots("syncfree::stencil_slots");
  Kokkos::View<std::int64_t[2], device_type> report("syncfree::stencil_report");
  auto host_slots = Kokkos::create_mirror_view(slots);
  auto host_report = Kokkos::create_mirror_view(report);
  host_report(report_unsorted_row) = n;
  host_report(report_full) = 0;
  Kokkos::deep_copy(exec, slots, empty_slot);
  Kokkos::deep_copy(exec, report, host_report);
  Kokkos::parallel_for("syncfree::stencil_offsets", policy(exec, 0, n),
                       CollectOffsets<Matrix, decltype(slots), decltype(report)>{
                           A.graph.row_map, A.graph.entries, slots, report});
  Kokkos::deep_copy(exec, host_slots, slots);
  Kokkos::deep_copy(exec, host_report, report);
  exec.fence();
  if (host_report(report_unsorted_row) < n) {
    pattern.why_not = "row " + std::to_string(host_report(report_unsorted_row)) +
                      " has unsorted or repeated column indices";
    return pattern;
  }
  if (host_report(report_full) != 0) {
    pattern.why_not =
        "the entries lie on more than " + std::to_string(stencil_max_offsets) + " diagonals";
    return pattern;
  }

  std::vector<std::int64_t> sorted;
  for (int s = 0; s < stencil_max_offsets && host_slots(s) != empty_slot; ++s)
    sorted.push_back(host_slots(s));
  std::sort(sorted.begin(), sorted.end());
  const auto zero = std::find(sorted.begin(), sorted.end(), std::int64_t(0));
  if (zero != sorted.end()) pattern.diagonal_bit = int(zero - sorted.begin());
  pattern.offsets = Kokkos::View<std::int64_t*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::stencil_offsets"), sorted.size());
  Kokkos::deep_copy(
      exec, pattern.offsets,
      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          sorted.data(), sorted.size()));
  const auto fill = [&](auto masks) {
    Kokkos::parallel_for("syncfree::stencil_masks", policy(exec, 0, n),
                         FillMasks<Matrix, decltype(pattern.offsets), decltype(masks)>{
                             A.graph.row_map, A.graph.entries, pattern.offsets, masks});
  };
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::stencil_masks");
  if (pattern.count() <= stencil_byte_offsets) {
    pattern.masks8 = Kokkos::View<std::uint8_t*, device_type>(alloc, std::size_t(n));
    fill(pattern.masks8);
  } else {
    pattern.masks32 = Kokkos::View<std::uint32_t*, device_type>(alloc, std::size_t(n));
    fill(pattern.masks32);
  }
  exec.fence();  // `sorted` is read by the copy above
  return pattern;
}

}  // namespace syncfree::impl
