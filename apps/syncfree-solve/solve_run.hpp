// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Loads the system, builds the preconditioner, solves, reports.

#include <ostream>

#include "apps/syncfree-solve/solve_options.hpp"
#include "apps/syncfree-solve/solve_report.hpp"

namespace syncfree::app {

/// Runs one solve as the options say, printing progress and the report to `out`.
/// \throws syncfree::Error (and its subclasses) on bad input: the caller exits with status 2.
SolveReport run_solve(const SolveOptions& options, std::ostream& out);

}  // namespace syncfree::app
