// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Smoke test of the Trilinos path, run under MPI: a Tpetra matrix from SyncFree's generator,
// preconditioned by SyncFree's Jacobi through a Tpetra::Operator, solved by Belos CG.

#include <gtest/gtest.h>

#include <BelosLinearProblem.hpp>
#include <BelosPseudoBlockCGSolMgr.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>

#include "adapters/tpetra/syncfree_tpetra_operator.hpp"
#include "core/syncfree_problems.hpp"

namespace {

using SC = double;
using LO = int;
using GO = Tpetra::Map<>::global_ordinal_type;
using Node = Tpetra::Map<>::node_type;
using map_type = Tpetra::Map<LO, GO, Node>;
using matrix_type = Tpetra::CrsMatrix<SC, LO, GO, Node>;
using MV = Tpetra::MultiVector<SC, LO, GO, Node>;
using OP = Tpetra::Operator<SC, LO, GO, Node>;

/// D A D for the 2-D Poisson matrix and a diagonal D that varies by a factor of 10: still SPD,
/// and badly scaled, so that Jacobi visibly cuts the iteration count.
Teuchos::RCP<matrix_type> scaled_poisson(const Teuchos::RCP<const Teuchos::Comm<int>>& comm,
                                         int grid) {
  using HostCsr = syncfree::CrsMatrix<double, int, int, syncfree::HostDevice>;
  const auto A = syncfree::generate_matrix<HostCsr>(
      Kokkos::DefaultHostExecutionSpace(),
      syncfree::parse_problem_spec("poisson2d:" + std::to_string(grid)));
  const auto map = Teuchos::rcp(new map_type(A.numRows(), 0, comm));
  auto scale = [](GO i) { return 1.0 + double(i % 10); };
  auto T = Teuchos::rcp(new matrix_type(map, 5));
  for (LO local = 0; local < LO(map->getNodeNumElements()); ++local) {
    const GO row = map->getGlobalElement(local);
    for (int k = A.graph.row_map(row); k < A.graph.row_map(row + 1); ++k) {
      const GO col = A.graph.entries(k);
      const SC value = scale(row) * A.values(k) * scale(col);
      T->insertGlobalValues(row, Teuchos::tuple(col), Teuchos::tuple(value));
    }
  }
  T->fillComplete();
  return T;
}

int belos_cg(const Teuchos::RCP<matrix_type>& A, const Teuchos::RCP<OP>& M, double* residual) {
  auto x = Teuchos::rcp(new MV(A->getDomainMap(), 1));
  auto b = Teuchos::rcp(new MV(A->getRangeMap(), 1));
  b->putScalar(1.0);
  auto problem = Teuchos::rcp(new Belos::LinearProblem<SC, MV, OP>(A, x, b));
  if (!M.is_null()) problem->setLeftPrec(M);
  EXPECT_TRUE(problem->setProblem());
  auto params = Teuchos::parameterList();
  params->set("Convergence Tolerance", 1e-8);
  params->set("Maximum Iterations", 2000);
  Belos::PseudoBlockCGSolMgr<SC, MV, OP> solver(problem, params);
  EXPECT_EQ(solver.solve(), Belos::Converged);

  MV r(A->getRangeMap(), 1);
  A->apply(*x, r);
  r.update(1.0, *b, -1.0);
  Teuchos::Array<double> r_norm(1), b_norm(1);
  r.norm2(r_norm());
  b->norm2(b_norm());
  *residual = r_norm[0] / b_norm[0];
  return solver.getNumIters();
}

TEST(TpetraAdapter, JacobiAppliesTheInverseDiagonalOnEveryRank) {
  auto comm = Tpetra::getDefaultComm();
  auto A = scaled_poisson(comm, 12);
  auto M = syncfree::tpetra::make_jacobi(*A);
  MV x(A->getDomainMap(), 1), y(A->getRangeMap(), 1), diagonal(A->getRowMap(), 1);
  x.putScalar(2.0);
  Tpetra::Vector<SC, LO, GO, Node> d(A->getRowMap());
  A->getLocalDiagCopy(d);

  M->apply(x, y);

  auto yh = y.getLocalViewHost(Tpetra::Access::ReadOnly);
  auto dh = d.getLocalViewHost(Tpetra::Access::ReadOnly);
  for (std::size_t i = 0; i < yh.extent(0); ++i) EXPECT_DOUBLE_EQ(yh(i, 0), 2.0 / dh(i, 0));
}

TEST(TpetraAdapter, BelosCgConvergesFasterWithSyncFreeJacobi) {
  auto comm = Tpetra::getDefaultComm();
  auto A = scaled_poisson(comm, 40);
  double plain_residual = 0, jacobi_residual = 0;

  const int plain = belos_cg(A, Teuchos::null, &plain_residual);
  const int preconditioned = belos_cg(A, syncfree::tpetra::make_jacobi(*A), &jacobi_residual);

  EXPECT_LE(jacobi_residual, 1e-7);
  EXPECT_LE(plain_residual, 1e-7);
  EXPECT_LT(preconditioned, plain / 2)
      << "Jacobi did not help: " << preconditioned << " vs " << plain;
  if (comm->getRank() == 0)
    std::cout << "Belos CG iterations on " << comm->getSize() << " ranks: " << plain << " plain, "
              << preconditioned << " with SyncFree Jacobi\n";
}

}  // namespace

int main(int argc, char** argv) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
