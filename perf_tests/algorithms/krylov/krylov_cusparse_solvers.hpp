// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Textbook PCG, BiCGStab and GMRES(m) (Saad, Iterative Methods for Sparse Linear Systems,
/// 2nd ed., Algorithms 9.1, 7.7 with right preconditioning, 9.5 with modified Gram-Schmidt) on
/// cuSPARSE and cuBLAS with host scalars: the vendor baselines. All stop at ||r|| <= tol ||b||
/// (GMRES on its Givens estimate) and report the true relative residual recomputed at exit.
/// CUDA builds only.

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/syncfree_status.hpp"
#include "perf_tests/algorithms/krylov/krylov_cusparse_blas.hpp"

namespace syncfree::bench {

/// z = M r
using DevicePreconditioner = std::function<void(const double* r, double* z)>;

struct BaselineSettings {
  double tolerance = 1e-6;
  int max_iterations = 500;
  int restart = 30;  ///< GMRES only
};

namespace impl_baseline {

inline Vector<double> work(const char* label, int n) {
  return Vector<double>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

/// ||b - A x|| / ||b||, with r as work space.
inline double true_relative_residual(CusparseBlas& blas, const double* b, const double* x,
                                     double* r, double b_norm) {
  blas.spmv(x, r);
  blas.scal(-1.0, r);
  blas.axpy(1.0, b, r);
  const double r_norm = blas.nrm2(r);
  return b_norm > 0 ? r_norm / b_norm : r_norm;
}

inline SolveResult finish(SolveResult result, bool converged, const char* reason) {
  result.status = converged ? Status::success : Status::not_converged;
  if (!converged) result.reason = reason;
  return result;
}

}  // namespace impl_baseline

/// Preconditioned conjugate gradients.
inline SolveResult cusparse_pcg(CusparseBlas& blas, const DevicePreconditioner& M, const double* b,
                                double* x, const BaselineSettings& s) {
  using namespace impl_baseline;
  const int n = blas.size();
  auto r = work("pcg::r", n), z = work("pcg::z", n), p = work("pcg::p", n), q = work("pcg::q", n);
  SolveResult result;
  const double b_norm = blas.nrm2(b);
  blas.spmv(x, r.data());  // r = b - A x
  blas.scal(-1.0, r.data());
  blas.axpy(1.0, b, r.data());
  double r_norm = blas.nrm2(r.data());
  M(r.data(), z.data());
  blas.copy(z.data(), p.data());
  double rz = blas.dot(r.data(), z.data());
  while (r_norm > s.tolerance * b_norm && result.iterations < s.max_iterations) {
    blas.spmv(p.data(), q.data());
    const double alpha = rz / blas.dot(p.data(), q.data());
    blas.axpy(alpha, p.data(), x);
    blas.axpy(-alpha, q.data(), r.data());
    r_norm = blas.nrm2(r.data());
    ++result.iterations;
    if (!std::isfinite(r_norm) || r_norm <= s.tolerance * b_norm) break;
    M(r.data(), z.data());
    const double rz_next = blas.dot(r.data(), z.data());
    blas.scal(rz_next / rz, p.data());  // p = z + beta p
    blas.axpy(1.0, z.data(), p.data());
    rz = rz_next;
  }
  result.relative_residual = true_relative_residual(blas, b, x, r.data(), b_norm);
  return finish(result, r_norm <= s.tolerance * b_norm, "iteration limit reached");
}

/// BiCGStab, right-preconditioned. One iteration: two SpMVs, two preconditioner applies.
inline SolveResult cusparse_bicgstab(CusparseBlas& blas, const DevicePreconditioner& M,
                                     const double* b, double* x, const BaselineSettings& s) {
  using namespace impl_baseline;
  const int n = blas.size();
  auto r = work("bicgstab::r", n), r0 = work("bicgstab::r0", n), p = work("bicgstab::p", n),
       v = work("bicgstab::v", n), t = work("bicgstab::t", n), p_hat = work("bicgstab::p_hat", n),
       s_hat = work("bicgstab::s_hat", n);
  SolveResult result;
  const double b_norm = blas.nrm2(b);
  blas.spmv(x, r.data());  // r = b - A x
  blas.scal(-1.0, r.data());
  blas.axpy(1.0, b, r.data());
  blas.copy(r.data(), r0.data());
  double r_norm = blas.nrm2(r.data());
  double rho = 1, alpha = 1, omega = 1;
  while (r_norm > s.tolerance * b_norm && result.iterations < s.max_iterations) {
    const double rho_next = blas.dot(r0.data(), r.data());
    if (rho_next == 0 || omega == 0) {
      result.status = Status::breakdown;
      result.reason = "rho = 0 or omega = 0";
      break;
    }
    if (result.iterations == 0) {
      blas.copy(r.data(), p.data());
    } else {  // p = r + beta (p - omega v)
      blas.axpy(-omega, v.data(), p.data());
      blas.scal((rho_next / rho) * (alpha / omega), p.data());
      blas.axpy(1.0, r.data(), p.data());
    }
    rho = rho_next;
    M(p.data(), p_hat.data());
    blas.spmv(p_hat.data(), v.data());
    alpha = rho / blas.dot(r0.data(), v.data());
    blas.axpy(-alpha, v.data(), r.data());  // r becomes s = r - alpha v
    ++result.iterations;
    const double s_norm = blas.nrm2(r.data());
    if (s_norm <= s.tolerance * b_norm) {
      blas.axpy(alpha, p_hat.data(), x);
      r_norm = s_norm;
      break;
    }
    M(r.data(), s_hat.data());
    blas.spmv(s_hat.data(), t.data());
    omega = blas.dot(t.data(), r.data()) / blas.dot(t.data(), t.data());
    blas.axpy(alpha, p_hat.data(), x);
    blas.axpy(omega, s_hat.data(), x);
    blas.axpy(-omega, t.data(), r.data());  // r = s - omega t
    r_norm = blas.nrm2(r.data());
    if (!std::isfinite(r_norm)) break;
  }
  const Status status = result.status;
  result.relative_residual = true_relative_residual(blas, b, x, r.data(), b_norm);
  result = finish(result, r_norm <= s.tolerance * b_norm, "iteration limit reached");
  if (status == Status::breakdown) result.status = status;
  return result;
}

/// Restarted GMRES(m), right-preconditioned, modified Gram-Schmidt, Givens rotations on the host.
/// Iterations count Arnoldi steps (one SpMV and one preconditioner apply each).
inline SolveResult cusparse_gmres(CusparseBlas& blas, const DevicePreconditioner& M,
                                  const double* b, double* x, const BaselineSettings& s) {
  using namespace impl_baseline;
  const int n = blas.size(), m = s.restart;
  Kokkos::View<double**, Kokkos::LayoutLeft, DefaultDevice> V(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "gmres::V"), n, m + 1);
  auto z = work("gmres::z", n), r = work("gmres::r", n);
  auto column = [&](int j) { return V.data() + std::size_t(j) * n; };
  std::vector<double> H((m + 1) * m), cs(m), sn(m), g(m + 1), y(m);
  auto h = [&](int i, int j) -> double& { return H[i + (m + 1) * j]; };
  SolveResult result;
  const double b_norm = blas.nrm2(b);
  const double target = s.tolerance * b_norm;
  double r_norm = 0;
  while (true) {
    blas.spmv(x, r.data());  // r = b - A x
    blas.scal(-1.0, r.data());
    blas.axpy(1.0, b, r.data());
    r_norm = blas.nrm2(r.data());
    if (r_norm <= target || result.iterations >= s.max_iterations || !std::isfinite(r_norm)) break;
    blas.copy(r.data(), column(0));
    blas.scal(1.0 / r_norm, column(0));
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = r_norm;
    int steps = 0;
    for (int j = 0; j < m && result.iterations < s.max_iterations; ++j) {
      M(column(j), z.data());
      blas.spmv(z.data(), column(j + 1));
      for (int i = 0; i <= j; ++i) {
        h(i, j) = blas.dot(column(j + 1), column(i));
        blas.axpy(-h(i, j), column(i), column(j + 1));
      }
      h(j + 1, j) = blas.nrm2(column(j + 1));
      if (h(j + 1, j) > 0) blas.scal(1.0 / h(j + 1, j), column(j + 1));
      for (int i = 0; i < j; ++i) {  // earlier rotations
        const double a = h(i, j), c = h(i + 1, j);
        h(i, j) = cs[i] * a + sn[i] * c;
        h(i + 1, j) = -sn[i] * a + cs[i] * c;
      }
      const double denominator = std::hypot(h(j, j), h(j + 1, j));
      cs[j] = h(j, j) / denominator;
      sn[j] = h(j + 1, j) / denominator;
      h(j, j) = denominator;
      h(j + 1, j) = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      ++result.iterations;
      steps = j + 1;
      if (std::abs(g[j + 1]) <= target || h(j, j) == 0) break;
    }
    for (int i = steps - 1; i >= 0; --i) {  // H y = g, upper triangular
      double sum = g[i];
      for (int k = i + 1; k < steps; ++k) sum -= h(i, k) * y[k];
      y[i] = sum / h(i, i);
    }
    Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), r, 0.0);  // r = V y, then x += M r
    for (int i = 0; i < steps; ++i) blas.axpy(y[i], column(i), r.data());
    M(r.data(), z.data());
    blas.axpy(1.0, z.data(), x);
  }
  result.relative_residual = b_norm > 0 ? r_norm / b_norm : r_norm;
  return finish(result, r_norm <= target, "iteration limit reached");
}

}  // namespace syncfree::bench
