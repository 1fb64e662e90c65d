// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Device kernels of the problem generators (`core/syncfree_problems.hpp`).
///
/// A matrix is built in three passes over the rows: count the entries of each row into row_map,
/// turn the counts into offsets with an exclusive `parallel_scan`, then fill columns and values.
/// Both passes call the same `visit<fill>` so the count and the fill cannot disagree. Rows are
/// produced in ascending column order, so no sort is needed.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace syncfree::impl {

struct CountTag {};
struct FillTag {};

/// Coefficients of a 5-, 7- or 27-point stencil. Axis neighbors in direction a (0: x, 1: y, 2: z)
/// get lower[a] at offset -1 and upper[a] at offset +1; the 20 non-axis neighbors of the 27-point
/// stencil (`full`) get `corner`.
struct StencilWeights {
  int dim = 2;
  bool full = false;
  double diag = 0;
  double lower[3] = {0, 0, 0};
  double upper[3] = {0, 0, 0};
  double corner = 0;
};

/// Rows of a stencil on an n x n (x n) grid, row-major with x fastest, Dirichlet boundaries.
template <class RowMap, class Entries, class Values>
struct StencilRows {
  using offset_type = typename RowMap::non_const_value_type;
  using ordinal_type = typename Entries::non_const_value_type;
  using scalar_type = typename Values::non_const_value_type;

  std::int64_t n;
  StencilWeights w;
  RowMap row_map;
  Entries entries;
  Values values;

  KOKKOS_INLINE_FUNCTION double weight(int dx, int dy, int dz) const {
    const int offsets = (dx != 0) + (dy != 0) + (dz != 0);
    if (offsets == 0) return w.diag;
    if (offsets > 1) return w.corner;
    const int axis = dx != 0 ? 0 : (dy != 0 ? 1 : 2);
    return dx + dy + dz < 0 ? w.lower[axis] : w.upper[axis];
  }

  /// Counts (fill = false) or writes (fill = true) the entries of row i; returns the count.
  /// Offsets are visited in (dz, dy, dx) lexicographic order, which for in-grid neighbors is
  /// ascending column order.
  template <bool fill>
  KOKKOS_INLINE_FUNCTION offset_type visit(std::int64_t i) const {
    const std::int64_t x = i % n;
    const std::int64_t y = (i / n) % n;
    const std::int64_t z = i / (n * n);  // 0 in 2D
    const int zr = w.dim == 3 ? 1 : 0;
    offset_type k = 0;
    offset_type start = 0;
    if constexpr (fill) start = row_map(i);
    for (int dz = -zr; dz <= zr; ++dz) {
      if (z + dz < 0 || z + dz >= n) continue;
      for (int dy = -1; dy <= 1; ++dy) {
        if (y + dy < 0 || y + dy >= n) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          if (x + dx < 0 || x + dx >= n) continue;
          if (!w.full && (dx != 0) + (dy != 0) + (dz != 0) > 1) continue;
          if constexpr (fill) {
            entries(start + k) =
                static_cast<ordinal_type>((x + dx) + n * ((y + dy) + n * (z + dz)));
            values(start + k) = static_cast<scalar_type>(weight(dx, dy, dz));
          }
          ++k;
        }
      }
    }
    return k;
  }

  KOKKOS_INLINE_FUNCTION void operator()(CountTag, std::int64_t i) const {
    if (i == 0) row_map(row_map.extent(0) - 1) = 0;
    row_map(i) = visit<false>(i);
  }
  KOKKOS_INLINE_FUNCTION void operator()(FillTag, std::int64_t i) const { visit<true>(i); }
};

