// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// syncfree::tpetra::Preconditioner under MPI (ctest runs it on 1, 2 and 4 ranks): Belos with
// SyncFree ILU(0) against Ifpack2 RILUK(0) on the same blocks, overlap through AdditiveSchwarz,
// new values without a new analysis, and errors thrown on every rank.

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include <Ifpack2_Factory.hpp>
#include <Tpetra_Core.hpp>

#include "adapters/tpetra/syncfree_tpetra_factory.hpp"
#include "adapters/tpetra/syncfree_tpetra_preconditioner.hpp"
#include "unit_tests/adapters/tpetra/tpetra_test_problems.hpp"

namespace syncfree::test {
namespace {

using syncfree_prec = tpetra::Preconditioner<SC, LO, GO, NT>;

Teuchos::RCP<const Teuchos::Comm<int>> comm() { return Tpetra::getDefaultComm(); }

void report(const std::string& what) {
  if (comm()->getRank() == 0) std::cout << "[" << comm()->getSize() << " ranks] " << what << '\n';
}

Teuchos::RCP<prec_type> create(const std::string& name, const Teuchos::RCP<const crs_type>& A,
                               int overlap = 0) {
  Teuchos::ParameterList params;
  if (name == "RILUK") params.set("fact: iluk level-of-fill", 0);
  params.set("schwarz: overlap level", overlap);  // 0 too: Ifpack2 RILUK must not see it
  return tpetra::create_preconditioner<SC, LO, GO, NT>(name, A, params);
}

/// Belos with SyncFree ILU(0) and with Ifpack2 RILUK(0) on the same blocks: the same mathematics,
/// so the same iteration count within one.
void expect_ilu0_matches_riluk(const std::string& spec, const std::string& solver, int overlap) {
  const Teuchos::RCP<const crs_type> A = distributed_problem(spec, comm());
  const BelosRun ours = belos_solve(A, ready(create("SYNCFREE_ILU", A, overlap)), solver);
  const BelosRun theirs = belos_solve(A, ready(create("RILUK", A, overlap)), solver);

  EXPECT_TRUE(ours.converged);
  EXPECT_TRUE(theirs.converged);
  EXPECT_LE(ours.relative_residual, 1e-7);
  EXPECT_NEAR(ours.iterations, theirs.iterations, 1);
  report(spec + ", " + solver + ", overlap " + std::to_string(overlap) + ": SyncFree ILU(0) " +
         std::to_string(ours.iterations) + " iterations, Ifpack2 RILUK(0) " +
         std::to_string(theirs.iterations));
}

TEST(TpetraPreconditioner, CgWithIlu0BlockJacobiMatchesIfpack2Riluk) {
  expect_ilu0_matches_riluk("poisson3d:16", "PSEUDOBLOCK CG", 0);
}

TEST(TpetraPreconditioner, GmresWithIlu0BlockJacobiMatchesIfpack2RilukOnConvectionDiffusion) {
  expect_ilu0_matches_riluk("convdiff3d:16", "PSEUDOBLOCK GMRES", 0);
}

TEST(TpetraPreconditioner, InsideAdditiveSchwarzMatchesIfpack2RilukAtOverlapOne) {
  expect_ilu0_matches_riluk("poisson3d:16", "PSEUDOBLOCK GMRES", 1);
}

TEST(TpetraPreconditioner, OverlapOneNeedsFewerIterationsThanOverlapZero) {
  // GMRES: restricted additive Schwarz (Ifpack2's default combine mode) is not symmetric.
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:16", comm());
  const BelosRun zero = belos_solve(A, ready(create("SYNCFREE_ILU", A, 0)), "PSEUDOBLOCK GMRES");
  const BelosRun one = belos_solve(A, ready(create("SYNCFREE_ILU", A, 1)), "PSEUDOBLOCK GMRES");

  ASSERT_TRUE(zero.converged && one.converged);
  if (comm()->getSize() == 1)
    EXPECT_EQ(one.iterations, zero.iterations) << "one rank has no overlap to add";
  else
    EXPECT_LT(one.iterations, zero.iterations);
  report("overlap 0: " + std::to_string(zero.iterations) +
         " iterations, overlap 1: " + std::to_string(one.iterations));
}

TEST(TpetraPreconditioner, EveryPreconditionerConvergesUnderBelosGmres) {
  // 12 x 12 x 12 rows on 1, 2 or 4 ranks: whole planes per rank, so SIP finds a grid in each.
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:12", comm());
  const BelosRun none = belos_solve(A, Teuchos::null, "PSEUDOBLOCK GMRES");
  for (const char* name : {"SYNCFREE_JACOBI", "SYNCFREE_ILU", "SYNCFREE_IC", "SYNCFREE_DILU",
                           "SYNCFREE_SPAI", "SYNCFREE_FSAI", "SYNCFREE_SIP"}) {
    const BelosRun run = belos_solve(A, ready(create(name, A)), "PSEUDOBLOCK GMRES");
    EXPECT_TRUE(run.converged) << name;
    EXPECT_LE(run.relative_residual, 1e-7) << name;
    EXPECT_LE(run.iterations, none.iterations) << name;
    report(std::string(name) + ": " + std::to_string(run.iterations) + " iterations (" +
           std::to_string(none.iterations) + " without)");
  }
}

/// poisson3d:12 with strong couplings along x (-1) and weak ones along y and z (-0.01), diagonal
/// 2: symmetric positive definite (2 > 2 cos(pi / 13) (1 + 0.02)), and every row with both x
/// neighbours (10 in 12) not diagonally dominant, also in each rank's block of whole planes.
Teuchos::RCP<crs_type> strongly_coupled_along_x() {
  return distributed_problem("poisson3d:12", comm(), [](GO i, GO j, double) {
    return i == j ? 2.0 : (i - j == 1 || j - i == 1) ? -1.0 : -0.01;
  });
}

/// "syncfree: preconditioner" = auto, the solve SPD or not.
Teuchos::RCP<syncfree_prec> automatic(const Teuchos::RCP<const crs_type>& A, bool spd) {
  Teuchos::ParameterList params;
  params.set("syncfree: preconditioner", std::string("auto"));
  params.set("syncfree: symmetric positive definite", spd);
  auto P = Teuchos::rcp(new syncfree_prec(A));
  P->setParameters(params);
  return P;
}

TEST(TpetraPreconditioner, AutoTakesFsaiForCgWhereMostRowsAreNotDominantAndSaysWhy) {
  const Teuchos::RCP<const crs_type> A = strongly_coupled_along_x();
  const auto P = automatic(A, true);
  const BelosRun run = belos_solve(A, ready(P), "PSEUDOBLOCK CG");
  const BelosRun jacobi = belos_solve(A, ready(create("SYNCFREE_JACOBI", A)), "PSEUDOBLOCK CG");

  EXPECT_EQ(P->local_preconditioner()->name().rfind("fsai", 0), 0u)
      << P->local_preconditioner()->name();
  EXPECT_EQ(P->choice_reason().rfind("fsai: ", 0), 0u) << P->choice_reason();
  EXPECT_NE(P->description().find(P->choice_reason()), std::string::npos) << P->description();
  EXPECT_TRUE(run.converged);
  EXPECT_LE(run.relative_residual, 1e-7);
  EXPECT_LT(run.iterations, jacobi.iterations);
  report("auto for CG: " + P->choice_reason() + "; " + std::to_string(run.iterations) +
         " iterations, Jacobi " + std::to_string(jacobi.iterations));
}

TEST(TpetraPreconditioner, AutoTakesJacobiWithoutSpdOrWhereRowsAreDominant) {
  // The same blocks without the SPD promise (GMRES) cannot take FSAI.
  const Teuchos::RCP<const crs_type> coupled = strongly_coupled_along_x();
  const auto P = automatic(coupled, false);
  const BelosRun run = belos_solve(coupled, ready(P), "PSEUDOBLOCK GMRES");
  EXPECT_EQ(P->local_preconditioner()->name(), "jacobi");
  EXPECT_NE(P->choice_reason().find("symmetric positive definite"), std::string::npos)
      << P->choice_reason();
  EXPECT_TRUE(run.converged);

  // A Laplacian's rows are (weakly) dominant: Jacobi, with 0 rows counted.
  const Teuchos::RCP<const crs_type> laplacian = distributed_problem("poisson3d:12", comm());
  const auto Q = automatic(laplacian, true);
  EXPECT_TRUE(belos_solve(laplacian, ready(Q), "PSEUDOBLOCK CG").converged);
  EXPECT_EQ(Q->local_preconditioner()->name(), "jacobi");
  EXPECT_EQ(Q->choice_reason().rfind("jacobi: 0.0 % ", 0), 0u) << Q->choice_reason();

  // Named through the factory, as Ifpack2 users name preconditioners.
  Teuchos::ParameterList params;
  params.set("syncfree: symmetric positive definite", true);
  const auto F = tpetra::create_preconditioner<SC, LO, GO, NT>("SYNCFREE_AUTO", coupled, params);
  F->initialize();
  EXPECT_NE(F->description().find("Choice: \"fsai: "), std::string::npos) << F->description();
}

TEST(TpetraPreconditioner, SinglePrecisionBlocksConvergeInTheIterationsOfDouble) {
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:16", comm());
  for (const char* name : {"SYNCFREE_ILU", "SYNCFREE_IC", "SYNCFREE_FSAI"}) {
    BelosRun runs[2];
    for (const bool single : {false, true}) {
      Teuchos::ParameterList params;
      params.set("schwarz: overlap level", 0);
      params.set("syncfree: precision", std::string(single ? "single" : "double"));
      const auto P = tpetra::create_preconditioner<SC, LO, GO, NT>(name, A, params);
      runs[single] = belos_solve(A, ready(P), "PSEUDOBLOCK CG");
      EXPECT_EQ(P->description().find("single") != std::string::npos, single) << P->description();
    }
    EXPECT_TRUE(runs[1].converged) << name;
    EXPECT_LE(runs[1].relative_residual, 1e-7) << name;
    EXPECT_NEAR(runs[1].iterations, runs[0].iterations, 1) << name;
    report(std::string(name) + " in single precision: " + std::to_string(runs[1].iterations) +
           " iterations (" + std::to_string(runs[0].iterations) + " in double)");
  }
  // The other preconditioners run in double only.
  syncfree_prec P(A);
  for (const char* method : {"dilu", "sip"}) {
    Teuchos::ParameterList params;
    params.set("syncfree: precision", std::string("single"));
    params.set("syncfree: preconditioner", std::string(method));
    EXPECT_THROW(P.setParameters(params), InvalidArgument) << method;
  }
}

TEST(TpetraPreconditioner, ComputeAfterNewValuesRunsNoNewAnalysis) {
  const Teuchos::RCP<crs_type> A = distributed_problem("poisson3d:8", comm());
  syncfree_prec P(A);
  MV x(A->getDomainMap(), 1), y_before(A->getRangeMap(), 1), y_after(A->getRangeMap(), 1);
  x.randomize();
  P.initialize();
  P.compute();
  P.apply(x, y_before);
  EXPECT_EQ(P.num_factorizations(), 1) << "compute() factored the values initialize() had";

  A->resumeFill();
  A->scale(2.0);
  A->fillComplete();
  P.compute();
  P.apply(x, y_after);

  EXPECT_EQ(P.getNumInitialize(), 1);
  EXPECT_EQ(P.getNumCompute(), 2);
  EXPECT_EQ(P.num_factorizations(), 2);
  y_after.update(-0.5, y_before, 1.0);  // M(2A)^{-1} = M(A)^{-1} / 2
  Teuchos::Array<double> difference(1), norm(1);
  y_after.norm2(difference());
  y_before.norm2(norm());
  EXPECT_LE(difference[0], 1e-12 * norm[0]);
}

TEST(TpetraPreconditioner, SetMatrixWithAnotherPatternInitializesAgain) {
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:8", comm());
  const Teuchos::RCP<const crs_type> B = distributed_problem("poisson3d27:8", comm());
  syncfree_prec P(A);
  P.initialize();
  P.compute();

  P.setMatrix(B);
  EXPECT_FALSE(P.isInitialized());
  P.compute();

  EXPECT_EQ(P.getNumInitialize(), 2);
  const BelosRun run = belos_solve(B, Teuchos::rcpFromRef(P));
  EXPECT_TRUE(run.converged);
}

TEST(TpetraPreconditioner, AppliesToSeveralVectorsWithAlphaAndBeta) {
  const Teuchos::RCP<const crs_type> A = distributed_problem("convdiff3d:8", comm());
  syncfree_prec P(A);
  P.initialize();
  P.compute();
  MV X(A->getDomainMap(), 3), Y(A->getRangeMap(), 3), expected(A->getRangeMap(), 3);
  X.randomize();
  Y.randomize();
  for (std::size_t j = 0; j < 3; ++j) {
    auto column = expected.getVectorNonConst(j);
    P.apply(*X.getVector(j), *column);  // M^{-1} x_j
    column->update(-1.0, *Y.getVector(j), 2.0);
  }

  P.apply(X, Y, Teuchos::NO_TRANS, 2.0, -1.0);

  Y.update(-1.0, expected, 1.0);
  Teuchos::Array<double> errors(3);
  Y.normInf(errors());
  for (double e : errors) EXPECT_LE(e, 1e-12);
  EXPECT_THROW(P.apply(X, Y, Teuchos::TRANS), NotSupported);
}

TEST(TpetraPreconditioner, MisspelledParameterIsAnErrorOnEveryRank) {
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:8", comm());
  syncfree_prec P(A);
  Teuchos::ParameterList misspelled;
  misspelled.set("syncfree: fil level", 1);
  try {
    P.setParameters(misspelled);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("syncfree: fil level"), std::string::npos) << e.what();
  }
  Teuchos::ParameterList bad_choice;
  bad_choice.set("syncfree: preconditioner", std::string("ilu0"));
  EXPECT_THROW(P.setParameters(bad_choice), InvalidArgument);
  Teuchos::ParameterList out_of_range;
  out_of_range.set("syncfree: sip alpha", 2.0);
  EXPECT_THROW(P.setParameters(out_of_range), InvalidArgument);
  Teuchos::ParameterList wrong_type;
  wrong_type.set("syncfree: fill level", 1.0);
  EXPECT_THROW(P.setParameters(wrong_type), InvalidArgument);
}

/// poisson3d:8 with a zero diagonal in the first row of the last rank.
Teuchos::RCP<const crs_type> zero_diagonal_on_last_rank(GO* bad_row) {
  const GO n = 512;
  const int ranks = comm()->getSize();
  *bad_row = (n / ranks) * (ranks - 1) + std::min<GO>(n % ranks, ranks - 1);
  const GO bad = *bad_row;
  return distributed_problem("poisson3d:8", comm(), [bad](GO row, GO col, double value) {
    return row == bad && col == bad ? 0.0 : value;
  });
}

TEST(TpetraPreconditioner, ZeroDiagonalOnOneRankIsAnErrorOnEveryRank) {
  GO bad_row = -1;
  const auto A = zero_diagonal_on_last_rank(&bad_row);
  ASSERT_EQ(A->getRowMap()->getLocalElement(bad_row) == 0,
            comm()->getRank() + 1 == comm()->getSize());
  syncfree_prec P(A);
  try {
    P.initialize();
    P.compute();
    ADD_FAILURE() << "no error on rank " << comm()->getRank();
  } catch (const InvalidMatrix& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.row(), bad_row) << what;
    EXPECT_NE(what.find("on rank " + std::to_string(comm()->getSize() - 1)), std::string::npos)
        << what;
    EXPECT_NE(what.find("global row " + std::to_string(bad_row)), std::string::npos) << what;
  }
}

