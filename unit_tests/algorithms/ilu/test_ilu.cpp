// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_reference_ilu.hpp"
#include "unit_tests/algorithms/sptrsv/sptrsv_test_matrices.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Params = std::tuple<IluAlgorithm, int>;

class Ilu : public ::testing::TestWithParam<Params> {};

/// The factors and the oracle's, entry by entry, on the same pattern.
void expect_factors_match(const M& factors, const HostMatrix<M>& expected) {
  const auto got = to_host(factors);
  ASSERT_EQ(got.numRows(), expected.numRows());
  ASSERT_EQ(got.nnz(), expected.nnz());
  for (int i = 0; i <= got.numRows(); ++i)
    ASSERT_EQ(got.graph.row_map(i), expected.graph.row_map(i));
  for (int k = 0; k < got.nnz(); ++k) ASSERT_EQ(got.graph.entries(k), expected.graph.entries(k));
  expect_near_entrywise(to_std(got.values), to_std(expected.values), 1e-12);
}

/// The oracle's apply: its own two triangular solves.
std::vector<double> oracle_apply(const HostMatrix<M>& lu, const std::vector<double>& b) {
  const auto y = reference::triangular_solve(lu, Triangle::lower, Diagonal::unit, b);
  return reference::triangular_solve(lu, Triangle::upper, Diagonal::stored, y);
}

/// Applies `plan`, factored from the matrix whose host copy is `a`, to a smooth right-hand side,
/// and compares with the oracle's apply of the ILU(0) of `a`; then the apply with the dot
/// products b'x and x'x (on CUDA reduced in the wavefront solve's last pass).
void expect_ilu0_apply_matches_oracle(const IluPlan<M>& plan, const HostMatrix<M>& a) {
  const int n = a.numRows();
  std::vector<double> b(n);
  for (int i = 0; i < n; ++i) b[i] = std::cos(0.3 * i);
  Vector<double, Device> x("x", n);
  ilu_apply(ExecSpace(), plan, to_view<double>(b), x);
  const auto expected = oracle_apply(reference::iluk(a, 0), b);
  expect_near_entrywise(to_std(x), expected, 1e-11);

  Vector<double, Device> x2("x2", n), sums("sums", 2);
  ilu_apply_and_dots(ExecSpace(), plan, to_view<double>(b), x2, to_view<double>(b), sums);
  EXPECT_EQ(to_std(x2), to_std(x));
  double bx = 0, xx = 0;
  for (int i = 0; i < n; ++i) {
    bx += b[i] * expected[i];
    xx += expected[i] * expected[i];
  }
  expect_near_entrywise(to_std(sums), std::vector<double>{bx, xx}, 1e-10 * (1 + xx));
}

