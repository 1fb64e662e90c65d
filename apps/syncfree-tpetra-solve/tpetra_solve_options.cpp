// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "apps/syncfree-tpetra-solve/tpetra_solve_options.hpp"

#include <CLI/CLI.hpp>

namespace syncfree::app {

ParsedTpetraOptions parse_tpetra_solve_options(int argc, const char* const* argv) {
  TpetraSolveOptions t;
  SolveOptions& o = t.solve;
  o.precond = "syncfree-ilu0";
  CLI::App cli{
      "syncfree-tpetra-solve: solve A x = b over MPI with a Belos solver on a Tpetra matrix, "
      "preconditioned by SyncFree (on each rank's rows, or with overlap through Ifpack2's "
      "additive Schwarz) or by Ifpack2.\nWith no matrix it solves the built-in problem " +
          std::string(default_problem) +
          ", its rows spread evenly over the ranks.\nExit status: 0 converged, 1 not "
          "converged, 2 bad input or usage.",
      "syncfree-tpetra-solve"};
  cli.add_option("--solver", o.solver,
                 "Belos solver: cg (PseudoBlockCG), gmres (PseudoBlockGMRES), bicgstab, tfqmr")
      ->check(CLI::IsMember({"cg", "gmres", "bicgstab", "tfqmr"}))
      ->capture_default_str();
  cli.add_option("--precond", o.precond,
                 "preconditioner; syncfree-auto: Jacobi, or FSAI for cg where most rows of a "
                 "rank's block are not diagonally dominant (each rank chooses for its block)")
      ->check(CLI::IsMember({"none", "syncfree-jacobi", "syncfree-ilu0", "syncfree-iluk",
                             "syncfree-ic0", "syncfree-dilu", "syncfree-spai", "syncfree-fsai",
                             "syncfree-sip", "syncfree-auto", "ifpack2-riluk", "ifpack2-ilut",
                             "ifpack2-relaxation"}))
      ->capture_default_str();
  cli.add_option("--overlap", t.overlap,
                 "layers of overlap of each rank's subdomain (Ifpack2::AdditiveSchwarz with the "
                 "preconditioner inside); 0: block Jacobi on each rank's rows")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--combine", t.combine,
                 "with --overlap: how additive Schwarz combines the subdomains' results, add "
                 "(symmetric, for CG) or zero (restricted: each rank keeps its own rows); auto is "
                 "add for cg, zero for the others")
      ->check(CLI::IsMember({"auto", "add", "zero"}))
      ->capture_default_str();
  add_shared_options(cli, o);
  if (auto* fill = cli.get_option_no_throw("--fill")) {
    fill->description(
        "fill level k of --precond syncfree-iluk (default 1) and ifpack2-riluk "
        "(default 0)");
    fill->default_str("");
  }
  if (auto stopped = parse_command_line(cli, argc, argv, "syncfree-tpetra-solve")) {
    ParsedTpetraOptions out;
    out.exit_code = stopped->exit_code;
    out.message = stopped->message;
    return out;
  }
  ParsedTpetraOptions parsed;
  if (cli.count("--fill") > 0) t.fill = o.fill;
  if (o.matrix.empty() && o.problem.empty()) o.problem = default_problem;
  if (o.ordering == "auto") {
    parsed.exit_code = 2;
    parsed.message =
        "syncfree-tpetra-solve: --ordering auto is syncfree-solve's only; name an ordering";
    return parsed;
  }
  if (o.permute_diagonal) {
    parsed.exit_code = 2;
    parsed.message = "syncfree-tpetra-solve: --permute-diagonal is syncfree-solve's only";
    return parsed;
  }
  parsed.options = t;
  return parsed;
}

}  // namespace syncfree::app
