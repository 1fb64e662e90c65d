// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The structured grid SIP works on: recognizing it from a matrix (the offsets of its
/// entries from the diagonal: 1, nx and nx ny), checking that every entry couples grid
/// neighbours, and the hyperplane order of its points. Point p = (k ny + j) nx + i, i fastest.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/syncfree_error.hpp"

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

/// The grid whose 5- or 7-point couplings A's pattern has, from the distinct offsets j - i of its
/// entries; an empty grid and the reason when they are not {0, +-1, +-nx[, +-nx ny]}.
template <class RowMap, class Entries>
SipGrid recognize_sip_grid(const RowMap& row_map, const Entries& entries, std::int64_t n,
                           std::string& reason) {
  std::vector<std::int64_t> d;  // the distinct |j - i| > 0, a handful at most
  for (std::int64_t i = 0; i < n && d.size() <= 4; ++i)
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const std::int64_t distance = std::abs(std::int64_t(entries(k)) - i);
      if (distance > 0 && std::find(d.begin(), d.end(), distance) == d.end()) d.push_back(distance);
    }
  std::sort(d.begin(), d.end());
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

/// The first entry of A that does not couple a point with itself or a grid neighbour (an offset
/// of +-1 that wraps around a line, a stride that leaves the grid), as "row r, column c", or ""
/// when there is none.
template <class RowMap, class Entries>
std::string sip_non_neighbour(const RowMap& row_map, const Entries& entries, const SipGrid& g) {
  const std::int64_t plane = g.nx * g.ny;
  for (std::int64_t p = 0; p < g.points(); ++p) {
    const std::int64_t i = p % g.nx, j = (p / g.nx) % g.ny, k = p / plane;
    for (auto e = row_map(p); e < row_map(p + 1); ++e) {
      const std::int64_t q = entries(e), d = q - p;
      const bool ok =
          d == 0 || (d == -1 && i > 0) || (d == 1 && i + 1 < g.nx) ||
          (d == -g.nx && g.ny > 1 && j > 0) || (d == g.nx && g.ny > 1 && j + 1 < g.ny) ||
          (d == -plane && g.nz > 1 && k > 0) || (d == plane && g.nz > 1 && k + 1 < g.nz);
      if (!ok) return concat("row ", p, ", column ", q);
    }
  }
  return "";
}

/// The points in hyperplane order (i + j + k ascending; inside a plane k, then j ascending), and
/// where each plane starts.
inline void sip_hyperplanes(const SipGrid& g, std::vector<std::int64_t>& order,
                            std::vector<std::int64_t>& plane_begin) {
  order.clear();
  order.reserve(std::size_t(g.points()));
  plane_begin.assign(1, 0);
  for (std::int64_t level = 0; level < g.levels(); ++level) {
    for (std::int64_t k = std::max<std::int64_t>(0, level - (g.nx - 1) - (g.ny - 1));
         k < g.nz && k <= level; ++k)
      for (std::int64_t j = std::max<std::int64_t>(0, level - k - (g.nx - 1));
           j < g.ny && j <= level - k; ++j)
        order.push_back((k * g.ny + j) * g.nx + (level - k - j));
    plane_begin.push_back(std::int64_t(order.size()));
  }
}

}  // namespace impl
}  // namespace syncfree
