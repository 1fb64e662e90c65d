// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Dense = std::vector<std::vector<double>>;

/// Kershaw's 4x4 SPD matrix (1978), whose IC(0) has a negative pivot in its last row, repeated
/// `blocks` times along the diagonal, consecutive blocks coupled by a weak SPD link.
Dense kershaw_blocks(int blocks) {
  const double k[4][4] = {{3, -2, 0, 2}, {-2, 3, -2, 0}, {0, -2, 3, -2}, {2, 0, -2, 3}};
  const int n = 4 * blocks;
  Dense a(std::size_t(n), std::vector<double>(std::size_t(n), 0.0));
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) a[std::size_t(4 * b + i)][std::size_t(4 * b + j)] = k[i][j];
  for (int b = 0; b + 1 < blocks; ++b) {
    const auto i = std::size_t(4 * b + 3), j = i + 1;
    a[i][j] = a[j][i] = -0.5;
    a[i][i] += 0.5;
    a[j][j] += 0.5;
  }
  return a;
}

/// The serial IC(0) of a dense matrix on its own lower pattern (row-oriented), or the row whose
/// pivot is not positive.
struct SerialIc {
  Dense l;
  int failed_row = -1;
};
SerialIc serial_ic0(const Dense& a) {
  const std::size_t n = a.size();
  SerialIc r{a, -1};
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (a[i][j] == 0) continue;
      double s = 0;
      for (std::size_t k = 0; k < j; ++k)
        if (a[i][k] != 0 && a[j][k] != 0) s += r.l[i][k] * r.l[j][k];
      r.l[i][j] = (r.l[i][j] - s) / r.l[j][j];
    }
    double d = r.l[i][i];
    for (std::size_t k = 0; k < i; ++k)
      if (a[i][k] != 0) d -= r.l[i][k] * r.l[i][k];
    if (!(d > 0)) {
      r.failed_row = int(i);
      return r;
    }
    r.l[i][i] = std::sqrt(d);
  }
  return r;
}

Dense to_dense(const M& A) {
  const auto h = to_host(A);
  Dense a(std::size_t(h.numRows()), std::vector<double>(std::size_t(h.numCols()), 0.0));
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      a[std::size_t(i)][std::size_t(h.graph.entries(k))] = h.values(k);
  return a;
}

/// A + shift * diag(A), built entry by entry.
Dense shifted(Dense a, double shift) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i][i] *= 1 + shift;
  return a;
}

/// The values of `factor` (a lower triangle) against the dense `expected`, entry by entry.
void expect_factor_matches(const M& factor, const Dense& expected) {
  const auto h = to_host(factor);
  std::vector<double> want;
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      want.push_back(expected[std::size_t(i)][std::size_t(h.graph.entries(k))]);
  expect_near_entrywise(to_std(h.values), want, 1e-12);
}

std::vector<double> smooth(int n) {
  std::vector<double> b(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = std::cos(0.3 * i) + 0.1;
  return b;
}

/// (A + A^T) / 2 of a dense matrix.
Dense symmetric_part(const Dense& a) {
  Dense s = a;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a.size(); ++j) s[i][j] = 0.5 * (a[i][j] + a[j][i]);
  return s;
}

TEST(Ic, MatchesTheSerialFactorOnUnstructuredMatrices) {
  // The arrow's last row holds every column: on GPUs its entries are matched from the short rows'
  // side, reading entries of the row other lanes wrote.
  const auto arrow = matrix_from_dense<M>(symmetric_part(to_dense(dense_last_row_and_column(400))));
  for (const auto& A : {geometric_laplacian(300), geometric_laplacian(400, 3), arrow}) {
    IcPlan<M> plan;
    ic_analyze(ExecSpace(), plan, A);
    const Outcome outcome = ic_factor(ExecSpace(), plan, A);
    ASSERT_TRUE(outcome.ok()) << outcome.reason;
    const SerialIc expected = serial_ic0(to_dense(A));
    ASSERT_EQ(expected.failed_row, -1);
    expect_factor_matches(plan.factor(), expected.l);
  }
}

