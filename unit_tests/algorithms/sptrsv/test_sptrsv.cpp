// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/algorithms/sptrsv/sptrsv_test_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Params = std::tuple<SptrsvAlgorithm, Triangle, Diagonal, int>;

class Sptrsv : public ::testing::TestWithParam<Params> {};

/// Right-hand side column j: smooth, different per column.
std::vector<double> rhs(int n, int j) {
  std::vector<double> b(n);
  for (int i = 0; i < n; ++i) b[i] = 1.0 + 0.25 * j + 0.001 * (i % 97);
  return b;
}

TEST_P(Sptrsv, MatchesTheSerialOracleEntryWise) {
  const auto [algorithm, triangle, diagonal, nrhs] = GetParam();
  for (const auto& [name, A] : sptrsv_test_matrices()) {
    SCOPED_TRACE(name);
    const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
    const int n = T.numRows();
    MultiVector<double, Device> b("b", n, nrhs), x("x", n, nrhs);
    auto bh = Kokkos::create_mirror_view(b);
    for (int j = 0; j < nrhs; ++j) {
      const auto column = rhs(n, j);
      for (int i = 0; i < n; ++i) bh(i, j) = column[i];
    }
    Kokkos::deep_copy(b, bh);
    SptrsvPlan<M> plan({triangle, diagonal, algorithm});

    sptrsv_analyze(ExecSpace(), plan, T);
    sptrsv_solve(ExecSpace(), plan, T, b, x);

    auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    for (int j = 0; j < nrhs; ++j) {
      const auto expected = reference::triangular_solve(to_host(T), triangle, diagonal, rhs(n, j));
      std::vector<double> got(n);
      for (int i = 0; i < n; ++i) got[i] = xh(i, j);
      expect_near_entrywise(got, expected, 1e-12);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Sptrsv,
                         ::testing::Combine(::testing::ValuesIn(sptrsv_algorithms),
                                            ::testing::Values(Triangle::lower, Triangle::upper),
                                            ::testing::Values(Diagonal::stored, Diagonal::unit),
                                            ::testing::Values(1, 3)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_" +
                                  to_string(std::get<1>(info.param)) + "_" +
                                  to_string(std::get<2>(info.param)) + "_" +
                                  std::to_string(std::get<3>(info.param)) + "rhs";
                         });

TEST(SptrsvPlan, ReportsLevelsAndTheAlgorithmItChose) {
  const M L = extract_triangle(ExecSpace(), chain(100), Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> plan;

  sptrsv_analyze(ExecSpace(), plan, L);
  EXPECT_THROW(plan.max_level_size(), InvalidState);  // band needs no levels
  sptrsv_find_levels(ExecSpace(), plan);

  EXPECT_EQ(plan.num_levels(), 100);
  EXPECT_EQ(plan.max_level_size(), 1);
  EXPECT_EQ(plan.max_row_length(), 1);
  EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::band);  // a band of width 1
  EXPECT_NE(plan.choice().find("a band"), std::string::npos) << plan.choice();
  EXPECT_EQ(impl::sptrsv_plan_storage(plan).band_entries, 1);
  EXPECT_EQ(plan.num_chain_levels(), 0);
  EXPECT_GT(plan.memory_bytes(), 0u);
}

TEST(SptrsvPlan, ReportsChainLevels) {
  const M L = extract_triangle(ExecSpace(), chain(100), Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});

  sptrsv_analyze(ExecSpace(), plan, L);

  EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::sync_free_thread);
  EXPECT_EQ(plan.num_chain_levels(), 4);  // segments of 32, 32, 32 and 4 rows
  EXPECT_EQ(impl::sptrsv_plan_storage(plan).band_entries, 0);
}

