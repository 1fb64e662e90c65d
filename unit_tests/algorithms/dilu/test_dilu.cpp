// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>
#include <string>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_dilu_reference.hpp"
#include "unit_tests/utils/syncfree_krylov_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = dilu_reference;

constexpr DiluVariant variants[] = {DiluVariant::per_color, DiluVariant::sync_free_2d,
                                    DiluVariant::sync_free_1d};

DiluOptions options(DiluVariant variant, double omega = 1, int distance = 1) {
  DiluOptions o;
  o.variant = variant;
  o.omega = omega;
  o.coloring_distance = distance;
  return o;
}

M grid(const std::string& spec) {
  return generate_problem<M>(ExecSpace(), parse_problem_spec(spec)).A;
}

/// The matrices every variant is checked on: grids, unstructured meshes (symmetric or not, in
/// mesher and random numbering), power-law rows, a dense last row and column.
std::vector<NamedUnstructured> test_matrices() {
  auto all = unstructured_test_matrices();
  all.push_back({"grid2d", grid("poisson2d:40"), true});
  all.push_back({"grid3d", grid("poisson3d:14"), true});
  return all;
}

TEST(Dilu, ColorsAreTheGreedyColoringAndValid) {
  for (const auto& [name, A, symmetric] : test_matrices())
    for (const int distance : {1, 2}) {
      SCOPED_TRACE(name + " distance " + std::to_string(distance));
      DiluPlan<M> plan;
      dilu_analyze(ExecSpace(), plan, A, options(DiluVariant::sync_free_1d, 1, distance));
      const auto rows = ref::rows_of(A);
      const auto expected = ref::greedy_colors(rows, distance);
      const auto colors = to_std(plan.colors());
      ASSERT_EQ(colors, expected);
      EXPECT_EQ(plan.num_colors(), *std::max_element(colors.begin(), colors.end()) + 1);
      for (std::size_t i = 0; i < rows.size(); ++i)
        for (int j : rows.columns[i])
          if (std::size_t(j) != i) {
            ASSERT_NE(colors[i], colors[std::size_t(j)]) << i << " " << j;
          }
      // Rows by color: each color's rows, ascending.
      const auto by_color = to_std(plan.rows_by_color());
      for (int c = 0; c < plan.num_colors(); ++c)
        for (int p = plan.color_begin()[std::size_t(c)]; p < plan.color_begin()[std::size_t(c) + 1];
             ++p) {
          ASSERT_EQ(colors[std::size_t(by_color[std::size_t(p)])], c);
          if (p > plan.color_begin()[std::size_t(c)]) {
            ASSERT_LT(by_color[std::size_t(p) - 1], by_color[std::size_t(p)]);
          }
        }
    }
}

/// The one-dimensional sweep's groups, built on the device, against the host loop that built them
/// before: for each color, for each lane count (1, 2, ..., 32), that color's positions of rows of
/// that lane count in order, cut into groups of 32 / lanes.
TEST(Dilu, SweepGroupsAreEachColorsRowsByLaneCount) {
  for (const auto& [name, A, symmetric] : test_matrices())
    for (const int entries_per_lane : {1, 4}) {
      SCOPED_TRACE(name + " entries per lane " + std::to_string(entries_per_lane));
      const auto colors = impl::color_graph(ExecSpace(), impl::symmetric_adjacency(ExecSpace(), A));
      const auto layout =
          impl::make_dilu_layout(ExecSpace(), A.graph.row_map, colors, entries_per_lane);
      const auto perm = to_std(layout.perm);
      const auto row_map = to_std(A.graph.row_map);
      std::vector<int> grouped, begin{0}, lanes, color;
      for (int c = 0; c < layout.num_colors; ++c)
        for (int l = 1; l <= impl::dilu_max_lanes; l *= 2) {
          std::vector<int> positions;
          for (int p = layout.color_begin[std::size_t(c)];
               p < layout.color_begin[std::size_t(c) + 1]; ++p) {
            const int row = perm[std::size_t(p)];
            if (impl::dilu_row_lanes(row_map[std::size_t(row) + 1] - row_map[std::size_t(row)],
                                     entries_per_lane) == l)
              positions.push_back(p);
          }
          for (std::size_t first = 0; first < positions.size();
               first += std::size_t(impl::dilu_max_lanes / l)) {
            const std::size_t last =
                std::min(positions.size(), first + std::size_t(impl::dilu_max_lanes / l));
            grouped.insert(grouped.end(), positions.begin() + std::ptrdiff_t(first),
                           positions.begin() + std::ptrdiff_t(last));
            begin.push_back(int(grouped.size()));
            lanes.push_back(l);
            color.push_back(c);
          }
        }
      EXPECT_EQ(to_std(layout.grouped_rows), grouped);
      EXPECT_EQ(to_std(layout.group_begin), begin);
      EXPECT_EQ(to_std(layout.group_lanes), lanes);
      EXPECT_EQ(to_std(layout.group_color), color);
      EXPECT_EQ(layout.num_groups, int(lanes.size()));
    }
}

