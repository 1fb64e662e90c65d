// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cfloat>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_single_precision.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Single = SinglePrecisionMatrix<M>;

std::vector<double> smooth(int n) {
  std::vector<double> b(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = std::cos(0.3 * i) + 0.1;
  return b;
}

std::vector<double> scaled(std::vector<double> v, double factor) {
  for (double& e : v) e *= factor;
  return v;
}

TEST(SinglePrecision, ScaleExponentsArePowersOfTwoBothWaysRepresent) {
  EXPECT_EQ(impl::scale_exponent(1.0), 0);
  EXPECT_EQ(impl::scale_exponent(3.0), 1);
  EXPECT_EQ(impl::scale_exponent(0.75), -1);
  EXPECT_EQ(impl::scale_exponent(0.0), 0);
  EXPECT_EQ(impl::scale_exponent(-0.0), 0);
  EXPECT_EQ(impl::scale_exponent(INFINITY), 0);
  EXPECT_EQ(impl::scale_exponent(NAN), 0);
  EXPECT_EQ(impl::scale_exponent(1e-310), -1022);  // subnormal
  EXPECT_EQ(impl::scale_exponent(DBL_MAX), 1022);
  for (const int e : {-1022, -200, -1, 0, 1, 200, 1022}) {
    EXPECT_EQ(impl::power_of_two(e), std::ldexp(1.0, e));
    EXPECT_EQ(impl::power_of_two(e) * impl::power_of_two(-e), 1.0);
  }
}

TEST(SinglePrecision, RoundsValuesOnTheSameGraphAndNamesAnEntryBeyondFloat) {
  const auto A = geometric_laplacian(200);
  const Single S = round_to_single(ExecSpace(), A);
  EXPECT_EQ(S.graph.entries.data(), A.graph.entries.data());
  EXPECT_EQ(S.graph.row_map.data(), A.graph.row_map.data());
  const auto a = to_std(A.values);
  const auto s = to_std(S.values);
  ASSERT_EQ(a.size(), s.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(s[k], static_cast<float>(a[k]));

  const auto big = matrix_from_triplets(3, 3, {{0, 0, 1}, {1, 1, 1}, {2, 0, 1e39}, {2, 2, 1}});
  try {
    round_to_single(ExecSpace(), big);
    ADD_FAILURE() << "an entry of 1e39 was rounded to float";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_NE(std::string(e.what()).find("row 2: an entry is beyond single precision's range"),
              std::string::npos)
        << e.what();
  }
}

TEST(SinglePrecision, ApplyCommutesExactlyWithScalesBeyondFloatsRange) {
  // A residual of 1e-60 or 1e+60 has no float representation: the apply scales it by a power of
  // two first, so the result is the scaled result of the unscaled residual, bit for bit.
  const auto A = geometric_convection(600);
  const int n = A.numRows();
  const auto M_single = in_single_precision<IluPreconditioner>(ExecSpace(), A);
  ASSERT_TRUE(M_single->outcome().ok());
  const auto r = smooth(n);
  Vector<double, Device> z("z", n), z_scaled("z_scaled", n);
  M_single->apply(ExecSpace(), to_view(r), z);
  const auto reference = to_std(z);
  for (const int e : {-200, -130, 130, 200}) {
    SCOPED_TRACE(e);
    const double factor = std::ldexp(1.0, e);
    M_single->apply(ExecSpace(), to_view(scaled(r, factor)), z_scaled);
    EXPECT_EQ(to_std(z_scaled), scaled(reference, factor));
  }
  // apply_and_dots: the same result, and its dot products.
  const auto u = to_view(scaled(r, 0.5));
  Vector<double, Device> sums("sums", 2);
  M_single->apply_and_dots(ExecSpace(), to_view(r), z_scaled, u, sums);
  EXPECT_EQ(to_std(z_scaled), reference);
  double uz = 0, zz = 0;
  for (int i = 0; i < n; ++i) {
    uz += 0.5 * r[std::size_t(i)] * reference[std::size_t(i)];
    zz += reference[std::size_t(i)] * reference[std::size_t(i)];
  }
  const auto got_sums = to_std(sums);
  EXPECT_NEAR(got_sums[0], uz, 1e-12 * zz);
  EXPECT_NEAR(got_sums[1], zz, 1e-12 * zz);
  // alpha and beta as Operator::apply defines them.
  Vector<double, Device> y = to_view(std::vector<double>(std::size_t(n), 1.0));
  M_single->apply(ExecSpace(), to_view(r), y, 2.0, -1.0);
  const auto got = to_std(y);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[std::size_t(i)], 2.0 * reference[std::size_t(i)] - 1.0);
}

TEST(SinglePrecision, IluAppliesTheDoubleFactorsToFloatAccuracy) {
  const auto A = geometric_convection(2000);
  const int n = A.numRows();
  IluPreconditioner<M> M_double(ExecSpace(), A);
  const auto M_single = in_single_precision<IluPreconditioner>(ExecSpace(), A);
  ASSERT_TRUE(M_double.outcome().ok() && M_single->outcome().ok());
  EXPECT_NE(M_single->name().find("single precision"), std::string::npos) << M_single->name();
  Vector<double, Device> z_double("z_double", n), z_single("z_single", n);
  const auto r = to_view(smooth(n));
  M_double.apply(ExecSpace(), r, z_double);
  M_single->apply(ExecSpace(), r, z_single);
  const auto d = to_std(z_double), s = to_std(z_single);
  double difference = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    difference = std::max(difference, std::abs(d[std::size_t(i)] - s[std::size_t(i)]));
    norm = std::max(norm, std::abs(d[std::size_t(i)]));
  }
  EXPECT_LT(difference, 1e-4 * norm);
  EXPECT_GT(difference, 0.0);  // it did run in float
}

