// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SyncFree's Krylov solvers by name, for the benchmark. A solver joins here when the
/// library has it.

#include <string>

#include "algorithms/krylov/syncfree_cg.hpp"
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"

namespace syncfree::bench {

inline bool syncfree_has_krylov_solver(const std::string& solver) { return solver == "cg"; }

/// What the benchmark should record about how the solver was configured ("" if nothing).
inline std::string syncfree_krylov_note(const std::string&, const KrylovSettings&) { return {}; }

template <class Exec>
SolveResult syncfree_krylov_solve(const std::string& solver, const Exec& exec,
                                  const Operator<double, DefaultDevice>& A,
                                  const Operator<double, DefaultDevice>& M, const Vector<double>& b,
                                  const Vector<double>& x, const KrylovSettings& settings) {
  KrylovOptions options;
  options.tolerance = settings.tolerance;
  options.max_iterations = settings.max_iterations;
  if (solver == "cg") return cg_solve(exec, A, M, b, x, options);
  throw NotSupported("syncfree: no solver '" + solver + "' in this build");
}

}  // namespace syncfree::bench
