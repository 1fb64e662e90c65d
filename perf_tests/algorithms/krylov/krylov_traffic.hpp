// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Bytes one Krylov iteration must move with a Jacobi preconditioner: the floor that the
/// measured time per iteration is compared with (bytes / measured copy bandwidth).
///
/// Counted per operation of the textbook iteration, each operation moving its operands once:
/// an SpMV reads A once in the format it runs in (CSR: the values and column indices, 12 bytes
/// per entry with FP64 and 32-bit indices, and the row offsets; the stencil format: the values,
/// the row offsets and a mask per row), x once and writes y; a dot reads two vectors, a norm one,
/// an axpy/axpby reads two and writes one, the Jacobi apply reads the inverse diagonal and r and
/// writes z. GMRES's orthogonalization is counted as the passes over the whole basis that SyncFree
/// runs (two for MGS, four for CGS2), not as a dot and an axpy per basis vector, which would move
/// more than twice as much. Fusing operations moves less; caches that keep vectors between
/// operations move less.

#include <string>

#include "core/syncfree_error.hpp"

namespace syncfree::bench {

/// Bytes of y = A x with A in CSR (FP64, 32-bit indices and offsets).
inline double csr_spmv_bytes(double n, double nnz) { return 12 * nnz + 4 * (n + 1) + 16 * n; }

/// Bytes of y = A x with A in SpmvPlan's stencil format: the values, 32-bit offsets and a mask of
/// `mask_bytes` a row, no column indices.
inline double stencil_spmv_bytes(double n, double nnz, double mask_bytes) {
  return 8 * nnz + 4 * (n + 1) + mask_bytes * n + 16 * n;
}

struct IterationTraffic {
  double spmv_bytes = 0;     ///< bytes of one SpMV
  double vector_bytes = 0;   ///< bytes of one vector pass (8 n)
  double spmvs = 0;          ///< SpMVs per iteration
  double vector_passes = 0;  ///< vector reads + writes per iteration
  double bytes() const { return spmvs * spmv_bytes + vector_passes * vector_bytes; }
};

/// `solver` is "cg", "bicgstab" or "gmres"; for GMRES, `restart` is m and `orthogonalization`
/// "mgs" (one projection pass and one update pass over the basis) or "cgs2" (two of each); its
/// restart work (true residual, V y, x update) is spread over m
/// steps. `spmv_bytes` is one product's (csr_spmv_bytes for CSR).
inline IterationTraffic jacobi_iteration_traffic(const std::string& solver, double n,
                                                 double spmv_bytes, int restart = 30,
                                                 const std::string& orthogonalization = "mgs") {
  IterationTraffic t;
  t.spmv_bytes = spmv_bytes;
  t.vector_bytes = 8 * n;
  const double jacobi = 3;
  if (solver == "cg") {
    // q = Ap; (p,q); x += a p; r -= a q; ||r||; z = M r; (r,z); p = z + b p
    t.spmvs = 1;
    t.vector_passes = 2 + 3 + 3 + 1 + jacobi + 2 + 3;
  } else if (solver == "bicgstab") {
    // (r0,r); p = r + b (p - w v); p^ = M p; v = A p^; (r0,v); s = r - a v; ||s||; s^ = M s;
    // t = A s^; (t,s); (t,t); x += a p^ + w s^; r = s - w t; ||r||
    t.spmvs = 2;
    t.vector_passes = 2 + 4 + jacobi + 2 + 3 + 1 + jacobi + 2 + 1 + 4 + 3 + 1;
  } else if (solver == "gmres") {
    const double m = restart;
    // Arnoldi step j (j + 1 basis vectors): z = M v_j; w = A z; orthogonalize; v = w / ||w||.
    // A projection pass reads the basis and w (j + 2); an update pass also writes w (j + 3) and
    // gives ||w||; the normalization reads and writes w (2).
    double orthogonalize = 0;  // mean over j = 0 .. m-1, where the mean j is (m - 1) / 2
    const double mean_j = (m - 1) / 2;
    if (orthogonalization == "mgs")
      orthogonalize = (mean_j + 2) + (mean_j + 3);
    else if (orthogonalization == "cgs2")
      orthogonalize = 2 * ((mean_j + 2) + (mean_j + 3));
    else
      throw InvalidArgument("unknown orthogonalization '" + orthogonalization + "'");
    // Per restart: r = b - A x (SpMV + 3), ||r|| (1), v_0 = r / ||r|| (2), V y (m + 1),
    // M (3), x += (3).
    t.spmvs = 1 + 1 / m;
    t.vector_passes = jacobi + orthogonalize + 2 + (3 + 1 + 2 + (m + 1) + jacobi + 3) / m;
  } else {
    throw InvalidArgument("unknown solver '" + solver + "'");
  }
  return t;
}

}  // namespace syncfree::bench