TEST(Ic, AppliesTheSameOperatorAsIlu0OnASymmetricMatrix) {
  // For a symmetric A, ILU(0)'s U is D L^T with IC(0)'s L = L_ilu D^{1/2}: the same inverse.
  const auto A = geometric_laplacian(1500, 9);
  const int n = A.numRows();
  IcPreconditioner<M> ic(ExecSpace(), A);
  IluPreconditioner<M> ilu(ExecSpace(), A);
  ASSERT_TRUE(ic.outcome().ok() && ilu.outcome().ok());
  Vector<double, Device> x_ic("x_ic", n), x_ilu("x_ilu", n);
  const auto b = to_view(smooth(n));

  ic.apply(ExecSpace(), b, x_ic);
  ilu.apply(ExecSpace(), b, x_ilu);

  expect_near_entrywise(to_std(x_ic), to_std(x_ilu), 1e-10);
  EXPECT_LT(ic.plan().num_factor_entries(), ilu.plan().num_factor_entries());
}

TEST(Ic, FactorsTheShiftedMatrixWhenAskedTo) {
  const auto A = geometric_laplacian(400, 5);
  IcOptions options;
  options.shift = 0.25;
  IcPlan<M> plan(options);
  ic_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(ic_factor(ExecSpace(), plan, A).ok());
  expect_factor_matches(plan.factor(), serial_ic0(shifted(to_dense(A), 0.25)).l);

  IluOptions ilu_options;
  ilu_options.shift = 0.25;
  IluPlan<M> ilu(ilu_options);
  ilu_analyze(ExecSpace(), ilu, A);
  ASSERT_TRUE(ilu_factor(ExecSpace(), ilu, A).ok());
  const auto B = matrix_from_dense<M>(shifted(to_dense(A), 0.25));
  IluPlan<M> unshifted;
  ilu_analyze(ExecSpace(), unshifted, B);
  ASSERT_TRUE(ilu_factor(ExecSpace(), unshifted, B).ok());
  expect_near_entrywise(to_std(ilu.factors().values), to_std(unshifted.factors().values), 1e-12);
}

TEST(Ic, NamesTheRowWhosePivotIsNotPositive) {
  const auto A = matrix_from_dense<M>(kershaw_blocks(1));
  ASSERT_EQ(serial_ic0(kershaw_blocks(1)).failed_row, 3);
  IcPlan<M> plan;
  ic_analyze(ExecSpace(), plan, A);
  const Outcome outcome = ic_factor(ExecSpace(), plan, A);

  EXPECT_EQ(outcome.status, Status::not_positive_definite);
  EXPECT_EQ(outcome.index, 3);
  EXPECT_NE(outcome.reason.find("row 3: the pivot is not positive"), std::string::npos)
      << outcome.reason;
  EXPECT_FALSE(plan.factored());
  Vector<double, Device> x("x", 4);
  EXPECT_THROW(ic_apply(ExecSpace(), plan, x, x), InvalidState);
}

TEST(Ic, AutomaticShiftMakesCgConvergeWhereIlu0AndIc0BreakDown) {
  const auto A = matrix_from_dense<M>(kershaw_blocks(250));
  const int n = A.numRows();
  const CrsOperator<M> op(A);
  const auto b = to_view(smooth(n));
  KrylovOptions c;
  c.tolerance = 1e-10;
  c.max_iterations = 500;

  // ILU(0) factors without a zero pivot, but a negative one: CG stops honestly.
  IluPreconditioner<M> ilu(ExecSpace(), A);
  ASSERT_TRUE(ilu.outcome().ok());
  EXPECT_EQ(impl::ilu_pivot_signs(ExecSpace(), ilu.plan(), A).index, 3);
  Vector<double, Device> x("x", n);
  EXPECT_EQ(cg_solve(ExecSpace(), op, ilu, b, x, c).status, Status::breakdown);
  EXPECT_EQ(IcPreconditioner<M>(ExecSpace(), A).outcome().status, Status::not_positive_definite);

  IcOptions ic_options;
  ic_options.auto_shift = true;
  IcPreconditioner<M> ic(ExecSpace(), A, ic_options);
  IluOptions ilu_options;
  ilu_options.auto_shift = true;
  IluPreconditioner<M> shifted_ilu(ExecSpace(), A, ilu_options);
  for (const Preconditioner<M>* precond : {static_cast<const Preconditioner<M>*>(&ic),
                                           static_cast<const Preconditioner<M>*>(&shifted_ilu)}) {
    SCOPED_TRACE(precond->name());
    ASSERT_TRUE(precond->outcome().ok()) << precond->outcome().reason;
    Kokkos::deep_copy(x, 0.0);
    const SolveResult r = cg_solve(ExecSpace(), op, *precond, b, x, c);
    EXPECT_TRUE(r.converged()) << r.reason;
  }
  EXPECT_GE(ic.shift(), impl::smallest_auto_shift);
  EXPECT_GT(ic.shift_attempts(), 1);
  EXPECT_NE(ic.name().find("shift"), std::string::npos);
  // The first shift of the sequence that works: the one tried before it does not.
  IcOptions before;
  before.shift = ic.shift() > impl::smallest_auto_shift ? ic.shift() / 2 : 0.0;
  EXPECT_FALSE(IcPreconditioner<M>(ExecSpace(), A, before).outcome().ok());
  EXPECT_GE(shifted_ilu.shift(), impl::smallest_auto_shift);
  EXPECT_TRUE(impl::ilu_pivot_signs(ExecSpace(), shifted_ilu.plan(), A).ok());
}

