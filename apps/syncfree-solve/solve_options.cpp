// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "apps/syncfree-solve/solve_options.hpp"

#include <cmath>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

namespace syncfree::app {

void add_shared_options(CLI::App& cli, SolveOptions& o) {
  auto* matrix = cli.add_option("--matrix,-A", o.matrix, "Matrix Market file (coordinate format)");
  cli.add_option("--problem", o.problem,
                 "built-in problem: poisson2d:N, poisson3d:N, poisson3d27:N, anisotropic2d:N[:EPS],"
                 " convdiff2d:N[:BETA], convdiff3d:N[:BETA], banded:N:BW[:M]")
      ->excludes(matrix);
  cli.add_option("--rhs", o.rhs,
                 "right-hand side: ones, a Matrix Market array file, or auto (a built-in problem's "
                 "known-solution b, ones for a file)")
      ->capture_default_str();
  cli.add_option("--x0", o.x0, "initial guess: zeros or a Matrix Market array file")
      ->capture_default_str();
  cli.add_option("--fill", o.fill, "fill level k of --precond iluk")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--ilu-variant", o.ilu_variant, "ILU factorization variant")
      ->check(CLI::IsMember(
          {"auto", "level_set", "shared", "vector", "adaptive", "parallel", "gather"}))
      ->capture_default_str();
  cli.add_flag("--reproducible", o.reproducible,
               "bitwise the same results on every run on the same device and build: "
               "--ilu-variant parallel (atomic additions) and --tune-solves (timings) are "
               "refused");
  cli.add_flag("--tune-solves", o.tune_solves,
               "ILU and IC: time the triangular solve algorithms the performance model ranks "
               "fastest (and auto's own) at analysis, and keep the fastest");
  cli.add_option("--shift", o.shift,
                 "ILU and IC: factor A + SHIFT diag(A) (a number >= 0), or auto: from 0, then "
                 "from 1e-3 doubling, the first shift whose factorization keeps every pivot's "
                 "sign (IC: positive)")
      ->check([](const std::string& value) -> std::string {
        if (value == "auto") return {};
        try {
          std::size_t used = 0;
          const double shift = std::stod(value, &used);
          if (used == value.size() && shift >= 0 && std::isfinite(shift)) return {};
        } catch (const std::exception&) {
        }
        return "expected auto or a finite number >= 0, got '" + value + "'";
      })
      ->capture_default_str();
  cli.add_flag("--permute-diagonal", o.permute_diagonal,
               "solve P A x = P b with the row permutation P that gives A a zero-free diagonal "
               "(a maximum transversal, SuiteSparse BTF), for matrices whose diagonal has zeros");
  cli.add_option("--ilu-apply", o.ilu_apply,
                 "how ILU preconditions: triangular (two triangular solves) or isai (two products "
                 "with sparse approximate inverses of L and U, on the patterns of L^k and U^k)")
      ->check(CLI::IsMember({"triangular", "isai"}))
      ->capture_default_str();
  cli.add_option("--ic-upper-solve", o.ic_upper_solve,
                 "how IC solves with L^T: transposed_copy (a solve plan on a copy of L^T) or "
                 "column_push (on L itself, each row adding its products to the rows it feeds: "
                 "about half the preconditioner's memory, not with --reproducible)")
      ->check(CLI::IsMember({"transposed_copy", "column_push"}))
      ->capture_default_str();
  cli.add_option("--isai-power", o.isai_power, "k of --ilu-apply isai: 1, 2 or 3")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  cli.add_option(
         "--ordering", o.ordering,
         "ILU's and IC's row ordering: natural, multicolor, block_multicolor, rcm, nd (nested "
         "dissection, where built with SCOTCH), locality, or auto "
         "(natural on host backends and where the natural order's levels are wide or a "
         "grid's fast solve applies, else multicolor)")
      ->check(CLI::IsMember(
          {"natural", "multicolor", "block_multicolor", "rcm", "nd", "locality", "auto"}))
      ->capture_default_str();
  cli.add_option("--block-size", o.block_size, "rows per block of --ordering block_multicolor")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_flag("--blocks-from-rcm", o.blocks_from_rcm,
               "block_multicolor: blocks of the reverse Cuthill-McKee numbering (for matrices "
               "numbered without locality) instead of the matrix's own");
  cli.add_option("--spai-pattern", o.spai_pattern,
                 "pattern of --precond spai (M) and fsai (G, its lower triangle): A, A2 or A3, "
                 "the power of A thresholded by --spai-threshold; or, for spai, a Matrix Market "
                 "file whose entries (values ignored) are M's")
      ->check(CLI::IsMember({"A", "A2", "A3"}) | CLI::ExistingFile)
      ->capture_default_str();
  cli.add_option("--spai-threshold", o.spai_threshold,
                 "--spai-pattern keeps a_ij when |a_ij| >= THRESHOLD sqrt(|a_ii a_jj|), before "
                 "taking powers (0 keeps every entry)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--spai-side", o.spai_side,
                 "--precond spai minimizes ||A M - I|| (right, column by column) or ||M A - I|| "
                 "(left, row by row)")
      ->check(CLI::IsMember({"right", "left"}))
      ->capture_default_str();
  cli.add_flag("--spai-fallback", o.spai_fallback,
               "--precond spai: a column whose least-squares problem has no unique solution gets "
               "Jacobi's e_k / a_kk instead of stopping with an error; the report counts them");
  cli.add_option("--dilu-variant", o.dilu_variant,
                 "how --precond dilu runs its sweeps: per_color (a launch per color), "
                 "sync_free_2d or sync_free_1d (one launch, each row waiting only on the rows it "
                 "reads), or auto")
      ->check(CLI::IsMember({"auto", "per_color", "sync_free_2d", "sync_free_1d"}))
      ->capture_default_str();
  cli.add_option("--coloring", o.coloring,
                 "--precond dilu's coloring of A + A^T: distance1 (neighbours differ) or "
                 "distance2 (rows with a common neighbour differ too)")
      ->check(CLI::IsMember({"distance1", "distance2"}))
      ->capture_default_str();
  cli.add_option("--dilu-sweeps", o.dilu_sweeps,
                 "--precond dilu: smoothing steps from zero per application")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--dilu-omega", o.dilu_omega,
                 "--precond dilu: relaxation of each step, x += omega M^{-1} (b - A x)")
      ->check(CLI::Range(1e-3, 2.0))
      ->capture_default_str();
  cli.add_option("--sip-alpha", o.sip_alpha,
                 "--precond sip: Stone's cancellation parameter in [0, 1] (0: ILU(0))")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cli.add_option("--sip-inner", o.sip_inner,
                 "--precond sip: SIP iterations from zero per application")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--sip-variant", o.sip_variant,
                 "how --precond sip sweeps the grid's hyperplanes: level_sync (a barrier between "
                 "hyperplanes), element_sync (each point waits on its neighbours), triangular "
                 "(SyncFree's SpTRSV on L and U) or auto")
      ->check(CLI::IsMember({"auto", "level_sync", "element_sync", "triangular"}))
      ->capture_default_str();
  cli.add_option("--tol", o.tolerance, "stop when ||b - A x|| <= tol * ||b||")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--maxit", o.max_iterations, "maximum iterations")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--restart", o.restart, "restart length of the GMRES family")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--precond-side", o.precond_side,
                 "where the preconditioner acts: right (test on b - A x) or left (test on "
                 "M (b - A x)); fgmres takes right only")
      ->check(CLI::IsMember({"left", "right"}))
      ->capture_default_str();
  cli.add_option("--monitor", o.monitor, "print the residual of every iteration")
      ->check(CLI::IsMember({"none", "residual"}))
      ->capture_default_str();
  cli.add_option("--out", o.out, "write the solution x as a Matrix Market array file");
  cli.add_option("--json", o.json, "write the results as JSON");
}