TEST(Dilu, DistanceTwoColorsSeparateRowsWithACommonNeighbour) {
  const auto A = grid("poisson2d:12");
  DiluPlan<M> plan;
  dilu_analyze(ExecSpace(), plan, A, options(DiluVariant::per_color, 1, 2));
  const auto rows = ref::rows_of(A);
  const auto colors = to_std(plan.colors());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (int j : rows.columns[i])
      for (int k : rows.columns[std::size_t(j)])
        if (std::size_t(k) != i) {
          ASSERT_NE(colors[i], colors[std::size_t(k)]) << i << " " << k;
        }
  // A point and its four neighbours are pairwise within distance 2.
  EXPECT_GE(plan.num_colors(), 5);
}

TEST(Dilu, FactorMatchesTheSerialOracle) {
  for (const auto& [name, A, symmetric] : test_matrices())
    for (const DiluVariant variant : variants) {
      SCOPED_TRACE(name + " " + to_string(variant));
      DiluPlan<M> plan;
      dilu_analyze(ExecSpace(), plan, A, options(variant));
      const Outcome outcome = dilu_factor(ExecSpace(), plan, A);
      ASSERT_TRUE(outcome.ok()) << outcome.reason;
      const auto rows = ref::rows_of(A);
      expect_near_entrywise(to_std(plan.inverse_diagonal()),
                            ref::inverse_diagonal(rows, ref::greedy_colors(rows, 1)), 1e-12);
    }
}

TEST(Dilu, ApplyMatchesTheSerialOracle) {
  for (const auto& [name, A, symmetric] : test_matrices())
    for (const DiluVariant variant : variants)
      for (const double omega : {1.0, 0.7}) {
        SCOPED_TRACE(name + " " + to_string(variant) + " omega " + std::to_string(omega));
        DiluPreconditioner<M> dilu(ExecSpace(), A, options(variant, omega));
        ASSERT_TRUE(dilu.outcome().ok()) << dilu.outcome().reason;
        const auto rows = ref::rows_of(A);
        const auto colors = ref::greedy_colors(rows, 1);
        const auto E = ref::inverse_diagonal(rows, colors);
        const auto r = pattern_vector(rows.size(), 0.25);
        const auto y0 = pattern_vector(rows.size(), -0.5);
        // Twice: the second application runs on flags the first one re-armed.
        for (int repeat = 0; repeat < 2; ++repeat) {
          auto y = to_view(y0);
          dilu.apply(ExecSpace(), to_view(r), y, 2.0, -0.5);
          auto expected = ref::apply(rows, colors, E, r, omega);
          for (std::size_t i = 0; i < expected.size(); ++i)
            expected[i] = 2.0 * expected[i] - 0.5 * y0[i];
          expect_near_entrywise(to_std(y), expected, 1e-11);
        }
      }
}

