// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The structured grid SIP works on, all found on the device: recognizing it from a matrix
/// (the offsets of its entries from the diagonal: 1, nx and nx ny), checking that every entry
/// couples grid neighbours, and the hyperplane order of its points. Point p = (k ny + j) nx + i,
/// i fastest.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/syncfree_error.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree {

/// nx x ny x nz points, i fastest; nz = 1 for a 2-D grid.
struct SipGrid {
  std::int64_t nx = 0, ny = 0, nz = 0;
  std::int64_t points() const { return nx * ny * nz; }
  bool empty() const { return points() == 0; }
  /// Hyperplanes i + j + k = const: the levels of the sweeps.
  std::int64_t levels() const { return empty() ? 0 : nx + ny + nz - 2; }
};

namespace impl {

/// A point's place in the grid: which neighbours exist.
struct SipPoint {
  std::int64_t p;
  bool x, y, z, X, Y, Z;  ///< lower (x, y, z) and upper (X, Y, Z) neighbours in the grid
};

/// The grid's strides, and the point p's neighbours.
struct SipStrides {
  std::int64_t nx, ny, nz, plane;
  KOKKOS_FORCEINLINE_FUNCTION SipPoint at(std::int64_t p) const {
    const std::int64_t i = p % nx, j = (p / nx) % ny, k = p / plane;
    return {p, i > 0, j > 0, k > 0, i + 1 < nx, j + 1 < ny, k + 1 < nz};
  }
};

inline SipStrides sip_strides(const SipGrid& g) { return {g.nx, g.ny, g.nz, g.nx * g.ny}; }

/// The smallest |j - i| of A's entries (i, j) above `above`, or -1 where none is.
template <class ExecSpace, class Matrix>
std::int64_t smallest_distance_above(const ExecSpace& exec, const Matrix& A, std::int64_t above) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  std::int64_t smallest = 0;
  Kokkos::parallel_reduce(
      "syncfree::sip::distances", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& least) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const std::int64_t d = std::int64_t(entries(k)) - i;
          const std::int64_t distance = d < 0 ? -d : d;
          if (distance > above && distance < least) least = distance;
        }
      },
      Kokkos::Min<std::int64_t>(smallest));
  return smallest == Kokkos::reduction_identity<std::int64_t>::min() ? -1 : smallest;
}

/// The grid whose 5- or 7-point couplings A's pattern has, from the distinct offsets j - i of its
/// entries (the smallest five, one reduction on the device each); an empty grid and the reason
/// when they are not {0, +-1, +-nx[, +-nx ny]}.
template <class ExecSpace, class Matrix>
SipGrid recognize_sip_grid(const ExecSpace& exec, const Matrix& A, std::string& reason) {
  const std::int64_t n = A.numRows();
  std::vector<std::int64_t> d;  // the smallest distinct |j - i| > 0, up to five
  for (std::int64_t above = 0; d.size() < 5;) {
    above = smallest_distance_above(exec, A, above);
    if (above < 0) break;
    d.push_back(above);
  }
  if (d.size() > 3 || (!d.empty() && d[0] != 1)) {
    std::string list;
    for (std::size_t m = 0; m < d.size() && m < 4; ++m)
      list += (m ? ", " : "") + std::to_string(d[m]);
    reason = concat("its entries lie at distances ", list, d.size() > 4 ? ", ..." : "",
                    " from the diagonal; a 5- or 7-point grid matrix has 1, nx and nx*ny");
    return {};
  }
  if (d.size() <= 1) return {n, 1, 1};  // a line of points
  const std::int64_t nx = d[1];
  if (d.size() == 2) {
    if (n % nx != 0) {
      reason = concat("offsets 1 and ", nx, " suggest a grid nx = ", nx, ", but ", n,
                      " rows are not a multiple of it");
      return {};
    }
    return {nx, n / nx, 1};
  }
  const std::int64_t plane = d[2];
  if (plane % nx != 0 || n % plane != 0) {
    reason = concat("offsets 1, ", nx, " and ", plane, " are not those of an nx x ny x nz grid of ",
                    n, " points");
    return {};
  }
  return {nx, plane / nx, n / plane};
}

/// Whether an entry of point p's row at column q couples p with itself or a grid neighbour (not
/// an offset of +-1 that wraps around a line, nor a stride that leaves the grid).
KOKKOS_INLINE_FUNCTION bool sip_couples_neighbours(const SipStrides& g, std::int64_t p,
                                                   std::int64_t q) {
  const SipPoint s = g.at(p);
  const std::int64_t d = q - p;
  return d == 0 || (d == -1 && s.x) || (d == 1 && s.X) || (d == -g.nx && s.y) ||
         (d == g.nx && s.Y) || (d == -g.plane && s.z) || (d == g.plane && s.Z);
}

/// The first entry of A that does not couple grid neighbours (sip_couples_neighbours), as
/// "row r, column c", or "" when there is none. The row is found on the device, the column in a
/// copy of that row.
template <class ExecSpace, class Matrix>
std::string sip_non_neighbour(const ExecSpace& exec, const Matrix& A, const SipStrides& g) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  std::int64_t first = 0;
  Kokkos::parallel_reduce(
      "syncfree::sip::non_neighbours", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type p, std::int64_t& least) {
        for (auto e = row_map(p); e < row_map(p + 1); ++e)
          if (!sip_couples_neighbours(g, p, entries(e)) && p < least) least = p;
      },
      Kokkos::Min<std::int64_t>(first));
  if (first == Kokkos::reduction_identity<std::int64_t>::min()) return "";
  const auto bounds = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(row_map, std::make_pair(first, first + 2)));
  const auto row = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(),
      Kokkos::subview(entries, std::make_pair(std::int64_t(bounds(0)), std::int64_t(bounds(1)))));
  for (std::size_t e = 0; e < row.extent(0); ++e)
    if (!sip_couples_neighbours(g, first, row(e)))
      return concat("row ", first, ", column ", row(e));
  return "";
}

/// The points in hyperplane order (i + j + k ascending; inside a plane k, then j ascending, which
/// is ascending point number) and where each plane starts: the level sets of i + j + k.
template <class ExecSpace, class Device>
LevelSets<std::int64_t, Device> sip_hyperplanes(const ExecSpace& exec, const SipStrides& g) {
  Kokkos::View<std::int64_t*, Device> plane(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sip::plane"),
      std::size_t(g.nx * g.ny * g.nz));
  Kokkos::parallel_for(
      "syncfree::sip::planes", Kokkos::RangePolicy<ExecSpace>(exec, 0, plane.extent(0)),
      KOKKOS_LAMBDA(const std::size_t p) {
        const std::int64_t q = std::int64_t(p);
        plane(p) = q % g.nx + (q / g.nx) % g.ny + q / g.plane;
      });
  return level_sets_from_levels(exec, plane);
}

}  // namespace impl
}  // namespace syncfree
