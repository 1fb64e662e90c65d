// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// End-to-end tests of syncfree-tpetra-solve under mpiexec on 1, 2 and 4 ranks: the solution of
// a Matrix Market file against syncfree-solve's, the JSON fields, and a clear error (and exit
// status 2, not a hang) for every kind of bad input.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_command.hpp"
#include "unit_tests/utils/syncfree_temp_files.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using HM = CrsMatrix<double, int, int, HostDevice>;

/// syncfree-tpetra-solve on `ranks` ranks, stopped after two minutes rather than hanging.
CommandRun tpetra_solve(int ranks, const std::string& arguments) {
  return run_command("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                     std::string(SYNCFREE_MPIEXEC) + " -np " + std::to_string(ranks) +
                     " --oversubscribe " + SYNCFREE_TPETRA_SOLVE_PATH + " " + arguments);
}

CommandRun serial_solve(const std::string& arguments) {
  return run_command(std::string(SYNCFREE_SOLVE_PATH) + " " + arguments);
}

std::string temp_path(const std::string& name) { return temporary_file("tpetra_" + name); }

std::string write_file(const std::string& name, const std::string& contents) {
  return temporary_file_with("tpetra_" + name, contents);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

std::string matrix_file(const std::string& spec) {
  const auto A = generate_matrix<HM>(Kokkos::DefaultHostExecutionSpace(), parse_problem_spec(spec));
  const std::string path = temp_path(spec.substr(0, spec.find(':')) + ".mtx");
  write_matrix_market(path, A);
  return path;
}

TEST(SyncFreeTpetraSolve, FileSolvedOnFourRanksGivesSyncFreeSolvesSolution) {
  const std::string matrix = matrix_file("convdiff2d:40:20");
  const std::string serial = temp_path("serial_x.mtx"), distributed = temp_path("mpi_x.mtx");
  const std::string common = "--matrix " + matrix + " --solver gmres --tol 1e-11 --out ";

  const CommandRun one = serial_solve(common + serial + " --precond ilu0");
  const CommandRun four = tpetra_solve(4, common + distributed + " --precond syncfree-ilu0");

  ASSERT_EQ(one.exit_code, 0) << one.output;
  ASSERT_EQ(four.exit_code, 0) << four.output;
  const auto x = to_std(read_vector_market<double, HostDevice>(serial));
  const auto y = to_std(read_vector_market<double, HostDevice>(distributed));
  ASSERT_EQ(x.size(), y.size());
  double scale = 0, error = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    scale = std::max(scale, std::abs(x[i]));
    error = std::max(error, std::abs(x[i] - y[i]));
  }
  EXPECT_LE(error, 1e-7 * scale);
}

TEST(SyncFreeTpetraSolve, WritesSyncFreeSolvesJsonFieldsPlusRanksAndOverlap) {
  const std::string serial = temp_path("serial.json");
  ASSERT_EQ(serial_solve("--problem poisson3d:12 --json " + serial).exit_code, 0);
  const auto reference = read_json(serial);
  for (int ranks : {1, 2, 4}) {
    const std::string json = temp_path("np" + std::to_string(ranks) + ".json");

    const CommandRun run = tpetra_solve(ranks, "--problem poisson3d:12 --overlap 1 --json " + json);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto j = read_json(json);
    for (const auto& item : reference.items()) EXPECT_TRUE(j.contains(item.key())) << item.key();
    EXPECT_EQ(j["ranks"], ranks);
    EXPECT_EQ(j["overlap"], 1);
    EXPECT_EQ(j["n"], 1728);
    EXPECT_LE(j["relative_residual"].get<double>(), 1e-6);
  }
}

TEST(SyncFreeTpetraSolve, EverySolverAndPreconditionerConverges) {
  for (const char* solver : {"cg", "gmres", "bicgstab", "tfqmr"}) {
    const CommandRun run =
        tpetra_solve(2, std::string("--problem poisson3d:10 --solver ") + solver);
    EXPECT_EQ(run.exit_code, 0) << solver << "\n" << run.output;
  }
  for (const char* precond : {"none", "syncfree-jacobi", "syncfree-iluk", "syncfree-ic0",
                              "syncfree-dilu", "syncfree-spai", "syncfree-fsai", "syncfree-sip",
                              "ifpack2-riluk", "ifpack2-ilut", "ifpack2-relaxation"}) {
    const CommandRun run =
        tpetra_solve(2, std::string("--problem poisson3d:10 --solver gmres --precond ") + precond);
    EXPECT_EQ(run.exit_code, 0) << precond << "\n" << run.output;
  }
}