struct NamedPreconditioner {
  std::string name;
  bool spd;
  std::function<std::unique_ptr<Preconditioner<M>>(const M&)> make_double;
  std::function<std::unique_ptr<Preconditioner<M>>(const M&)> make_single;
};

std::vector<NamedPreconditioner> preconditioners() {
  const ExecSpace exec;
  std::vector<NamedPreconditioner> all;
  all.push_back({"ilu0", false,
                 [=](const M& A) { return std::make_unique<IluPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<IluPreconditioner>(exec, A); }});
  all.push_back({"ic0", true,
                 [=](const M& A) { return std::make_unique<IcPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<IcPreconditioner>(exec, A); }});
  all.push_back({"dilu", false,
                 [=](const M& A) { return std::make_unique<DiluPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<DiluPreconditioner>(exec, A); }});
  all.push_back({"spai", false,
                 [=](const M& A) { return std::make_unique<SpaiPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<SpaiPreconditioner>(exec, A); }});
  all.push_back({"fsai", true,
                 [=](const M& A) { return std::make_unique<FsaiPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<FsaiPreconditioner>(exec, A); }});
  all.push_back({"jacobi", false,
                 [=](const M& A) { return std::make_unique<JacobiPreconditioner<M>>(exec, A); },
                 [=](const M& A) { return in_single_precision<JacobiPreconditioner>(exec, A); }});
  return all;
}

TEST(SinglePrecision, DoubleSolvesReachTolerancesBelowFloatsEpsilonInAboutAsManyIterations) {
  // A float preconditioner changes M, not the solve: the double-precision Krylov solver still
  // reaches 1e-10, far below float's 6e-8, in nearly the iterations of the double preconditioner.
  // Nonsymmetric problems take FGMRES: rounding each input to float makes M vary a little from
  // one application to the next, which FGMRES allows for (it keeps M's images); GMRES applies M
  // once more to its combined update and loses up to a restart cycle there (ILU(0) here: 27
  // iterations in double, 42 in single).
  auto spd = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson3d:14"));
  auto nonsymmetric = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:40"));
  KrylovOptions options;
  options.tolerance = 1e-10;
  options.max_iterations = 2000;
  GmresOptions gmres;
  gmres.tolerance = options.tolerance;
  gmres.max_iterations = options.max_iterations;
  for (const auto& p : preconditioners()) {
    SCOPED_TRACE(p.name);
    const auto& problem = p.spd ? spd : nonsymmetric;
    const M& A = problem.A;
    const CrsOperator<M> op(A);
    const int n = A.numRows();
    int iterations[2] = {0, 0};
    for (const bool single : {false, true}) {
      const auto precond = single ? p.make_single(A) : p.make_double(A);
      ASSERT_TRUE(precond->outcome().ok()) << precond->outcome().reason;
      Vector<double, Device> x("x", n);
      const SolveResult result = p.spd
                                     ? cg_solve(ExecSpace(), op, *precond, problem.b, x, options)
                                     : fgmres_solve(ExecSpace(), op, *precond, problem.b, x, gmres);
      ASSERT_EQ(result.status, Status::success) << precond->name();
      // The true residual, in double.
      Vector<double, Device> r("r", n);
      Kokkos::deep_copy(r, problem.b);
      op.apply(ExecSpace(), x, r, -1.0, 1.0);
      EXPECT_LE(impl::nrm2(ExecSpace(), r), 1.01e-10 * impl::nrm2(ExecSpace(), problem.b));
      iterations[single] = result.iterations;
    }
    EXPECT_LE(iterations[1], iterations[0] + std::max(2, iterations[0] / 10));
  }
}

TEST(SinglePrecision, RefactorsForNewValuesAndReportsAFailedFactorization) {
  const auto A = geometric_laplacian(500);
  const int n = A.numRows();
  const auto precond = in_single_precision<IcPreconditioner>(ExecSpace(), A);
  ASSERT_TRUE(precond->outcome().ok());
  Vector<double, Device> z("z", n), z2("z2", n);
  const auto r = to_view(smooth(n));
  precond->apply(ExecSpace(), r, z);

  // 4 A: the factor doubles (exact in float), the apply quarters.
  const M A4("A4", A.numCols(), to_view(scaled(to_std(A.values), 4.0), "values"), A.graph);
  ASSERT_TRUE(precond->refactor(ExecSpace(), A4).ok());
  precond->apply(ExecSpace(), r, z2);
  EXPECT_EQ(to_std(z2), scaled(to_std(z), 0.25));

  // A zero diagonal: the inner factorization's outcome, and the apply refuses.
  const auto singular = matrix_from_triplets(2, 2, {{0, 0, 1}, {1, 0, 1}, {1, 1, 0}});
  const auto jacobi = in_single_precision<JacobiPreconditioner>(ExecSpace(), singular);
  EXPECT_EQ(jacobi->outcome().status, Status::zero_pivot);
  EXPECT_EQ(jacobi->outcome().index, 1);
  Vector<double, Device> x("x", 2), y("y", 2);
  EXPECT_THROW(jacobi->apply(ExecSpace(), x, y), InvalidState);
}

}  // namespace
}  // namespace syncfree::test
