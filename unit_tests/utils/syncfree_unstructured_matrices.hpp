// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Small unstructured test matrices, made on the host with fixed seeds: a random geometric
/// graph's Laplacian (a mesh-like SPD matrix), the same randomly renumbered, a nonsymmetric
/// convection-like perturbation of it, and a power-law matrix with a few rows and columns of
/// thousands of entries, and one with a dense last row and column.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {

inline void sort_triplets(std::vector<Triplet>& t) {
  std::sort(t.begin(), t.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
}

/// Laplacian of the graph joining random points of the unit square closer than `radius`, plus
/// `shift` on the diagonal (SPD for shift > 0). Rows in the order of a coarse spatial sort, as a
/// mesher numbers nodes; sorted by row and column. `skew` adds a nonsymmetric part: a_ij += skew * (x_j - x_i) sign.
inline std::vector<Triplet> geometric_triplets(int n, double radius, unsigned seed, double shift,
                                               double skew = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<std::pair<double, double>> points(static_cast<std::size_t>(n));
  for (auto& p : points) p = {uniform(rng), uniform(rng)};
  // Coarse spatial order: cells of the radius, row by row.
  const int cells = std::max(1, int(1 / radius));
  auto cell = [&](const std::pair<double, double>& p) {
    return std::min(cells - 1, int(p.second * cells)) * cells +
           std::min(cells - 1, int(p.first * cells));
  };
  std::stable_sort(points.begin(), points.end(),
                   [&](const auto& a, const auto& b) { return cell(a) < cell(b); });
  std::vector<std::vector<int>> bucket(std::size_t(cells) * cells);
  for (int i = 0; i < n; ++i) bucket[std::size_t(cell(points[std::size_t(i)]))].push_back(i);
  std::vector<Triplet> t;
  std::vector<double> degree(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    const auto [xi, yi] = points[std::size_t(i)];
    const int ci = cell(points[std::size_t(i)]), cx = ci % cells, cy = ci / cells;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = cx + dx, y = cy + dy;
        if (x < 0 || y < 0 || x >= cells || y >= cells) continue;
        for (int j : bucket[std::size_t(y * cells + x)]) {
          const auto [xj, yj] = points[std::size_t(j)];
          if (j == i || std::hypot(xi - xj, yi - yj) >= radius) continue;
          t.push_back({i, j, -1.0 + skew * (xj > xi ? 1 : -1)});
          degree[std::size_t(i)] += 1;
        }
      }
  }
  for (int i = 0; i < n; ++i) t.push_back({i, i, degree[std::size_t(i)] + shift});
  sort_triplets(t);
  return t;
}

inline TestMatrix<> geometric_laplacian(int n, unsigned seed = 7) {
  return matrix_from_triplets(n, n, geometric_triplets(n, 2.2 / std::sqrt(double(n)), seed, 0.05));
}

inline TestMatrix<> geometric_convection(int n, unsigned seed = 11) {
  return matrix_from_triplets(n, n,
                              geometric_triplets(n, 2.2 / std::sqrt(double(n)), seed, 1.0, 0.3));
}

/// A random symmetric permutation of the triplets' rows and columns, sorted by row and column.
inline std::vector<Triplet> renumbered(std::vector<Triplet> t, int n, unsigned seed) {
  std::vector<int> label(static_cast<std::size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), std::mt19937(seed));
  for (auto& e : t) {
    e.row = label[std::size_t(e.row)];
    e.col = label[std::size_t(e.col)];
  }
  sort_triplets(t);
  return t;
}

