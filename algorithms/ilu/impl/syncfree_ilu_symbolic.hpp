// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The pattern of ILU(k), k >= 1: level-of-fill symbolic factorization (Saad, Iterative
/// Methods for Sparse Linear Systems, 2nd ed., section 10.3.3).
///
/// The row merge, on the host, row by row: row i needs the finished U patterns of the rows it
/// eliminates with, so the rows form a chain as long as the matrix (run sync-free on the device, it
/// was slower than here). The analysis runs the fill-path searches of
/// syncfree_ilu_symbolic_device.hpp instead, and this only where a search outgrows its scratch; the
/// tests also take it as the reference. The sorted row is kept as a linked list over a dense level
/// array, so each row costs O(fill of the row x its pivot rows' U lengths).

#include <climits>
#include <cstdint>
#include <vector>

#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// Row pointers and sorted columns of the ILU(k) pattern of a square matrix with sorted, unique
/// columns and a stored diagonal in every row (validated by the caller), on the host.
/// \throws InvalidMatrix when the pattern's entries overflow `Offset`.
template <class Offset, class Ordinal, class HostRowMap, class HostEntries>
void iluk_symbolic(const HostRowMap& row_map, const HostEntries& entries, Ordinal n, int fill_level,
                   std::vector<Offset>& out_row_map, std::vector<Ordinal>& out_entries) {
  constexpr int absent = INT_MAX;
  constexpr Ordinal end_of_list = -1;
  std::vector<int> level(n, absent);       // level of fill of column j in the current row
  std::vector<Ordinal> next(n, end_of_list);  // sorted linked list of the current row's columns
  // U part (columns > row) of every finished row, with levels, for the rows that follow.
  std::vector<std::int64_t> u_ptr(std::size_t(n) + 1, 0);
  std::vector<Ordinal> u_columns;
  std::vector<int> u_levels;
  out_row_map.assign(std::size_t(n) + 1, 0);
  out_entries.clear();

  for (Ordinal i = 0; i < n; ++i) {
    Ordinal head = end_of_list, tail = end_of_list;
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const Ordinal j = entries(k);
      level[j] = 0;
      (tail == end_of_list ? head : next[tail]) = j;
      tail = j;
    }
    next[tail] = end_of_list;
    for (Ordinal m = head; m != end_of_list && m < i; m = next[m]) {
      Ordinal previous = m;  // insertion point: fill columns of row m are > m
      for (std::int64_t t = u_ptr[m]; t < u_ptr[m + 1]; ++t) {
        const Ordinal j = u_columns[t];
        const int candidate = level[m] + u_levels[t] + 1;
        if (candidate > fill_level) continue;
        if (level[j] != absent) {
          if (candidate < level[j]) level[j] = candidate;
          continue;
        }
        while (next[previous] != end_of_list && next[previous] < j) previous = next[previous];
        next[j] = next[previous];
        next[previous] = j;
        level[j] = candidate;
      }
    }
    for (Ordinal j = head; j != end_of_list; j = next[j]) {
      out_entries.push_back(j);
      if (j > i) {
        u_columns.push_back(j);
        u_levels.push_back(level[j]);
      }
    }
    u_ptr[std::size_t(i) + 1] = std::int64_t(u_columns.size());
    require_fits<Offset>(std::int64_t(out_entries.size()), "ilu_analyze: the ILU(k) factors",
                         "entries", "offset");
    out_row_map[std::size_t(i) + 1] = Offset(out_entries.size());
    for (Ordinal j = head; j != end_of_list;) {
      const Ordinal following = next[j];
      level[j] = absent;
      next[j] = end_of_list;
      j = following;
    }
  }
}

}  // namespace syncfree::impl