std::optional<ParsedOptions> parse_command_line(CLI::App& cli, int argc, const char* const* argv,
                                                const char* program) {
  ParsedOptions stopped;
  try {
    cli.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp&) {
    stopped.message = cli.help();
  } catch (const CLI::ParseError& e) {
    stopped.exit_code = 2;
    stopped.message = std::string(program) + ": " + e.what() + " (see --help)";
  }
  return stopped;
}

ParsedOptions parse_solve_options(int argc, const char* const* argv) {
  SolveOptions o;
  CLI::App cli{
      "syncfree-solve: solve A x = b with a SyncFree Krylov solver and preconditioner.\n"
      "With no arguments it solves the built-in problem " +
          std::string(default_problem) +
          ".\nExit status: 0 converged, 1 not converged, 2 bad input or usage.",
      "syncfree-solve"};
  cli.add_option("--solver", o.solver, "Krylov solver")
      ->check(CLI::IsMember({"cg", "bicgstab", "gmres", "fgmres", "tfqmr"}))
      ->capture_default_str();
  cli.add_option("--precond", o.precond,
                 "preconditioner; auto: fsai for cg where most rows are not diagonally "
                 "dominant, else jacobi (the report says why)")
      ->check(CLI::IsMember(
          {"none", "auto", "jacobi", "ilu0", "iluk", "ic0", "spai", "fsai", "dilu", "sip"}))
      ->capture_default_str();
  cli.add_option("--precond-precision", o.precond_precision,
                 "precision the preconditioner is built, stored and applied in, the solve "
                 "staying in double: double, or single (half the bytes per application; "
                 "with gmres prefer fgmres, which allows for M rounding its input; spai and "
                 "fsai are computed in double and keep only their values in float)")
      ->check(CLI::IsMember({"double", "single"}))
      ->capture_default_str();
  add_shared_options(cli, o);
  cli.add_option("--renumber", o.renumber,
                 "number the whole system's rows and columns anew before the solve (x is "
                 "written as read): none; locality (cells of nearby rows, so that products "
                 "gather x from nearby addresses); or auto (locality for --precond fsai and spai, "
                 "also where auto chose them, where most entries lie far from their rows and "
                 "the new numbering brings them near; the report says why)")
      ->check(CLI::IsMember({"none", "locality", "auto"}))
      ->capture_default_str();
  cli.add_option("--spmv-format", o.spmv_format,
                 "format of A's products: auto (the stencil format on CUDA where A has one "
                 "and rows are short), csr, or stencil (every entry on one of at most 32 "
                 "diagonals)")
      ->check(CLI::IsMember({"auto", "csr", "stencil"}))
      ->capture_default_str();
  cli.add_option("--offsets", o.offsets,
                 "bits of the matrix's entry offsets: 32, 64, or auto (64 where the file's size "
                 "line or the problem has more than 2^31 - 1 entries)")
      ->check(CLI::IsMember({"auto", "32", "64"}))
      ->capture_default_str();
  cli.add_option(
         "--orthogonalization", o.orthogonalization,
         "Gram-Schmidt variant of the GMRES family: mgs (modified) or cgs2 (classical, twice)")
      ->check(CLI::IsMember({"mgs", "cgs2"}))
      ->capture_default_str();
  cli.add_option("--check-every", o.check_every,
                 "iterations between two host reads of the solver state")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--stagnation-window", o.stagnation_window,
                 "stop with status stagnated after this many iterations without the residual "
                 "falling to --stagnation-factor times its value at the last such fall (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--stagnation-factor", o.stagnation_factor,
                 "the fall --stagnation-window waits for, in (0, 1)")
      ->check(CLI::Range(1e-12, 1 - 1e-12))
      ->capture_default_str();
  cli.add_option("--residual-replacement", o.residual_replacement,
                 "bicgstab and tfqmr: replace the recursive residual by b - A x when it has "
                 "fallen to this fraction of the largest since the last replacement (about "
                 "sqrt(epsilon) by default: where the rounding drift of the recursion matters), "
                 "and before reporting convergence (0: never)")
      ->check(CLI::Range(0.0, 1 - 1e-12))
      ->capture_default_str();
  cli.add_flag("--explain{predict}", o.explain,
               "the performance model's predicted time per iteration (cg, bicgstab, gmres, "
               "fgmres with none, jacobi, fsai or spai) beside the measured one; for the "
               "triangular solves of --precond ilu0, iluk or ic0 also its predicted time of "
               "each SpTRSV algorithm and the one the preconditioner runs, with why; "
               "--explain=measure also times each (set SYNCFREE_DEVICE_PARAMETERS to a "
               "syncfree-calibrate file for an uncalibrated device)")
      ->check(CLI::IsMember({"predict", "measure"}));
  if (auto stopped = parse_command_line(cli, argc, argv, "syncfree-solve")) return *stopped;
  ParsedOptions parsed;
  if (o.matrix.empty() && o.problem.empty()) o.problem = default_problem;
  if (o.precond_precision == "single" && (o.precond == "none" || o.precond == "sip")) {
    parsed.exit_code = 2;
    parsed.message =
        "syncfree-solve: --precond-precision single: --precond " + o.precond +
        (o.precond == "none" ? " has no values to store" : " runs in double precision only");
    return parsed;
  }
  if (o.tune_solves && o.reproducible) {
    parsed.exit_code = 2;
    parsed.message =
        "syncfree-solve: --tune-solves chooses from timings, which vary from run to run: it "
        "cannot be combined with --reproducible";
    return parsed;
  }
  if (o.ic_upper_solve == "column_push" && o.reproducible) {
    parsed.exit_code = 2;
    parsed.message =
        "syncfree-solve: --ic-upper-solve column_push adds with atomics in an order that varies "
        "from run to run: it cannot be combined with --reproducible";
    return parsed;
  }
  if (o.renumber == "locality" && spai_pattern_is_file(o)) {
    parsed.exit_code = 2;
    parsed.message =
        "syncfree-solve: --renumber locality: the --spai-pattern file numbers M's columns as "
        "the matrix is read; it cannot be combined with a renumbering";
    return parsed;
  }
  if (o.solver == "fgmres" && o.precond_side == "left") {
    parsed.exit_code = 2;
    parsed.message = "syncfree-solve: --precond-side left: fgmres is right-preconditioned only";
    return parsed;
  }
  parsed.options = o;
  return parsed;
}

}  // namespace syncfree::app
