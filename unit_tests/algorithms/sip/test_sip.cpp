// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <limits>
#include <string>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_krylov_reference.hpp"
#include "unit_tests/utils/syncfree_sip_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = sip_reference;

constexpr SipVariant variants[] = {SipVariant::level_sync, SipVariant::element_sync,
                                   SipVariant::triangular};

M problem(const std::string& spec) {
  return generate_problem<M>(ExecSpace(), parse_problem_spec(spec)).A;
}

SipOptions options(SipVariant variant, double alpha) {
  SipOptions o;
  o.variant = variant;
  o.alpha = alpha;
  return o;
}

struct GridCase {
  std::string spec;
  ref::Grid grid;
};

const std::vector<GridCase> grid_cases = {{"poisson2d:23", {23, 23, 1}},
                                          {"convdiff2d:17:30", {17, 17, 1}},
                                          {"poisson3d:9", {9, 9, 9}},
                                          {"convdiff3d:11:20", {11, 11, 11}}};

TEST(Sip, RecognizesTheGrid) {
  for (const auto& [spec, g] : grid_cases) {
    SCOPED_TRACE(spec);
    SipPlan<M> plan;
    sip_analyze(ExecSpace(), plan, problem(spec));
    EXPECT_EQ(plan.grid().nx, g.nx);
    EXPECT_EQ(plan.grid().ny, g.ny);
    EXPECT_EQ(plan.grid().nz, g.nz);
    EXPECT_EQ(plan.num_levels(), g.nx + g.ny + g.nz - 2);
  }
  // A given grid: the 23 x 23 matrix read as 23 x 23 x 1.
  SipOptions o;
  o.grid = {23, 23, 1};
  SipPlan<M> plan;
  sip_analyze(ExecSpace(), plan, problem("poisson2d:23"), o);
  EXPECT_EQ(plan.grid().nx, 23);
}

TEST(Sip, FactorAndApplyMatchTheSerialOracle) {
  for (const auto& [spec, g] : grid_cases)
    for (const double alpha : {0.0, 0.5, 0.92})
      for (const SipVariant variant : variants) {
        SCOPED_TRACE(spec + " alpha " + std::to_string(alpha) + " " + to_string(variant));
        const M A = problem(spec);
        SipPreconditioner<M> sip(ExecSpace(), A, options(variant, alpha));
        ASSERT_TRUE(sip.outcome().ok()) << sip.outcome().reason;
        const auto expected = ref::factor(A, g, alpha);
        const auto& f = sip.plan().factors();
        expect_near_entrywise(to_std(f.lx), expected.ls, 1e-13);
        expect_near_entrywise(to_std(f.ly), expected.lw, 1e-13);
        expect_near_entrywise(to_std(f.lz), expected.lb, 1e-13);
        expect_near_entrywise(to_std(f.b), expected.bp, 1e-13);
        expect_near_entrywise(to_std(f.ux), expected.un, 1e-13);
        expect_near_entrywise(to_std(f.uy), expected.ue, 1e-13);
        expect_near_entrywise(to_std(f.uz), expected.ut, 1e-13);

        const auto r = pattern_vector(std::size_t(g.n()), 0.5);
        const auto y0 = pattern_vector(std::size_t(g.n()), -1.0);
        for (int repeat = 0; repeat < 2; ++repeat) {  // the second on re-armed flags
          auto y = to_view(y0);
          sip.apply(ExecSpace(), to_view(r), y, 2.0, 0.5);
          auto z = ref::apply(expected, g, r);
          for (std::size_t i = 0; i < z.size(); ++i) z[i] = 2.0 * z[i] + 0.5 * y0[i];
          expect_near_entrywise(to_std(y), z, 1e-11);
        }
      }
}