TEST_P(Ilu, FactorsAndApplyMatchTheSerialOracle) {
  const auto [algorithm, fill] = GetParam();
  for (const auto& [name, A] : sptrsv_test_matrices()) {
    // Fill on a 900-wide band or 360,000 rows takes the host oracle too long for a unit test.
    if (fill > 0 && (name == "banded_2000_900" || name == "poisson2d_600")) continue;
    SCOPED_TRACE(name);
    IluPlan<M> plan({fill, algorithm});

    ilu_analyze(ExecSpace(), plan, A);
    const Outcome outcome = ilu_factor(ExecSpace(), plan, A);

    ASSERT_TRUE(outcome.ok()) << outcome.reason;
    const auto expected = reference::iluk(to_host(A), fill);
    expect_factors_match(plan.factors(), expected);
    const int n = A.numRows();
    std::vector<double> b(n);
    for (int i = 0; i < n; ++i) b[i] = 1.0 + 0.001 * (i % 89);
    Vector<double, Device> x("x", n);
    ilu_apply(ExecSpace(), plan, to_view(b), x);
    expect_near_entrywise(to_std(x), oracle_apply(expected, b), 1e-11);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllVariants, Ilu,
    ::testing::Combine(::testing::Values(IluAlgorithm::level_set, IluAlgorithm::shared,
                                         IluAlgorithm::vector, IluAlgorithm::adaptive,
                                         IluAlgorithm::parallel, IluAlgorithm::gather,
                                         IluAlgorithm::automatic),
                       ::testing::Values(0, 1, 2)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_k" +
             std::to_string(std::get<1>(info.param));
    });

TEST(IluPlan, FillGrowsThePatternAndKeepsTheLevelsOfL) {
  const M A = generated("poisson2d:20");
  IluPlan<M> ilu0({0}), ilu1({1});

  ilu_analyze(ExecSpace(), ilu0, A);
  ilu_analyze(ExecSpace(), ilu1, A);

  EXPECT_EQ(ilu0.num_factor_entries(), std::size_t(A.nnz()));
  EXPECT_GT(ilu1.num_factor_entries(), std::size_t(A.nnz()));
  EXPECT_EQ(ilu1.num_factor_entries(), std::size_t(reference::iluk(to_host(A), 1).nnz()));
  EXPECT_EQ(ilu0.num_levels(), 2 * 20 - 1);  // anti-diagonals of the grid
  EXPECT_NE(ilu0.effective_algorithm(), IluAlgorithm::automatic);
  EXPECT_GT(ilu0.memory_bytes(), 0u);
}

/// Whether `order` lists every row once and puts every dependency of a row in the given triangle
/// of A before it.
bool is_topological(const M& A, Triangle triangle, const std::vector<int>& order) {
  const auto h = to_host(A);
  std::vector<int> position(order.size(), -1);
  for (std::size_t p = 0; p < order.size(); ++p) {
    if (position.at(order[p]) != -1) return false;
    position[order[p]] = int(p);
  }
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k) {
      const int j = h.graph.entries(k);
      if ((triangle == Triangle::lower ? j < i : j > i) && position[j] > position[i]) return false;
    }
  return true;
}

TEST(IluPlan, UpperSolveTakesTheLowerChainOrderReversedWhereItIsOne) {
  // 128 x 128 grid, 16384 rows (a multiple of 32): a structurally symmetric pattern. Chain order
  // is sync_free_thread's (`automatic` takes the wavefront on grids).
  const M A = generated("poisson2d:128");
  IluOptions options;
  options.solve_algorithm = SptrsvAlgorithm::sync_free_thread;
  IluPlan<M> plan(options);
  ilu_analyze(ExecSpace(), plan, A);
  const auto lower = to_std(impl::sptrsv_plan_storage(plan.lower_solve_plan()).order);
  auto upper = to_std(impl::sptrsv_plan_storage(plan.upper_solve_plan()).order);
  ASSERT_GT(plan.lower_solve_plan().num_chain_levels(), 0);
  EXPECT_EQ(plan.upper_solve_plan().num_chain_levels(), plan.lower_solve_plan().num_chain_levels());
  std::reverse(upper.begin(), upper.end());
  EXPECT_EQ(upper, lower);

  // One entry more in U: u(127, 128), grid line 0 at x = 127 depends on line 1 at x = 0. L's
  // order runs the segment of the latter (line 1, x 0..31) on level 1 and that of the former
  // (line 0, x 96..127) on level 3, so L's order reversed is no order of U any more; U finds
  // its own.
  const auto h = to_host(A);
  std::vector<Triplet> t{{127, 128, -0.1}};
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      t.push_back({i, h.graph.entries(k), h.values(k)});
  std::sort(t.begin(), t.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  const M B = matrix_from_triplets(h.numRows(), h.numRows(), t);
  ASSERT_EQ(B.nnz(), A.nnz() + 1);
  IluPlan<M> other(options);
  ilu_analyze(ExecSpace(), other, B);
  const auto lower_b = to_std(impl::sptrsv_plan_storage(other.lower_solve_plan()).order);
  auto upper_b = to_std(impl::sptrsv_plan_storage(other.upper_solve_plan()).order);
  EXPECT_TRUE(is_topological(B, Triangle::upper, upper_b));
  std::reverse(upper_b.begin(), upper_b.end());
  EXPECT_NE(upper_b, lower_b);
  EXPECT_FALSE(is_topological(B, Triangle::upper, [&] {
    auto reversed = lower_b;
    std::reverse(reversed.begin(), reversed.end());
    return reversed;
  }()));
}

TEST(IluApply, SolvesSeveralRightHandSides) {
  const M A = generated("convdiff2d:15");
  IluPlan<M> plan({1});
  ilu_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
  const auto lu = reference::iluk(to_host(A), 1);
  const int n = A.numRows();
  MultiVector<double, Device> b("b", n, 3), x("x", n, 3);
  auto bh = Kokkos::create_mirror_view(b);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < n; ++i) bh(i, j) = std::sin(0.1 * i + j);
  Kokkos::deep_copy(b, bh);

  ilu_apply(ExecSpace(), plan, b, x);

  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  for (int j = 0; j < 3; ++j) {
    std::vector<double> column(n), got(n);
    for (int i = 0; i < n; ++i) column[i] = bh(i, j), got[i] = xh(i, j);
    expect_near_entrywise(got, oracle_apply(lu, column), 1e-11);
  }
}

