// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The options of syncfree-tpetra-solve: those of syncfree-solve that apply, Belos's
/// solvers, SyncFree's and Ifpack2's preconditioners, and the overlap.

#include <optional>
#include <string>

#include "apps/syncfree-solve/solve_options.hpp"

namespace syncfree::app {

struct TpetraSolveOptions {
  /// solver: cg, gmres, bicgstab or tfqmr; precond: none, syncfree-<jacobi|ilu0|iluk|dilu|spai|
  /// fsai|sip> or ifpack2-<riluk|ilut|relaxation>.
  SolveOptions solve;
  std::optional<int> fill;  ///< --fill; unset: 1 for syncfree-iluk, 0 for ifpack2-riluk
  int overlap = 0;          ///< layers of additive Schwarz overlap; 0: block Jacobi
  /// How additive Schwarz combines the overlapping subdomains' results: "add" (symmetric, for
  /// CG), "zero" (restricted: each rank keeps its own rows), or "auto" (add for cg, else zero).
  std::string combine = "auto";
};

struct ParsedTpetraOptions {
  std::optional<TpetraSolveOptions> options;
  int exit_code = 0;
  std::string message;
};

ParsedTpetraOptions parse_tpetra_solve_options(int argc, const char* const* argv);

}  // namespace syncfree::app
