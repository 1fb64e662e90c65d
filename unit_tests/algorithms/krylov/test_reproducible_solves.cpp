// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Run to run, the same bits: a solve repeated from scratch (the preconditioner analyzed and
// factored again) gives bitwise the same solution and residual history. On a serial backend this
// only catches reads of uninitialized memory and hidden state; with the CUDA or OpenMP backend
// it checks that no kernel's arithmetic depends on the schedule (sync-free kernels publish
// values and never accumulate through atomics; reductions combine in a fixed order). The cases
// whose triangular solves run in chain order (ILU of a 27-point stencil, SIP's `triangular`) take
// CUDA's chain scan, anchored at each chain's head, with default options.

#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Factory = std::function<std::unique_ptr<Preconditioner<M>>(const M&)>;

struct Case {
  std::string name;
  std::function<M()> matrix;
  const char* solver;
  Factory precond;
};

std::ostream& operator<<(std::ostream& out, const Case& c) { return out << c.name; }

template <class P, class... Args>
Factory make(Args... args) {
  return [=](const M& A) { return std::make_unique<P>(ExecSpace(), A, args...); };
}

IluOptions ilu(IluAlgorithm algorithm, int fill = 0, IluApply apply = IluApply::triangular,
               bool reproducible = false) {
  IluOptions o;
  o.algorithm = algorithm;
  o.fill_level = fill;
  o.apply = apply;
  o.reproducible = reproducible;
  return o;
}

/// ILU(0) with `IluOptions::reproducible`, which refuses what cannot promise the same bits.
IluOptions reproducible_ilu(IluAlgorithm algorithm) {
  return ilu(algorithm, 0, IluApply::triangular, true);
}

DiluOptions dilu(DiluVariant variant) {
  DiluOptions o;
  o.variant = variant;
  return o;
}

OrderingOptions multicolor() {
  OrderingOptions o;
  o.method = OrderingMethod::multicolor;
  return o;
}

struct SolveOutcome {
  SolveResult result;
  std::vector<double> x;
};

SolveOutcome solve_once(const Case& c, const M& A) {
  const auto precond = c.precond(A);
  EXPECT_TRUE(precond->outcome().ok()) << precond->outcome().reason;
  CrsOperator<M> op(A);
  const std::size_t n = std::size_t(A.numRows());
  const auto b = to_view<double>(pattern_vector(n, 0.25));
  Vector<double, Device> x("x", n);
  GmresOptions options;
  options.tolerance = 1e-10;
  options.max_iterations = 400;
  options.keep_history = true;
  options.restart = 20;
  SolveOutcome run;
  run.result =
      krylov_solve(parse_krylov_solver(c.solver), ExecSpace(), op, *precond, b, x, options);
  run.x = to_std(x);
  return run;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class ReproducibleSolve : public ::testing::TestWithParam<Case> {};

TEST_P(ReproducibleSolve, TwoRunsGiveTheSameBits) {
  const M A = GetParam().matrix();
  const SolveOutcome first = solve_once(GetParam(), A);
  ASSERT_GT(first.result.iterations, 3) << "too short to show anything";
  for (int repeat = 0; repeat < 2; ++repeat) {
    const SolveOutcome again = solve_once(GetParam(), A);
    EXPECT_EQ(again.result.status, first.result.status);
    EXPECT_EQ(again.result.iterations, first.result.iterations);
    EXPECT_TRUE(same_bits(again.result.history, first.result.history))
        << "residual histories differ";
    EXPECT_TRUE(same_bits(again.x, first.x)) << "solutions differ";
  }
}

M mesh() { return geometric_laplacian(4000); }
M mesh_renumbered() {
  const int n = 4000;
  return matrix_from_triplets(
      n, n, renumbered(geometric_triplets(n, 2.2 / std::sqrt(double(n)), 7, 0.05), n, 3));
}
M convection() { return geometric_convection(4000); }
M hubs() { return power_law_matrix(4000, 3, 1); }
M grid() { return generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:14")); }
/// A 27-point stencil in natural order: L's rows link into chains, solved in chain order.
M grid27() { return generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d27:16")); }

TEST(ReproducibleSolve, TheChainCaseSolvesInChainOrder) {
  const IluPreconditioner<M> precond(ExecSpace(), grid27(), ilu(IluAlgorithm::vector));
  EXPECT_EQ(precond.plan().lower_solve_plan().effective_algorithm(),
            SptrsvAlgorithm::sync_free_thread);
  EXPECT_GT(precond.plan().lower_solve_plan().num_chain_levels(), 0);
}

TEST(ReproducibleSolve, RefusesTheParallelIluVariant) {
  EXPECT_THROW(IluPreconditioner<M>(ExecSpace(), grid(), reproducible_ilu(IluAlgorithm::parallel)),
               InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(
    SolversAndPreconditioners, ReproducibleSolve,
    ::testing::Values(
        Case{"cg_jacobi", mesh, "cg", make<JacobiPreconditioner<M>>()},
        Case{"cg_ilu_chains", grid27, "cg", make<IluPreconditioner<M>>(ilu(IluAlgorithm::vector))},
        Case{"gmres_ilu_chains", grid27, "gmres",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::automatic))},
        Case{"cg_ilu_level_set", mesh_renumbered, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::level_set))},
        Case{"cg_ilu_shared", mesh_renumbered, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::shared))},
        Case{"cg_ilu_vector", mesh_renumbered, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::vector))},
        Case{"cg_ilu_adaptive", mesh_renumbered, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::adaptive))},
        Case{"cg_ilu_automatic", mesh, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::automatic))},
        Case{"cg_ilu1_multicolor", mesh, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::automatic, 1), multicolor())},
        Case{"cg_ilu_isai", mesh, "cg",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::automatic, 0, IluApply::isai))},
        Case{"cg_fsai", mesh, "cg", make<FsaiPreconditioner<M>>()},
        Case{"cg_sip", grid, "cg", make<SipPreconditioner<M>>()},
        Case{"gmres_ilu_hubs", hubs, "gmres",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::automatic))},
        Case{"gmres_spai", convection, "gmres", make<SpaiPreconditioner<M>>()},
        Case{"bicgstab_dilu_per_color", convection, "bicgstab",
             make<DiluPreconditioner<M>>(dilu(DiluVariant::per_color))},
        Case{"bicgstab_dilu_sync_free_2d", convection, "bicgstab",
             make<DiluPreconditioner<M>>(dilu(DiluVariant::sync_free_2d))},
        Case{"tfqmr_dilu_sync_free_1d", convection, "tfqmr",
             make<DiluPreconditioner<M>>(dilu(DiluVariant::sync_free_1d))},
        Case{"fgmres_ilu_vector", convection, "fgmres",
             make<IluPreconditioner<M>>(ilu(IluAlgorithm::vector))}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace syncfree::test