/// With alpha = 0 nothing of the dropped fill is compensated: SIP is ILU(0).
TEST(Sip, AlphaZeroIsIlu0) {
  for (const auto& [spec, g] : grid_cases) {
    SCOPED_TRACE(spec);
    const M A = problem(spec);
    SipPreconditioner<M> sip(ExecSpace(), A, options(SipVariant::element_sync, 0.0));
    IluPreconditioner<M> ilu(ExecSpace(), A);
    ASSERT_TRUE(sip.outcome().ok());
    ASSERT_TRUE(ilu.outcome().ok());
    const auto r = to_view(pattern_vector(std::size_t(g.n()), 0.25));
    Vector<double, Device> y_sip("y_sip", std::size_t(g.n())), y_ilu("y_ilu", std::size_t(g.n()));
    sip.apply(ExecSpace(), r, y_sip);
    ilu.apply(ExecSpace(), r, y_ilu);
    expect_near_entrywise(to_std(y_sip), to_std(y_ilu), 1e-12);
  }
}

TEST(Sip, AsASolverMatchesTheOracleIterations) {
  const M A = problem("convdiff2d:20:10");
  const ref::Grid g{20, 20, 1};
  const auto expected_factors = ref::factor(A, g, 0.92);
  const auto host = to_host(A);
  const std::vector<double> b(400, 1.0);
  // The oracle: x += (LU)^{-1} (b - A x) until ||b - A x|| <= 1e-8 ||b||.
  std::vector<double> x(400, 0.0);
  int expected = 0;
  for (;; ++expected) {
    auto r = reference::spmv(host, x);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
    if (krylov_reference::norm(r) <= 1e-8 * krylov_reference::norm(b)) break;
    const auto d = ref::apply(expected_factors, g, r);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += d[i];
    ASSERT_LT(expected, 500);
  }
  for (const SipVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    SipPlan<M> plan;
    sip_analyze(ExecSpace(), plan, A, options(variant, 0.92));
    ASSERT_TRUE(sip_factor(ExecSpace(), plan, A).ok());
    Vector<double, Device> xs("x", 400);
    const auto result = sip_solve(ExecSpace(), plan, A, to_view(b), xs, 1e-8, 500);
    ASSERT_TRUE(result.converged()) << result.reason;
    EXPECT_NEAR(result.iterations, expected, 1);
    EXPECT_LE(result.relative_residual, 1e-8);
  }
}

TEST(Sip, KrylovIterationsMatchTheOracle) {
  const M A = problem("convdiff3d:14:20");
  const ref::Grid g{14, 14, 14};
  const auto f = ref::factor(A, g, 0.92);
  const auto oracle = [&](const std::vector<double>& u) { return ref::apply(f, g, u); };
  const std::vector<double> b(std::size_t(g.n()), 1.0);
  const int expected = krylov_reference::bicgstab(to_host(A), oracle, b, 1e-8, 500);
  ASSERT_GT(expected, 0);
  for (const SipVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    SipPreconditioner<M> sip(ExecSpace(), A, options(variant, 0.92));
    GmresOptions k;
    k.tolerance = 1e-8;
    k.max_iterations = 500;
    Vector<double, Device> x("x", b.size());
    const auto result =
        krylov_solve(KrylovSolver::bicgstab, ExecSpace(), CrsOperator<M>(A), sip, to_view(b), x, k);
    ASSERT_TRUE(result.converged()) << result.reason;
    EXPECT_NEAR(result.iterations, expected, 1);
  }
}

TEST(Sip, InnerIterationsAreSipStepsFromZero) {
  const M A = problem("poisson3d:8");
  const ref::Grid g{8, 8, 8};
  SipOptions o = options(SipVariant::element_sync, 0.92);
  o.inner_iterations = 3;
  SipPreconditioner<M> sip(ExecSpace(), A, o);
  ASSERT_TRUE(sip.outcome().ok());
  const auto f = ref::factor(A, g, 0.92);
  const auto host = to_host(A);
  const auto r = pattern_vector(512, 1.0);
  std::vector<double> z(512, 0.0);
  for (int it = 0; it < 3; ++it) {
    auto res = reference::spmv(host, z);
    for (std::size_t i = 0; i < res.size(); ++i) res[i] = r[i] - res[i];
    const auto d = ref::apply(f, g, res);
    for (std::size_t i = 0; i < z.size(); ++i) z[i] += d[i];
  }
  Vector<double, Device> y("y", 512);
  sip.apply(ExecSpace(), to_view(r), y);
  expect_near_entrywise(to_std(y), z, 1e-11);
}

