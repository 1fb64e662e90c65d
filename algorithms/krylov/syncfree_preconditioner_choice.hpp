// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Which preconditioner to build for a Krylov solve (`syncfree-solve --precond auto`),
/// decided by a validation and a counting pass over A.
///
/// Jacobi costs nothing to set up and one pass an iteration, and converges well where the rows are
/// diagonally dominant: graph Laplacians, finite-volume and upwind discretizations, circuits.
/// Where most rows are not (finite-element matrices: P1 on 3-D meshes, P2, elasticity) it takes
/// several times the iterations, and for a symmetric positive definite matrix FSAI (M = GᵀG, two
/// SpMVs an application, symmetric as CG needs) repays its setup. ILU(0), IC(0) and the other
/// approximate inverses were at most 1.14x faster than the better of those two end to end on both
/// benchmark suites, and often many times slower, so they are not chosen here
/// (perf_tests/results/nvidia-h200-krylov.md).
///
/// \code
///   const auto suggestion = syncfree::suggest_preconditioner(exec, A, /*spd=*/true);
///   std::cout << suggestion.reason << '\n';  // "fsai: 95.2 % of the rows are not ..."
/// \endcode

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/impl/syncfree_diagonal_dominance.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

enum class PreconditionerChoice { jacobi, fsai };

inline const char* to_string(PreconditionerChoice c) {
  return c == PreconditionerChoice::fsai ? "fsai" : "jacobi";
}

/// What `suggest_preconditioner` chose and why.
struct PreconditionerSuggestion {
  PreconditionerChoice choice = PreconditionerChoice::jacobi;
  std::int64_t rows = 0;
  std::int64_t rows_not_dominant = 0;  ///< |a_ii| < sum_{j != i} |a_ij| (beyond rounding)
  std::string reason;                  ///< "<choice>: <why>", for a report
};

/// FSAI where A is symmetric positive definite (the caller's solve assumes it: CG) and more than
/// half its rows are not diagonally dominant; Jacobi everywhere else.
/// \throws InvalidMatrix when A is not square or its row pointers or columns are inconsistent.
template <class Exec, class Matrix>
PreconditionerSuggestion suggest_preconditioner(const Exec& exec, const Matrix& A,
                                                bool symmetric_positive_definite) {
  const auto report = require_valid(exec, A, MatrixCheck::square, "suggest_preconditioner");
  PreconditionerSuggestion s;
  s.rows = A.numRows();
  s.rows_not_dominant =
      impl::rows_not_diagonally_dominant(exec, A, long(report.longest_off_diagonal) + 1);
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.1f",
                s.rows > 0 ? 100.0 * double(s.rows_not_dominant) / double(s.rows) : 0.0);
  const bool mostly_not_dominant = 2 * s.rows_not_dominant > s.rows;
  if (symmetric_positive_definite && mostly_not_dominant) {
    s.choice = PreconditionerChoice::fsai;
    s.reason = impl::concat("fsai: ", percent,
                            " % of the rows are not diagonally dominant, where Jacobi converges "
                            "slowly; FSAI keeps the preconditioner symmetric positive definite");
  } else if (!mostly_not_dominant) {
    s.reason = impl::concat("jacobi: ", percent,
                            " % of the rows are not diagonally dominant; Jacobi converges well "
                            "there at one pass an iteration");
  } else {
    s.reason = impl::concat("jacobi: ", percent,
                            " % of the rows are not diagonally dominant, but FSAI needs a "
                            "symmetric positive definite matrix (CG); where Jacobi converges "
                            "slowly, try ILU(0) in a multicolor order");
  }
  return s;
}

}  // namespace syncfree
