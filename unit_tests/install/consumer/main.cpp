// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cstdio>

#include <algorithms/jacobi/syncfree_jacobi.hpp>
#include <algorithms/krylov/syncfree_cg.hpp>
#include <core/syncfree_config.hpp>
#include <core/syncfree_problems.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Matrix = syncfree::CrsMatrix<double>;
  const Kokkos::DefaultExecutionSpace exec;
  auto problem = syncfree::generate_problem<Matrix>(exec, syncfree::parse_problem_spec("poisson2d:16"));
  syncfree::CrsOperator<Matrix> A(problem.A);
  syncfree::JacobiPreconditioner<Matrix> M(exec, problem.A);
  syncfree::Vector<double> x("x", problem.b.extent(0));
  const auto result = syncfree::cg_solve(exec, A, M, problem.b, x);
  std::printf("SyncFree %s: %s after %d iterations, residual %.2e\n", SYNCFREE_VERSION_STRING,
              syncfree::to_string(result.status), result.iterations, result.relative_residual);
  return result.converged() ? 0 : 1;
}
