// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Loads the system, builds the preconditioner, solves, reports.

#include <ostream>

#include "apps/syncfree-solve/solve_options.hpp"
#include "apps/syncfree-solve/solve_report.hpp"

namespace syncfree::app {

/// Runs one solve as the options say, printing progress and the report to `out`: with 64-bit
/// offsets where --offsets says 64, or says auto and the matrix may hold more than 2^31 - 1
/// entries, else 32-bit.
/// \throws syncfree::Error (and its subclasses) on bad input: the caller exits with status 2.
SolveReport run_solve(const SolveOptions& options, std::ostream& out);

/// run_solve for one matrix type (solve_run_impl.hpp), instantiated for `int` offsets
/// (solve_run.cpp) and `std::int64_t` ones (solve_run_wide.cpp).
template <class Matrix>
SolveReport run_solve_as(const SolveOptions& options, std::ostream& out);

}  // namespace syncfree::app
