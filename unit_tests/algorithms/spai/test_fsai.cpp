// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <KokkosBlas1_scal.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "unit_tests/utils/syncfree_spai_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = spai_reference;

FsaiOptions options(int power, double threshold = 0) {
  FsaiOptions o;
  o.pattern_power = power;
  o.threshold = threshold;
  return o;
}

TEST(Fsai, MatchesTheSerialOracle) {
  const auto A = geometric_laplacian(70);
  for (const int power : {1, 2, 3})
    for (const double threshold : {0.0, 0.3}) {
      SCOPED_TRACE("power " + std::to_string(power) + " threshold " + std::to_string(threshold));
      FsaiPreconditioner<M> fsai(ExecSpace(), A, options(power, threshold));
      ASSERT_TRUE(fsai.outcome().ok()) << fsai.outcome().reason;
      const auto a = ref::to_dense(A);
      auto p = ref::pattern(a, ref::stored(A), threshold, power);
      for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = i + 1; j < p.size(); ++j) p[i][j] = false;
      const M& G = fsai.plan().factor();
      ASSERT_EQ(ref::stored(G), p);

      expect_near_entrywise(to_std(G.values), ref::at_entries(ref::fsai(a, p), G), 1e-12);
      expect_near_entrywise(
          to_std(fsai.plan().factor_transpose().values),
          ref::at_entries(ref::transpose(ref::fsai(a, p)), fsai.plan().factor_transpose()), 1e-12);
    }
}

TEST(Fsai, ScalesGSoThatGAGTHasAUnitDiagonal) {
  const auto A = geometric_laplacian(60);
  FsaiPreconditioner<M> fsai(ExecSpace(), A, options(2));
  ASSERT_TRUE(fsai.outcome().ok());
  const auto a = ref::to_dense(A);
  const auto g = ref::to_dense(fsai.plan().factor());

  for (std::size_t i = 0; i < a.size(); ++i) {
    double gag = 0;
    for (std::size_t j = 0; j < a.size(); ++j)
      for (std::size_t k = 0; k < a.size(); ++k) gag += g[i][j] * a[j][k] * g[i][k];
    EXPECT_NEAR(gag, 1.0, 1e-12) << "row " << i;
    EXPECT_GT(g[i][i], 0.0) << "row " << i;
  }
}

TEST(Fsai, IsTheExactInverseFactorOnAFullLowerPattern) {
  // Tridiagonal SPD of 4 rows: tril(A^3) is the whole lower triangle, so G^T G = A^{-1}.
  const auto A = matrix_from_dense({{4, -1, 0, 0}, {-1, 4, -1, 0}, {0, -1, 4, -1}, {0, 0, -1, 4}});
  FsaiPreconditioner<M> fsai(ExecSpace(), A, options(3));
  ASSERT_TRUE(fsai.outcome().ok());
  for (int column = 0; column < 4; ++column) {
    std::vector<double> e(4, 0.0);
    e[std::size_t(column)] = 1;
    Vector<double, Device> ae("ae", 4), y("y", 4);
    KokkosSparse::spmv("N", 1.0, A, to_view(e), 0.0, ae);

    fsai.apply(ExecSpace(), ae, y);

    expect_near_entrywise(to_std(y), e, 1e-14);
  }
}

/// An SPD arrow: a tridiagonal matrix of n rows whose row and column 0 are full.
std::vector<std::vector<double>> arrow(std::size_t n) {
  std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    a[i][i] = i == 0 ? double(n) : 4.0;
    if (i > 0) a[i][i - 1] = a[i - 1][i] = -1;
    if (i > 1) a[i][0] = a[0][i] = -0.5;
  }
  return a;
}

TEST(Fsai, MatchesTheOracleWhereRowsOfAAreLongerThanAThreadMerges) {
  // Row 0 (400 entries, beyond impl::merged_row_limit) is in every row's pattern.
  const auto a = arrow(400);
  const auto A = matrix_from_dense(a);
  FsaiPreconditioner<M> fsai(ExecSpace(), A, options(1));
  ASSERT_TRUE(fsai.outcome().ok()) << fsai.outcome().reason;
  const M& G = fsai.plan().factor();
  expect_near_entrywise(to_std(G.values), ref::at_entries(ref::fsai(a, ref::stored(G)), G), 1e-12);
}

TEST(Fsai, CutsLongRowsToTheirLargestEntries) {
  // The symmetric part of a matrix with hubs (rows of ~40 entries), SPD by diagonal dominance.
  auto a = ref::to_dense(power_law_matrix(120, 3, 2));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) a[i][j] = a[j][i] = (a[i][j] + a[j][i]) / 2;
  const auto A = matrix_from_dense(a);
  FsaiOptions o = options(1);
  o.max_unknowns = 5;
  FsaiPreconditioner<M> fsai(ExecSpace(), A, o);
  ASSERT_TRUE(fsai.outcome().ok()) << fsai.outcome().reason;
  const M& G = fsai.plan().factor();
  const auto p = ref::stored(G);
  std::size_t longest = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_TRUE(p[i][i]);
    longest = std::max<std::size_t>(longest, std::count(p[i].begin(), p[i].end(), true));
  }

  EXPECT_EQ(longest, 5u);
  expect_near_entrywise(to_std(G.values), ref::at_entries(ref::fsai(a, p), G), 1e-12);
}