/// `band` (and `automatic`) take a triangle whose entries all lie within 32 rows of the diagonal
/// and whose rows hold at most 16 entries, in the triangle's own order; elsewhere `band` becomes
/// `sync_free_thread`.
TEST(SptrsvPlan, BandTakesNarrowBandsInTheirOwnOrder) {
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    for (const auto& [name, A, entries] : std::vector<std::tuple<std::string, M, int>>{
             {"chain_5000", chain(5000), 1},
             {"banded_3000_6", generated("banded:3000:6"), 6},
             {"convdiff2d_30", generated("convdiff2d:30"), 2},
             {"poisson2d_32", generated("poisson2d:32"), 2},  // the widest band: 32
             {"banded_3000_12_24", generated("banded:3000:12:24"), 12}}) {
      SCOPED_TRACE(name + " " + to_string(triangle));
      const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
      const int n = T.numRows();
      for (const auto algorithm : {SptrsvAlgorithm::band, SptrsvAlgorithm::automatic}) {
        SptrsvPlan<M> plan({triangle, Diagonal::stored, algorithm});
        sptrsv_analyze(ExecSpace(), plan, T);
        ASSERT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::band);
        EXPECT_EQ(impl::sptrsv_plan_storage(plan).band_entries, entries);
        const auto order = to_std(impl::sptrsv_plan_storage(plan).order);
        for (int p = 0; p < n; ++p)
          ASSERT_EQ(order[p], triangle == Triangle::lower ? p : n - 1 - p) << "position " << p;
      }
    }
  }
  for (const auto& [name, A] : std::vector<NamedMatrix>{
           {"poisson2d_33", generated("poisson2d:33")},               // 33 wide
           {"banded_3000_40", generated("banded:3000:40:8")},         // 40 wide
           {"banded_3000_20_40", generated("banded:3000:20:40")}}) {  // 20 entries a row
    SCOPED_TRACE(name);
    const M L = extract_triangle(ExecSpace(), A, Triangle::lower, Diagonal::stored);
    SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::band});
    sptrsv_analyze(ExecSpace(), plan, L);
    EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::sync_free_thread);
    EXPECT_EQ(impl::sptrsv_plan_storage(plan).band_entries, 0);
  }
}

/// The sync_free_thread order: a permutation, topological (every dependency of a row runs
/// before it), and each row that continues a chain (depends on the row before it in the
/// triangle's order, inside one aligned group of 32) runs right after that row.
void expect_chain_segment_order(const M& T, Triangle triangle, const SptrsvPlan<M>& plan) {
  const auto h = to_host(T);
  const auto order = to_std(impl::sptrsv_plan_storage(plan).order);
  const int n = T.numRows();
  std::vector<int> position(n, -1);
  for (int p = 0; p < n; ++p) {
    ASSERT_GE(order[p], 0);
    ASSERT_LT(order[p], n);
    ASSERT_EQ(position[order[p]], -1) << "row " << order[p] << " appears twice";
    position[order[p]] = p;
  }
  const bool lower = triangle == Triangle::lower;
  for (int row = 0; row < n; ++row) {
    const int t = lower ? row : n - 1 - row;
    const int before = lower ? row - 1 : row + 1;
    for (auto k = h.graph.row_map(row); k < h.graph.row_map(row + 1); ++k) {
      const int j = h.graph.entries(k);
      if (lower ? j >= row : j <= row) continue;
      EXPECT_LT(position[j], position[row]) << "row " << row << " runs before its dependency " << j;
      if (j == before && t % 32 != 0) {
        EXPECT_EQ(position[row], position[j] + 1) << "row " << row << " leaves its chain";
      }
    }
  }
}

/// Rows ascending (lower) or descending (upper).
std::vector<int> triangle_order(int n, Triangle triangle) {
  std::vector<int> order(n);
  for (int p = 0; p < n; ++p) order[p] = triangle == Triangle::lower ? p : n - 1 - p;
  return order;
}

TEST(SptrsvPlan, SyncFreeThreadOrderIsTopologicalAndKeepsChainsTogether) {
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    for (const auto& [name, A] : sptrsv_test_matrices()) {
      SCOPED_TRACE(std::string(name) + " " + to_string(triangle));
      const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
      SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});
      sptrsv_analyze(ExecSpace(), plan, T);
      // The layout needs no levels: they are found on request, never by a getter.
      EXPECT_FALSE(plan.has_levels());
      EXPECT_THROW(plan.num_levels(), InvalidState);
      sptrsv_find_levels(ExecSpace(), plan);
      ASSERT_TRUE(plan.has_levels());
      EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).levels.order),
                to_std(compute_level_sets(ExecSpace(), T, triangle).order));
      if (plan.num_chain_levels() == 0) {  // chains too short: the triangle's own order
        EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).order),
                  triangle_order(T.numRows(), triangle));
        continue;
      }
      expect_chain_segment_order(T, triangle, plan);
      EXPECT_LE(plan.num_chain_levels(), plan.num_levels());
    }
  }
}

