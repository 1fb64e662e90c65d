// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One distributed solve of syncfree-tpetra-solve.

#include <ostream>

#include <Teuchos_Comm.hpp>

#include "apps/syncfree-solve/solve_report.hpp"
#include "apps/syncfree-tpetra-solve/tpetra_solve_options.hpp"

namespace syncfree::app {

/// Loads or builds the problem on `comm`, sets up the preconditioner, solves with Belos, and
/// writes --out. Collective; the report is the same on every rank. `out` receives the residual
/// monitor (rank 0 only). \throws syncfree::Error on every rank alike.
SolveReport run_tpetra_solve(const TpetraSolveOptions& options, const Teuchos::Comm<int>& comm,
                             std::ostream& out);

}  // namespace syncfree::app
