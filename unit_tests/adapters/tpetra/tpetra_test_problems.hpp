// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

// Distributed test matrices and a Belos solve, for the adapter tests under MPI.

#include <functional>
#include <string>

#include <BelosLinearProblem.hpp>
#include <BelosSolverFactory.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Ifpack2_Preconditioner.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>

#include "adapters/tpetra/syncfree_tpetra_distribute.hpp"
#include "core/syncfree_problems.hpp"

namespace syncfree::test {

using SC = double;
using LO = int;
using GO = Tpetra::Map<>::global_ordinal_type;
using NT = Tpetra::Map<>::node_type;
using map_type = Tpetra::Map<LO, GO, NT>;
using crs_type = Tpetra::CrsMatrix<SC, LO, GO, NT>;
using row_matrix_type = Tpetra::RowMatrix<SC, LO, GO, NT>;
using MV = Tpetra::MultiVector<SC, LO, GO, NT>;
using OP = Tpetra::Operator<SC, LO, GO, NT>;
using prec_type = Ifpack2::Preconditioner<SC, LO, GO, NT>;
using HostCsr = CrsMatrix<double, int, int, HostDevice>;

/// A built-in problem ("poisson3d:16", ...) with its rows spread evenly over the ranks of comm;
/// `edit(row, column, value)` may change each entry first.
inline Teuchos::RCP<crs_type> distributed_problem(
    const std::string& spec, const Teuchos::RCP<const Teuchos::Comm<int>>& comm,
    const std::function<double(GO, GO, double)>& edit = {}) {
  auto A = generate_matrix<HostCsr>(Kokkos::DefaultHostExecutionSpace(), parse_problem_spec(spec));
  for (int i = 0; edit && i < A.numRows(); ++i)
    for (int k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      A.values(k) = edit(i, A.graph.entries(k), A.values(k));
  return tpetra::distribute_rows<SC, LO, GO, NT>(A, comm);
}

struct BelosRun {
  bool converged = false;
  int iterations = 0;
  double relative_residual = 0;  ///< true ||b - A x|| / ||b||
};

/// Belos `solver` ("PSEUDOBLOCK CG", "PSEUDOBLOCK GMRES", ...) on A x = ones from zero, M on the
/// right (the convergence test then sees the true residual), tolerance 1e-8.
inline BelosRun belos_solve(const Teuchos::RCP<const crs_type>& A, const Teuchos::RCP<const OP>& M,
                            const std::string& solver = "PSEUDOBLOCK CG") {
  auto x = Teuchos::rcp(new MV(A->getDomainMap(), 1));
  auto b = Teuchos::rcp(new MV(A->getRangeMap(), 1));
  b->putScalar(1.0);
  auto problem = Teuchos::rcp(new Belos::LinearProblem<SC, MV, OP>(A, x, b));
  if (!M.is_null()) problem->setRightPrec(M);
  problem->setProblem();
  auto params = Teuchos::parameterList();
  params->set("Convergence Tolerance", 1e-8);
  params->set("Maximum Iterations", 1000);
  params->set("Num Blocks", 200);
  Belos::SolverFactory<SC, MV, OP> factory;
  auto manager = factory.create(solver, params);
  manager->setProblem(problem);
  BelosRun run;
  run.converged = manager->solve() == Belos::Converged;
  run.iterations = manager->getNumIters();
  MV r(A->getRangeMap(), 1);
  A->apply(*x, r);
  r.update(1.0, *b, -1.0);
  Teuchos::Array<double> r_norm(1), b_norm(1);
  r.norm2(r_norm());
  b->norm2(b_norm());
  run.relative_residual = r_norm[0] / b_norm[0];
  return run;
}

/// Initializes and computes P, then returns it as a Belos operator.
inline Teuchos::RCP<const OP> ready(const Teuchos::RCP<prec_type>& P) {
  P->initialize();
  P->compute();
  return P;
}

}  // namespace syncfree::test