TEST(SptrsvPlan, SyncFreeThreadKeepsTheTrianglesOrderWhereChainsAreShort) {
  // Every fifth row depends on the row before it: segments of 1.25 rows on average.
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    SCOPED_TRACE(to_string(triangle));
    const M T = extract_triangle(ExecSpace(), mostly_diagonal(1000), triangle, Diagonal::stored);
    SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});
    sptrsv_analyze(ExecSpace(), plan, T);
    EXPECT_EQ(plan.num_chain_levels(), 0);
    EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).order), triangle_order(1000, triangle));
    EXPECT_FALSE(plan.has_levels());
    sptrsv_find_levels(ExecSpace(), plan);
    EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).levels.order),
              to_std(compute_level_sets(ExecSpace(), T, triangle).order));
  }
}

TEST(SptrsvPlan, ChainSegmentsCutTheGridsLevelsToRowsPlusSegmentsPerRow) {
  // 64 x 64 grid: a row's chain is one grid line, cut into 2 segments of 32, and segment (j, h)
  // depends on (j - 1, h) and (j, h - 1): 64 + 2 - 1 levels instead of 2 * 64 - 1.
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    const M T =
        extract_triangle(ExecSpace(), generated("poisson2d:64"), triangle, Diagonal::stored);
    SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});
    sptrsv_analyze(ExecSpace(), plan, T);
    sptrsv_find_levels(ExecSpace(), plan);
    EXPECT_EQ(plan.num_levels(), 127);
    EXPECT_EQ(plan.num_chain_levels(), 65);
  }
}

/// Levels of the graph between chain segments, from their definition: the t-th row of the
/// triangle's order starts a segment at every multiple of 32 and where it does not depend on the
/// row before it, and a segment's level is 1 + the largest level of the other segments its rows
/// depend on.
int reference_chain_levels(const M& T, Triangle triangle) {
  const auto h = to_host(T);
  const int n = T.numRows();
  const bool lower = triangle == Triangle::lower;
  const auto row_of = [&](int t) { return lower ? t : n - 1 - t; };
  const auto depends = [&](int row, int j) {
    for (auto k = h.graph.row_map(row); k < h.graph.row_map(row + 1); ++k)
      if (h.graph.entries(k) == j) return true;
    return false;
  };
  std::vector<int> segment(n), level;
  for (int t = 0; t < n; ++t) {
    if (t % 32 == 0 || !depends(row_of(t), row_of(t - 1))) level.push_back(0);
    segment[t] = int(level.size()) - 1;
  }
  for (int t = 0; t < n; ++t) {
    const int row = row_of(t);
    for (auto k = h.graph.row_map(row); k < h.graph.row_map(row + 1); ++k) {
      const int j = h.graph.entries(k);
      if (lower ? j >= row : j <= row) continue;
      const int d = segment[lower ? j : n - 1 - j];
      if (d != segment[t]) level[segment[t]] = std::max(level[segment[t]], level[d] + 1);
    }
  }
  return n == 0 ? 0 : *std::max_element(level.begin(), level.end()) + 1;
}

/// Four chains of 32 rows, each starting without depending on the row before it: A (rows 0-31),
/// B (32-63), whose row 33 depends on A, C (64-95), and D (96-127), whose row 97 depends on B and
/// on C. D lists B and the segment after it, but C does not continue B's chain, so B (level 1)
/// still sets D's level: 3 levels.
TestMatrix<> chains_after_breaks() {
  std::vector<Triplet> t;
  const auto both = [&](int i, int j) {
    t.push_back({i, j, -1.0});
    t.push_back({j, i, -1.0});
  };
  for (int i = 0; i < 128; ++i) {
    t.push_back({i, i, 4.0});
    if (i % 32 != 0) both(i, i - 1);
  }
  both(33, 5);
  both(97, 40);
  both(97, 70);
  std::sort(t.begin(), t.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  return matrix_from_triplets(128, 128, t);
}

TEST(SptrsvPlan, ChainLevelsAreTheSegmentGraphsLevels) {
  // The analysis drops entries of the segment graph that cannot set a level (repeats, and a
  // segment whose chain the next listed one continues); the levels must stay exact. The 27-point
  // grid of 40^3 has lines longer than a warp, where most of those entries are.
  auto matrices = sptrsv_test_matrices();
  matrices.push_back({"poisson3d27_40", generated("poisson3d27:40")});
  matrices.push_back({"chains_after_breaks", chains_after_breaks()});
  EXPECT_EQ(reference_chain_levels(extract_triangle(ExecSpace(), chains_after_breaks(),
                                                    Triangle::lower, Diagonal::stored),
                                   Triangle::lower),
            3);
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    for (const auto& [name, A] : matrices) {
      SCOPED_TRACE(std::string(name) + " " + to_string(triangle));
      const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
      SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});
      sptrsv_analyze(ExecSpace(), plan, T);
      if (plan.num_chain_levels() == 0) continue;  // level order
      EXPECT_EQ(plan.num_chain_levels(), reference_chain_levels(T, triangle));
    }
  }
}