TEST(Ic, AutomaticShiftLeavesAMatrixThatNeedsNoneUnshifted) {
  const auto A = geometric_laplacian(300);
  IcOptions options;
  options.auto_shift = true;
  IcPreconditioner<M> ic(ExecSpace(), A, options);
  ASSERT_TRUE(ic.outcome().ok());
  EXPECT_EQ(ic.shift(), 0.0);
  EXPECT_EQ(ic.shift_attempts(), 1);
}

TEST(Ic, OrderedFactorPreconditionsCg) {
  const auto A = geometric_laplacian(3000, 13);
  const int n = A.numRows();
  const CrsOperator<M> op(A);
  const auto b = to_view(smooth(n));
  KrylovOptions c;
  c.tolerance = 1e-9;
  int natural_iterations = 0;
  for (const auto method :
       {OrderingMethod::natural, OrderingMethod::multicolor, OrderingMethod::rcm}) {
    SCOPED_TRACE(to_string(method));
    OrderingOptions ordering;
    ordering.method = method;
    IcPreconditioner<M> ic(ExecSpace(), A, {}, ordering);
    ASSERT_TRUE(ic.outcome().ok()) << ic.outcome().reason;
    Vector<double, Device> x("x", n);
    const SolveResult r = cg_solve(ExecSpace(), op, ic, b, x, c);
    EXPECT_TRUE(r.converged()) << r.reason;
    if (method == OrderingMethod::natural) natural_iterations = r.iterations;
    // Reordering changes the factor, not its quality by much.
    EXPECT_LT(r.iterations, 2 * natural_iterations + 10);
  }
}

TEST(Ic, RepeatsItsFactorAndApplyBitForBit) {
  const auto A = geometric_laplacian(4000, 17);
  const int n = A.numRows();
  IcOptions options;
  options.reproducible = true;
  IcPlan<M> plan(options);
  ic_analyze(ExecSpace(), plan, A);
  const auto b = to_view(smooth(n));
  std::vector<double> first_factor, first_x;
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(ic_factor(ExecSpace(), plan, A).ok());
    Vector<double, Device> x("x", n);
    ic_apply(ExecSpace(), plan, b, x);
    if (run == 0) {
      first_factor = to_std(plan.factor().values);
      first_x = to_std(x);
    } else {
      EXPECT_EQ(to_std(plan.factor().values), first_factor);
      EXPECT_EQ(to_std(x), first_x);
    }
  }
}

IcOptions column_push() {
  IcOptions options;
  options.upper_solve = IcUpperSolve::column_push;
  return options;
}