/// Refactoring replays what the first factorization set up (on CUDA, the level-set graph):
/// new values must still be read, and a new analysis must drop what the old one recorded.
TEST(IluFactor, RefactorsWithNewValuesAndReanalyzes) {
  for (auto algorithm : {IluAlgorithm::vector, IluAlgorithm::level_set}) {
    SCOPED_TRACE(to_string(algorithm));
    const M A = generated("poisson3d:6");
    IluPlan<M> plan({0, algorithm});
    ilu_analyze(ExecSpace(), plan, A);
    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
    auto h = to_host(A);
    for (int k = 0; k < h.nnz(); ++k) h.values(k) *= 1.0 + 0.01 * (k % 5);
    Kokkos::deep_copy(A.values, h.values);

    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
    expect_factors_match(plan.factors(), reference::iluk(h, 0));

    const M B = generated("convdiff2d:9");
    ilu_analyze(ExecSpace(), plan, B);
    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, B).ok());
    expect_factors_match(plan.factors(), reference::iluk(to_host(B), 0));
  }
}

/// New values in A (the pattern kept), factored again: the apply must match the oracle of the new
/// values, also where the solves copied the old factors into a layout of their own.
void expect_refactored_apply_matches_oracle(IluPlan<M>& plan, const M& A) {
  auto h = to_host(A);
  for (int k = 0; k < h.nnz(); ++k) h.values(k) *= 1.0 + 0.05 * (k % 7);
  Kokkos::deep_copy(A.values, h.values);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
  expect_ilu0_apply_matches_oracle(plan, h);
}

/// Analyzes and factors A with `options`, expects both solves to run `expected`, and the apply to
/// match the oracle, before and after a refactorization.
void expect_solves_run(const M& A, const IluOptions& options, SptrsvAlgorithm expected) {
  IluPlan<M> plan(options);
  ilu_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
  EXPECT_EQ(plan.lower_solve_plan().effective_algorithm(), expected);
  EXPECT_EQ(plan.upper_solve_plan().effective_algorithm(), expected);

  expect_ilu0_apply_matches_oracle(plan, to_host(A));
  expect_refactored_apply_matches_oracle(plan, A);
}

/// The packed solves copy the factors into their layout; a refactorization must make them copy
/// the new ones.
TEST(IluApply, PackedSolvesApplyTheNewFactorsAfterARefactorization) {
  IluOptions options;
  options.solve_algorithm = SptrsvAlgorithm::packed;
  expect_solves_run(generated("convdiff2d:12"), options, SptrsvAlgorithm::packed);
}

