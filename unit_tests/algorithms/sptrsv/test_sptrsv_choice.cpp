// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// How a triangular solve's algorithm is chosen beyond auto's rule: a tuned analysis
// (SptrsvOptions::tune) and the incomplete factorizations' level_set choice on few wide levels.
#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/algorithms/sptrsv/sptrsv_test_matrices.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

SptrsvPrediction predicted(SptrsvAlgorithm a, double seconds) {
  SptrsvPrediction p{a, {}};
  p.solve.seconds = seconds;
  return p;
}

TEST(SptrsvTune, CandidatesAreTheRunningAlgorithmAndTheModelsFastestWithinTheSpread) {
  const auto thread = SptrsvAlgorithm::sync_free_thread, packed = SptrsvAlgorithm::alap_packed,
             multirow = SptrsvAlgorithm::multirow, level_set = SptrsvAlgorithm::level_set;
  const std::vector<SptrsvPrediction> ranked = {predicted(multirow, 1.0), predicted(packed, 1.1),
                                                predicted(thread, 1.5), predicted(level_set, 9)};
  EXPECT_EQ(impl::sptrsv_tuning_candidates(thread, ranked),
            (std::vector<SptrsvAlgorithm>{thread, multirow, packed}));
  // The running algorithm among the model's picks is timed once.
  EXPECT_EQ(impl::sptrsv_tuning_candidates(level_set, ranked),
            (std::vector<SptrsvAlgorithm>{level_set, multirow, packed, thread}));
  EXPECT_EQ(impl::sptrsv_tuning_candidates(packed, ranked, 2),
            (std::vector<SptrsvAlgorithm>{packed, multirow}));
  // A second pick predicted beyond the spread is not worth its analysis.
  const std::vector<SptrsvPrediction> far = {predicted(multirow, 1.0), predicted(packed, 2.5)};
  EXPECT_EQ(impl::sptrsv_tuning_candidates(thread, far),
            (std::vector<SptrsvAlgorithm>{thread, multirow}));
  EXPECT_EQ(impl::sptrsv_tuning_candidates(multirow, far),
            (std::vector<SptrsvAlgorithm>{multirow}));
}

