// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial ILU(k) on the host, the oracle of the ILU tests and benchmark: the textbook
/// level-of-fill symbolic factorization (Saad, Iterative Methods for Sparse Linear Systems, 2nd
/// ed., Algorithm 10.5) and the in-place IKJ numeric factorization (Algorithm 10.4).

#include <cstdint>
#include <map>
#include <vector>

#include "core/syncfree_reference.hpp"

namespace syncfree::reference {

/// The pattern of ILU(k): for each row its sorted columns. An entry of A has level 0; fill at
/// (i, j) created through pivot row m has level lev(i, m) + lev(m, j) + 1 and is kept when its
/// smallest such level is <= k.
///
/// \tparam HM a `CrsMatrix` in host-accessible memory
/// \throws InvalidMatrix when A is not square or a row lacks its diagonal
template <class HM>
std::vector<std::vector<std::int64_t>> iluk_pattern(const HM& A, int fill_level) {
  detail::require_host(A);
  detail::require_square(A, "iluk_pattern");
  const std::int64_t n = A.numRows();
  std::vector<std::vector<std::int64_t>> columns(n);
  std::vector<std::vector<int>> levels(n);
  for (std::int64_t i = 0; i < n; ++i) {
    std::map<std::int64_t, int> row;  // column -> level of fill
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) row[A.graph.entries(k)] = 0;
    SYNCFREE_REQUIRE(row.count(i) == 1, InvalidMatrix, "reference::iluk_pattern: row ", i,
                     " has no diagonal entry");
    // Eliminate with every pivot row m < i in increasing order; fill joins the walk as it appears.
    for (auto it = row.begin(); it != row.end() && it->first < i; ++it) {
      const std::int64_t m = it->first;
      const int level_im = it->second;
      for (std::size_t t = 0; t < columns[m].size(); ++t) {
        const std::int64_t j = columns[m][t];
        if (j <= m) continue;
        const int level = level_im + levels[m][t] + 1;
        if (level > fill_level) continue;
        auto found = row.find(j);
        if (found == row.end())
          row.emplace(j, level);
        else if (level < found->second)
          found->second = level;
      }
    }
    for (const auto& [j, level] : row) {
      columns[i].push_back(j);
      levels[i].push_back(level);
    }
  }
  return columns;
}

/// ILU(k) of A: one matrix holding L strictly below the diagonal (unit diagonal not stored) and U
/// on and above it, on the ILU(k) pattern, computed in double by the IKJ algorithm. Pivots are not
/// checked: a zero pivot gives Inf or NaN, as the textbook algorithm does.
///
/// \tparam HM a `CrsMatrix` in host-accessible memory, with sorted, unique column indices
/// \throws InvalidMatrix when A is not square or a row lacks its diagonal
template <class HM>
HM iluk(const HM& A, int fill_level) {
  using offset_type = typename HM::non_const_size_type;
  using ordinal_type = typename HM::non_const_ordinal_type;
  using scalar_type = typename HM::non_const_value_type;
  const auto pattern = iluk_pattern(A, fill_level);
  const std::int64_t n = A.numRows();

  typename HM::row_map_type::non_const_type row_map("reference::iluk::row_map", n + 1);
  for (std::int64_t i = 0; i < n; ++i)
    row_map(i + 1) = row_map(i) + offset_type(pattern[i].size());
  const offset_type nnz = row_map(n);
  typename HM::index_type::non_const_type entries("reference::iluk::entries", nnz);
  std::vector<double> lu(nnz, 0.0);
  std::vector<offset_type> diagonal(n);
  std::vector<std::int64_t> position(n, -1);  // column -> entry of the current row, or -1

  for (std::int64_t i = 0; i < n; ++i) {
    const offset_type begin = row_map(i), end = row_map(i + 1);
    for (offset_type k = begin; k < end; ++k) {
      entries(k) = ordinal_type(pattern[i][k - begin]);
      position[entries(k)] = k;
      if (entries(k) == i) diagonal[i] = k;
    }
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      lu[position[A.graph.entries(k)]] += double(A.values(k));
    for (offset_type k = begin; k < end && entries(k) < i; ++k) {
      const std::int64_t m = entries(k);
      lu[k] /= lu[diagonal[m]];
      for (offset_type t = diagonal[m] + 1; t < row_map(m + 1); ++t)
        if (position[entries(t)] >= 0) lu[position[entries(t)]] -= lu[k] * lu[t];
    }
    for (offset_type k = begin; k < end; ++k) position[entries(k)] = -1;
  }

  typename HM::values_type::non_const_type values("reference::iluk::values", nnz);
  for (offset_type k = 0; k < nnz; ++k) values(k) = scalar_type(lu[k]);
  return HM("reference::iluk", ordinal_type(n), ordinal_type(n), nnz, values, row_map, entries);
}

}  // namespace syncfree::reference