/// A 64 x 64 grid: lines of 2 chain segments, 2 blocks of 32 lines, so both factors take the
/// wavefront layout (U's in reverse row order); a 40^3 grid, whose units hold 8 lines of 4
/// planes. After a refactorization the solves must read the new factors: on CUDA the wavefront
/// copies the values into its step table, and again after new ones. `automatic` takes it too.
TEST(IluApply, WavefrontSolvesMatchTheOracle) {
  for (const char* spec : {"convdiff2d:64", "convdiff3d:40"})
    for (const auto algorithm : {SptrsvAlgorithm::wavefront, SptrsvAlgorithm::automatic}) {
      SCOPED_TRACE(std::string(spec) + " " + to_string(algorithm));
      IluOptions options;
      options.solve_algorithm = algorithm;
      expect_solves_run(generated(spec), options, SptrsvAlgorithm::wavefront);
    }
}

/// On CUDA the two wavefront solves of an apply are chained: the upper solve reads the lower
/// solve's result from its work vector, through a table made at the first apply. Applies with
/// different right-hand sides, through a copy of the plan and after a solve of the lower plan
/// alone, must each match the oracle.
TEST(IluApply, ChainedWavefrontSolvesMatchTheOracleApplyAfterApply) {
  for (const char* spec : {"convdiff2d:64", "convdiff3d:40"}) {
    SCOPED_TRACE(spec);
    const M A = generated(spec);
    IluPlan<M> plan;
    ilu_analyze(ExecSpace(), plan, A);
    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
    ASSERT_EQ(plan.lower_solve_plan().effective_algorithm(), SptrsvAlgorithm::wavefront);
    ASSERT_EQ(plan.upper_solve_plan().effective_algorithm(), SptrsvAlgorithm::wavefront);
    const IluPlan<M> copy = plan;
    const auto lu = reference::iluk(to_host(A), 0);
    const int n = A.numRows();
    for (int k = 0; k < 4; ++k) {
      SCOPED_TRACE(k);
      std::vector<double> b(n);
      for (int i = 0; i < n; ++i) b[i] = std::cos(0.3 * i + k) + k;
      Vector<double, Device> x("x", n);
      if (k == 2) {  // the lower plan alone, which leaves its result in row order
        sptrsv_solve(ExecSpace(), plan.lower_solve_plan(), plan.factors(), to_view<double>(b), x);
        expect_near_entrywise(
            to_std(x), reference::triangular_solve(lu, Triangle::lower, Diagonal::unit, b), 1e-11);
      }
      ilu_apply(ExecSpace(), k % 2 == 0 ? plan : copy, to_view<double>(b), x);
      expect_near_entrywise(to_std(x), oracle_apply(lu, b), 1e-11);
    }
  }
}