/// The wavefront layout: a permutation whose units' lanes hold segments (runs of consecutive
/// positions), and every dependency of a row is in an earlier unit, the row before it in its own
/// segment, or the row at the same place of the lane before (within a group of lines) or of the
/// lane a group before (the plane before).
void expect_wavefront_layout(const M& T, Triangle triangle, const SptrsvPlan<M>& plan) {
  const auto h = to_host(T);
  const auto order = to_std(impl::sptrsv_plan_storage(plan).order);
  const int n = T.numRows();
  std::vector<int> position(n, -1);
  for (int p = 0; p < n; ++p) {
    ASSERT_EQ(position[order[p]], -1) << "row " << order[p] << " appears twice";
    position[order[p]] = p;
  }
  // Unit, lane and place of each position, from the layout's segments.
  const auto first = to_std(impl::sptrsv_plan_storage(plan).segment_first);
  std::vector<int> unit(n), lane(n), place(n);
  for (int u = 0; u < impl::sptrsv_plan_storage(plan).units.count(); ++u)
    for (int v = impl::sptrsv_plan_storage(plan).units.first_segment(u);
         v < impl::sptrsv_plan_storage(plan).units.first_segment(u + 1); ++v) {
      ASSERT_LE(v - impl::sptrsv_plan_storage(plan).units.first_segment(u), 31);
      for (int p = first[v]; p < first[v + 1]; ++p) {
        unit[p] = u;
        lane[p] = v - impl::sptrsv_plan_storage(plan).units.first_segment(u);
        place[p] = p - first[v];
      }
    }
  ASSERT_EQ(first.back(), n);
  for (int row = 0; row < n; ++row) {
    const int p = position[row];
    for (auto k = h.graph.row_map(row); k < h.graph.row_map(row + 1); ++k) {
      const int j = h.graph.entries(k);
      if (triangle == Triangle::lower ? j >= row : j <= row) continue;
      const int q = position[j];
      const bool own = unit[q] == unit[p] && lane[q] == lane[p] && place[q] + 1 == place[p];
      const int lines = impl::sptrsv_plan_storage(plan).units.lines;
      const bool same_place = unit[q] == unit[p] && place[q] == place[p];
      const bool left = same_place && lane[q] + 1 == lane[p] && lane[p] % lines != 0;
      const bool below = same_place && lane[q] + lines == lane[p];
      EXPECT_TRUE(unit[q] < unit[p] || own || left || below) << "row " << row << " on row " << j;
    }
  }
}

/// `automatic` takes the wavefront wherever it takes no band and the layout holds.
TEST(SptrsvPlan, WavefrontHoldsAPieceOf32LinesPerUnitOnGrids) {
  // poisson2d:64: lines of 2 segments, 128 segments in 4 units (one per half of 32 lines).
  // poisson3d:40: lines of 2 segments (32 and 8 rows), 40 lines a plane, so units of 8 lines of
  // 4 planes: 3200 segments in 100 units. poisson3d:36: 36 lines a plane, units of 4 lines of 8
  // planes: 4 blocks of 8 planes (4 x 9 x 2 units each), then 4 planes of segments alone.
  // poisson2d:600: lines of 19 segments, 18 blocks of 32 lines (342 units), then 24 lines of
  // segments alone (456 units).
  for (const auto triangle : {Triangle::lower, Triangle::upper})
    for (const auto& [spec, units, lines] :
         std::vector<std::tuple<std::string, int, int>>{{"poisson2d:64", 4, 32},
                                                        {"poisson3d:40", 100, 8},
                                                        {"poisson3d:36", 4 * 9 * 2 + 4 * 36 * 2, 4},
                                                        {"poisson2d:600", 342 + 456, 32}}) {
      const M T = extract_triangle(ExecSpace(), generated(spec), triangle, Diagonal::stored);
      for (const auto algorithm : {SptrsvAlgorithm::wavefront, SptrsvAlgorithm::automatic}) {
        SCOPED_TRACE(spec + " " + to_string(triangle) + " " + to_string(algorithm));
        SptrsvPlan<M> plan({triangle, Diagonal::stored, algorithm});
        sptrsv_analyze(ExecSpace(), plan, T);
        ASSERT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::wavefront);
        EXPECT_EQ(impl::sptrsv_plan_storage(plan).units.count(), units);
        EXPECT_EQ(impl::sptrsv_plan_storage(plan).units.lines, lines);
        EXPECT_EQ(plan.num_chain_levels(), 0);
        expect_wavefront_layout(T, triangle, plan);
      }
    }
}