/// The sweeps invert M = (D + L) D^{-1} (D + U), D = diag(1 / E), L and U by color: checked by
/// multiplying M back, independently of the oracle's sweeps.
TEST(Dilu, ApplyInvertsTheFactoredMatrix) {
  const auto A = geometric_convection(500);
  for (const DiluVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    DiluPreconditioner<M> dilu(ExecSpace(), A, options(variant));
    ASSERT_TRUE(dilu.outcome().ok());
    const auto rows = ref::rows_of(A);
    const auto colors = to_std(dilu.plan().colors());
    const auto E = to_std(dilu.plan().inverse_diagonal());
    const auto r = pattern_vector(rows.size(), 1.0);
    auto z = to_view(std::vector<double>(rows.size(), 0.0));
    dilu.apply(ExecSpace(), to_view(r), z);
    const auto zh = to_std(z);
    const std::size_t n = rows.size();
    std::vector<double> w(n), v(n), mz(n);
    for (std::size_t i = 0; i < n; ++i) {  // w = (D + U) z, v = D^{-1} w
      w[i] = zh[i] / E[i];
      for (std::size_t k = 0; k < rows.columns[i].size(); ++k) {
        const std::size_t j = std::size_t(rows.columns[i][k]);
        if (colors[j] > colors[i]) w[i] += rows.values[i][k] * zh[j];
      }
      v[i] = E[i] * w[i];
    }
    for (std::size_t i = 0; i < n; ++i) {  // M z = (D + L) v
      mz[i] = v[i] / E[i];
      for (std::size_t k = 0; k < rows.columns[i].size(); ++k) {
        const std::size_t j = std::size_t(rows.columns[i][k]);
        if (colors[j] < colors[i]) mz[i] += rows.values[i][k] * v[j];
      }
    }
    expect_near_entrywise(mz, r, 1e-11);
  }
}

TEST(Dilu, SmoothingSweepsMatchTheSerialOracle) {
  for (const auto& [name, A, symmetric] : test_matrices())
    for (const DiluVariant variant : variants)
      for (const int sweeps : {1, 3}) {
        SCOPED_TRACE(name + " " + to_string(variant) + " sweeps " + std::to_string(sweeps));
        DiluPlan<M> plan;
        dilu_analyze(ExecSpace(), plan, A, options(variant, 0.8));
        ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
        const auto rows = ref::rows_of(A);
        const auto colors = ref::greedy_colors(rows, 1);
        const auto E = ref::inverse_diagonal(rows, colors);
        const auto b = pattern_vector(rows.size(), 1.0);
        auto expected = pattern_vector(rows.size(), -2.0);
        auto x = to_view(expected);
        dilu_smooth(ExecSpace(), plan, A, to_view(b), x, sweeps);
        for (int s = 0; s < sweeps; ++s) ref::smooth(rows, colors, E, b, expected, 0.8);
        expect_near_entrywise(to_std(x), expected, 1e-10);
      }
}

TEST(Dilu, SmoothingConvergesOnAnMMatrix) {
  const auto A = grid("poisson2d:10");
  DiluPlan<M> plan;
  dilu_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
  const std::size_t n = plan.num_rows();
  const auto b = to_view(std::vector<double>(n, 1.0));
  Vector<double, Device> x("x", n), r("r", n);
  const auto residual = [&] {
    Kokkos::deep_copy(r, b);
    KokkosSparse::spmv("N", -1.0, A, x, 1.0, r);
    return KokkosBlas::nrm2(r);
  };
  const double r0 = residual();
  dilu_smooth(ExecSpace(), plan, A, b, x, 100);
  EXPECT_LT(residual(), 1e-3 * r0);
}

TEST(Dilu, SeveralSweepsPerApplicationAreSmoothingStepsFromZero) {
  const auto A = geometric_laplacian(400);
  DiluOptions o = options(DiluVariant::sync_free_1d, 0.9);
  o.sweeps = 3;
  DiluPreconditioner<M> dilu(ExecSpace(), A, o);
  ASSERT_TRUE(dilu.outcome().ok());
  const auto rows = ref::rows_of(A);
  const auto colors = ref::greedy_colors(rows, 1);
  const auto E = ref::inverse_diagonal(rows, colors);
  const auto r = pattern_vector(rows.size(), 0.5);
  std::vector<double> expected(rows.size(), 0.0);
  for (int s = 0; s < 3; ++s) ref::smooth(rows, colors, E, r, expected, 0.9);
  Vector<double, Device> y("y", rows.size());
  dilu.apply(ExecSpace(), to_view(r), y);
  expect_near_entrywise(to_std(y), expected, 1e-11);
}