/// ilu_apply_then_spmv (GMRES's A M) against the apply, then the product, bit for bit: on CUDA,
/// where both solves run the wavefront layout, the product reads the upper solve's result by
/// position through A's renamed column indices, or, in A's stencil format, through the positions
/// of U's rows. Twice (the renamed copy kept), in the stencil format, through the
/// preconditioner's apply_then (whose CrsOperator takes the stencil format on CUDA), after new
/// values in A (shared by the copy and the stencil plan), and with another matrix of the same size
/// (a copy of its own); the band layout takes the plain path.
TEST(IluApply, ThenSpmvIsTheProductOfTheApply) {
  for (const char* spec : {"convdiff2d:64", "convdiff3d:40", "banded:3000:6"}) {
    SCOPED_TRACE(spec);
    const M A = generated(spec);
    IluPreconditioner<M> ilu(ExecSpace(), A);
    ASSERT_TRUE(ilu.outcome().ok());
    const int n = A.numRows();
    std::vector<double> b(n);
    for (int i = 0; i < n; ++i) b[i] = std::cos(0.7 * i) + 1;
    const auto expected_with = [&](const auto& B) {  // a matrix, or a plan (its own product)
      Vector<double, Device> z("z", n), y("y", n);
      ilu_apply(ExecSpace(), ilu.plan(), to_view<double>(b), z);
      if constexpr (std::is_same_v<std::decay_t<decltype(B)>, M>)
        spmv(ExecSpace(), 1.0, B, z, 0.0, y);
      else
        B.apply(ExecSpace(), 1.0, z, 0.0, y);
      return to_std(y);
    };
    Vector<double, Device> y("y", n), tmp("tmp", n);
    for (int k = 0; k < 2; ++k) {
      ilu_apply_then_spmv(ExecSpace(), ilu.plan(), to_view<double>(b), A, y, tmp);
      EXPECT_EQ(to_std(y), expected_with(A));
    }
    const SpmvPlan<M> stencil(ExecSpace(), A, SpmvFormat::stencil);
    for (int k = 0; k < 2; ++k) {
      Kokkos::deep_copy(y, 0.0);
      ilu_apply_then_spmv(ExecSpace(), ilu.plan(), to_view<double>(b), stencil, y, tmp);
      EXPECT_EQ(to_std(y), expected_with(stencil));
    }
    Kokkos::deep_copy(y, 0.0);
    const CrsOperator<M> op(A);
    ilu.apply_then(ExecSpace(), op, to_view<double>(b), y, tmp);
    EXPECT_EQ(to_std(y), expected_with(op.plan()));

    auto h = to_host(A);
    for (int k = 0; k < h.nnz(); ++k) h.values(k) *= 1.0 + 0.1 * (k % 3);
    Kokkos::deep_copy(A.values, h.values);
    ilu_apply_then_spmv(ExecSpace(), ilu.plan(), to_view<double>(b), A, y, tmp);
    EXPECT_EQ(to_std(y), expected_with(A));
    Kokkos::deep_copy(y, 0.0);
    ilu_apply_then_spmv(ExecSpace(), ilu.plan(), to_view<double>(b), stencil, y, tmp);
    EXPECT_EQ(to_std(y), expected_with(stencil));
    const M other = generated(spec);
    ilu_apply_then_spmv(ExecSpace(), ilu.plan(), to_view<double>(b), other, y, tmp);
    EXPECT_EQ(to_std(y), expected_with(other));

    Vector<double, Device> short_b("short_b", n - 1);
    EXPECT_THROW(ilu_apply_then_spmv(ExecSpace(), ilu.plan(), short_b, A, y, tmp),
                 DimensionMismatch);
  }
}

/// A narrow band (rows across a 2,048-row run of the sweep): both factors take the band layout by
/// default, U's without levels, and after a refactorization the solves read the new factors (on
/// CUDA the band copies them into its table, divided by the diagonal).
TEST(IluApply, BandSolvesMatchTheOracle) {
  expect_solves_run(generated("banded:3000:6"), IluOptions{}, SptrsvAlgorithm::band);
}

/// 80,000 diagonal-only rows and, after them, a 16-row tridiagonal chain: levels hold over 4096
/// rows on average, so `adaptive` packs several rows into a warp (on CUDA: 4 lanes, 8 rows), and
/// the chain, at the end of the level order, has rows of one warp waiting on each other.
TEST(IluFactor, MatchesTheOracleWhenRowsOfOneWarpDependOnEachOther) {
  const int singletons = 80000, chain = 16, n = singletons + chain;
  std::vector<Triplet> t;
  for (int i = 0; i < singletons; ++i) t.push_back({i, i, 2.0 + (i % 3)});
  for (int i = singletons; i < n; ++i) {
    if (i > singletons) t.push_back({i, i - 1, -1.0 - 0.01 * (i % 7)});
    t.push_back({i, i, 4.0});
    if (i + 1 < n) t.push_back({i, i + 1, -1.0});
  }
  const M A = matrix_from_triplets(n, n, t);
  for (auto algorithm : {IluAlgorithm::adaptive, IluAlgorithm::vector, IluAlgorithm::parallel,
                         IluAlgorithm::gather, IluAlgorithm::automatic}) {
    SCOPED_TRACE(to_string(algorithm));
    IluPlan<M> plan({0, algorithm});
    ilu_analyze(ExecSpace(), plan, A);
    ASSERT_GE(double(n) / plan.lower_solve_plan().num_levels(), 4096.0);
    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
    expect_factors_match(plan.factors(), reference::iluk(to_host(A), 0));
  }
}

