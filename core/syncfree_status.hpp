// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Numerical outcomes: returned, never thrown, never printed by the library.

#include <cstdint>
#include <string>
#include <vector>

namespace syncfree {

/// Outcome of a numerical phase (factor, solve, Krylov iteration).
enum class Status {
  success,         ///< finished as asked
  zero_pivot,      ///< a diagonal entry or pivot is zero (or missing); `index` names its row
  not_finite,      ///< NaN or Inf met in the data or produced by the arithmetic
  not_converged,   ///< the iteration limit was reached before the tolerance
  breakdown,       ///< a Krylov recurrence cannot continue (e.g. p'Ap <= 0 in CG)
  rank_deficient,  ///< a least-squares problem (an approximate inverse's column) has no unique
                   ///< solution; `index` names the column or row
  not_positive_definite,  ///< a matrix that must be SPD has a non-positive pivot; `index` its row
  stagnated,  ///< an iteration stopped making progress before the tolerance (see `reason`)
};

/// Short lower-case name of a status, for messages and JSON.
inline const char* to_string(Status status) {
  switch (status) {
    case Status::success:
      return "success";
    case Status::zero_pivot:
      return "zero_pivot";
    case Status::not_finite:
      return "not_finite";
    case Status::not_converged:
      return "not_converged";
    case Status::breakdown:
      return "breakdown";
    case Status::rank_deficient:
      return "rank_deficient";
    case Status::not_positive_definite:
      return "not_positive_definite";
    case Status::stagnated:
      return "stagnated";
  }
  return "unknown";
}

/// A status with the row (or iteration) it concerns and a readable reason.
struct Outcome {
  Status status = Status::success;
  std::int64_t index = -1;  ///< the row (or column) where the problem was met, or -1
  std::string reason;       ///< empty on success

  bool ok() const { return status == Status::success; }
};

/// Result of an iterative solve.
struct SolveResult {
  Status status = Status::not_converged;
  int iterations = 0;
  /// True relative residual ||b - A x|| / ||b||, recomputed from x at exit (not the recurrence).
  double relative_residual = 0;
  /// Relative residual norm of the recurrence after each iteration (index 0: the initial one);
  /// filled only when the solver was asked to keep it.
  std::vector<double> history;
  /// Times the recursive residual was replaced by b - A x (BiCGStab and TFQMR).
  int residual_replacements = 0;
  std::string reason;  ///< why it stopped, when it did not converge

  bool converged() const { return status == Status::success; }
};

}  // namespace syncfree