TEST(SyncFreeTpetraSolve, AutoPreconditionerSaysWhatRankZeroChoseAndWhy) {
  const CommandRun run =
      tpetra_solve(2, "--problem poisson3d:10 --solver cg --precond syncfree-auto");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("(auto: jacobi: 0.0 % of the rows are not diagonally dominant"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("(rank 0's block)"), std::string::npos) << run.output;
}

TEST(SyncFreeTpetraSolve, ExitsOneWhenNotConverged) {
  const CommandRun run = tpetra_solve(2, "--problem poisson3d:10 --precond none --maxit 2");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("not_converged"), std::string::npos) << run.output;
}

/// Bad input stops every rank with exit status 2 and a message containing `expected`.
void expect_clear_error(const std::string& arguments, const std::string& expected) {
  for (int ranks : {1, 2, 4}) {
    const CommandRun run = tpetra_solve(ranks, arguments);
    EXPECT_EQ(run.exit_code, 2) << ranks << " ranks: " << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << ranks << " ranks: " << run.output;
  }
}

TEST(SyncFreeTpetraSolve, MissingFileIsAClearError) {
  expect_clear_error("--matrix /nonexistent/a.mtx", "/nonexistent/a.mtx");
}

TEST(SyncFreeTpetraSolve, MalformedFileNamesItsLine) {
  const std::string file = write_file(
      "bad.mtx",
      "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 x 1.0\n3 3 1.0\n");
  expect_clear_error("--matrix " + file, file + ":4: column index");
}

TEST(SyncFreeTpetraSolve, NonSquareFileIsAClearError) {
  const std::string file = write_file(
      "wide.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 1 1.0\n2 2 1.0\n");
  expect_clear_error("--matrix " + file, "square");
}

TEST(SyncFreeTpetraSolve, ZeroPivotNamesTheFilesRow) {
  // Row 3 of the file has no diagonal entry: a zero pivot there on whichever rank owns it.
  const std::string file = write_file("nodiag.mtx",
                                      "%%MatrixMarket matrix coordinate real general\n"
                                      "4 4 6\n1 1 4\n2 2 4\n3 2 -1\n3 4 -1\n4 4 4\n4 3 -1\n");
  expect_clear_error("--matrix " + file + " --solver gmres", "row 3 in " + file);
}

TEST(SyncFreeTpetraSolve, RightHandSideOfTheWrongSizeIsAClearError) {
  const std::string rhs =
      write_file("short.mtx", "%%MatrixMarket matrix array real general\n2 1\n1.0\n2.0\n");
  expect_clear_error("--problem poisson2d:4 --rhs " + rhs, "has 2 entries, the matrix has 16");
}

TEST(SyncFreeTpetraSolve, UnknownFlagAndOrderingAutoAreUsageErrors) {
  expect_clear_error("--precnd syncfree-ilu0", "--precnd");
  expect_clear_error("--ordering auto", "--ordering auto");
  expect_clear_error("--permute-diagonal", "--permute-diagonal is syncfree-solve's only");
}

TEST(SyncFreeTpetraSolve, IncompleteCholeskyFindsItsShiftOnEveryRank) {
  // Kershaw's SPD matrix twice along the diagonal, a copy on each of two ranks: the IC(0) of
  // either block has a negative pivot.
  const std::string file = write_file(
      "kershaw.mtx",
      "%%MatrixMarket matrix coordinate real symmetric\n8 8 16\n1 1 3\n2 1 -2\n4 1 2\n2 2 3\n"
      "3 2 -2\n3 3 3\n4 3 -2\n4 4 3\n5 5 3\n6 5 -2\n8 5 2\n6 6 3\n7 6 -2\n7 7 3\n8 7 -2\n"
      "8 8 3\n");
  const std::string common = "--matrix " + file + " --solver cg --precond syncfree-ic0";
  const CommandRun refused = tpetra_solve(2, common);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("the pivot is not positive"), std::string::npos) << refused.output;
  const CommandRun run = tpetra_solve(2, common + " --shift auto --tol 1e-10");
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

}  // namespace
}  // namespace syncfree::test