/// The levels that the ILU's analysis asks of a wavefront plan (on CUDA from the layout's kernel
/// run in (max, +), elsewhere from the level pass) are the serial oracle's, row by row, with the
/// rows ordered by (level, row): 2-D and 3-D grids, both triangles, a grid whose units leave
/// planes of segments alone; and a solve after them still matches the oracle (the kernel's
/// coefficients took the place of the packed values).
TEST(SptrsvPlan, WavefrontLevelsMatchTheSerialLevels) {
  for (const auto triangle : {Triangle::lower, Triangle::upper})
    for (const std::string spec : {"poisson2d:64", "convdiff3d:40", "poisson3d:36"}) {
      SCOPED_TRACE(spec + " " + to_string(triangle));
      const M T = extract_triangle(ExecSpace(), generated(spec), triangle, Diagonal::stored);
      SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::wavefront});
      sptrsv_analyze(ExecSpace(), plan, T);
      ASSERT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::wavefront);
      std::vector<double> b(T.numRows());
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.1 * double(i)) + 2;
      Vector<double, Device> x("x", b.size());
      sptrsv_solve(ExecSpace(), plan, T, to_view<double>(b), x);  // values packed first

      sptrsv_find_levels(ExecSpace(), plan);
      const std::vector<int> level = reference::levels(to_host(T), triangle);
      std::vector<int> order(level.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return level[a] < level[b]; });
      const int levels = *std::max_element(level.begin(), level.end()) + 1;
      std::vector<int> size(levels, 0);
      for (const int l : level) ++size[l];
      EXPECT_EQ(plan.num_levels(), levels);
      EXPECT_EQ(plan.max_level_size(), *std::max_element(size.begin(), size.end()));
      EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).levels.level), level);
      EXPECT_EQ(to_std(impl::sptrsv_plan_storage(plan).levels.order), order);

      Kokkos::deep_copy(x, 0.0);
      sptrsv_solve(ExecSpace(), plan, T, to_view<double>(b), x);
      expect_near_entrywise(
          to_std(x), reference::triangular_solve(to_host(T), triangle, Diagonal::stored, b), 1e-10);
    }
}

TEST(SptrsvPlan, WavefrontFallsBackToSyncFreeThreadWhereTheLayoutDoesNotHold) {
  const auto grid = to_host(generated("poisson2d:64"));
  std::vector<Triplet> t{{200, 198, -0.1}};  // two rows back in the same segment
  for (int i = 0; i < grid.numRows(); ++i)
    for (auto k = grid.graph.row_map(i); k < grid.graph.row_map(i + 1); ++k)
      t.push_back({i, grid.graph.entries(k), grid.values(k)});
  std::sort(t.begin(), t.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  // `automatic` takes the chain as a band; it tries the wavefront only where rows hold at most
  // 4 entries, so the 27-point grid goes straight to sync_free_thread.
  for (const auto& [name, A, automatic_too] : std::vector<std::tuple<std::string, M, bool>>{
           {"grid_with_a_far_chain_entry", matrix_from_triplets(grid.numRows(), grid.numRows(), t),
            true},
           {"poisson3d27_20", generated("poisson3d27:20"), true},  // 13 entries a row
           {"chain_1000", chain(1000), false}}) {                  // no lines
    const M L = extract_triangle(ExecSpace(), A, Triangle::lower, Diagonal::stored);
    for (const auto algorithm : {SptrsvAlgorithm::wavefront, SptrsvAlgorithm::automatic}) {
      if (algorithm == SptrsvAlgorithm::automatic && !automatic_too) continue;
      SCOPED_TRACE(name + " " + to_string(algorithm));
      SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, algorithm});
      sptrsv_analyze(ExecSpace(), plan, L);
      EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::sync_free_thread);
      EXPECT_EQ(impl::sptrsv_plan_storage(plan).units.count(), 0);
      EXPECT_GT(plan.num_chain_levels(), 0);
    }
  }
}

