// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What every SyncFree preconditioner offers beyond an `Operator`: its outcome, and new
/// values on the analyzed pattern without a new analysis.

#include "core/syncfree_operator.hpp"
#include "core/syncfree_status.hpp"

namespace syncfree {

/// A preconditioner of a matrix of type `Matrix`, analyzed and factored on construction.
template <class Matrix>
class Preconditioner
    : public Operator<typename Matrix::non_const_value_type, typename Matrix::device_type> {
 public:
  using base = Operator<typename Matrix::non_const_value_type, typename Matrix::device_type>;

  /// The outcome of the last factorization. A failed one is not thrown: `apply` throws
  /// InvalidState until a `refactor` succeeds.
  virtual const Outcome& outcome() const = 0;

  /// Factors again for A's new values, without a new analysis.
  /// \pre A has the pattern (and size) of the matrix the preconditioner was built for.
  virtual const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) = 0;
};

}  // namespace syncfree
