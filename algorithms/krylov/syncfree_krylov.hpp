// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief All Krylov solvers, and `krylov_solve` to pick one by name (for command lines and
/// benchmarks).

#include <string>

#include "algorithms/krylov/syncfree_bicgstab.hpp"
#include "algorithms/krylov/syncfree_cg.hpp"
#include "algorithms/krylov/syncfree_fgmres.hpp"
#include "algorithms/krylov/syncfree_gmres.hpp"
#include "algorithms/krylov/syncfree_tfqmr.hpp"

namespace syncfree {

enum class KrylovSolver { cg, bicgstab, gmres, fgmres, tfqmr };

inline const char* to_string(KrylovSolver solver) {
  switch (solver) {
    case KrylovSolver::cg:
      return "cg";
    case KrylovSolver::bicgstab:
      return "bicgstab";
    case KrylovSolver::gmres:
      return "gmres";
    case KrylovSolver::fgmres:
      return "fgmres";
    case KrylovSolver::tfqmr:
      return "tfqmr";
  }
  return "unknown";
}

/// The solver called `name` (cg, bicgstab, gmres, fgmres, tfqmr).
/// \throws InvalidArgument naming the unknown solver and the known ones.
inline KrylovSolver parse_krylov_solver(const std::string& name) {
  for (KrylovSolver s : {KrylovSolver::cg, KrylovSolver::bicgstab, KrylovSolver::gmres,
                         KrylovSolver::fgmres, KrylovSolver::tfqmr})
    if (name == to_string(s)) return s;
  SYNCFREE_REQUIRE(false, InvalidArgument, "unknown Krylov solver '", name,
                   "' (known: cg, bicgstab, gmres, fgmres, tfqmr)");
  return KrylovSolver::cg;
}

/// Calls the solver `solver` with `options` (the GMRES fields are used by gmres and fgmres only).
template <class Scalar, class Device>
SolveResult krylov_solve(KrylovSolver solver, const typename Device::execution_space& exec,
                         const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                         const typename Operator<Scalar, Device>::const_vector_type& b,
                         const typename Operator<Scalar, Device>::vector_type& x,
                         const GmresOptions& options = {}) {
  const KrylovOptions& common = options;
  switch (solver) {
    case KrylovSolver::cg:
      return cg_solve(exec, A, M, b, x, common);
    case KrylovSolver::bicgstab:
      return bicgstab_solve(exec, A, M, b, x, common);
    case KrylovSolver::gmres:
      return gmres_solve(exec, A, M, b, x, options);
    case KrylovSolver::fgmres:
      return fgmres_solve(exec, A, M, b, x, options);
    case KrylovSolver::tfqmr:
      return tfqmr_solve(exec, A, M, b, x, common);
  }
  return {};
}

}  // namespace syncfree
