// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// End-to-end tests of the syncfree-solve command: exit codes, the reported and the recomputed
// residual, the JSON file, and a clear message for every kind of bad input.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "core/syncfree_config.hpp"
#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "unit_tests/utils/syncfree_command.hpp"
#include "unit_tests/utils/syncfree_temp_files.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using HM = CrsMatrix<double, int, int, HostDevice>;

/// The binary under test: the build's, unless SYNCFREE_SOLVE names another (a copied build).
std::string solve_binary() {
  const char* path = std::getenv("SYNCFREE_SOLVE");
  return path ? path : SYNCFREE_SOLVE_PATH;
}

CommandRun solve(const std::string& arguments) {
  return run_command(solve_binary() + " " + arguments);
}

std::string temp_path(const std::string& name) { return temporary_file("solve_" + name); }

std::string write_file(const std::string& name, const std::string& contents) {
  return temporary_file_with("solve_" + name, contents);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

TEST(SyncFreeSolve, SolvesTheBuiltInProblemWithNoArguments) {
  const std::string json = temp_path("default.json");

  const CommandRun run = solve("--json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["problem"], "poisson3d:100");
  EXPECT_EQ(j["solver"], "cg");
  EXPECT_EQ(j["preconditioner"], "jacobi");
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_LE(j["relative_residual"].get<double>(), 1e-6);
  for (const char* key : {"backend", "n", "nnz", "iterations", "setup_seconds", "solve_seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_NE(run.output.find("relative residual"), std::string::npos);
}

TEST(SyncFreeSolve, ConvergesOnAMatrixMarketFileAndWritesATrueSolution) {
  // An SPD matrix the command has never seen: an anisotropic operator written to a file.
  const auto A = generate_matrix<HM>(Kokkos::DefaultHostExecutionSpace(),
                                     parse_problem_spec("anisotropic2d:30:0.1"));
  const std::string matrix = temp_path("aniso.mtx"), x_file = temp_path("x.mtx");
  write_matrix_market(matrix, A);

  const CommandRun run = solve("--matrix " + matrix + " --rhs ones --tol 1e-8 --out " + x_file);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto x = to_std(read_vector_market<double, HostDevice>(x_file));
  const auto ax = reference::spmv(A, x);
  double r2 = 0;
  for (double v : ax) r2 += (1.0 - v) * (1.0 - v);
  EXPECT_LE(std::sqrt(r2 / double(ax.size())), 1e-8);
}

TEST(SyncFreeSolve, ExitsOneWhenNotConvergedWithinMaxit) {
  const std::string json = temp_path("maxit.json");

  const CommandRun run = solve("--problem poisson2d:30 --maxit 2 --json " + json);

  EXPECT_EQ(run.exit_code, 1) << run.output;
  const auto j = read_json(json);
  EXPECT_FALSE(j["converged"].get<bool>());
  EXPECT_EQ(j["iterations"], 2);
  EXPECT_EQ(j["status"], "not_converged");
}

TEST(SyncFreeSolve, ExitsOneWithStagnatedWhenTheResidualStopsFalling) {
  // The 1-D Neumann Laplacian is singular and b = ones + e_1 is not in its range: no x brings
  // ||b - A x|| below ||b|| / 2, so GMRES stagnates long before --maxit.
  std::string matrix_text = "%%MatrixMarket matrix coordinate real general\n20 20 58\n";
  for (int i = 1; i <= 20; ++i) {
    if (i > 1) matrix_text += std::to_string(i) + " " + std::to_string(i - 1) + " -1\n";
    matrix_text +=
        std::to_string(i) + " " + std::to_string(i) + (i == 1 || i == 20 ? " 1\n" : " 2\n");
    if (i < 20) matrix_text += std::to_string(i) + " " + std::to_string(i + 1) + " -1\n";
  }
  std::string rhs_text = "%%MatrixMarket matrix array real general\n20 1\n2\n";
  for (int i = 2; i <= 20; ++i) rhs_text += "1\n";
  const std::string matrix = write_file("neumann.mtx", matrix_text);
  const std::string rhs = write_file("neumann_b.mtx", rhs_text);
  const std::string json = temp_path("stagnated.json");

  const CommandRun run = solve("--matrix " + matrix + " --rhs " + rhs +
                               " --solver gmres --restart 5 --precond none --maxit 100000 "
                               "--stagnation-window 40 --json " +
                               json);

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("stagnated (the residual norm did not fall below 0.9 times"),
            std::string::npos)
      << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["status"], "stagnated");
  EXPECT_LT(j["iterations"].get<int>(), 1000);
  EXPECT_GE(j["relative_residual"].get<double>(), 0.5);
}

TEST(SyncFreeSolve, ReportsResidualReplacements) {
  const std::string json = temp_path("replaced.json");

  const CommandRun run =
      solve("--problem convdiff2d:16:10 --solver bicgstab --tol 1e-10 --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("residual replaced"), std::string::npos) << run.output;
  EXPECT_GT(read_json(json)["residual_replacements"].get<int>(), 0);
}

TEST(SyncFreeSolve, MonitorPrintsEveryIteration) {
  const CommandRun run = solve("--problem poisson2d:10 --precond none --monitor residual");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("iteration 0 "), std::string::npos);
  EXPECT_NE(run.output.find("iteration 1 "), std::string::npos);
}

struct SolverCase {
  const char* solver;
  std::string extra;
  std::string problem = "convdiff2d:16:10";  // nonsymmetric; CG gets an SPD one
};

class SyncFreeSolveEverySolver : public ::testing::TestWithParam<SolverCase> {};

TEST_P(SyncFreeSolveEverySolver, ConvergesOnASmallNonsymmetricProblem) {
  const std::string json = temp_path(std::string(GetParam().solver) + ".json");

  const CommandRun run =
      solve("--problem " + GetParam().problem + " --tol 1e-8 --solver " +
            std::string(GetParam().solver) + " " + GetParam().extra + " --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["solver"], GetParam().solver);
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_LE(j["relative_residual"].get<double>(), 1e-7);
  EXPECT_GT(j["iterations"].get<int>(), 0);
  EXPECT_NE(run.output.find(GetParam().solver), std::string::npos) << run.output;
}

INSTANTIATE_TEST_SUITE_P(
    Solvers, SyncFreeSolveEverySolver,
    ::testing::Values(SolverCase{"cg", "", "poisson2d:16"}, SolverCase{"bicgstab", ""},
                      SolverCase{"gmres", "--restart 20"},
                      SolverCase{"fgmres", "--restart 20 --orthogonalization cgs2"},
                      SolverCase{"tfqmr", "--precond-side left"},
                      SolverCase{"bicgstab", "--precond none --check-every 5"}),
    [](const auto& info) {
      return std::string(info.param.solver) + "_" + std::to_string(info.index);
    });

TEST(SyncFreeSolve, ReportsTheGmresRestartAndOrthogonalization) {
  const std::string json = temp_path("gmres.json");

  const CommandRun run = solve(
      "--problem convdiff2d:12 --solver gmres --restart 7 "
      "--orthogonalization cgs2 --json " +
      json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["restart"], 7);
  EXPECT_EQ(j["orthogonalization"], "cgs2");
  EXPECT_EQ(j["precond_side"], "right");
}

int iterations_with(const std::string& arguments) {
  const std::string json = temp_path("iterations.json");
  const CommandRun run = solve(arguments + " --json " + json);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return read_json(json)["iterations"].get<int>();
}

TEST(SyncFreeSolve, IncompleteLUPreconditionersCutTheIterations) {
  const std::string problem = "--problem poisson2d:40 ";
  const int jacobi = iterations_with(problem + "--precond jacobi");
  const int ilu0 = iterations_with(problem + "--precond ilu0");
  const int ilu2 = iterations_with(problem + "--precond iluk --fill 2 --ilu-variant level_set");

  EXPECT_LT(ilu0, jacobi);
  EXPECT_LT(ilu2, ilu0);
}

TEST(SyncFreeSolve, ApproximateInversesCutTheIterationsAndReportTheirSize) {
  const std::string problem = "--problem convdiff2d:40 --solver gmres ";
  const int jacobi = iterations_with(problem + "--precond jacobi");
  const std::string json = temp_path("spai.json");

  const CommandRun run = solve(problem +
                               "--precond spai --spai-pattern A2 --spai-threshold 0.05 "
                               "--spai-side left --json " +
                               json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["preconditioner"], "spai");
  EXPECT_LT(j["iterations"].get<int>(), jacobi);
  EXPECT_GT(j["precond_nnz"].get<int>(), 5 * 1600);
  EXPECT_GT(j["spai_max_residual"].get<double>(), 0.0);
  EXPECT_LE(j["spai_mean_residual"].get<double>(), j["spai_max_residual"].get<double>());
  EXPECT_NE(run.output.find("approximate inverse"), std::string::npos);
  EXPECT_LT(iterations_with("--problem poisson2d:40 --precond fsai --spai-pattern A2"),
            iterations_with("--problem poisson2d:40 --precond jacobi"));
}

TEST(SyncFreeSolve, SpaiTakesItsPatternFromAFile) {
  // A's own pattern from a file gives SPAI(A) itself; a diagonal pattern gives n entries.
  const auto A =
      generate_matrix<HM>(Kokkos::DefaultHostExecutionSpace(), parse_problem_spec("convdiff2d:24"));
  const std::string matrix = temp_path("pattern_a.mtx");
  write_matrix_market(matrix, A);
  std::string diagonal = "%%MatrixMarket matrix coordinate pattern general\n576 576 576\n";
  for (int i = 1; i <= 576; ++i) diagonal += std::to_string(i) + " " + std::to_string(i) + "\n";
  const std::string diagonal_file = write_file("pattern_diagonal.mtx", diagonal);
  const std::string solve_a = "--matrix " + matrix + " --solver gmres --precond spai --json ";
  const std::string own = temp_path("pattern_own.json"), from_file = temp_path("pattern_file.json"),
                    from_diagonal = temp_path("pattern_diagonal.json");

  ASSERT_EQ(solve(solve_a + own + " --spai-pattern A").exit_code, 0);
  const CommandRun run = solve(solve_a + from_file + " --spai-pattern " + matrix);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(solve(solve_a + from_diagonal + " --spai-pattern " + diagonal_file).exit_code, 0);

  const auto a = read_json(own), f = read_json(from_file), d = read_json(from_diagonal);
  EXPECT_EQ(f["iterations"], a["iterations"]);
  EXPECT_EQ(f["precond_nnz"], a["precond_nnz"]);
  EXPECT_EQ(f["spai_max_residual"], a["spai_max_residual"]);
  EXPECT_EQ(d["precond_nnz"], 576);
  EXPECT_EQ(d["converged"], true);
  EXPECT_GT(d["iterations"].get<int>(), a["iterations"].get<int>());
  EXPECT_EQ(f["renumber_reason"],
            "kept for --precond spai with a pattern file (--renumber "
            "locality renumbers whatever the preconditioner)");

  // The file numbers M's columns as the matrix is read: no renumbering with it.
  const CommandRun renumbered =
      solve(solve_a + from_file + " --spai-pattern " + matrix + " --renumber locality");
  EXPECT_EQ(renumbered.exit_code, 2) << renumbered.output;
  EXPECT_NE(renumbered.output.find("--renumber locality: the --spai-pattern file numbers"),
            std::string::npos)
      << renumbered.output;
}

TEST(SyncFreeSolve, DiluCutsTheIterationsAndReportsItsColors) {
  const std::string problem = "--problem poisson2d:40 ";
  const int jacobi = iterations_with(problem + "--precond jacobi");
  const std::string json = temp_path("dilu.json");

  const CommandRun run = solve(
      problem + "--precond dilu --dilu-variant sync_free_2d --coloring distance2 --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["preconditioner"], "dilu");
  EXPECT_EQ(j["dilu_variant"], "sync_free_2d");
  EXPECT_EQ(j["dilu_negative_pivots"], 0);
  EXPECT_GE(j["colors"].get<int>(), 5);  // distance 2 on the 5-point stencil
  EXPECT_LT(j["iterations"].get<int>(), jacobi);
  EXPECT_NE(run.output.find("colors, sync_free_2d sweeps"), std::string::npos) << run.output;
  EXPECT_LT(iterations_with(problem + "--precond dilu --dilu-sweeps 2"),
            iterations_with(problem + "--precond dilu"));
}

TEST(SyncFreeSolve, SipPreconditionsGridMatricesAndReportsTheGrid) {
  const std::string problem = "--problem convdiff3d:12 --solver bicgstab ";
  const std::string json = temp_path("sip.json");

  const CommandRun run = solve(problem + "--precond sip --sip-alpha 0.5 --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["preconditioner"], "sip");
  EXPECT_EQ(j["sip_grid"], "12x12x12");
  EXPECT_LT(j["iterations"].get<int>(), iterations_with(problem + "--precond jacobi"));
  EXPECT_LT(iterations_with(problem + "--precond sip --sip-inner 2"), j["iterations"].get<int>());
}

TEST(SyncFreeSolve, SpaiFallsBackToJacobiColumnsWhenAsked) {
  // Columns 1 and 2 are dependent: SPAI(A) fails there, unless they fall back to Jacobi's.
  const std::string matrix = write_file("dependent.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "3 3 5\n1 1 4.0\n2 2 1.0\n2 3 1.0\n3 2 1.0\n3 3 1.0\n");
  const std::string json = temp_path("fallback.json");

  const CommandRun failed = solve("--precond spai --solver gmres --matrix " + matrix);
  const CommandRun run =
      solve("--precond spai --spai-fallback --solver gmres --matrix " + matrix + " --json " + json);

  EXPECT_EQ(failed.exit_code, 2) << failed.output;
  EXPECT_NE(failed.output.find("rank deficient"), std::string::npos) << failed.output;
  EXPECT_NE(run.output.find("2 columns Jacobi's"), std::string::npos) << run.output;
  EXPECT_EQ(read_json(json)["spai_fallbacks"], 2);
}

TEST(SyncFreeSolve, IluAppliesThroughApproximateInversesWhenAsked) {
  const std::string json = temp_path("isai.json");

  const CommandRun run = solve(
      "--problem convdiff2d:30 --solver gmres --precond ilu0 "
      "--ilu-apply isai --isai-power 2 --json " +
      json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_NE(j["preconditioner"].get<std::string>().find("isai(2)"), std::string::npos);
  EXPECT_LT(j["iterations"].get<int>(),
            iterations_with("--problem convdiff2d:30 --solver gmres --precond jacobi"));
}

TEST(SyncFreeSolve, ReportsTheIluVariantItRan) {
  const std::string json = temp_path("ilu.json");

  const CommandRun run =
      solve("--problem poisson2d:10 --precond iluk --fill 1 --ilu-variant shared --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  // and the algorithm of its triangular solves: poisson2d:10's factors are narrow bands
  EXPECT_EQ(read_json(json)["preconditioner"], "ilu(1) shared, solves band");
}

TEST(SyncFreeSolve, ExplainsTheTriangularSolvesOfIluAndIc) {
  for (const char* precond : {"ilu0", "ic0"}) {
    const std::string json = temp_path(std::string("explain_") + precond + ".json");

    const CommandRun run = solve("--problem poisson2d:20 --precond " + std::string(precond) +
                                 " --explain=measure --json " + json);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto j = read_json(json);
    const auto& factors = j["explain"]["factors"];
    ASSERT_EQ(factors.size(), 2u) << precond;
    const std::string solves = j["preconditioner"];
    for (const auto& f : factors) {
      EXPECT_EQ(f["rows"], 400);
      EXPECT_EQ(f["levels"], 39);  // a 20 x 20 grid's triangles
      EXPECT_NE(solves.find("solves " + f["runs"].get<std::string>()), std::string::npos) << solves;
      ASSERT_EQ(f["candidates"].size(), 6u);
      double previous = 0;
      for (const auto& c : f["candidates"]) {
        EXPECT_GE(c["predicted_seconds"].get<double>(), previous);  // fastest first
        previous = c["predicted_seconds"];
        EXPECT_GT(c["measured_seconds"].get<double>(), 0) << c.dump();
      }
    }
    EXPECT_EQ(factors[1]["factor"], std::string(precond) == "ic0" ? "L^T" : "U");
    EXPECT_NE(run.output.find("explain"), std::string::npos);
  }
}

TEST(SyncFreeSolve, TunedSolvesSayWhatTheyMeasured) {
  for (const char* precond : {"ilu0", "ic0"}) {
    const std::string json = temp_path(std::string("tuned_") + precond + ".json");

    // Multicolor: the factors are no narrow bands, whose layout auto takes by structure.
    const std::string common =
        "--problem poisson2d:20 --ordering multicolor --precond " + std::string(precond);

    const CommandRun run = solve(common + " --tune-solves --explain --json " + json);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto j = read_json(json);
    EXPECT_EQ(j["iterations"], iterations_with(common));
    ASSERT_EQ(j["explain"]["factors"].size(), 2u);
    for (const auto& f : j["explain"]["factors"])
      EXPECT_NE(f["reason"].get<std::string>().find("tuned, the model's fastest"),
                std::string::npos)
          << f.dump();
  }
}

// The time per iteration, predicted and measured, for the solvers and preconditioners the model
// has formulas for; the others say there is none. No triangular factors to explain here.
TEST(SyncFreeSolve, ExplainsTheTimePerIteration) {
  for (const char* method : {"--solver cg --precond jacobi", "--solver cg --precond fsai",
                             "--solver gmres --precond spai", "--solver bicgstab --precond none"}) {
    SCOPED_TRACE(method);
    const std::string json = temp_path("explain_iteration.json");
    const CommandRun run =
        solve("--problem poisson2d:20 " + std::string(method) + " --explain --json " + json);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("  iteration: predicted "), std::string::npos) << run.output;
    const auto j = read_json(json)["explain"];
    EXPECT_GT(j["iteration"]["predicted_seconds"].get<double>(), 0) << j.dump();
    EXPECT_GT(j["iteration"]["measured_seconds"].get<double>(), 0) << j.dump();
    EXPECT_NE(j["iteration"]["prediction"].get<std::string>().find("products with A"),
              std::string::npos);
    EXPECT_TRUE(j["factors"].empty());
  }
  for (const auto& [method, missing] :
       {std::pair{"--solver tfqmr --precond jacobi", "no formula for tfqmr"},
        std::pair{"--solver gmres --precond dilu", "no formula for dilu"}}) {
    const std::string json = temp_path("explain_no_formula.json");
    const CommandRun run =
        solve("--problem poisson2d:20 " + std::string(method) + " --explain --json " + json);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(
        read_json(json)["explain"]["iteration"]["not_predicted"].get<std::string>().find(missing),
        std::string::npos)
        << run.output;
  }
}

TEST(SyncFreeSolve, ReportsTheSpmvFormatItRan) {
  for (const char* format : {"csr", "stencil"}) {
    const std::string json = temp_path(std::string("format_") + format + ".json");

    const CommandRun run =
        solve("--problem poisson2d:20 --spmv-format " + std::string(format) + " --json " + json);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto j = read_json(json);
    EXPECT_EQ(j["spmv_format"], format);
    EXPECT_LE(j["relative_residual"].get<double>(), 1e-6);
  }
}

TEST(SyncFreeSolve, ReportsTheOrderingItsColorsAndLevels) {
  for (const std::string ordering : {"multicolor", "block_multicolor", "rcm", "nd"}) {
    if (ordering == "nd" && !SYNCFREE_HAVE_SCOTCH) continue;
    const std::string json = temp_path("ordering_" + ordering + ".json");

    const CommandRun run = solve(
        "--problem convdiff2d:30 --solver gmres --precond ilu0 "
        "--block-size 8 --ordering " +
        ordering + " --json " + json);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("ordering"), std::string::npos) << run.output;
    const auto j = read_json(json);
    EXPECT_EQ(j["ordering"], ordering);
    EXPECT_LE(j["relative_residual"].get<double>(), 1e-6);
    EXPECT_GE(j["levels"].get<int>(), 1);
    if (ordering == "multicolor") {
      EXPECT_GE(j["colors"].get<int>(), 2);
      EXPECT_LE(j["levels"].get<int>(), j["colors"].get<int>());
    }
    if (ordering == "rcm" || ordering == "nd") {
      EXPECT_FALSE(j.contains("colors"));
    }
  }
}

TEST(SyncFreeSolve, AutoOrderingSaysWhatItChoseAndWhy) {
  const std::string json = temp_path("ordering_auto.json");

  const CommandRun run =
      solve("--problem poisson2d:20 --precond ilu0 --ordering auto --json " + json);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_FALSE(j["ordering_reason"].get<std::string>().empty());
  if (j["backend"] == "Serial") {
    EXPECT_EQ(j["ordering"], "natural");
  }
}

/// An SPD pentadiagonal matrix of n rows whose inner rows are not diagonally dominant (1 on the
/// diagonal, -0.3 one off it, +0.3 two off), its lower triangle as Matrix Market "symmetric".
std::string not_dominant_spd_file(int n) {
  std::string text = "%%MatrixMarket matrix coordinate real symmetric\n";
  text += std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(3 * n - 3) + "\n";
  for (int i = 1; i <= n; ++i) {
    text += std::to_string(i) + " " + std::to_string(i) + " 1\n";
    if (i > 1) text += std::to_string(i) + " " + std::to_string(i - 1) + " -0.3\n";
    if (i > 2) text += std::to_string(i) + " " + std::to_string(i - 2) + " 0.3\n";
  }
  return write_file("not_dominant_spd.mtx", text);
}

TEST(SyncFreeSolve, AutoPreconditionerSaysWhatItChoseAndWhy) {
  const std::string matrix = not_dominant_spd_file(400);
  const std::string fsai_json = temp_path("precond_auto_fsai.json"),
                    gmres_json = temp_path("precond_auto_gmres.json"),
                    grid_json = temp_path("precond_auto_grid.json");

  const CommandRun fsai = solve("--matrix " + matrix + " --precond auto --json " + fsai_json);
  const CommandRun gmres =
      solve("--matrix " + matrix + " --solver gmres --precond auto --json " + gmres_json);
  const CommandRun grid = solve("--problem poisson2d:20 --precond auto --json " + grid_json);

  ASSERT_EQ(fsai.exit_code, 0) << fsai.output;
  ASSERT_EQ(gmres.exit_code, 0) << gmres.output;
  ASSERT_EQ(grid.exit_code, 0) << grid.output;
  const auto f = read_json(fsai_json), g = read_json(gmres_json), p = read_json(grid_json);
  EXPECT_EQ(f["preconditioner"], "fsai");
  EXPECT_EQ(f["precond_reason"].get<std::string>().rfind("fsai: 99.0 % of the rows", 0), 0u)
      << f["precond_reason"];
  EXPECT_NE(fsai.output.find("(auto: fsai: 99.0 % of the rows"), std::string::npos) << fsai.output;
  EXPECT_EQ(g["preconditioner"], "jacobi");
  EXPECT_EQ(p["preconditioner"], "jacobi");
  EXPECT_EQ(p["precond_reason"].get<std::string>().rfind("jacobi: 0.0 % of the rows", 0), 0u)
      << p["precond_reason"];
}

/// Kershaw's SPD 4x4 matrix, on which IC(0) and ILU(0) have a negative pivot in the last row.
std::string kershaw_file() {
  return write_file("kershaw.mtx",
                    "%%MatrixMarket matrix coordinate real symmetric\n4 4 8\n1 1 3\n2 1 -2\n"
                    "4 1 2\n2 2 3\n3 2 -2\n3 3 3\n4 3 -2\n4 4 3\n");
}

TEST(SyncFreeSolve, IncompleteCholeskyFindsTheShiftItNeeds) {
  const std::string matrix = kershaw_file(), json = temp_path("ic0.json");

  const CommandRun failed = solve("--precond ic0 --matrix " + matrix);
  const CommandRun run =
      solve("--precond ic0 --shift auto --tol 1e-10 --matrix " + matrix + " --json " + json);
  const CommandRun ilu = solve("--precond ilu0 --shift 0.5 --matrix " + matrix);

  EXPECT_EQ(failed.exit_code, 2) << failed.output;
  EXPECT_NE(failed.output.find("row 3: the pivot is not positive"), std::string::npos)
      << failed.output;
  EXPECT_NE(failed.output.find("(row 4 in "), std::string::npos) << failed.output;
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_GT(j["shift"].get<double>(), 0.0);
  EXPECT_GT(j["shift_attempts"].get<int>(), 1);
  EXPECT_NE(j["preconditioner"].get<std::string>().find(", shift "), std::string::npos);
  EXPECT_EQ(ilu.exit_code, 0) << ilu.output;
  EXPECT_NE(ilu.output.find("diagonal shift      0.5"), std::string::npos) << ilu.output;
}

TEST(SyncFreeSolve, IncompleteCholeskySolvesOnTheFactorInLessMemoryWhenAsked) {
  const std::string copy_json = temp_path("ic0_copy.json"), push_json = temp_path("ic0_push.json");
  const std::string common = "--problem poisson2d:60 --precond ic0 --tol 1e-10";

  const CommandRun copy = solve(common + " --json " + copy_json);
  const CommandRun push = solve(common + " --ic-upper-solve column_push --json " + push_json);

  ASSERT_EQ(copy.exit_code, 0) << copy.output;
  ASSERT_EQ(push.exit_code, 0) << push.output;
  EXPECT_NE(push.output.find("precond memory"), std::string::npos) << push.output;
  const auto c = read_json(copy_json), p = read_json(push_json);
  EXPECT_NE(p["preconditioner"].get<std::string>().find("column push"), std::string::npos);
  EXPECT_LT(p["precond_bytes"].get<double>(), 0.7 * c["precond_bytes"].get<double>());
  EXPECT_LE(std::abs(p["iterations"].get<int>() - c["iterations"].get<int>()), 1);
}

TEST(SyncFreeSolve, RunsThePreconditionerInSinglePrecisionWhenAsked) {
  const std::string json = temp_path("single.json");
  const std::string common = "--problem convdiff2d:30 --solver fgmres --precond ilu0 --tol 1e-10";

  const CommandRun single = solve(common + " --precond-precision single --json " + json);
  const CommandRun full = solve(common);

  ASSERT_EQ(single.exit_code, 0) << single.output;
  ASSERT_EQ(full.exit_code, 0) << full.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["precond_precision"], "single");
  EXPECT_NE(j["preconditioner"].get<std::string>().find("ilu(0)"), std::string::npos);
  EXPECT_NE(j["preconditioner"].get<std::string>().find("single precision"), std::string::npos);
  EXPECT_LE(j["relative_residual"].get<double>(), 1e-10);
  EXPECT_EQ(full.output.find("single precision"), std::string::npos) << full.output;
}

// FSAI and SPAI keep their values in float and their vectors in double: same iterations for CG +
// FSAI on an SPD problem.
TEST(SyncFreeSolve, KeepsTheValuesOfApproximateInversesInSinglePrecisionWhenAsked) {
  for (const char* method : {"--solver cg --precond fsai", "--solver gmres --precond spai"}) {
    SCOPED_TRACE(method);
    const std::string json = temp_path("single_values.json"), full_json = temp_path("full.json");
    const std::string common = std::string("--problem poisson2d:40 --tol 1e-10 ") + method;
    const CommandRun single = solve(common + " --precond-precision single --json " + json);
    const CommandRun full = solve(common + " --json " + full_json);
    ASSERT_EQ(single.exit_code, 0) << single.output;
    ASSERT_EQ(full.exit_code, 0) << full.output;
    const auto j = read_json(json), f = read_json(full_json);
    EXPECT_NE(j["preconditioner"].get<std::string>().find("single-precision values"),
              std::string::npos)
        << j["preconditioner"];
    EXPECT_LE(j["relative_residual"].get<double>(), 1e-10);
    EXPECT_LE(std::abs(j["iterations"].get<int>() - f["iterations"].get<int>()), 1);
  }
}

TEST(SyncFreeSolve, SolvesWith64BitOffsetsAsWith32) {
  const std::string wide = temp_path("offsets64.json"), narrow = temp_path("offsets32.json");
  const std::string common = "--problem convdiff2d:30 --solver gmres --precond ilu0 --tol 1e-10";

  const CommandRun run64 = solve(common + " --offsets 64 --json " + wide);
  const CommandRun run32 = solve(common + " --json " + narrow);

  ASSERT_EQ(run64.exit_code, 0) << run64.output;
  ASSERT_EQ(run32.exit_code, 0) << run32.output;
  EXPECT_NE(run64.output.find("(64-bit offsets)"), std::string::npos) << run64.output;
  const auto j64 = read_json(wide), j32 = read_json(narrow);
  EXPECT_EQ(j64["offset_bits"], 64);
  EXPECT_EQ(j32["offset_bits"], 32);
  EXPECT_EQ(j64["iterations"], j32["iterations"]);
  // The same bits on host backends. On CUDA (an H200, 2026-11-30) the two residuals differed in
  // their seventh digit, the same in every run: some kernel sums in another order for 64-bit
  // offsets (which one is not known).
  if (j32["backend"] == "Serial" || j32["backend"] == "OpenMP" || j32["backend"] == "Threads")
    EXPECT_EQ(j64["relative_residual"], j32["relative_residual"]);
  else
    EXPECT_NEAR(j64["relative_residual"].get<double>(), j32["relative_residual"].get<double>(),
                1e-5 * j32["relative_residual"].get<double>());
}

/// The 2-D Poisson matrix on m x m points, its rows and columns numbered at random, with the
/// diagonal entry of the row numbered `zero_row` (0-based; -1: none) set to zero.
std::string randomly_numbered_grid(const std::string& name, int m, int zero_row = -1) {
  const Kokkos::DefaultHostExecutionSpace host;
  const auto A = generate_matrix<HM>(host, parse_problem_spec("poisson2d:" + std::to_string(m)));
  Kokkos::View<int*, HostDevice> perm("perm", A.numRows());
  for (int i = 0; i < A.numRows(); ++i) perm(i) = i;
  std::shuffle(perm.data(), perm.data() + A.numRows(), std::mt19937(5));
  const HM B = permute_matrix(host, A, perm);
  if (zero_row >= 0)
    for (int k = B.graph.row_map(zero_row); k < B.graph.row_map(zero_row + 1); ++k)
      if (B.graph.entries(k) == zero_row) B.values(k) = 0.0;
  const std::string path = temp_path(name);
  write_matrix_market(path, B);
  return path;
}

/// --renumber auto renumbers a randomly numbered grid for locality where FSAI preconditions it
/// (beyond 2 x 4096 rows, where most of its entries are far from their rows) and writes the
/// solution as the file numbers it, the one the solve without renumbering finds; it keeps the
/// numbering of the grid in its own order, and with Jacobi.
TEST(SyncFreeSolve, RenumbersARandomNumberingForLocality) {
  const std::string matrix = randomly_numbered_grid("random_grid.mtx", 160);
  const std::string renumbered_json = temp_path("renumbered.json"),
                    kept_json = temp_path("kept.json"), grid_json = temp_path("grid_kept.json"),
                    jacobi_json = temp_path("jacobi_kept.json");
  const std::string renumbered_x = temp_path("renumbered_x.mtx"), kept_x = temp_path("kept_x.mtx");
  const std::string fsai = " --precond fsai --tol 1e-10 --json ";

  const CommandRun renumbered =
      solve("--matrix " + matrix + fsai + renumbered_json + " --out " + renumbered_x);
  const CommandRun kept =
      solve("--matrix " + matrix + " --renumber none" + fsai + kept_json + " --out " + kept_x);
  const CommandRun grid = solve("--problem poisson2d:160" + fsai + grid_json);
  const CommandRun jacobi = solve("--matrix " + matrix + " --json " + jacobi_json);

  ASSERT_EQ(renumbered.exit_code, 0) << renumbered.output;
  ASSERT_EQ(kept.exit_code, 0) << kept.output;
  ASSERT_EQ(grid.exit_code, 0) << grid.output;
  ASSERT_EQ(jacobi.exit_code, 0) << jacobi.output;
  const auto r = read_json(renumbered_json), k = read_json(kept_json), g = read_json(grid_json),
             j = read_json(jacobi_json);
  EXPECT_EQ(r["renumber"], "locality");
  EXPECT_NE(r["renumber_reason"].get<std::string>().find("renumbered"), std::string::npos)
      << r["renumber_reason"];
  EXPECT_NE(renumbered.output.find("renumbering         locality (auto: "), std::string::npos)
      << renumbered.output;
  EXPECT_EQ(k["renumber"], "none");
  EXPECT_FALSE(k.contains("renumber_reason"));
  EXPECT_EQ(g["renumber"], "none");
  EXPECT_NE(g["renumber_reason"].get<std::string>().find("far from their rows: kept"),
            std::string::npos)
      << g["renumber_reason"];
  EXPECT_EQ(j["renumber"], "none");
  EXPECT_EQ(j["renumber_reason"],
            "kept for --precond jacobi (--renumber locality renumbers "
            "whatever the preconditioner)");
  // FSAI's G follows the numbering: the iterations may differ, the solution may not.
  const auto x = to_std(read_vector_market<double, HostDevice>(renumbered_x));
  const auto y = to_std(read_vector_market<double, HostDevice>(kept_x));
  ASSERT_EQ(x.size(), y.size());
  double largest = 0, difference = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    largest = std::max(largest, std::abs(y[i]));
    difference = std::max(difference, std::abs(x[i] - y[i]));
  }
  EXPECT_LE(difference, 1e-7 * largest);
}

/// An error about a row of the renumbered system names the row as the file numbers it.
TEST(SyncFreeSolve, NamesRowsAsReadWhenRenumbered) {
  const int zero_row = 4321;
  const std::string matrix = randomly_numbered_grid("random_grid_zero.mtx", 160, zero_row);

  const CommandRun run = solve("--matrix " + matrix + " --renumber locality");

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--precond jacobi: row " + std::to_string(zero_row) + " (row "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(" renumbered): diagonal entry is zero"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("(row " + std::to_string(zero_row + 1) + " in " + matrix),
            std::string::npos)
      << run.output;
}

TEST(SyncFreeSolve, PermutesRowsToAZeroFreeDiagonalWhenAsked) {
  if (!SYNCFREE_HAVE_BTF) GTEST_SKIP() << "built without SuiteSparse BTF";
  // A diagonally dominant tridiagonal matrix, its rows rotated by two: no diagonal entry stored.
  const int n = 50;
  std::string entries;
  for (int i = 0; i < n; ++i) {
    const int row = (i + 2) % n + 1;  // the file's row holding A's row i
    entries += std::to_string(row) + " " + std::to_string(i + 1) + " 4\n";
    if (i > 0) entries += std::to_string(row) + " " + std::to_string(i) + " -1\n";
    if (i + 1 < n) entries += std::to_string(row) + " " + std::to_string(i + 2) + " -1.5\n";
  }
  const std::string matrix = write_file(
      "rotated.mtx", "%%MatrixMarket matrix coordinate real general\n" + std::to_string(n) + " " +
                         std::to_string(n) + " " + std::to_string(3 * n - 2) + "\n" + entries);
  const std::string json = temp_path("rotated.json");

  const CommandRun refused = solve("--solver gmres --precond ilu0 --matrix " + matrix);
  const CommandRun run = solve(
      "--solver gmres --precond ilu0 --permute-diagonal --tol 1e-10 "
      "--matrix " +
      matrix + " --json " + json);

  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--permute-diagonal permutes the rows"), std::string::npos)
      << refused.output;
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = read_json(json);
  EXPECT_EQ(j["permuted_rows"], n);
  EXPECT_LE(j["iterations"].get<int>(), 5);  // ILU(0) of a tridiagonal matrix is exact
}

TEST(SyncFreeSolve, HelpExitsZero) {
  const CommandRun run = solve("--help");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("--precond"), std::string::npos);
}

struct BadInput {
  const char* name;
  std::string arguments;
  std::string expected_message;
};

class SyncFreeSolveBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(SyncFreeSolveBadInput, ExitsTwoWithAOneLineReason) {
  const CommandRun run = solve(GetParam().arguments);

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find(GetParam().expected_message), std::string::npos) << run.output;
  EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
}

const std::string banner = "%%MatrixMarket matrix coordinate real general\n";

/// A 2 x 2 pattern, for the refusals of --spai-pattern FILE.
const std::string small_pattern =
    write_file("pattern_small.mtx", banner + "2 2 2\n1 1 1.0\n2 2 1.0\n");

/// 33 diagonals: the diagonal, row 0 full (16 above it), the last row full (16 below).
std::string thirty_three_diagonals() {
  std::string entries;
  int count = 0;
  for (int i = 1; i <= 17; ++i, ++count)
    entries += std::to_string(i) + " " + std::to_string(i) + " 40\n";
  for (int j = 2; j <= 17; ++j, count += 2)
    entries += "1 " + std::to_string(j) + " 1\n17 " + std::to_string(j - 1) + " 1\n";
  return banner + "17 17 " + std::to_string(count) + "\n" + entries;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SyncFreeSolveBadInput,
    ::testing::Values(
        BadInput{"MalformedFile",
                 "--matrix " + write_file("malformed.mtx", banner + "2 2 2\n1 1 1.0\n1 x 2.0\n"),
                 "malformed.mtx:4:"},
        BadInput{"MissingFile", "--matrix /nonexistent/A.mtx", "cannot open"},
        BadInput{"NonSquare",
                 "--matrix " + write_file("rect.mtx", banner + "2 3 2\n1 1 1.0\n2 2 1.0\n"),
                 "not square"},
        BadInput{"ZeroDiagonalForJacobi",
                 "--matrix " + write_file("zerodiag.mtx", banner + "2 2 2\n1 1 1.0\n2 1 1.0\n"),
                 "row 1: diagonal entry is zero or missing; Jacobi cannot invert it (row 2 in "},
        BadInput{"ZeroPivotForIlu",
                 "--precond ilu0 --matrix " +
                     write_file("zeropivot.mtx", banner + "2 2 3\n1 1 0.0\n1 2 1.0\n2 2 1.0\n"),
                 "--precond ilu0: row 0: pivot 0 is zero"},
        BadInput{"ZeroPivotForIluInTheFilesNumbering",
                 "--precond ilu0 --matrix " +
                     write_file("zeropivot1.mtx", banner + "2 2 3\n1 1 0.0\n1 2 1.0\n2 2 1.0\n"),
                 "such pivots) (row 1 in "},
        BadInput{"MissingDiagonalForIlu",
                 "--precond ilu0 --matrix " +
                     write_file("nodiag.mtx", banner + "2 2 2\n1 1 1.0\n2 1 1.0\n"),
                 "ilu_analyze: row 1: diagonal entry is missing (row 2 in "},
        BadInput{"MissingDiagonalForOrderedIlu",
                 "--precond ilu0 --ordering multicolor --matrix " +
                     write_file("nodiag_ordered.mtx",
                                banner + "3 3 4\n1 1 1.0\n2 1 1.0\n2 3 1.0\n3 3 1.0\n"),
                 "ilu_analyze: row 1: diagonal entry is missing"},
        BadInput{"UnknownOrdering", "--precond ilu0 --ordering metis", "--ordering"},
        BadInput{"NegativeShift", "--precond ilu0 --shift -1", "--shift"},
        BadInput{"ShiftThatIsNotANumber", "--precond ic0 --shift large", "--shift"},
        BadInput{"NonsymmetricMatrixForIc",
                 "--precond ic0 --matrix " +
                     write_file("nonsymmetric.mtx", banner + "2 2 3\n1 1 4.0\n1 2 1.0\n2 2 4.0\n"),
                 "ic_analyze: the matrix is not symmetric: row 0, column 1 differs from row 1, "
                 "column 0"},
        BadInput{"EmptyColumnForSpai",
                 "--precond spai --matrix " +
                     write_file("emptycolumn.mtx", banner + "2 2 2\n1 1 1.0\n1 2 1.0\n"),
                 "--precond spai: column 1 of the approximate inverse: no column of A in its "
                 "pattern has an entry in row 1, so (A M)(1, 1) would be 0 (column 2 in "},
        BadInput{"NotPositiveDefiniteForFsai",
                 "--precond fsai --matrix " +
                     write_file("indefinite.mtx", banner + "2 2 2\n1 1 1.0\n2 2 -1.0\n"),
                 "--precond fsai: row 1 of FSAI's factor: A restricted to the row's pattern is "
                 "not positive definite (a pivot <= 0), so A is not SPD (row 2 in "},
        BadInput{"ZeroPivotForDilu",
                 "--precond dilu --matrix " +
                     write_file("dilu_singular.mtx",
                                banner + "3 3 5\n1 1 1.0\n1 2 1.0\n2 1 1.0\n2 2 1.0\n3 3 1.0\n"),
                 "--precond dilu: row 1: the DILU pivot is zero (row 2 in "},
        BadInput{
            "SipOnAMatrixThatIsNotAGrid",
            "--precond sip --matrix " +
                write_file("notagrid.mtx", banner + "3 3 4\n1 1 4.0\n2 2 4.0\n3 3 4.0\n1 3 -1.0\n"),
            "sip_analyze: not a 5- or 7-point structured grid matrix: its entries lie at "
            "distances 2 from the diagonal"},
        BadInput{"SipAlphaOutOfRange", "--precond sip --sip-alpha 1.5", "--sip-alpha"},
        BadInput{"TooManyEntriesFor32BitOffsets", "--problem poisson3d:1000 --offsets 32",
                 "poisson3d:1000 has 6994000000 entries; that overflows the 32-bit offset type"},
        BadInput{"SipInSinglePrecision", "--precond sip --precond-precision single",
                 "--precond sip runs in double precision only"},
        BadInput{"TunedAndReproducible", "--precond ilu0 --tune-solves --reproducible",
                 "--tune-solves chooses from timings"},
        BadInput{"ColumnPushAndReproducible",
                 "--precond ic0 --ic-upper-solve column_push --reproducible",
                 "--ic-upper-solve column_push adds with atomics"},
        BadInput{"UnknownIcUpperSolve", "--precond ic0 --ic-upper-solve push", "--ic-upper-solve"},
        BadInput{"EntryBeyondSinglePrecision",
                 "--precond ilu0 --precond-precision single --matrix " +
                     write_file("huge.mtx", banner + "2 2 3\n1 1 1.0\n2 1 1e39\n2 2 1.0\n"),
                 "row 1: an entry is beyond single precision's range (3.4e38); keep this "
                 "preconditioner in double precision (row 2 in "},
        BadInput{"UnknownDiluVariant", "--precond dilu --dilu-variant sync_free_3d",
                 "--dilu-variant"},
        BadInput{"UnknownColoring", "--precond dilu --coloring distance3", "--coloring"},
        BadInput{"UnknownIluApply", "--precond ilu0 --ilu-apply spai", "--ilu-apply"},
        BadInput{"IsaiPowerOutOfRange", "--precond ilu0 --ilu-apply isai --isai-power 4",
                 "--isai-power"},
        BadInput{"UnknownSpaiPattern", "--precond spai --spai-pattern A4", "--spai-pattern"},
        BadInput{"NegativeSpaiThreshold", "--precond spai --spai-threshold -1", "--spai-threshold"},
        BadInput{"MissingSpaiPatternFile", "--precond spai --spai-pattern no_such_pattern.mtx",
                 "--spai-pattern"},
        BadInput{"SpaiPatternOfAnotherSize",
                 "--precond spai --problem poisson2d:4 --spai-pattern " + small_pattern,
                 "pattern_small.mtx: the pattern is 2 x 2, the matrix 16 x 16"},
        BadInput{"SpaiPatternFileForFsai",
                 "--precond fsai --problem poisson2d:4 --spai-pattern " + small_pattern,
                 "a pattern file is for --precond spai; fsai takes A, A2 or A3"},
        BadInput{"StencilFormatOfAMatrixWithoutOne",
                 "--spmv-format stencil --matrix " +
                     write_file("diagonals.mtx", thirty_three_diagonals()),
                 "no stencil format: the entries lie on more than 32 diagonals"},
        BadInput{"UnknownSpmvFormat", "--spmv-format dia", "--spmv-format"},
        BadInput{"UnknownIluVariant", "--precond ilu0 --ilu-variant fastest", "--ilu-variant"},
        BadInput{"NaNInMatrix",
                 "--matrix " + write_file("nan.mtx", banner + "2 2 2\n1 1 nan\n2 2 1.0\n"),
                 "not finite"},
        BadInput{"NaNInRhs",
                 "--problem poisson2d:2 --rhs " +
                     write_file("nan_rhs.mtx",
                                "%%MatrixMarket matrix array real general\n4 1\n1\nnan\n1\n1\n"),
                 "not finite"},
        BadInput{"RhsOfWrongSize",
                 "--problem poisson2d:2 --rhs " +
                     write_file("short_rhs.mtx",
                                "%%MatrixMarket matrix array real general\n3 1\n1\n1\n1\n"),
                 "has 3 entries, the matrix has 4 rows"},
        BadInput{"UnknownProblem", "--problem poisson9d:4", "poisson9d"},
        BadInput{"ProblemTooLarge", "--problem poisson3d:2000", "overflows the 32-bit"},
        BadInput{"UnknownSolver", "--solver nope", "--solver"},
        BadInput{"UnknownOrthogonalization", "--solver gmres --orthogonalization hh",
                 "--orthogonalization"},
        BadInput{"FgmresLeft", "--solver fgmres --precond-side left", "right-preconditioned only"},
        BadInput{"ZeroRestart", "--solver gmres --restart 0", "--restart"},
        BadInput{"UnknownOption", "--frobnicate", "frobnicate"},
        BadInput{"MatrixAndProblemTogether", "--matrix a.mtx --problem poisson2d:4", "excludes"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace syncfree::test
