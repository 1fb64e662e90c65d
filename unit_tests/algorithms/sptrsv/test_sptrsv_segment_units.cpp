// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_segment_units.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

TEST(SegmentUnits, NumberingPutsEachColumnOfAWholeBlockIntoOneUnit) {
  const impl::SegmentUnits<int> units{3, 96};  // 100 segments: one whole block of 32 x 3
  std::set<int> seen;
  for (int v = 0; v < 100; ++v) seen.insert(units.position(v));
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 99);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 32; ++k) EXPECT_EQ(units.position(r + 3 * k), 32 * r + k);
  for (int v = 96; v < 100; ++v) EXPECT_EQ(units.position(v), v);  // after the whole block
  const impl::SegmentUnits<int> identity;
  for (int v = 0; v < 100; ++v) EXPECT_EQ(identity.position(v), v);
}

/// The segment graph of a grid of `lines` lines of `per_line` segments: segment (j, h) depends on
/// (j, h - 1) and (j - 1, h); with `diagonal`, also on (j - 1, h + 1), as on a 27-point grid. Each
/// row also lists itself, as the segment graph does where an entry was dropped.
M segment_grid(int lines, int per_line, bool diagonal = false) {
  std::vector<Triplet> t;
  for (int j = 0; j < lines; ++j) {
    for (int h = 0; h < per_line; ++h) {
      const int s = j * per_line + h;
      if (j > 0 && diagonal && h + 1 < per_line) t.push_back({s, s - per_line + 1, 1.0});
      if (j > 0) t.push_back({s, s - per_line, 1.0});
      if (h > 0) t.push_back({s, s - 1, 1.0});
      t.push_back({s, s, 1.0});
    }
  }
  return matrix_from_triplets(lines * per_line, lines * per_line, t);
}

/// What the level pass in the unit numbering must give: the levels and order of the graph itself.
void expect_levels_of_the_graph(const M& G) {
  impl::DeviceScratch<ExecSpace> scratch{ExecSpace()};
  const auto got = impl::segment_graph_level_sets(ExecSpace(), G, scratch);
  const auto expected = compute_level_sets(ExecSpace(), G, Triangle::lower);
  EXPECT_EQ(to_std(got.level), to_std(expected.level));
  EXPECT_EQ(to_std(got.order), to_std(expected.order));
  EXPECT_EQ(to_std(got.level_ptr), to_std(expected.level_ptr));
  EXPECT_EQ(got.num_levels, expected.num_levels);
  EXPECT_EQ(got.max_level_size, expected.max_level_size);
}

int stride_of(const M& G) {
  return impl::segment_graph_stride_and_longest(ExecSpace(), G.graph.row_map, G.graph.entries)
      .min_val;
}

/// Entries of G that `units` would not put before their segment.
int violations_of(const M& G, const impl::SegmentUnits<int>& units) {
  Kokkos::View<int*, Device> count("violations", 1);
  impl::count_unit_violations(ExecSpace(), G.graph.row_map, G.graph.entries, units,
                              Kokkos::subview(count, 0));
  return to_std(count)[0];
}

TEST(SegmentUnits, AGridsStrideIsItsSegmentsPerLine) {
  // 100 lines of 5 segments: three whole blocks of 32 lines, then 4 lines that keep their numbers.
  const M G = segment_grid(100, 5);
  EXPECT_EQ(stride_of(G), 5);
  EXPECT_EQ(
      impl::segment_graph_stride_and_longest(ExecSpace(), G.graph.row_map, G.graph.entries).max_val,
      2);  // (j, h) lists (j - 1, h) and (j, h - 1); itself does not count
  const auto units = impl::segment_units_for_stride(5, 500);
  EXPECT_EQ(units.stride, 5);
  EXPECT_EQ(units.blocked, 480);
  EXPECT_EQ(violations_of(G, units), 0);
  expect_levels_of_the_graph(G);
  EXPECT_EQ(compute_level_sets(ExecSpace(), G, Triangle::lower).num_levels, 100 + 5 - 1);
}

TEST(SegmentUnits, LevelsAreTheGraphsOnGridsOfEveryShape) {
  for (const auto& [lines, per_line] :
       std::vector<std::pair<int, int>>{{32, 2}, {64, 32}, {70, 3}, {33, 7}, {200, 1}, {10, 4}}) {
    SCOPED_TRACE(std::to_string(lines) + " x " + std::to_string(per_line));
    expect_levels_of_the_graph(segment_grid(lines, per_line));
  }
}

TEST(SegmentUnits, ANumberingThatWouldPutADependencyLaterIsNotUsed) {
  // (j, h) also depends on (j - 1, h + 1): the unit of h + 1 comes after the unit of h, so the
  // stride's numbering would let a unit wait on a later one.
  const M G = segment_grid(64, 4, true);
  EXPECT_EQ(stride_of(G), 3);
  EXPECT_GT(violations_of(G, impl::segment_units_for_stride(3, 64 * 4)), 0);
  expect_levels_of_the_graph(G);  // falls back to the segment order
}

TEST(SegmentUnits, AGraphWithoutFarDependenciesKeepsItsNumbering) {
  const M chain = segment_grid(1, 500);  // every segment depends on the one before it only
  EXPECT_EQ(stride_of(chain), 500);      // none at a distance of 2 or more
  EXPECT_EQ(impl::segment_units_for_stride(500, 500).stride, 1);
  EXPECT_EQ(impl::segment_units_for_stride(2, 63).stride, 1);  // no whole block of 64
  EXPECT_EQ(impl::segment_units_for_stride(2, 64).blocked, 64);
  expect_levels_of_the_graph(chain);
}

}  // namespace
}  // namespace syncfree::test