TEST(SptrsvPlan, AutomaticChoosesLanesPerRowForLongRows) {
  const M L = extract_triangle(ExecSpace(), arrow(100), Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> plan;

  sptrsv_analyze(ExecSpace(), plan, L);

  EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::alap_packed);
  EXPECT_NE(plan.choice().find("a row of 99 entries"), std::string::npos) << plan.choice();
}

TEST(SptrsvPlan, ChoiceSaysWhyOrThatTheAlgorithmWasRequested) {
  const M L =
      extract_triangle(ExecSpace(), generated("poisson3d27:6"), Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> automatic, requested({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::packed});

  sptrsv_analyze(ExecSpace(), automatic, L);
  sptrsv_analyze(ExecSpace(), requested, L);

  EXPECT_EQ(automatic.effective_algorithm(), SptrsvAlgorithm::sync_free_thread);
  EXPECT_NE(automatic.choice().find("longest 13"), std::string::npos) << automatic.choice();
  EXPECT_EQ(requested.choice(), "requested");
}

TEST(SptrsvPlan, UnitDiagonalNeedsNoStoredDiagonal) {
  const M L =
      extract_triangle(ExecSpace(), generated("poisson2d:9"), Triangle::lower, Diagonal::unit);
  const int n = L.numRows();
  SptrsvPlan<M> plan({Triangle::lower, Diagonal::unit, SptrsvAlgorithm::sync_free_thread});
  auto b = to_view<double>(rhs(n, 0));
  Vector<double, Device> x("x", n);

  sptrsv_analyze(ExecSpace(), plan, L);
  sptrsv_solve(ExecSpace(), plan, L, b, x);

  expect_near_entrywise(
      to_std(x),
      reference::triangular_solve(to_host(L), Triangle::lower, Diagonal::unit, rhs(n, 0)), 1e-12);
}

TEST(SptrsvPlan, SolvesAgainWithNewValuesAndTheSameAnalysis) {
  const M L =
      extract_triangle(ExecSpace(), generated("poisson2d:8"), Triangle::lower, Diagonal::stored);
  const int n = L.numRows();
  SptrsvPlan<M> plan;
  sptrsv_analyze(ExecSpace(), plan, L);
  auto b = to_view<double>(rhs(n, 0));
  Vector<double, Device> x("x", n);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), L.values);
  for (std::size_t k = 0; k < values.extent(0); ++k) values(k) *= 2.0;
  Kokkos::deep_copy(L.values, values);

  sptrsv_solve(ExecSpace(), plan, L, b, x);

  expect_near_entrywise(
      to_std(x),
      reference::triangular_solve(to_host(L), Triangle::lower, Diagonal::stored, rhs(n, 0)), 1e-12);
}

TEST(SptrsvPlan, FloatMatchesTheOracle) {
  using F = TestMatrix<float>;
  const M Ld =
      extract_triangle(ExecSpace(), generated("poisson3d:8"), Triangle::lower, Diagonal::stored);
  auto Lh = to_host(Ld);
  HostMatrix<F> Lf_host =
      make_crs<HostMatrix<F>>("Lf", Lh.numRows(), Lh.numCols(), Lh.graph.row_map, Lh.graph.entries,
                              Kokkos::View<float*, HostDevice>("v", Lh.nnz()));
  for (int k = 0; k < Lh.nnz(); ++k) Lf_host.values(k) = float(Lh.values(k));
  const F L = copy_to<Device>(Lf_host);
  const int n = L.numRows();
  std::vector<float> b_values(n);
  for (int i = 0; i < n; ++i) b_values[i] = float(rhs(n, 0)[i]);
  auto b = to_view<float>(b_values);
  Vector<float, Device> x("x", n);
  for (auto algorithm : {SptrsvAlgorithm::level_set, SptrsvAlgorithm::sync_free_thread,
                         SptrsvAlgorithm::sync_free_row, SptrsvAlgorithm::multirow,
                         SptrsvAlgorithm::packed, SptrsvAlgorithm::alap_packed}) {
    SptrsvPlan<F> plan({Triangle::lower, Diagonal::stored, algorithm});

    sptrsv_analyze(ExecSpace(), plan, L);
    sptrsv_solve(ExecSpace(), plan, L, b, x);

    expect_near_entrywise(
        to_std(x), reference::triangular_solve(Lh, Triangle::lower, Diagonal::stored, rhs(n, 0)),
        1e-5);
  }
}

