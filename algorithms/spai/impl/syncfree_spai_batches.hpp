// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Dense work space for many small problems (one per column or row of an approximate
/// inverse), cut into batches that fit a budget: a construction never fails for lack of scratch,
/// it runs in more batches.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// Where each problem's dense work space starts, and the batches the problems run in.
template <class Device>
struct DenseWorkspaceLayout {
  /// offsets(p) .. offsets(p + 1): problem p's entries of work space (n + 1 offsets).
  Kokkos::View<std::int64_t*, Device> offsets;
  /// Batch b runs problems batch_begin[b] .. batch_begin[b + 1] - 1, in one launch.
  std::vector<std::int64_t> batch_begin{0};
  /// Entries of work space of the largest batch, and of all problems.
  std::int64_t largest_batch = 0;
  std::int64_t total = 0;

  std::size_t num_batches() const { return batch_begin.size() - 1; }
};

/// Lays out `n` problems needing `size(p)` entries each, in batches of at most `budget` entries
/// (a problem larger than the budget is a batch alone).
template <class ExecSpace, class Device, class Size>
DenseWorkspaceLayout<Device> layout_dense_workspace(const ExecSpace& exec, std::int64_t n,
                                                    std::int64_t budget, const Size& size) {
  DenseWorkspaceLayout<Device> layout;
  layout.offsets = Kokkos::View<std::int64_t*, Device>("syncfree::spai::workspace_offsets", n + 1);
  const auto offsets = layout.offsets;
  Kokkos::parallel_for(
      "syncfree::spai::workspace_sizes", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t p) { offsets(p + 1) = size(p); });
  counts_to_offsets(exec, offsets);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), offsets);
  const std::int64_t* first = host.data();
  layout.total = first[n];
  for (std::int64_t begin = 0; begin < n;) {
    const std::int64_t* end = std::upper_bound(first + begin + 1, first + n + 1,
                                               first[begin] + std::max<std::int64_t>(budget, 0));
    std::int64_t next = std::int64_t(end - first) - 1;
    if (next <= begin) next = begin + 1;
    layout.largest_batch = std::max(layout.largest_batch, first[next] - first[begin]);
    layout.batch_begin.push_back(next);
    begin = next;
  }
  return layout;
}

/// Longest row of A that FSAI and ISAI merge with a row's pattern on one thread when they fill its
/// dense system; longer rows (power-law hubs, circuit rails) take a thread per entry instead.
inline constexpr int merged_row_limit = 256;

/// Index of the first of `length` sorted entries at `entries[begin]` that is not below `key`.
template <class Entries, class Offset, class Key>
KOKKOS_INLINE_FUNCTION Offset lower_bound(const Entries& entries, Offset begin, Offset length,
                                          Key key) {
  Offset low = 0, high = length;
  while (low < high) {
    const Offset mid = low + (high - low) / 2;
    if (entries(begin + mid) < key)
      low = mid + 1;
    else
      high = mid;
  }
  return low;
}

/// Column l of K (m x m, by columns) = the entries of row pattern(jb + l) of a matrix (map, cols,
/// values; rows sorted) whose columns lie in the m sorted columns pattern(jb ...) and that
/// `keep(row, column)` accepts, at their places in the pattern: how FSAI and ISAI fill a row's
/// dense system. A thread per l merges its row with the pattern (no search per entry, the m rows'
/// loads in flight together); rows longer than `merged_row_limit` take the team, a thread per entry
/// finding its place by binary search. K's other entries are left as they are.
template <class Member, class Map, class Cols, class Values, class Offset, class Scalar, class Keep>
KOKKOS_INLINE_FUNCTION void fill_from_rows(const Member& team, const Map& map, const Cols& cols,
                                           const Values& values, const Cols& pattern,
                                           const Offset jb, const int m, Scalar* const K,
                                           const Keep& keep) {
  int long_rows = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(team, m),
      [&](const int l, int& count) {
        const auto row = pattern(jb + l);
        Offset q = map(row);
        const Offset end = map(row + 1);
        if (end - q > Offset(merged_row_limit)) return void(++count);
        Scalar* const column = K + std::int64_t(l) * m;
        int at = 0;
        while (q < end && at < m) {
          const auto c = cols(q), j = pattern(jb + at);
          if (c == j && keep(row, c)) column[at] = values(q);
          q += c <= j;
          at += j <= c;
        }
      },
      long_rows);
  for (int l = 0; long_rows > 0 && l < m; ++l) {
    const auto row = pattern(jb + l);
    if (map(row + 1) - map(row) <= Offset(merged_row_limit)) continue;
    Scalar* const column = K + std::int64_t(l) * m;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, map(row), map(row + 1)),
                         [&](const Offset q) {
                           const auto c = cols(q);
                           if (!keep(row, c)) return;
                           const int at = int(lower_bound(pattern, jb, Offset(m), c));
                           if (at < m && pattern(jb + at) == c) column[at] = values(q);
                         });
  }
}

/// Threads per team for the dense problems: a warp on GPUs, one thread on host backends.
template <class ExecSpace>
int dense_problem_team_size() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 1 : 32;
}

/// Runs `problems` over every batch of `layout`, a team of `team_size` per problem. `Problems` is
/// a team functor with members `workspace` (given the largest batch's work space here) and
/// `first_problem` (the problem of league rank 0), which reduces its first problem that failed as
/// a key (min). Returns the least key, or -1.
template <class ExecSpace, class Problems, class Device>
std::int64_t run_in_batches(const ExecSpace& exec, const std::string& label, Problems problems,
                            const DenseWorkspaceLayout<Device>& layout,
                            int team_size = dense_problem_team_size<ExecSpace>()) {
  problems.workspace = decltype(problems.workspace)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::workspace"), layout.largest_batch);
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
  for (std::size_t b = 0; b < layout.num_batches(); ++b) {
    problems.first_problem = layout.batch_begin[b];
    const std::int64_t count = layout.batch_begin[b + 1] - layout.batch_begin[b];
    std::int64_t batch_bad = std::numeric_limits<std::int64_t>::max();
    Kokkos::parallel_reduce(label, Kokkos::TeamPolicy<ExecSpace>(exec, count, team_size), problems,
                            Kokkos::Min<std::int64_t>(batch_bad));
    first_bad = std::min(first_bad, batch_bad);
  }
  return first_bad == std::numeric_limits<std::int64_t>::max() ? -1 : first_bad;
}

}  // namespace syncfree::impl
