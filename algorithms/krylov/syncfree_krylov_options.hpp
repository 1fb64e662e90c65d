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

/// Where the preconditioner M (an approximation of A^{-1}) is applied.
enum class Preconditioning {
  left,   ///< solve M A x = M b; the stopping test sees the preconditioned residual M (b - A x)
  right,  ///< solve A M u = b, x = M u; the stopping test sees the true residual b - A x
};

/// The norm the stopping test ||r|| <= tolerance * reference compares with.
enum class ResidualNorm {
  rhs,               ///< ||b|| (||M b|| with left preconditioning)
  initial_residual,  ///< ||r0|| = ||b - A x0|| (||M r0|| with left preconditioning)
};

inline const char* to_string(Preconditioning side) {
  return side == Preconditioning::left ? "left" : "right";
}

/// Options of every Krylov solver.
///
/// Which solver honours `side`: GMRES, BiCGStab and TFQMR take both; FGMRES is right-preconditioned
/// by construction and rejects `left`; preconditioned CG produces the same iterates either way
/// (Saad, 2nd ed., Sec. 9.2.1) and tests the unpreconditioned residual.
struct KrylovOptions {
  /// Stop when ||r|| <= tolerance * reference (see `reference`).
  double tolerance = 1e-6;
  int max_iterations = 500;
  /// Keep the relative residual ||r|| / reference of every iteration in `SolveResult::history`.
  bool keep_history = false;
  /// Called with (iteration, ||r|| / reference) each time the host reads the solver state (every
  /// `check_every` iterations, and with iteration 0 at the start); for progress output.
  std::function<void(int, double)> monitor;
  Preconditioning side = Preconditioning::right;
  ResidualNorm reference = ResidualNorm::rhs;
  /// The host reads the solver's device-resident scalars (one small buffer) every `check_every`
  /// iterations; CG, BiCGStab and TFQMR take each read while the next batch runs, so the device
  /// does not wait for the host (GMRES waits at each read). Once the device has stopped
  /// (converged, breakdown), the iterations launched after it leave x untouched but still apply
  /// the operators (up to two batches), so a larger value trades that work for fewer reads.
  int check_every = 1;
  /// Stop with `Status::stagnated` once `stagnation_window` iterations pass without the residual
  /// norm of the stopping test falling to `stagnation_factor` times its value at the last such
  /// fall (the norms the host reads at each check). 0 turns the test off. CG, BiCGStab and TFQMR,
  /// whose residuals are not monotone, keep a copy of x each time the norm halves and return it
  /// when its true residual is the smaller; GMRES's is monotone.
  int stagnation_window = 1000;
  double stagnation_factor = 0.9;
  /// BiCGStab and TFQMR: replace the recursive residual by b - A x (one more product with A) when
  /// it has fallen to `residual_replacement` times the largest norm read since the last
  /// replacement, and before stopping on convergence, so the stopping test never trusts a residual
  /// that drifted from the true one (van der Vorst & Ye, 2000). Where the true residual denies a
  /// convergence, BiCGStab goes on with it and TFQMR restarts its recurrences from it; on
  /// stagnation both restart from it once before stopping. Decided at the host's checks, so
  /// `check_every` moves the points of replacement. 0 turns replacement off.
  ///
  /// The default is about the square root of double's epsilon, van der Vorst & Ye's threshold:
  /// the drift is rounding of about epsilon times the largest residual met, so a replacement pays
  /// once the residual has fallen far enough for that drift to be sqrt(epsilon) of it. Earlier
  /// replacements only perturb the recursion, and where BiCGStab's residual is erratic (upwind
  /// convection-diffusion with Jacobi) frequent ones cost iterations or keep it from converging.
  double residual_replacement = 1e-8;
};

namespace impl {

/// r = b - A x.
template <class Scalar, class Device>
void residual(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
              const typename Operator<Scalar, Device>::const_vector_type& b,
              const typename Operator<Scalar, Device>::const_vector_type& x,
              const typename Operator<Scalar, Device>::vector_type& r) {
  Kokkos::deep_copy(exec, r, b);
  A.apply(exec, x, r, Scalar(-1), Scalar(1));
}

/// ||b - A x|| / ||b|| recomputed from x (the number SolveResult reports), using r as work space.
template <class Scalar, class Device>
double true_relative_residual(const typename Device::execution_space& exec,
                              const Operator<Scalar, Device>& A,
                              const typename Operator<Scalar, Device>::const_vector_type& b,
                              const typename Operator<Scalar, Device>::const_vector_type& x,
                              const typename Operator<Scalar, Device>::vector_type& r,
                              double b_norm) {
  residual(exec, A, b, x, r);
  const double r_norm = double(nrm2(exec, r));
  return b_norm > 0 ? r_norm / b_norm : r_norm;
}

inline void check_krylov_options(const char* solver, const KrylovOptions& options) {
  SYNCFREE_REQUIRE(options.tolerance >= 0, InvalidArgument, solver, ": tolerance ",
                   options.tolerance, " is negative");
  SYNCFREE_REQUIRE(options.max_iterations >= 0, InvalidArgument, solver, ": max_iterations ",
                   options.max_iterations, " is negative");
  SYNCFREE_REQUIRE(options.check_every >= 1, InvalidArgument, solver, ": check_every ",
                   options.check_every, " must be at least 1");
  SYNCFREE_REQUIRE(options.stagnation_window >= 0, InvalidArgument, solver, ": stagnation_window ",
                   options.stagnation_window, " is negative");
  SYNCFREE_REQUIRE(options.stagnation_factor > 0 && options.stagnation_factor < 1, InvalidArgument,
                   solver, ": stagnation_factor ", options.stagnation_factor, " is not in (0, 1)");
  SYNCFREE_REQUIRE(options.residual_replacement >= 0 && options.residual_replacement < 1,
                   InvalidArgument, solver, ": residual_replacement ", options.residual_replacement,
                   " is not in [0, 1)");
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