TEST(SptrsvPlan, NaNInTheRightHandSidePropagatesInsteadOfHanging) {
  const M L = extract_triangle(ExecSpace(), chain(64), Triangle::lower, Diagonal::stored);
  auto b_values = rhs(64, 0);
  b_values[10] = std::numeric_limits<double>::quiet_NaN();
  b_values[20] = impl::Sentinel<double>::value();  // the sentinel pattern itself as input
  auto b = to_view<double>(b_values);
  Vector<double, Device> x("x", 64);
  for (auto algorithm : {SptrsvAlgorithm::level_set, SptrsvAlgorithm::sync_free_thread,
                         SptrsvAlgorithm::sync_free_row, SptrsvAlgorithm::multirow,
                         SptrsvAlgorithm::packed, SptrsvAlgorithm::alap_packed}) {
    SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, algorithm});
    sptrsv_analyze(ExecSpace(), plan, L);

    sptrsv_solve(ExecSpace(), plan, L, b, x);

    const auto xs = to_std(x);
    EXPECT_TRUE(std::isfinite(xs[9]));
    for (int i = 10; i < 64; ++i) EXPECT_TRUE(std::isnan(xs[i])) << i;
  }
}

TEST(SptrsvPlan, ChainOrderGivesTheSameBitsEverySolve) {
  // A 27-point stencil's triangle in chain order: on CUDA each chain through a warp is scanned
  // from its head, whichever lanes are ready first.
  const M L =
      extract_triangle(ExecSpace(), generated("poisson3d27:40"), Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::sync_free_thread});
  sptrsv_analyze(ExecSpace(), plan, L);
  ASSERT_GT(plan.num_chain_levels(), 0);
  const int n = L.numRows();
  const auto b = to_view<double>(rhs(n, 0));
  Vector<double, Device> x("x", n);
  sptrsv_solve(ExecSpace(), plan, L, b, x);
  const auto first = to_std(x);
  expect_near_entrywise(
      first, reference::triangular_solve(to_host(L), Triangle::lower, Diagonal::stored, rhs(n, 0)),
      1e-12);
  for (int run = 0; run < 20; ++run) {
    Kokkos::deep_copy(x, 0.0);
    sptrsv_solve(ExecSpace(), plan, L, b, x);
    ASSERT_EQ(to_std(x), first) << "solve " << run + 2;
  }
}

/// Warps of the multirow layout the serial way: per level, rows grouped by vector size (0, 1, 2,
/// 4, 8, 16, 32 lanes by off-diagonal count), 32 / size rows (32 for size 0) to a warp.
int expected_warps(const std::vector<int>& level, const std::vector<int>& length) {
  std::map<std::pair<int, int>, int> rows;
  for (std::size_t i = 0; i < level.size(); ++i) {
    int size = length[i] == 0 ? 0 : 1;
    while (size > 0 && size < 32 && size < length[i]) size *= 2;
    ++rows[{level[i], size}];
  }
  int warps = 0;
  for (const auto& [key, count] : rows) {
    const int per_warp = key.second == 0 ? 32 : 32 / key.second;
    warps += (count + per_warp - 1) / per_warp;
  }
  return warps;
}