/// SplitMix64 finalizer (Steele, Lea, Flood, OOPSLA 2014): a bijective 64-bit mix, used as a
/// counter-based generator so every (seed, row, k) gets its own number in any order.
KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Uniform in [0, 1) from the high 53 bits of a hash.
KOKKOS_INLINE_FUNCTION double unit_interval(std::uint64_t h) {
  return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

/// Rows of the random banded matrix; see `core/syncfree_problems.hpp`.
template <class RowMap, class Entries, class Values>
struct BandedRows {
  using offset_type = typename RowMap::non_const_value_type;
  using ordinal_type = typename Entries::non_const_value_type;
  using scalar_type = typename Values::non_const_value_type;

  std::int64_t n;
  std::int64_t bandwidth;
  int m;
  std::uint64_t seed;
  RowMap row_map;
  Entries entries;
  Values values;

  KOKKOS_INLINE_FUNCTION std::int64_t lower_width(std::int64_t i) const {
    return i < bandwidth ? i : bandwidth;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t upper_width(std::int64_t i) const {
    return n - 1 - i < bandwidth ? n - 1 - i : bandwidth;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t off_diagonals(std::int64_t i) const {
    const std::int64_t width = lower_width(i) + upper_width(i);
    return m < width ? m : width;
  }

  KOKKOS_INLINE_FUNCTION void operator()(CountTag, std::int64_t i) const {
    if (i == 0) row_map(row_map.extent(0) - 1) = 0;
    row_map(i) = static_cast<offset_type>(1 + off_diagonals(i));
  }

  // The band's off-diagonal columns, listed in order, are positions 0 .. width-1; they are split
  // into c nearly equal strata (the first `width % c` one longer) and one position is drawn from
  // each, so the chosen columns are ascending. The diagonal slot is kept open until the first
  // column right of i (or the end), and filled last, when the row sum is known.
  KOKKOS_INLINE_FUNCTION void operator()(FillTag, std::int64_t i) const {
    const std::int64_t left = lower_width(i);
    const std::int64_t width = left + upper_width(i);
    const std::int64_t c = off_diagonals(i);
    const std::uint64_t row_key = splitmix64(seed + splitmix64(static_cast<std::uint64_t>(i)));
    offset_type k = row_map(i);
    offset_type diag_slot = 0;
    bool diag_placed = false;
    double magnitude_sum = 0;
    for (std::int64_t s = 0; s < c; ++s) {
      const std::int64_t q = width / c, r = width % c;
      const std::int64_t first = s * q + (s < r ? s : r);
      const std::int64_t size = q + (s < r ? 1 : 0);
      const std::uint64_t h_pos = splitmix64(row_key + 2 * static_cast<std::uint64_t>(s));
      const std::uint64_t h_val = splitmix64(row_key + 2 * static_cast<std::uint64_t>(s) + 1);
      const std::int64_t p = first + static_cast<std::int64_t>(h_pos % std::uint64_t(size));
      const std::int64_t col = p < left ? i - left + p : i + 1 + (p - left);
      if (col > i && !diag_placed) {
        diag_slot = k++;
        diag_placed = true;
      }
      const double value = -1.0 + unit_interval(h_val);
      magnitude_sum += -value;
      entries(k) = static_cast<ordinal_type>(col);
      values(k) = static_cast<scalar_type>(value);
      ++k;
    }
    if (!diag_placed) diag_slot = k;
    entries(diag_slot) = static_cast<ordinal_type>(i);
    values(diag_slot) = static_cast<scalar_type>(1.0 + magnitude_sum);
  }
};

/// Exclusive prefix sum of row counts (in row_map(0 .. n-1), row_map(n) == 0) into offsets.
template <class RowMap>
struct RowOffsetScan {
  using value_type = typename RowMap::non_const_value_type;
  RowMap row_map;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& update, bool final) const {
    const value_type count = row_map(i);
    if (final) row_map(i) = update;
    update += count;
  }
};

/// Count, scan and fill for `Rows` (StencilRows or BandedRows), enqueued on `exec`.
template <class ExecSpace, class Rows>
void build_rows(const ExecSpace& exec, const std::string& name, std::int64_t nrows,
                const Rows& rows) {
  using Index = Kokkos::IndexType<std::int64_t>;
  const std::string prefix = "syncfree::problems::" + name;
  Kokkos::parallel_for(prefix + "_count",
                       Kokkos::RangePolicy<ExecSpace, CountTag, Index>(exec, 0, nrows), rows);
  Kokkos::parallel_scan("syncfree::problems::row_offsets",
                        Kokkos::RangePolicy<ExecSpace, Index>(exec, 0, nrows + 1),
                        RowOffsetScan<decltype(rows.row_map)>{rows.row_map});
  Kokkos::parallel_for(prefix + "_fill",
                       Kokkos::RangePolicy<ExecSpace, FillTag, Index>(exec, 0, nrows), rows);
}

/// x_i = 1 + 8 t^2 (1 - t)^2 with t = (i mod 1024) / 1024: smooth (C^1 across periods), in
/// [1, 1.5], computed with plain arithmetic so it is identical on every backend.
template <class View>
struct SmoothVector {
  View x;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const double t = static_cast<double>(i % 1024) / 1024.0;
    x(i) =
        static_cast<typename View::non_const_value_type>(1.0 + 8.0 * t * t * (1.0 - t) * (1.0 - t));
  }
};

}  // namespace syncfree::impl