std::vector<double> rhs(int n) {
  std::vector<double> b(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = 1.0 + 0.001 * (i % 97);
  return b;
}

TEST(SptrsvTune, RunsAMeasuredCandidateAndSolvesAsTheOracle) {
  // Short rows (auto: sync_free_thread), rows longer than a warp (auto: alap_packed), a grid
  // (auto: wavefront, left as it is on backends that have that layout).
  const std::vector<NamedMatrix> matrices = {{"geometric", geometric_laplacian(3000, 7)},
                                             {"banded_2000_900", generated("banded:2000:900:40")},
                                             {"poisson3d_12", generated("poisson3d:12")}};
  for (const auto& [name, A] : matrices)
    for (const auto triangle : {Triangle::lower, Triangle::upper}) {
      SCOPED_TRACE(name + (triangle == Triangle::lower ? ", lower" : ", upper"));
      const M T = extract_triangle(ExecSpace(), A, triangle, Diagonal::stored);
      SptrsvOptions options{triangle, Diagonal::stored};
      options.tune = true;
      SptrsvPlan<M> tuned(options), rule({triangle, Diagonal::stored});
      sptrsv_analyze(ExecSpace(), tuned, T);
      sptrsv_analyze(ExecSpace(), rule, T);
      const auto algorithm = tuned.effective_algorithm();
      if (algorithm == SptrsvAlgorithm::wavefront || algorithm == SptrsvAlgorithm::band) {
        EXPECT_EQ(tuned.choice(), rule.choice());  // chosen by structure
      } else {
        EXPECT_EQ(tuned.choice().rfind(rule.choice(), 0), 0u) << tuned.choice();
        EXPECT_NE(tuned.choice().find("tuned, the model's fastest"), std::string::npos)
            << tuned.choice();
        // What runs is the rule's choice or one the model ranked: the choice names it.
        EXPECT_NE(tuned.choice().find(to_string(algorithm)), std::string::npos) << tuned.choice();
      }
      const int n = T.numRows();
      const auto b = rhs(n);
      Vector<double, Device> x("x", n);
      sptrsv_solve(ExecSpace(), tuned, T, to_view<double>(b), x);
      expect_near_entrywise(
          to_std(x), reference::triangular_solve(to_host(T), triangle, Diagonal::stored, b), 1e-12);
    }
}

TEST(SptrsvTune, OnlyAutomaticIsTuned) {
  const M T = extract_triangle(ExecSpace(), geometric_laplacian(2000, 3), Triangle::lower,
                               Diagonal::stored);
  SptrsvOptions options{Triangle::lower, Diagonal::stored, SptrsvAlgorithm::multirow};
  options.tune = true;
  SptrsvPlan<M> plan(options);
  sptrsv_analyze(ExecSpace(), plan, T);
  EXPECT_EQ(plan.effective_algorithm(), SptrsvAlgorithm::multirow);
  EXPECT_EQ(plan.choice(), "requested");
}

TEST(SptrsvTune, IsRefusedWithReproducible) {
  const M T =
      extract_triangle(ExecSpace(), geometric_laplacian(500, 3), Triangle::lower, Diagonal::stored);
  SptrsvOptions options;
  options.tune = options.reproducible = true;
  SptrsvPlan<M> plan(options);
  EXPECT_THROW(sptrsv_analyze(ExecSpace(), plan, T), InvalidArgument);
  IluOptions ilu;
  ilu.tune_solves = ilu.reproducible = true;
  IluPlan<M> ilu_plan(ilu);
  EXPECT_THROW(ilu_analyze(ExecSpace(), ilu_plan, T), InvalidArgument);
  IcOptions ic;
  ic.tune_solves = ic.reproducible = true;
  IcPlan<M> ic_plan(ic);
  EXPECT_THROW(ic_analyze(ExecSpace(), ic_plan, T), InvalidArgument);
}

TEST(SptrsvTune, TunedFactorSolvesApplyTheSamePreconditioner) {
  // Unstructured, with a dense last row and column (long rows in both factors).
  for (const auto& [name, A, symmetric] : unstructured_test_matrices()) {
    SCOPED_TRACE(name);
    const int n = A.numRows();
    const auto b = to_view<double>(rhs(n));
    IluOptions tuned_ilu;
    tuned_ilu.tune_solves = true;
    IluPreconditioner<M> ilu(ExecSpace(), A), ilu_tuned(ExecSpace(), A, tuned_ilu);
    ASSERT_TRUE(ilu.outcome().ok() && ilu_tuned.outcome().ok()) << ilu_tuned.outcome().reason;
    EXPECT_NE(ilu_tuned.plan().upper_solve_plan().choice().find("tuned"), std::string::npos);
    Vector<double, Device> x("x", n), x_tuned("x_tuned", n);
    ilu.apply(ExecSpace(), b, x);
    ilu_tuned.apply(ExecSpace(), b, x_tuned);
    expect_near_entrywise(to_std(x_tuned), to_std(x), 1e-12);
    if (!symmetric) continue;
    IcOptions tuned_ic;
    tuned_ic.tune_solves = true;
    IcPreconditioner<M> ic(ExecSpace(), A), ic_tuned(ExecSpace(), A, tuned_ic);
    if (!ic.outcome().ok()) continue;  // not positive definite enough for IC(0)
    ASSERT_TRUE(ic_tuned.outcome().ok()) << ic_tuned.outcome().reason;
    ic.apply(ExecSpace(), b, x);
    ic_tuned.apply(ExecSpace(), b, x_tuned);
    expect_near_entrywise(to_std(x_tuned), to_std(x), 1e-12);
  }
}

/// `Precond` (ILU or IC) of a multicolor 2-D grid: two levels of 180,000 rows, where the SpTRSV
/// model prices one launch per level well below sync-free on a GPU. Host backends keep auto's
/// algorithm. Either way the preconditioner is the one with `sync_free_thread` solves.
template <class Precond, class Options>
void expect_level_sets_on_gpus_only() {
  const auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson2d:600"));
  const int n = A.numRows();
  const OrderingOptions multicolor{OrderingMethod::multicolor};
  Options thread;
  thread.solve_algorithm = SptrsvAlgorithm::sync_free_thread;
  Precond chosen(ExecSpace(), A, {}, multicolor), fixed(ExecSpace(), A, thread, multicolor);
  ASSERT_TRUE(chosen.outcome().ok() && fixed.outcome().ok());
  const bool gpu = !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  const auto& plan = chosen.plan();
  EXPECT_EQ(plan.lower_solve_plan().effective_algorithm() == SptrsvAlgorithm::level_set, gpu);
  EXPECT_EQ(plan.upper_solve_plan().effective_algorithm() == SptrsvAlgorithm::level_set, gpu);
  EXPECT_EQ(plan.lower_solve_plan().num_levels(), 2);
  const auto b = to_view<double>(rhs(n));
  Vector<double, Device> x("x", n), x_fixed("x_fixed", n);
  chosen.apply(ExecSpace(), b, x);
  fixed.apply(ExecSpace(), b, x_fixed);
  expect_near_entrywise(to_std(x), to_std(x_fixed), 1e-12);
}

TEST(FactorSolves, MulticolorIluSolvesRunOneLaunchPerLevelOnAGpuOnly) {
  expect_level_sets_on_gpus_only<IluPreconditioner<M>, IluOptions>();
}

TEST(FactorSolves, MulticolorIcSolvesRunOneLaunchPerLevelOnAGpuOnly) {
  expect_level_sets_on_gpus_only<IcPreconditioner<M>, IcOptions>();
}

}  // namespace
}  // namespace syncfree::test