TEST(Sip, RefusesMatricesThatAreNotFiveOrSevenPointGrids) {
  SipPlan<M> plan;
  try {
    sip_analyze(ExecSpace(), plan, geometric_laplacian(500));
    FAIL() << "an unstructured matrix was accepted";
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find("not a 5- or 7-point structured grid"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(sip_analyze(ExecSpace(), plan, problem("poisson3d27:6")), InvalidMatrix);
  // A 4 x 3 grid whose row 3 (i = 3, the end of a line) is coupled to row 4 (the next line).
  std::vector<Triplet> t;
  for (int p = 0; p < 12; ++p) {
    t.push_back({p, p, 4.0});
    if (p % 4 > 0) t.push_back({p, p - 1, -1.0}), t.push_back({p - 1, p, -1.0});
    if (p >= 4) t.push_back({p, p - 4, -1.0}), t.push_back({p - 4, p, -1.0});
  }
  t.push_back({3, 4, -0.5});
  sort_triplets(t);
  const M wrapped = matrix_from_triplets(12, 12, t);
  try {
    sip_analyze(ExecSpace(), plan, wrapped);
    FAIL() << "an entry across a line end was accepted";
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find("row 3, column 4 couples points that are not neighbours"),
              std::string::npos)
        << e.what();
  }
  SipOptions o;
  o.grid = {5, 5, 2};
  EXPECT_THROW(sip_analyze(ExecSpace(), plan, problem("poisson2d:7"), o), InvalidArgument);
  o = {};
  o.alpha = 1.5;
  EXPECT_THROW(sip_analyze(ExecSpace(), plan, problem("poisson2d:7"), o), InvalidArgument);
  o = {};
  o.team_size = 2048;
  EXPECT_THROW(sip_analyze(ExecSpace(), plan, problem("poisson2d:7"), o), InvalidArgument);
  EXPECT_THROW(parse_sip_variant("wavefront"), InvalidArgument);
}

TEST(Sip, ZeroPivotOrNaNNamesThePoint) {
  for (const SipVariant variant : variants) {
    SCOPED_TRACE(to_string(variant));
    M A = problem("poisson2d:6");
    // Point 0 has no lower neighbours: a zero diagonal there is a zero pivot.
    std::vector<Triplet> t;
    const auto h = to_host(A);
    for (int p = 0; p < 36; ++p)
      for (auto k = h.graph.row_map(p); k < h.graph.row_map(p + 1); ++k)
        t.push_back({p, int(h.graph.entries(k)), p == 0 ? 0.0 : double(h.values(k))});
    const M zero_row = matrix_from_triplets(36, 36, t);
    SipPlan<M> plan;
    sip_analyze(ExecSpace(), plan, zero_row, options(variant, 0.92));
    Outcome outcome = sip_factor(ExecSpace(), plan, zero_row);
    EXPECT_EQ(outcome.status, Status::zero_pivot);
    EXPECT_EQ(outcome.index, 0);
    Vector<double, Device> x("x", 36), y("y", 36);
    EXPECT_THROW(sip_apply(ExecSpace(), plan, x, y), InvalidState);

    for (auto& e : t)
      e.value = e.row == 20 && e.col == 20 ? std::numeric_limits<double>::quiet_NaN()
                                           : (e.row == 0 && e.col == 0 ? 4.0 : e.value);
    const M nan = matrix_from_triplets(36, 36, t);
    sip_analyze(ExecSpace(), plan, nan, options(variant, 0.92));
    outcome = sip_factor(ExecSpace(), plan, nan);
    EXPECT_EQ(outcome.status, Status::not_finite);
    EXPECT_EQ(outcome.index, 20);
  }
}

}  // namespace
}  // namespace syncfree::test
