// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Options and helpers shared by the Krylov solvers.

#include <functional>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_status.hpp"

namespace syncfree {

struct KrylovOptions {
  /// Stop when ||r|| <= tolerance * ||b||.
  double tolerance = 1e-6;
  int max_iterations = 500;
  /// Keep the relative residual of every iteration in `SolveResult::history`.
  bool keep_history = false;
  /// Called after every iteration with (iteration, ||r|| / ||b||); for progress output.
  std::function<void(int, double)> monitor;
};

namespace impl {

/// ||b - A x|| / ||b|| recomputed from x (the number SolveResult reports), using r as work space.
template <class Scalar, class Device>
double true_relative_residual(const typename Device::execution_space& exec,
                              const Operator<Scalar, Device>& A,
                              const typename Operator<Scalar, Device>::const_vector_type& b,
                              const typename Operator<Scalar, Device>::const_vector_type& x,
                              const typename Operator<Scalar, Device>::vector_type& r,
                              double b_norm) {
  Kokkos::deep_copy(exec, r, b);
  A.apply(exec, x, r, Scalar(-1), Scalar(1));
  const double r_norm = double(nrm2(exec, r));
  return b_norm > 0 ? r_norm / b_norm : r_norm;
}

template <class Scalar, class Device>
void check_krylov_sizes(const char* solver, const Operator<Scalar, Device>& A,
                        const Operator<Scalar, Device>& M, std::size_t b_size, std::size_t x_size) {
  SYNCFREE_REQUIRE(A.num_rows() == A.num_cols(), DimensionMismatch, solver, ": operator is ",
                   A.num_rows(), "x", A.num_cols(), ", not square");
  SYNCFREE_REQUIRE(M.num_rows() == A.num_rows() && M.num_cols() == A.num_cols(), DimensionMismatch,
                   solver, ": preconditioner is ", M.num_rows(), "x", M.num_cols(),
                   " but the operator is ", A.num_rows(), "x", A.num_cols());
  SYNCFREE_REQUIRE(b_size == A.num_rows() && x_size == A.num_rows(), DimensionMismatch, solver,
                   ": operator has ", A.num_rows(), " rows, b ", b_size, ", x ", x_size);
}

}  // namespace impl
}  // namespace syncfree
