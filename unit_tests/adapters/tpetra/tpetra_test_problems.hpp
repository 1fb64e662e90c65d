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
/// `edit(row, column, value)` may change each entry as it is inserted.
inline Teuchos::RCP<crs_type> distributed_problem(
    const std::string& spec, const Teuchos::RCP<const Teuchos::Comm<int>>& comm,
    const std::function<double(GO, GO, double)>& edit = {}) {
  const auto A =
      generate_matrix<HostCsr>(Kokkos::DefaultHostExecutionSpace(), parse_problem_spec(spec));
  const auto map = Teuchos::rcp(new map_type(Tpetra::global_size_t(A.numRows()), 0, comm));
  Teuchos::Array<std::size_t> counts(map->getNodeNumElements());
  for (LO local = 0; local < LO(counts.size()); ++local) {
    const GO row = map->getGlobalElement(local);
    counts[local] = std::size_t(A.graph.row_map(row + 1) - A.graph.row_map(row));
  }
  auto T = Teuchos::rcp(new crs_type(map, counts()));
  for (LO local = 0; local < LO(map->getNodeNumElements()); ++local) {
    const GO row = map->getGlobalElement(local);
    for (int k = A.graph.row_map(row); k < A.graph.row_map(row + 1); ++k) {
      const GO col = A.graph.entries(k);
      const SC value = edit ? edit(row, col, A.values(k)) : A.values(k);
      T->insertGlobalValues(row, Teuchos::tuple(col), Teuchos::tuple(value));
    }
  }
  T->fillComplete();
  return T;
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