/// Rows of about 150 entries, half of them in L: on CUDA the value-flag kernel holds 8 entries per
/// lane, and a waiting row can search only its next 11 L entries ahead (its shared memory
/// budget), so it searches the rest as it reaches them.
TEST(IluFactor, MatchesTheOracleOnRowsOfAbout150Entries) {
  const M A = generated("banded:600:200:150");
  for (auto algorithm : {IluAlgorithm::adaptive, IluAlgorithm::vector, IluAlgorithm::gather,
                         IluAlgorithm::automatic}) {
    SCOPED_TRACE(to_string(algorithm));
    IluPlan<M> plan({0, algorithm});
    ilu_analyze(ExecSpace(), plan, A);
    ASSERT_GE(plan.lower_solve_plan().max_row_length(), 64);
    ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
    expect_factors_match(plan.factors(), reference::iluk(to_host(A), 0));
  }
}

/// Rows of thousands of entries whose pivot rows are short: the arrow's last row (5000 L entries)
/// and power-law hubs numbered last. Every variant eliminates them through the pivot rows' few
/// entries (see impl/syncfree_ilu_row.hpp) and matches the oracle, which merges whole rows.
TEST(IluFactor, MatchesTheOracleOnLongRowsWithShortPivotRows) {
  const M hubs = power_law_matrix(3000, 5, 2);
  std::vector<int> reversed(std::size_t(hubs.numRows()));
  for (int i = 0; i < hubs.numRows(); ++i) reversed[std::size_t(i)] = hubs.numRows() - 1 - i;
  const std::pair<const char*, M> cases[] = {
      {"arrow", dense_last_row_and_column(5001)},
      {"hubs last", permute_matrix(ExecSpace(), hubs, to_view<int>(reversed))}};
  for (const auto& [name, A] : cases)
    for (auto algorithm : {IluAlgorithm::level_set, IluAlgorithm::vector, IluAlgorithm::adaptive,
                           IluAlgorithm::shared, IluAlgorithm::parallel, IluAlgorithm::gather,
                           IluAlgorithm::automatic}) {
      SCOPED_TRACE(std::string(name) + ", " + to_string(algorithm));
      IluPlan<M> plan({0, algorithm});
      ilu_analyze(ExecSpace(), plan, A);
      ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
      expect_factors_match(plan.factors(), reference::iluk(to_host(A), 0));
    }
}

/// `gather` (on CUDA: rows in shared memory, several L entries polled at once, a pivot row with a
/// long U part on a path of its own) does the other kernels' operations in their order: the same
/// factors bit for bit as `vector`, also with fill (the input then scattered onto the pattern).
/// On host backends `gather` runs `vector`: the check is CUDA's.
TEST(IluFactor, GatherGivesTheFactorsOfVectorBitForBit) {
  std::vector<std::pair<std::string, M>> cases;
  for (const auto& [name, A, symmetric] : unstructured_test_matrices()) cases.push_back({name, A});
  cases.push_back({"poisson3d27_12", generated("poisson3d27:12")});
  cases.push_back({"banded_600_200_150", generated("banded:600:200:150")});
  // 80 hub rows of about 860 entries, numbered at random: on CUDA rows longer than a warp's
  // shared memory take a block each, the longest of them claimed first and the rest in level order.
  cases.push_back(
      {"power_law_hubs_renumbered",
       matrix_from_triplets(6000, 6000, renumbered(power_law_triplets(6000, 80, 7), 6000, 9))});
  for (const auto& [name, A] : cases)
    for (int fill : {0, 1}) {
      // Fill on long rows takes the host's symbolic factorization too long for a unit test.
      if (fill > 0 && name != "geometric_renumbered" && name != "convection") continue;
      SCOPED_TRACE(name + ", fill " + std::to_string(fill));
      IluPlan<M> vector({fill, IluAlgorithm::vector}), gather({fill, IluAlgorithm::gather});
      ilu_analyze(ExecSpace(), vector, A);
      ilu_analyze(ExecSpace(), gather, A);
      ASSERT_TRUE(ilu_factor(ExecSpace(), vector, A).ok());
      ASSERT_TRUE(ilu_factor(ExecSpace(), gather, A).ok());
      EXPECT_EQ(to_std(to_host(gather.factors()).values), to_std(to_host(vector.factors()).values));
    }
}