TEST(Ic, ColumnPushAppliesWhatTheTransposedCopyApplies) {
  // The arrows' last rows feed every other row: n - 1 pushes from one row, one feeder each. In
  // `arrow` a chain joins the rows (400 levels: sync-free); in `star` nothing else does (2 levels:
  // on GPUs, by levels, the last row on the 32-lane launch). On GPUs the 2-D grids take both
  // schedules: poisson2d:40's 79 levels hold 20 rows on average, too few for a launch each
  // (sync-free), poisson2d:100's 199 levels 50 (by levels).
  const auto arrow = matrix_from_dense<M>(symmetric_part(to_dense(dense_last_row_and_column(400))));
  Dense star_entries(1000, std::vector<double>(1000, 0.0));
  for (std::size_t i = 0; i + 1 < 1000; ++i) {
    star_entries[i][i] = 2;
    star_entries[999][i] = star_entries[i][999] = -1;
  }
  star_entries[999][999] = 1001;
  const auto star = matrix_from_dense<M>(star_entries);
  const auto grid = [](const char* spec) {
    return generate_problem<M>(ExecSpace(), parse_problem_spec(spec)).A;
  };
  const bool gpu = !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  enum Schedule { sync_free, by_levels, either };
  const std::vector<std::pair<M, Schedule>> cases = {
      {geometric_laplacian(300), either},
      {geometric_laplacian(3000, 3), either},
      {arrow, sync_free},
      {star, gpu ? by_levels : sync_free},
      {grid("poisson2d:40"), sync_free},
      {grid("poisson2d:100"), gpu ? by_levels : sync_free}};
  for (const auto& [A, schedule] : cases) {
    const int n = A.numRows();
    IcPlan<M> copy, push(column_push());
    ic_analyze(ExecSpace(), copy, A);
    ic_analyze(ExecSpace(), push, A);
    if (schedule != either) {
      EXPECT_EQ(push.column_push_by_levels(), schedule == by_levels);
    }
    const auto b = to_view(smooth(n));
    Vector<double, Device> want("want", n), x("x", n);
    // Applies repeat (the counters are back at zero after each) and follow new values.
    for (const double scale : {1.0, 2.0}) {
      M scaled = A;
      auto values = to_std(A.values);
      for (auto& v : values) v *= scale;
      scaled.values = to_view(values);
      ASSERT_TRUE(ic_factor(ExecSpace(), copy, scaled).ok());
      ASSERT_TRUE(ic_factor(ExecSpace(), push, scaled).ok());
      ic_apply(ExecSpace(), copy, b, want);
      for (int repeat = 0; repeat < 3; ++repeat) {
        Kokkos::deep_copy(x, 0.0);
        ic_apply(ExecSpace(), push, b, x);
        expect_near_entrywise(to_std(x), to_std(want), 1e-12);
      }
    }
    // Several right-hand sides, column by column.
    Kokkos::View<double**, Kokkos::LayoutLeft, Device> B("B", n, 2), X("X", n, 2);
    Kokkos::deep_copy(Kokkos::subview(B, Kokkos::ALL(), 0), b);
    Kokkos::deep_copy(Kokkos::subview(B, Kokkos::ALL(), 1), 1.0);
    ic_apply(ExecSpace(), push, B, X);
    Kokkos::deep_copy(x, Kokkos::subview(X, Kokkos::ALL(), 0));
    expect_near_entrywise(to_std(x), to_std(want), 1e-12);
    EXPECT_LT(push.memory_bytes(), copy.memory_bytes());
  }
}

TEST(Ic, ColumnPushHoldsAboutHalfIlu0sMemoryAndPreconditionsCgAlike) {
  const auto A = geometric_laplacian(4000, 11);
  const int n = A.numRows();
  IcPreconditioner<M> push(ExecSpace(), A, column_push()), copy(ExecSpace(), A);
  IluPreconditioner<M> ilu(ExecSpace(), A);
  ASSERT_TRUE(push.outcome().ok() && copy.outcome().ok() && ilu.outcome().ok());
  const double ilu_bytes = double(ilu.plan().memory_bytes());
  EXPECT_LT(double(push.plan().memory_bytes()), 0.6 * ilu_bytes)
      << push.plan().memory_bytes() << " bytes against ILU(0)'s " << ilu_bytes << " (and "
      << copy.plan().memory_bytes() << " with the transposed copy)";
  EXPECT_NE(push.name().find("column push"), std::string::npos) << push.name();

  const CrsOperator<M> op(A);
  const auto b = to_view(smooth(n));
  KrylovOptions c;
  c.tolerance = 1e-9;
  Vector<double, Device> x("x", n);
  const SolveResult with_copy = cg_solve(ExecSpace(), op, copy, b, x, c);
  Kokkos::deep_copy(x, 0.0);
  const SolveResult with_push = cg_solve(ExecSpace(), op, push, b, x, c);
  ASSERT_TRUE(with_copy.converged() && with_push.converged()) << with_push.reason;
  EXPECT_LE(std::abs(with_push.iterations - with_copy.iterations), 1);
}

