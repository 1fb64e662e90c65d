// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial multicolor DILU on the host: the oracle of the DILU tests. Plain loops over a
/// host copy of the matrix, colors from the textbook greedy coloring, and AmgX's formulas written
/// row by row in color order (they share no code with the library's rules).

#include <algorithm>
#include <set>
#include <vector>

#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test::dilu_reference {

using vec = std::vector<double>;

struct Rows {
  std::vector<std::vector<int>> columns;
  std::vector<std::vector<double>> values;
  double at(int i, int j) const {
    const auto& c = columns[std::size_t(i)];
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] == j) return values[std::size_t(i)][k];
    return 0;
  }
  std::size_t size() const { return columns.size(); }
};

template <class Matrix>
Rows rows_of(const Matrix& A) {
  const auto h = to_host(A);
  Rows r;
  r.columns.resize(std::size_t(h.numRows()));
  r.values.resize(std::size_t(h.numRows()));
  for (int i = 0; i < int(h.numRows()); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k) {
      r.columns[std::size_t(i)].push_back(int(h.graph.entries(k)));
      r.values[std::size_t(i)].push_back(double(h.values(k)));
    }
  return r;
}

/// Greedy first fit in row order on the graph of A + A^T: each row takes the least color not
/// held by an earlier row within `distance` steps.
inline std::vector<int> greedy_colors(const Rows& A, int distance) {
  const std::size_t n = A.size();
  std::vector<std::set<int>> adjacent(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int j : A.columns[i])
      if (std::size_t(j) != i) adjacent[i].insert(j), adjacent[std::size_t(j)].insert(int(i));
  std::vector<int> color(n, -1);
  std::vector<std::size_t> used_by(n + 1, n);  // used_by[c] == v: color c is near row v
  const auto use = [&](std::size_t v, int u) {
    if (std::size_t(u) < v) used_by[std::size_t(color[std::size_t(u)])] = v;
  };
  for (std::size_t v = 0; v < n; ++v) {
    for (int u : adjacent[v]) {
      use(v, u);
      if (distance == 2)
        for (int w : adjacent[std::size_t(u)]) use(v, w);
    }
    int c = 0;
    while (used_by[std::size_t(c)] == v) ++c;
    color[v] = c;
  }
  return color;
}

/// The rows in ascending color, each color in row order.
inline std::vector<int> color_order(const std::vector<int>& color) {
  std::vector<int> order(color.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return color[std::size_t(a)] < color[std::size_t(b)]; });
  return order;
}

/// E_i = 1 / (a_ii - sum over c(j) < c(i) of a_ij E_j a_ji).
inline vec inverse_diagonal(const Rows& A, const std::vector<int>& color) {
  vec E(A.size(), 0.0);
  for (int i : color_order(color)) {
    double pivot = A.at(i, i);
    const auto& c = A.columns[std::size_t(i)];
    for (std::size_t k = 0; k < c.size(); ++k)
      if (color[std::size_t(c[k])] < color[std::size_t(i)])
        pivot -= A.values[std::size_t(i)][k] * E[std::size_t(c[k])] * A.at(c[k], i);
    E[std::size_t(i)] = 1.0 / pivot;
  }
  return E;
}

/// One step x += omega M^{-1} (b - A x), M = (D + L) D^{-1} (D + U) by color.
inline void smooth(const Rows& A, const std::vector<int>& color, const vec& E, const vec& b, vec& x,
                   double omega) {
  const std::vector<int> order = color_order(color);
  vec delta(A.size(), 0.0), Delta(A.size(), 0.0);
  for (int i : order) {
    double r = b[std::size_t(i)];
    const auto& c = A.columns[std::size_t(i)];
    for (std::size_t k = 0; k < c.size(); ++k) {
      const std::size_t j = std::size_t(c[k]);
      r -= A.values[std::size_t(i)][k] *
           (x[j] + (color[j] < color[std::size_t(i)] ? delta[j] : 0.0));
    }
    delta[std::size_t(i)] = E[std::size_t(i)] * r;
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int i = *it;
    double s = 0;
    const auto& c = A.columns[std::size_t(i)];
    for (std::size_t k = 0; k < c.size(); ++k)
      if (color[std::size_t(c[k])] > color[std::size_t(i)])
        s += A.values[std::size_t(i)][k] * Delta[std::size_t(c[k])];
    Delta[std::size_t(i)] = delta[std::size_t(i)] - E[std::size_t(i)] * s;
  }
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += omega * Delta[i];
}

/// omega M^{-1} r.
inline vec apply(const Rows& A, const std::vector<int>& color, const vec& E, const vec& r,
                 double omega) {
  vec x(r.size(), 0.0);
  smooth(A, color, E, r, x, omega);
  return x;
}

}  // namespace syncfree::test::dilu_reference