TEST(TpetraPreconditioner, ZeroDiagonalInsideAdditiveSchwarzIsAnErrorOnEveryRank) {
  GO bad_row = -1;
  const auto A = zero_diagonal_on_last_rank(&bad_row);
  const auto P = create("SYNCFREE_JACOBI", A, 1);
  try {
    P->initialize();
    P->compute();
    ADD_FAILURE() << "no error on rank " << comm()->getRank();
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(e.row(), bad_row) << e.what();
  }
}

TEST(TpetraPreconditioner, NonSquareMatrixIsAnErrorOnEveryRank) {
  const auto rows = Teuchos::rcp(new map_type(Tpetra::global_size_t(40), 0, comm()));
  const auto columns = Teuchos::rcp(new map_type(Tpetra::global_size_t(41), 0, comm()));
  auto A = Teuchos::rcp(new crs_type(rows, 2));
  for (LO i = 0; i < LO(rows->getNodeNumElements()); ++i) {
    const GO row = rows->getGlobalElement(i);
    A->insertGlobalValues(row, Teuchos::tuple<GO>(row, row + 1), Teuchos::tuple<SC>(2.0, -1.0));
  }
  A->fillComplete(columns, rows);
  syncfree_prec P(A);
  try {
    P.initialize();
    ADD_FAILURE() << "no error on rank " << comm()->getRank();
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find("40x41"), std::string::npos) << e.what();
  }
}

TEST(TpetraPreconditioner, DescribesItselfAndCountsItsCalls) {
  const Teuchos::RCP<const crs_type> A = distributed_problem("poisson3d:8", comm());
  syncfree_prec P(A);
  Teuchos::ParameterList params;
  params.set("syncfree: fill level", 1);
  P.setParameters(params);
  P.initialize();
  P.compute();
  MV x(A->getDomainMap(), 1), y(A->getRangeMap(), 1);
  P.apply(x, y);
  P.apply(x, y);

  EXPECT_EQ(P.getNumApply(), 2);
  EXPECT_NE(P.description().find("ilu(1)"), std::string::npos) << P.description();
  EXPECT_NE(P.description().find("[512, 512]"), std::string::npos) << P.description();
}

}  // namespace
}  // namespace syncfree::test

int main(int argc, char** argv) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