TEST(SptrsvPlan, MultirowGroupsEachLevelByRowLengthIntoWarps) {
  for (const auto& [name, A] : sptrsv_test_matrices()) {
    SCOPED_TRACE(name);
    for (const auto triangle : {Triangle::lower, Triangle::upper}) {
      const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
      const auto h = to_host(T);
      std::vector<int> length(h.numRows(), 0);
      for (int i = 0; i < h.numRows(); ++i)
        for (int k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
          length[i] += h.graph.entries(k) != i ? 1 : 0;
      SptrsvPlan<M> multirow({triangle, Diagonal::stored, SptrsvAlgorithm::multirow});
      SptrsvPlan<M> alap({triangle, Diagonal::stored, SptrsvAlgorithm::alap_packed});

      sptrsv_analyze(ExecSpace(), multirow, T);
      sptrsv_analyze(ExecSpace(), alap, T);

      EXPECT_EQ(impl::sptrsv_plan_storage(multirow).n_warps,
                expected_warps(reference::levels(h, triangle), length));
      EXPECT_EQ(impl::sptrsv_plan_storage(alap).n_warps,
                expected_warps(reference::alap_levels(h, triangle), length));
      EXPECT_EQ(multirow.packed_bytes(), 0u);
    }
  }
}

TEST(SptrsvPlan, PackedLayoutTakesAtMostTwoPointTwoTimesTheTriangle) {
  for (const auto& [name, A] : sptrsv_test_matrices()) {
    SCOPED_TRACE(name);
    const M L = extract_triangle(ExecSpace(), A, Triangle::lower, Diagonal::stored);
    const double csr_bytes =
        double(L.nnz()) * (sizeof(double) + sizeof(int)) + double(L.numRows() + 1) * sizeof(int);
    for (auto algorithm : {SptrsvAlgorithm::packed, SptrsvAlgorithm::alap_packed}) {
      SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, algorithm});

      sptrsv_analyze(ExecSpace(), plan, L);

      EXPECT_GT(plan.packed_bytes(), 0u);
      EXPECT_LE(double(plan.packed_bytes()), 2.2 * csr_bytes) << to_string(algorithm);
    }
  }
}

/// The packed layout holds a copy of the values: it is refreshed when the solve gets another
/// values array, or after `sptrsv_values_changed`, and only then.
TEST(SptrsvPlan, PackedSolvesCopyNewValuesWhenTold) {
  const M L =
      extract_triangle(ExecSpace(), generated("poisson2d:8"), Triangle::lower, Diagonal::stored);
  const int n = L.numRows();
  SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::packed});
  sptrsv_analyze(ExecSpace(), plan, L);
  auto b = to_view<double>(rhs(n, 0));
  Vector<double, Device> x("x", n);
  sptrsv_solve(ExecSpace(), plan, L, b, x);
  const auto before = to_std(x);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), L.values);
  for (std::size_t k = 0; k < values.extent(0); ++k) values(k) *= 2.0;
  Kokkos::deep_copy(L.values, values);

  sptrsv_solve(ExecSpace(), plan, L, b, x);
  const auto stale = to_std(x);
  sptrsv_values_changed(plan);
  sptrsv_solve(ExecSpace(), plan, L, b, x);

  EXPECT_EQ(stale, before);
  expect_near_entrywise(
      to_std(x),
      reference::triangular_solve(to_host(L), Triangle::lower, Diagonal::stored, rhs(n, 0)), 1e-12);
}

/// The band's table holds the values divided by the diagonal: a solve after
/// `sptrsv_values_changed` reads the new ones (on every backend, whether it copies them or not).
TEST(SptrsvPlan, BandSolvesWithNewValuesWhenTold) {
  for (const auto triangle : {Triangle::lower, Triangle::upper}) {
    SCOPED_TRACE(to_string(triangle));
    const M T =
        extract_triangle(ExecSpace(), generated("banded:3000:6"), triangle, Diagonal::stored);
    const int n = T.numRows();
    SptrsvPlan<M> plan({triangle, Diagonal::stored, SptrsvAlgorithm::band});
    sptrsv_analyze(ExecSpace(), plan, T);
    ASSERT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::band);
    auto b = to_view<double>(rhs(n, 0));
    Vector<double, Device> x("x", n);
    sptrsv_solve(ExecSpace(), plan, T, b, x);
    auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), T.values);
    const auto h = to_host(T);
    for (int i = 0; i < n; ++i)  // the diagonal doubled, the rest negated
      for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
        values(k) *= h.graph.entries(k) == i ? 2.0 : -1.0;
    Kokkos::deep_copy(T.values, values);

    sptrsv_values_changed(plan);
    sptrsv_solve(ExecSpace(), plan, T, b, x);

    expect_near_entrywise(
        to_std(x), reference::triangular_solve(to_host(T), triangle, Diagonal::stored, rhs(n, 0)),
        1e-12);
  }
}

}  // namespace
}  // namespace syncfree::test
