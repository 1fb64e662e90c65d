// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Flexible GMRES(m) (Saad 1993; Saad, Iterative Methods for Sparse Linear Systems, 2nd
/// ed., Algorithm 9.6): right preconditioning by an M that may change from step to step (an inner
/// iteration, a preconditioner with a varying state), at the price of a second basis Z = M V.

#include "algorithms/krylov/syncfree_gmres.hpp"

namespace syncfree {

/// Solves A x = b with FGMRES(m), m = `options.restart`, starting from x.
///
/// Each step stores z_j = M v_j and updates x += Z y, so M need not be the same linear operator at
/// every application. Otherwise as `gmres_solve`.
/// \throws InvalidArgument when `options.side` is left (FGMRES is right-preconditioned by
/// construction), and as `gmres_solve`.
template <class Scalar, class Device>
SolveResult fgmres_solve(const typename Device::execution_space& exec,
                         const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                         const typename Operator<Scalar, Device>::const_vector_type& b,
                         const typename Operator<Scalar, Device>::vector_type& x,
                         const GmresOptions& options = {}) {
  impl::check_gmres_options("fgmres_solve", options);
  SYNCFREE_REQUIRE(options.side == Preconditioning::right, InvalidArgument,
                   "fgmres_solve: FGMRES is right-preconditioned only");
  impl::check_krylov_sizes("fgmres_solve", A, M, b.extent(0), x.extent(0));
  return impl::gmres_iterate(exec, A, M, b, x, options, true);
}

}  // namespace syncfree