TEST(Ic, ColumnPushRunsInTheTunedLowerPlansOrder) {
  const auto A = geometric_laplacian(3000, 23);
  const int n = A.numRows();
  IcOptions tuned = column_push();
  tuned.tune_solves = true;
  IcPlan<M> push(tuned), copy;
  ic_analyze(ExecSpace(), push, A);
  ic_analyze(ExecSpace(), copy, A);
  EXPECT_NE(push.lower_solve_plan().choice().find("tuned"), std::string::npos)
      << push.lower_solve_plan().choice();
  ASSERT_TRUE(ic_factor(ExecSpace(), push, A).ok() && ic_factor(ExecSpace(), copy, A).ok());
  Vector<double, Device> x("x", n), want("want", n);
  ic_apply(ExecSpace(), push, to_view(smooth(n)), x);
  ic_apply(ExecSpace(), copy, to_view(smooth(n)), want);
  expect_near_entrywise(to_std(x), to_std(want), 1e-12);
}

TEST(Ic, ColumnPushCarriesANaNThroughAndIsRefusedWhereBitsMustRepeat) {
  const auto A = geometric_laplacian(1000, 5);
  const int n = A.numRows();
  IcPlan<M> push(column_push()), copy;
  ic_analyze(ExecSpace(), push, A);
  ic_analyze(ExecSpace(), copy, A);
  ASSERT_TRUE(ic_factor(ExecSpace(), push, A).ok() && ic_factor(ExecSpace(), copy, A).ok());
  auto values = smooth(n);
  values[std::size_t(n / 2)] = std::nan("");
  Vector<double, Device> x("x", n), want("want", n);
  ic_apply(ExecSpace(), push, to_view(values), x);  // returns: the counters do not read values
  const auto with_nan = to_std(x);
  EXPECT_TRUE(std::isnan(with_nan[std::size_t(n / 2)]));
  // And the next solve starts clean.
  ic_apply(ExecSpace(), push, to_view(smooth(n)), x);
  ic_apply(ExecSpace(), copy, to_view(smooth(n)), want);
  expect_near_entrywise(to_std(x), to_std(want), 1e-12);

  IcOptions reproducible = column_push();
  reproducible.reproducible = true;
  IcPlan<M> refused(reproducible);
  EXPECT_THROW(ic_analyze(ExecSpace(), refused, A), InvalidArgument);
  EXPECT_EQ(parse_ic_upper_solve(to_string(IcUpperSolve::column_push)), IcUpperSolve::column_push);
  EXPECT_THROW(parse_ic_upper_solve("push"), InvalidArgument);
}

TEST(Ic, RefusesANonsymmetricMatrixNamingTheRow) {
  const auto A = matrix_from_dense<M>({{4, -1, 0}, {-1, 4, -1}, {0, -2, 4}});
  IcPlan<M> plan;
  try {
    ic_analyze(ExecSpace(), plan, A);
    FAIL() << "a nonsymmetric matrix was accepted";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(e.row(), 1);
    EXPECT_NE(std::string(e.what()).find("not symmetric: row 1, column 2"), std::string::npos)
        << e.what();
  }
  // Under an ordering the refusal still names A's row, not the permuted matrix's.
  OrderingOptions multicolor;
  multicolor.method = OrderingMethod::multicolor;
  try {
    IcPreconditioner<M>(ExecSpace(), A, {}, multicolor);
    FAIL() << "a nonsymmetric matrix was accepted under an ordering";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(e.row(), 1);
    EXPECT_NE(std::string(e.what()).find("not symmetric: row 1, column 2"), std::string::npos)
        << e.what();
  }
  IcOptions negative;
  negative.shift = -1;
  EXPECT_THROW(IcPlan<M>{negative}, InvalidArgument);
  IluOptions negative_ilu;
  negative_ilu.shift = -1;
  EXPECT_THROW(IluPlan<M>{negative_ilu}, InvalidArgument);
}

TEST(Ic, RefusesAMissingDiagonalAndNewValuesOnAnotherPattern) {
  const auto no_diagonal = matrix_from_dense<M>({{4, -1, 0}, {-1, 0, -1}, {0, -1, 4}});
  IcPlan<M> plan;
  EXPECT_THROW(ic_analyze(ExecSpace(), plan, no_diagonal), InvalidMatrix);
  const auto A = matrix_from_dense<M>({{4, -1, 0}, {-1, 4, -1}, {0, -1, 4}});
  ic_analyze(ExecSpace(), plan, A);
  const auto other = matrix_from_dense<M>({{4, -1, -1}, {-1, 4, -1}, {-1, -1, 4}});
  EXPECT_THROW(ic_factor(ExecSpace(), plan, other), StructureMismatch);
}

}  // namespace
}  // namespace syncfree::test