TEST(Dilu, KrylovIterationsMatchTheOracle) {
  const auto spd = geometric_laplacian(3000);
  const auto nonsymmetric = geometric_convection(3000);
  for (const DiluVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    for (const bool symmetric : {true, false}) {
      const M& A = symmetric ? spd : nonsymmetric;
      DiluPreconditioner<M> dilu(ExecSpace(), A, options(variant));
      ASSERT_TRUE(dilu.outcome().ok());
      const auto rows = ref::rows_of(A);
      const auto colors = ref::greedy_colors(rows, 1);
      const auto E = ref::inverse_diagonal(rows, colors);
      const auto oracle = [&](const std::vector<double>& u) {
        return ref::apply(rows, colors, E, u, 1.0);
      };
      const std::vector<double> b(rows.size(), 1.0);
      GmresOptions k;
      k.tolerance = 1e-8;
      k.max_iterations = 500;
      k.side = Preconditioning::right;
      Vector<double, Device> x("x", rows.size());
      const CrsOperator<M> op(ExecSpace(), A);
      const auto result = krylov_solve(symmetric ? KrylovSolver::cg : KrylovSolver::bicgstab,
                                       ExecSpace(), op, dilu, to_view(b), x, k);
      ASSERT_TRUE(result.converged()) << result.reason;
      const auto host = to_host(A);
      const int expected = symmetric ? krylov_reference::pcg(host, oracle, b, 1e-8, 500)
                                     : krylov_reference::bicgstab(host, oracle, b, 1e-8, 500);
      EXPECT_NEAR(result.iterations, expected, 1) << (symmetric ? "cg" : "bicgstab");
    }
  }
}

TEST(Dilu, MissingOrZeroDiagonalNamesTheRow) {
  for (const DiluVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    // Row 2 stores no diagonal.
    const auto missing = matrix_from_triplets(
        4, 4, {{0, 0, 4}, {0, 1, -1}, {1, 0, -1}, {1, 1, 4}, {2, 3, -1}, {3, 2, -1}, {3, 3, 4}});
    DiluPlan<M> plan;
    dilu_analyze(ExecSpace(), plan, missing, options(variant));
    Outcome outcome = dilu_factor(ExecSpace(), plan, missing);
    EXPECT_EQ(outcome.status, Status::zero_pivot);
    EXPECT_EQ(outcome.index, 2);
    EXPECT_NE(outcome.reason.find("no diagonal"), std::string::npos) << outcome.reason;
    EXPECT_FALSE(plan.factored());
    Vector<double, Device> x("x", 4), y("y", 4);
    EXPECT_THROW(dilu_apply(ExecSpace(), plan, missing, x, y), InvalidState);

    // Rows 0 and 1 have colors 0 and 1: E_1 = 1 / (1 - 1 * 1 * 1), a zero pivot.
    const auto singular = matrix_from_dense({{1, 1, 0}, {1, 1, 0}, {0, 0, 3}});
    dilu_analyze(ExecSpace(), plan, singular, options(variant));
    outcome = dilu_factor(ExecSpace(), plan, singular);
    EXPECT_EQ(outcome.status, Status::zero_pivot);
    EXPECT_EQ(outcome.index, 1);

    // A NaN on the diagonal of row 3.
    const auto nan = std::numeric_limits<double>::quiet_NaN();
    const auto not_finite = matrix_from_dense({{4, -1, 0, 0, 0},
                                               {-1, 4, -1, 0, 0},
                                               {0, -1, 4, -1, 0},
                                               {0, 0, -1, nan, -1},
                                               {0, 0, 0, -1, 4}});
    dilu_analyze(ExecSpace(), plan, not_finite, options(variant));
    outcome = dilu_factor(ExecSpace(), plan, not_finite);
    EXPECT_EQ(outcome.status, Status::not_finite);
    EXPECT_EQ(outcome.index, 3);
  }
}