TEST(Fsai, ScratchOrGlobalWorkSpaceInAnyBatchesGiveTheSameFactorBitForBit) {
  const auto A = geometric_laplacian(80);
  FsaiOptions all_scratch = options(2), global = options(2), split = options(2),
              small_batches = options(2);
  all_scratch.scratch_unknowns = 64;
  global.scratch_unknowns = 0;
  split.scratch_unknowns = 8;
  small_batches.scratch_unknowns = 0;
  small_batches.workspace_bytes = 2048;
  const FsaiPreconditioner<M> scratch(ExecSpace(), A, all_scratch),
      in_global(ExecSpace(), A, global), in_both(ExecSpace(), A, split),
      batched(ExecSpace(), A, small_batches);
  ASSERT_TRUE(scratch.outcome().ok() && in_global.outcome().ok() && in_both.outcome().ok() &&
              batched.outcome().ok());

  const std::size_t n = std::size_t(A.numRows());
  EXPECT_EQ(scratch.plan().rows_in_global_memory(), 0u);
  EXPECT_EQ(in_global.plan().rows_in_global_memory(), n);
  EXPECT_GT(in_both.plan().rows_in_global_memory(), 0u);
  EXPECT_LT(in_both.plan().rows_in_global_memory(), n);
  EXPECT_GT(batched.plan().num_batches(), 10u);
  const auto values = to_std(scratch.plan().factor().values);
  EXPECT_EQ(to_std(in_global.plan().factor().values), values);
  EXPECT_EQ(to_std(in_both.plan().factor().values), values);
  EXPECT_EQ(to_std(batched.plan().factor().values), values);
}

/// y = G^T (G x) with the oracle's G.
class OracleFsai final : public Operator<double, Device> {
 public:
  OracleFsai(const M& G, const M& Gt) : m_G(G), m_Gt(Gt), m_tmp("tmp", std::size_t(G.numRows())) {}
  std::size_t num_rows() const override { return m_tmp.extent(0); }
  std::size_t num_cols() const override { return m_tmp.extent(0); }
  std::string name() const override { return "oracle fsai"; }
  void apply(const ExecSpace& exec, const const_vector_type& x, const vector_type& y, double alpha,
             double beta) const override {
    m_G.apply(exec, x, m_tmp);
    m_Gt.apply(exec, m_tmp, y, alpha, beta);
  }

 private:
  CrsOperator<M> m_G, m_Gt;
  vector_type m_tmp;
};

/// CG's iterations to 1e-8 on A x = b (b a fixed pattern) with `precond`; it must converge.
int cg_iterations(const M& A, const Operator<double, Device>& precond) {
  const CrsOperator<M> op(A);
  const auto b = to_view(pattern_vector(std::size_t(A.numRows()), 0.5));
  KrylovOptions c;
  c.tolerance = 1e-8;
  Vector<double, Device> x("x", A.numRows());
  const SolveResult r = cg_solve(ExecSpace(), op, precond, b, x, c);
  EXPECT_TRUE(r.converged()) << r.reason;
  return r.iterations;
}

TEST(Fsai, CgTakesTheIterationsOfTheOraclePreconditioner) {
  const auto A = geometric_laplacian(500);
  FsaiPreconditioner<M> fsai(ExecSpace(), A, options(2, 0.1));
  ASSERT_TRUE(fsai.outcome().ok());
  const M& G = fsai.plan().factor();
  const M& Gt = fsai.plan().factor_transpose();
  const auto g = ref::fsai(ref::to_dense(A), ref::stored(G));
  const OracleFsai oracle(
      make_crs<M>("G", 500, 500, G.graph.row_map, G.graph.entries, to_view(ref::at_entries(g, G))),
      make_crs<M>("Gt", 500, 500, Gt.graph.row_map, Gt.graph.entries,
                  to_view(ref::at_entries(ref::transpose(g), Gt))));
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);

  const int with_fsai = cg_iterations(A, fsai), with_oracle = cg_iterations(A, oracle),
            with_jacobi = cg_iterations(A, jacobi);

  EXPECT_NEAR(with_fsai, with_oracle, 1);
  EXPECT_LT(with_fsai, with_jacobi);
}

