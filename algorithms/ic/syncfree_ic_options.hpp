// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The options of IC(0) (syncfree_ic.hpp): its triangular solves and diagonal shift.

#include <string>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree {

/// How `ic_apply` solves with L^T.
enum class IcUpperSolve {
  transposed_copy,  ///< an SpTRSV plan on a copy of L^T, refilled after each factorization
  column_push,      ///< on L itself, each row pushing its products to the rows it feeds (atomic
                    ///< adds): about half the plan's memory, results not bitwise reproducible
};

inline const char* to_string(IcUpperSolve u) {
  return u == IcUpperSolve::column_push ? "column_push" : "transposed_copy";
}

/// "transposed_copy" or "column_push". \throws InvalidArgument otherwise.
inline IcUpperSolve parse_ic_upper_solve(const std::string& name) {
  if (name == "transposed_copy") return IcUpperSolve::transposed_copy;
  SYNCFREE_REQUIRE(name == "column_push", InvalidArgument, "unknown IC upper solve '", name,
                   "' (transposed_copy or column_push)");
  return IcUpperSolve::column_push;
}

struct IcOptions {
  /// Algorithm of the two triangular solves of `ic_apply` (of the lower one with `column_push`).
  SptrsvAlgorithm solve_algorithm = SptrsvAlgorithm::automatic;
  /// How the solve with L^T runs.
  IcUpperSolve upper_solve = IcUpperSolve::transposed_copy;
  /// With `solve_algorithm` automatic: tune the solves' plans (SptrsvOptions::tune), timing the
  /// candidates at analysis on the factor's pattern with identity values (temporary arrays of
  /// the factor's size hold them).
  bool tune_solves = false;
  /// Bitwise the same factor and solves on every run on the same device and build: always given
  /// with `transposed_copy`; the option refuses `tune_solves` (a choice from timings) and
  /// `column_push` (atomic adds).
  bool reproducible = false;
  /// Diagonal shift alpha >= 0: the factor is that of A + alpha diag(A).
  double shift = 0;
  /// `IcPreconditioner` only: where a pivot is not positive, factor again with a larger shift
  /// (impl::search_shift); the preconditioner reports the shift it kept.
  bool auto_shift = false;
};

}  // namespace syncfree
