// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SyncFree's Krylov solvers by name, with the benchmark's settings.

#include <string>

#include "algorithms/krylov/syncfree_krylov.hpp"
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"

namespace syncfree::bench {

inline GmresOptions syncfree_krylov_options(const KrylovSettings& settings) {
  GmresOptions options;
  options.tolerance = settings.tolerance;
  options.max_iterations = settings.max_iterations;
  options.check_every = settings.check_every;
  options.restart = settings.restart;
  options.orthogonalization =
      settings.orthogonalization == "cgs2" ? Orthogonalization::cgs2 : Orthogonalization::mgs;
  return options;
}

/// What the report should record about how the solver ran.
inline std::string syncfree_krylov_note(const std::string& solver, const KrylovSettings& settings) {
  std::string note = "check_every " + std::to_string(settings.check_every);
  if (solver == "gmres" || solver == "fgmres") note += ", " + settings.orthogonalization;
  return note;
}

template <class Exec>
SolveResult syncfree_krylov_solve(const std::string& solver, const Exec& exec,
                                  const Operator<double, DefaultDevice>& A,
                                  const Operator<double, DefaultDevice>& M, const Vector<double>& b,
                                  const Vector<double>& x, const KrylovSettings& settings) {
  return krylov_solve(parse_krylov_solver(solver), exec, A, M, b, x,
                      syncfree_krylov_options(settings));
}

}  // namespace syncfree::bench
