// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The locality ordering, found on the device: cells of nearby rows grown at once from
/// seeds spread over the rows (a breadth-first search from every seed together, each row joining
/// the cell of the smallest-numbered seed among its neighbours' cells), then the rows cell by
/// cell, each cell's by their distance from its seed. A randomly numbered mesh or graph gets its
/// neighbours numbered near each other, so that a product's gathers of x share cache sectors, in a
/// few passes over A where reverse Cuthill-McKee runs serially on the host.

#include <cstdint>
#include <limits>
#include <utility>

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_device_scratch.hpp"
#include "core/impl/syncfree_device_sort.hpp"
#include "core/impl/syncfree_row_lanes.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl {

/// Whether row i seeds a cell where one row in `one_in` does: a fixed hash of i, so that the
/// seeds are spread over any numbering (a random one included) and the same on every backend.
KOKKOS_INLINE_FUNCTION bool seeds_cell(std::uint64_t i, std::uint64_t one_in) {
  return ((i * 0x9E3779B97F4A7C15ull) >> 40) % one_in == 0;
}

/// Each row's cell (named by its seed row) and its distance from the seed, in steps between
/// neighbours (a row's stored entries; those of A + A^T where A is structurally symmetric).
template <class Ordinal, class Device>
struct LocalityCells {
  Kokkos::View<Ordinal*, Device> cell;
  Kokkos::View<Ordinal*, Device> distance;
  Ordinal num_cells = 0;
  Ordinal max_distance = 0;
};

/// Grows the cells: one seed in `cell_size` rows, then rounds in which every row without a cell
/// takes the least cell among its neighbours' (cells of the round before only, so the result
/// depends on nothing but A). Rows that no seed reaches (a component without one) get seeds of
/// their own, four times as many each time, until every row has a cell. The arrays come from
/// `scratch`; a vector of lanes reads each row.
template <class ExecSpace, class Matrix>
LocalityCells<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
grow_locality_cells(const ExecSpace& exec, DeviceScratch<ExecSpace>& scratch, const Matrix& A,
                    int cell_size) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  using view_type = Kokkos::View<ordinal_type*, device_type>;
  using Policy = Kokkos::RangePolicy<ExecSpace>;
  using Teams = RowTeams<ExecSpace>;
  const ordinal_type n = A.numRows();
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const Teams teams(n > 0 ? double(A.nnz()) / double(n) : 0.0);
  LocalityCells<ordinal_type, device_type> cells;
  view_type cell = scratch.template uninitialized<ordinal_type, device_type>("cell", n);
  view_type next = scratch.template uninitialized<ordinal_type, device_type>("next", n);
  cells.distance = scratch.template uninitialized<ordinal_type, device_type>("distance", n);
  const auto distance = cells.distance;

  std::uint64_t one_in = std::uint64_t(cell_size);
  ordinal_type round = 0;
  const auto seed = [&](bool first) {
    ordinal_type seeded = 0;
    Kokkos::parallel_reduce(
        "syncfree::locality::seed", Policy(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& count) {
          if (!first && cell(i) >= 0) return;
          const bool seeds = seeds_cell(std::uint64_t(i), one_in);
          cell(i) = seeds ? i : ordinal_type(-1);
          if (!seeds) return;
          distance(i) = round;
          ++count;
        },
        seeded);
    return seeded;
  };
  ordinal_type placed = n > 0 ? seed(true) : 0;
  while (placed < n) {
    ++round;
    const view_type from = cell, to = next;
    Kokkos::parallel_for(
        "syncfree::locality::grow", teams.policy(exec, n),
        KOKKOS_LAMBDA(const typename Teams::member_type& member) {
          const ordinal_type i = ordinal_type(teams.row(member));
          if (i >= n) return;
          ordinal_type c = from(i);
          if (c < 0) {
            const offset_type begin = row_map(i);
            ordinal_type least = n;  // n: no neighbour has a cell
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(member, row_map(i + 1) - begin),
                [&](const offset_type t, ordinal_type& l) {
                  const ordinal_type d = from(entries(begin + t));
                  if (d >= 0 && d < l) l = d;
                },
                Kokkos::Min<ordinal_type>(least));
            c = least < n ? least : ordinal_type(-1);
          }
          Kokkos::single(Kokkos::PerThread(member), [&]() {
            to(i) = c;
            if (c >= 0 && from(i) < 0) distance(i) = round;
          });
        });
    ordinal_type grown = 0;
    Kokkos::parallel_reduce(
        "syncfree::locality::grown", Policy(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& count) {
          count += from(i) < 0 && to(i) >= 0 ? 1 : 0;
        },
        grown);
    std::swap(cell, next);
    placed += grown;
    if (grown == 0 && placed < n) {
      one_in = one_in > 4 ? one_in / 4 : 1;
      placed += seed(false);
    }
  }
  cells.cell = cell;
  cells.max_distance = round;
  ordinal_type num_cells = 0;
  Kokkos::parallel_reduce(
      "syncfree::locality::cells", Policy(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& count) { count += cell(i) == i ? 1 : 0; },
      num_cells);
  cells.num_cells = num_cells;
  return cells;
}