TEST(IluPreconditioner, IsAnOperatorWithScaling) {
  const M A = generated("poisson2d:12");
  IluPreconditioner<M> ilu(ExecSpace(), A, {0});
  ASSERT_TRUE(ilu.outcome().ok());
  const int n = A.numRows();
  std::vector<double> b(n, 1.0), y0(n, 2.0);
  Vector<double, Device> y = to_view(y0);

  ilu.apply(ExecSpace(), to_view(b), y, 3.0, 0.5);

  const auto z = oracle_apply(reference::iluk(to_host(A), 0), b);
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = 3.0 * z[i] + 1.0;
  expect_near_entrywise(to_std(y), expected, 1e-12);
  EXPECT_NE(ilu.name().find("ilu(0)"), std::string::npos);
}

/// The host pattern of ILU(k), as row_map and entries vectors.
std::pair<std::vector<int>, std::vector<int>> host_pattern(const M& A, int fill) {
  const auto h = to_host(A);
  std::vector<int> row_map, entries;
  impl::iluk_symbolic(h.graph.row_map, h.graph.entries, h.numRows(), fill, row_map, entries);
  return {row_map, entries};
}

/// Fill paths on the device against the row merge on the host, including a nonsymmetric random
/// band. A search may outgrow its workspace only where rows are wide.
TEST(IluSymbolic, DeviceFillPathsMatchTheHostRowMerge) {
  std::vector<NamedMatrix> matrices = sptrsv_test_matrices();
  matrices.push_back({"convdiff3d:6", generated("convdiff3d:6")});
  matrices.push_back({"banded:400:12:4", generated("banded:400:12:4")});
  for (const auto& [name, A] : matrices) {
    for (int fill = 1; fill <= 3; ++fill) {
      SCOPED_TRACE(name + " k=" + std::to_string(fill));
      M::row_map_type::non_const_type row_map("row_map", A.numRows() + 1);
      M::index_type::non_const_type entries;

      const bool done = impl::iluk_symbolic_device(ExecSpace(), A, fill, row_map, entries);

      const auto [expected_row_map, expected_entries] = host_pattern(A, fill);
      int longest = 0;
      for (std::size_t i = 0; i + 1 < expected_row_map.size(); ++i)
        longest = std::max(longest, expected_row_map[i + 1] - expected_row_map[i]);
      if (!done) {  // allowed for wide patterns only: then the analysis asks the host
        EXPECT_GT(longest, 24) << "a search gave up on a narrow pattern";
        continue;
      }
      EXPECT_EQ(to_std(row_map), expected_row_map);
      EXPECT_EQ(to_std(entries), expected_entries);
    }
  }
}

/// A last row longer than a fill-path search can hold: the analysis finds the pattern on the
/// host instead.
TEST(IluSymbolic, PatternsTooWideForTheDeviceAreFoundOnTheHost) {
  const int n = impl::fill_path_capacity + 100;
  std::vector<Triplet> t;
  for (int i = 0; i + 1 < n; ++i) {
    if (i > 0) t.push_back({i, i - 1, -1.0});
    t.push_back({i, i, 4.0});
  }
  for (int j = 0; j + 1 < n; ++j) t.push_back({n - 1, j, -1.0 / n});
  t.push_back({n - 1, n - 1, 4.0});
  const M A = matrix_from_triplets(n, n, t);
  M::row_map_type::non_const_type row_map("row_map", n + 1);
  M::index_type::non_const_type entries;
  ASSERT_FALSE(impl::iluk_symbolic_device(ExecSpace(), A, 1, row_map, entries));
  IluPlan<M> plan({1});

  ilu_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());

  expect_factors_match(plan.factors(), reference::iluk(to_host(A), 1));
}

}  // namespace
}  // namespace syncfree::test
