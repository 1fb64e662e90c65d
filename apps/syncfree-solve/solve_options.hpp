// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The options of syncfree-solve and their parsing (CLI11).

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace syncfree::app {

/// The built-in problem solved when no --matrix or --problem is given: a few seconds of PCG with
/// Jacobi on two CPU cores.
inline constexpr const char* default_problem = "poisson3d:100";

struct SolveOptions {
  std::string matrix;   ///< Matrix Market file, or empty
  std::string problem;  ///< generator spec (core/syncfree_problems.hpp), used when matrix is empty
  std::string rhs =
      "auto";  ///< "auto" (generated problem: b = A x_true; file: ones), "ones", or a file
  std::string x0 = "zeros";  ///< "zeros" or a file
  std::string solver = "cg";
  std::string precond = "jacobi";  ///< none, auto, jacobi, ilu0, iluk, ic0, spai, fsai, dilu, sip
  std::string precond_precision = "double";  ///< the preconditioner's: double or single
  int fill = 1;                              ///< k of --precond iluk
  std::string ilu_variant = "auto";          ///< IluAlgorithm name
  bool reproducible = false;                 ///< IluOptions and SipOptions::reproducible
  bool tune_solves = false;                  ///< IluOptions and IcOptions::tune_solves
  std::string shift = "0";               ///< ILU and IC's diagonal shift: a number >= 0 or "auto"
  bool permute_diagonal = false;         ///< solve P A x = P b, P giving A a zero-free diagonal
  std::string renumber = "auto";         ///< the system's numbering: none, locality or auto
  std::string ilu_apply = "triangular";  ///< IluApply name: triangular or isai
  std::string ic_upper_solve = "transposed_copy";  ///< IcUpperSolve name
  int isai_power = 1;                              ///< IluOptions::isai_power
  std::string ordering =
      "natural";        ///< ILU's ordering: natural, multicolor, block_multicolor, rcm, auto
  int block_size = 32;  ///< rows per block of block_multicolor
  bool blocks_from_rcm = false;        ///< block_multicolor's blocks from the RCM numbering
  std::string spai_pattern = "A";      ///< pattern of SPAI and FSAI: A, A2, A3 or (SPAI) a file
  double spai_threshold = 0;           ///< SpaiOptions::threshold, FsaiOptions::threshold
  std::string spai_side = "right";     ///< SPAI's side: right or left
  bool spai_fallback = false;          ///< SpaiOptions::fallback_to_diagonal
  std::string dilu_variant = "auto";   ///< DiluVariant name
  std::string coloring = "distance1";  ///< DILU's coloring: distance1 or distance2
  int dilu_sweeps = 1;                 ///< DiluOptions::sweeps
  double dilu_omega = 1;               ///< DiluOptions::omega
  double sip_alpha = 0.92;             ///< SipOptions::alpha
  int sip_inner = 1;                   ///< SipOptions::inner_iterations
  std::string sip_variant = "auto";    ///< SipVariant name
  std::string spmv_format = "auto";    ///< A's SpmvFormat: auto, csr or stencil
  std::string offsets = "auto";        ///< auto, 32 or 64: the bits of A's offsets
  double tolerance = 1e-6;
  int max_iterations = 1000;
  int restart = 50;                       ///< restart length of the GMRES family
  std::string orthogonalization = "mgs";  ///< GMRES family: mgs or cgs2
  std::string precond_side = "right";     ///< left or right (cg: same iterates; fgmres: right)
  int check_every = 1;                    ///< iterations between host reads of the solver state
  int stagnation_window = 1000;           ///< KrylovOptions::stagnation_window
  double stagnation_factor = 0.9;         ///< KrylovOptions::stagnation_factor
  double residual_replacement = 1e-2;     ///< KrylovOptions::residual_replacement
  std::string monitor = "none";
  /// --explain: "" (off), "predict" (the model's SpTRSV candidates for the preconditioner's
  /// triangular solves) or "measure" (and each candidate analyzed and timed)
  std::string explain;
  std::string out;   ///< write the solution here (Matrix Market array)
  std::string json;  ///< write the results here
};

/// Outcome of parsing: options to run with, or an exit code (0 after --help, 2 on bad usage) and
/// the text to print.
struct ParsedOptions {
  std::optional<SolveOptions> options;
  int exit_code = 0;
  std::string message;
};

ParsedOptions parse_solve_options(int argc, const char* const* argv);

/// Whether --spai-pattern names a file rather than a power of A.
inline bool spai_pattern_is_file(const SolveOptions& o) {
  return o.spai_pattern != "A" && o.spai_pattern != "A2" && o.spai_pattern != "A3";
}

/// Adds to `cli` the flags of syncfree-solve that syncfree-tpetra-solve takes too: the problem,
/// the preconditioners' options, the tolerance and the outputs (not --solver or --precond).
void add_shared_options(CLI::App& cli, SolveOptions& o);

/// Parses argv with `cli`: nothing when the options are to run, else what to print and the exit
/// code (after --help, or a usage error named after `program`).
std::optional<ParsedOptions> parse_command_line(CLI::App& cli, int argc, const char* const* argv,
                                                const char* program);

}  // namespace syncfree::app