/// The rows ordered by (cell, distance from its seed, row), cells in the order of their seeds:
/// perm(new) = old. Sorted on the device as 64-bit keys, so every backend gives the same order.
template <class ExecSpace, class Ordinal, class Device>
Kokkos::View<Ordinal*, Device> order_by_cells(const ExecSpace& exec,
                                              DeviceScratch<ExecSpace>& scratch,
                                              const LocalityCells<Ordinal, Device>& cells) {
  using Policy = Kokkos::RangePolicy<ExecSpace>;
  const Ordinal n = Ordinal(cells.cell.extent(0));
  const auto cell = cells.cell;
  const auto distance = cells.distance;
  // The rank of each seed among the seeds, by a scan, at the seed's own row.
  const auto rank = scratch.template uninitialized<Ordinal, Device>("rank", n);
  Kokkos::parallel_scan(
      "syncfree::locality::rank", Policy(exec, 0, n),
      KOKKOS_LAMBDA(const Ordinal i, Ordinal& seeds, const bool final) {
        if (cell(i) != i) return;
        if (final) rank(i) = seeds;
        ++seeds;
      });
  const std::int64_t groups =
      std::int64_t(cells.num_cells) * (std::int64_t(cells.max_distance) + 1);
  SYNCFREE_REQUIRE(n == 0 || groups <= std::numeric_limits<std::int64_t>::max() / n, NotSupported,
                   "locality ordering: ", cells.num_cells, " cells of up to ", cells.max_distance,
                   " steps from their seeds in ", n, " rows overflow its 64-bit sort keys");
  const std::int64_t span = std::int64_t(cells.max_distance) + 1;
  const auto keys = scratch.template uninitialized<std::int64_t, Device>("keys", n);
  Kokkos::parallel_for(
      "syncfree::locality::keys", Policy(exec, 0, n), KOKKOS_LAMBDA(const Ordinal i) {
        keys(i) = (std::int64_t(rank(cell(i))) * span + distance(i)) * n + i;
      });
  sort_keys(exec, keys, n == 0 ? std::int64_t(0) : groups * n - 1);
  Kokkos::View<Ordinal*, Device> perm(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::locality::permutation"), n);
  Kokkos::parallel_for(
      "syncfree::locality::permutation", Policy(exec, 0, n),
      KOKKOS_LAMBDA(const Ordinal k) { perm(k) = Ordinal(keys(k) % n); });
  return perm;
}

/// The entries (i, j) of A for which `counted(i, j)` holds; a vector of lanes reads each row.
template <class ExecSpace, class Matrix, class Counted>
std::int64_t count_entries(const ExecSpace& exec, const Matrix& A, const Counted& counted) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using Teams = RowTeams<ExecSpace>;
  const ordinal_type n = A.numRows();
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const Teams teams(n > 0 ? double(A.nnz()) / double(n) : 0.0);
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "syncfree::locality::count_entries", teams.policy(exec, n),
      KOKKOS_LAMBDA(const typename Teams::member_type& member, std::int64_t& sum) {
        const ordinal_type i = ordinal_type(teams.row(member));
        if (i >= n) return;
        const offset_type begin = row_map(i);
        std::int64_t in_row = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, row_map(i + 1) - begin),
            [&](const offset_type t, std::int64_t& c) { c += counted(i, entries(begin + t)); },
            in_row);
        Kokkos::single(Kokkos::PerThread(member), [&]() { sum += in_row; });
      },
      count);
  return count;
}

/// The share of A's off-diagonal entries (1 where there are none) whose row and column lie within
/// `reach` of each other once row i is numbered `position(i)`.
template <class ExecSpace, class Matrix, class Position>
double near_entry_share(const ExecSpace& exec, const Matrix& A, const Position& position,
                        long reach) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const std::int64_t off_diagonal = count_entries(
      exec, A, KOKKOS_LAMBDA(const ordinal_type i, const ordinal_type j) { return i != j; });
  const std::int64_t near = count_entries(
      exec, A, KOKKOS_LAMBDA(const ordinal_type i, const ordinal_type j) {
        const long d = long(position(j)) - long(position(i));
        return i != j && d <= reach && -d <= reach;
      });
  return off_diagonal > 0 ? double(near) / double(off_diagonal) : 1.0;
}

}  // namespace syncfree::impl