/// One backward-Euler step of -eps Lap u + w . grad u on the interior of an m x m grid of the unit
/// square, 5 points with first-order upwinding, the recirculating "double-glazing" wind
/// w = (2y(1-x^2), -2x(1-y^2)) on [-1,1]^2, cell Peclet number 4 and CFL 10, scaled by h^2/eps:
/// the suite's `grid2d_convdiff_random` (perf_tests/suite), rows renumbered at random by `seed`.
/// Nonsymmetric, diagonally dominant; BiCGStab's residual on it is erratic.
inline TestMatrix<> double_glazing_convdiff(int m, unsigned seed) {
  const double h = 1.0 / (m + 1), cell_peclet = 4, cfl = 10;
  auto node = [m](int i, int j) { return i * m + j; };
  std::vector<Triplet> t;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double x = 2 * (i + 1) * h - 1, y = 2 * (j + 1) * h - 1;
      // the wind in cell Peclet numbers: w h / eps with eps = 2 h / cell_peclet
      const double w[2] = {y * (1 - x * x) * cell_peclet, -x * (1 - y * y) * cell_peclet};
      t.push_back({node(i, j), node(i, j),
                   4 + cell_peclet / cfl + std::abs(w[0]) + std::abs(w[1])});
      // the neighbour the wind blows from gets the upwind part
      if (i > 0) t.push_back({node(i, j), node(i - 1, j), -1 - std::max(w[0], 0.0)});
      if (i < m - 1) t.push_back({node(i, j), node(i + 1, j), -1 - std::max(-w[0], 0.0)});
      if (j > 0) t.push_back({node(i, j), node(i, j - 1), -1 - std::max(w[1], 0.0)});
      if (j < m - 1) t.push_back({node(i, j), node(i, j + 1), -1 - std::max(-w[1], 0.0)});
    }
  return matrix_from_triplets(m * m, m * m, renumbered(std::move(t), m * m, seed));
}

/// Rows 0..hubs-1 and columns 0..hubs-1 coupled to every `stride`-th row (rows of n / stride
/// entries); the other rows a short random pattern. Nonsymmetric, strictly diagonally dominant.
inline std::vector<Triplet> power_law_triplets(int n, int hubs, int stride, unsigned seed = 5) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> column(0, n - 1);
  std::uniform_real_distribution<double> value(0.1, 1.0);
  std::vector<std::vector<std::pair<int, double>>> rows(static_cast<std::size_t>(n));
  auto add = [&](int i, int j, double v) {
    if (i != j) rows[std::size_t(i)].push_back({j, v});
  };
  for (int h = 0; h < hubs; ++h)
    for (int j = h + 1; j < n; j += stride) {
      add(h, j, -value(rng));
      add(j, h, -value(rng));
    }
  for (int i = hubs; i < n; ++i)
    for (int k = 0; k < 3; ++k) add(i, column(rng), -value(rng));
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    auto& r = rows[std::size_t(i)];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end(),
                        [](const auto& a, const auto& b) { return a.first == b.first; }),
            r.end());
    double sum = 0;
    for (const auto& [j, v] : r) {
      t.push_back({i, j, v});
      sum += std::abs(v);
    }
    t.push_back({i, i, 1.0 + sum});
  }
  sort_triplets(t);
  return t;
}

inline TestMatrix<> power_law_matrix(int n, int hubs, int stride, unsigned seed = 5) {
  return matrix_from_triplets(n, n, power_law_triplets(n, hubs, stride, seed));
}

/// Tridiagonal with a dense last row and column (an "arrow"): rows and columns of n entries.
/// Nonsymmetric, strictly diagonally dominant.
inline TestMatrix<> dense_last_row_and_column(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n - 1; ++i) {
    if (i > 0) t.push_back({i, i - 1, -1.0});
    t.push_back({i, i, 4.0});
    if (i + 1 < n - 1) t.push_back({i, i + 1, -1.5});
    t.push_back({i, n - 1, -0.5});
  }
  for (int j = 0; j < n - 1; ++j) t.push_back({n - 1, j, -1.0 / n});
  t.push_back({n - 1, n - 1, 2.0 + 0.5 * (n - 1)});
  return matrix_from_triplets(n, n, t);
}

struct NamedUnstructured {
  std::string name;
  TestMatrix<> A;
  bool symmetric;
};

/// The unstructured matrices of the ordering and ordered-ILU tests.
inline std::vector<NamedUnstructured> unstructured_test_matrices() {
  const int n = 3000;
  const double radius = 2.2 / std::sqrt(double(n));
  return {
      {"geometric", geometric_laplacian(n), true},
      {"geometric_renumbered",
       matrix_from_triplets(n, n, renumbered(geometric_triplets(n, radius, 7, 0.05), n, 3)), true},
      {"convection", geometric_convection(n), false},
      {"convection_renumbered",
       matrix_from_triplets(n, n, renumbered(geometric_triplets(n, radius, 11, 1.0, 0.3), n, 4)),
       false},
      {"power_law", power_law_matrix(n, 3, 1), false},
      {"dense_last_row_and_column", dense_last_row_and_column(5001), false},
  };
}

}  // namespace syncfree::test
