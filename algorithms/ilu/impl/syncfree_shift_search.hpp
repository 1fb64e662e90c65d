// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The automatic diagonal shift of the incomplete factorizations (IluOptions::auto_shift,
/// IcOptions::auto_shift): factor A + alpha diag(A) with a growing alpha until the factorization
/// succeeds, as Manteuffel's shifted incomplete Cholesky (1980) and PETSc's positive-definite
/// shift do.

#include <string>

#include "core/syncfree_error.hpp"
#include "core/syncfree_status.hpp"

namespace syncfree::impl {

/// The smallest shift an automatic search tries after the requested one fails, and how many it
/// tries in all: 1e-3 to 1e-3 * 2^14 (~16), past which the factors are those of a diagonal that
/// dominates A and the preconditioner is little better than Jacobi.
inline constexpr double smallest_auto_shift = 1e-3;
inline constexpr int auto_shift_attempts = 16;

struct ShiftSearch {
  double shift = 0;  ///< the shift of the last factorization
  int attempts = 0;  ///< factorizations run
  Outcome outcome;   ///< of the last one
};

/// Runs `factor_with(alpha)` (an Outcome) for alpha = `first`, then, while it fails and
/// `automatic` holds, for alpha doubled from max(`first`, smallest_auto_shift) up to
/// `auto_shift_attempts` tries in all. A search that never succeeds returns the last outcome, its
/// reason naming the shift.
template <class FactorWith>
ShiftSearch search_shift(double first, bool automatic, const FactorWith& factor_with) {
  ShiftSearch search;
  search.shift = first;
  search.outcome = factor_with(first);
  search.attempts = 1;
  while (automatic && !search.outcome.ok() && search.attempts < auto_shift_attempts) {
    search.shift = search.shift < smallest_auto_shift ? smallest_auto_shift : 2 * search.shift;
    search.outcome = factor_with(search.shift);
    ++search.attempts;
  }
  if (automatic && !search.outcome.ok())
    search.outcome.reason += concat(" (with a diagonal shift of ", search.shift, ", the last of ",
                                    search.attempts, " tried)");
  return search;
}

}  // namespace syncfree::impl