/// An SPD matrix that is not an M-matrix can have negative DILU pivots; the plan counts them.
TEST(Dilu, CountsNegativePivots) {
  for (const DiluVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    // Rows 0 and 1 have colors 0 and 1: E_0 = 1, pivot 1 = 5 - 2 * 1 * 2 = 1; row 2 (color 0)
    // pivot 1; row 3 (color 1): 1 - 3 * 1 * 3 = -8.
    const auto A = matrix_from_dense({{1, 2, 0, 0}, {2, 5, 0, 0}, {0, 0, 1, 3}, {0, 0, 3, 1}});
    DiluPlan<M> plan;
    dilu_analyze(ExecSpace(), plan, A, options(variant));
    ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
    EXPECT_EQ(plan.negative_pivots(), 1);
    const auto B = grid("poisson2d:6");
    dilu_analyze(ExecSpace(), plan, B, options(variant));
    ASSERT_TRUE(dilu_factor(ExecSpace(), plan, B).ok());
    EXPECT_EQ(plan.negative_pivots(), 0);
  }
}

TEST(Dilu, RefusesInvalidInput) {
  const auto unsorted = matrix_from_triplets(2, 2, {{0, 1, -1}, {0, 0, 4}, {1, 1, 4}});
  DiluPlan<M> plan;
  EXPECT_THROW(dilu_analyze(ExecSpace(), plan, unsorted), InvalidMatrix);
  const auto rectangular = matrix_from_triplets(2, 3, {{0, 0, 1}, {1, 1, 1}});
  EXPECT_THROW(dilu_analyze(ExecSpace(), plan, rectangular), InvalidMatrix);
  const auto A = grid("poisson2d:5");
  DiluOptions bad;
  bad.coloring_distance = 3;
  EXPECT_THROW(dilu_analyze(ExecSpace(), plan, A, bad), InvalidArgument);
  bad = {};
  bad.omega = 0;
  EXPECT_THROW(dilu_analyze(ExecSpace(), plan, A, bad), InvalidArgument);
  EXPECT_THROW(dilu_factor(ExecSpace(), plan, A), InvalidState);

  dilu_analyze(ExecSpace(), plan, A);
  EXPECT_THROW(dilu_factor(ExecSpace(), plan, grid("poisson2d:6")), StructureMismatch);
  ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
  Vector<double, Device> x("x", 25), y("y", 24);
  EXPECT_THROW(dilu_apply(ExecSpace(), plan, A, x, y), DimensionMismatch);
  EXPECT_THROW(parse_dilu_variant("sync_free_3d"), InvalidArgument);
  EXPECT_EQ(parse_dilu_variant("auto"), DiluVariant::automatic);
}

TEST(Dilu, NewValuesRefactorOnTheAnalyzedPattern) {
  auto A = geometric_convection(800);
  DiluPlan<M> plan;
  dilu_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
  KokkosBlas::scal(A.values, 3.0, A.values);
  ASSERT_TRUE(dilu_factor(ExecSpace(), plan, A).ok());
  const auto rows = ref::rows_of(A);
  expect_near_entrywise(to_std(plan.inverse_diagonal()),
                        ref::inverse_diagonal(rows, ref::greedy_colors(rows, 1)), 1e-12);
}

TEST(Dilu, EmptyMatrix) {
  const M A = matrix_from_triplets(0, 0, {});
  DiluPreconditioner<M> dilu(ExecSpace(), A);
  EXPECT_TRUE(dilu.outcome().ok());
  Vector<double, Device> x("x", 0), y("y", 0);
  dilu.apply(ExecSpace(), x, y);
  EXPECT_EQ(dilu.plan().num_colors(), 0);
}

}  // namespace
}  // namespace syncfree::test