/// B's values rounded to float, in double, on B's graph.
M rounded_to_float(const M& B) {
  std::vector<double> values = to_std(B.values);
  for (double& v : values) v = double(float(v));
  return make_crs<M>("rounded", B.numRows(), B.numCols(), B.graph.row_map, B.graph.entries,
                     to_view(values));
}

// G is computed in double as without the option; the apply is G^T G of G's values rounded to
// float, a fixed SPD matrix, so CG takes the iterations of double's; new values are rounded again.
TEST(Fsai, SinglePrecisionValuesApplyTheRoundedFactor) {
  const auto A = geometric_laplacian(500);
  FsaiOptions single_options = options(2, 0.1);
  single_options.apply_precision = SpmvPrecision::single;
  FsaiPreconditioner<M> fsai(ExecSpace(), A, options(2, 0.1));
  FsaiPreconditioner<M> single(ExecSpace(), A, single_options);
  ASSERT_TRUE(single.outcome().ok()) << single.outcome().reason;
  EXPECT_EQ(single.name(), "fsai, single-precision values");
  EXPECT_EQ(to_std(single.plan().factor().values), to_std(fsai.plan().factor().values));

  const auto x = to_view(pattern_vector(500, 0.5));
  const auto expect_rounded_product = [&](const FsaiPreconditioner<M>& P) {
    const OracleFsai rounded(rounded_to_float(P.plan().factor()),
                             rounded_to_float(P.plan().factor_transpose()));
    Vector<double, Device> y("y", 500), expected("expected", 500);
    P.apply(ExecSpace(), x, y);
    rounded.apply(ExecSpace(), x, expected, 1.0, 0.0);
    expect_near_entrywise(to_std(y), to_std(expected), 1e-13);
    return to_std(y);
  };
  const auto y_single = expect_rounded_product(single);
  Vector<double, Device> y("y", 500);
  fsai.apply(ExecSpace(), x, y);
  double largest_difference = 0;
  for (std::size_t i = 0; i < y_single.size(); ++i)
    largest_difference = std::max(largest_difference, std::abs(y_single[i] - to_std(y)[i]));
  EXPECT_GT(largest_difference, 1e-12) << "the float values were not the ones applied";

  EXPECT_NEAR(cg_iterations(A, single), cg_iterations(A, fsai), 1);

  // New values (A scaled by 3): refactored and rounded again.
  typename M::values_type::non_const_type scaled("scaled", A.values.extent(0));
  Kokkos::deep_copy(scaled, A.values);
  KokkosBlas::scal(scaled, 3.0, scaled);
  const M A3("A3", A.numCols(), scaled, A.graph);
  ASSERT_TRUE(single.refactor(ExecSpace(), A3).ok());
  const auto y_scaled = expect_rounded_product(single);
  expect_near_entrywise(
      y_scaled,
      [&] {
        auto third = y_single;
        for (double& v : third) v /= 3;
        return third;
      }(),
      1e-6);
}

TEST(Fsai, NamesTheRowWhereAIsNotPositiveDefinite) {
  const auto A = matrix_from_dense({{2, 1, 0}, {1, 2, 3}, {0, 3, 1}});
  FsaiPreconditioner<M> fsai(ExecSpace(), A);

  EXPECT_EQ(fsai.outcome().status, Status::not_positive_definite);
  EXPECT_EQ(fsai.outcome().index, 2);
  EXPECT_NE(fsai.outcome().reason.find("row 2 of FSAI's factor"), std::string::npos);
  Vector<double, Device> x("x", 3), y("y", 3);
  EXPECT_THROW(fsai.apply(ExecSpace(), x, y), InvalidState);
}

TEST(Fsai, ReportsNaNAsNotFinite) {
  const auto A =
      matrix_from_triplets(2, 2, {{0, 0, 1}, {1, 1, std::numeric_limits<double>::quiet_NaN()}});

  EXPECT_EQ(FsaiPreconditioner<M>(ExecSpace(), A).outcome().status, Status::not_finite);
}

TEST(Fsai, RejectsMisuse) {
  const auto A = matrix_from_dense({{2, 0}, {0, 4}});
  FsaiPlan<M> plan;
  EXPECT_THROW(fsai_factor(ExecSpace(), plan, A), InvalidState);
  EXPECT_THROW(fsai_analyze(ExecSpace(), plan, A, options(0)), InvalidArgument);
  EXPECT_THROW(fsai_analyze(ExecSpace(), plan, A, options(1, -0.5)), InvalidArgument);
  for (const int scratch : {-1, 65}) {
    FsaiOptions bad = options(1);
    bad.scratch_unknowns = scratch;
    EXPECT_THROW(fsai_analyze(ExecSpace(), plan, A, bad), InvalidArgument);
  }
  EXPECT_THROW(fsai_analyze(ExecSpace(), plan, matrix_from_triplets(2, 3, {{0, 0, 1}})),
               InvalidMatrix);
}

}  // namespace
}  // namespace syncfree::test
