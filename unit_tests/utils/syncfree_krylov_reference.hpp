// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial textbook Krylov solvers on the host, in double: the oracles for iteration counts.
///
/// They share nothing with the library's kernels: plain loops over std::vector, host scalars, and
/// where the library reorganizes the algorithm (TFQMR's operator reuse, GMRES's device Givens) the
/// oracle keeps the textbook form. The preconditioner is a diagonal scaling `dinv` (all ones for
/// none), or for CG and BiCGStab any callable applying M^{-1}. Each returns the iterations to reach
/// ||r|| <= tol * ||b||, or -1 without convergence.

#include <cmath>
#include <vector>

#include "core/syncfree_reference.hpp"

namespace syncfree::test::krylov_reference {

using vec = std::vector<double>;

inline double dot(const vec& u, const vec& v) {
  double s = 0;
  for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
  return s;
}
inline double norm(const vec& u) { return std::sqrt(dot(u, u)); }
inline vec scale(const vec& d, const vec& u) {
  vec out(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) out[i] = d[i] * u[i];
  return out;
}

/// M^{-1} u: a diagonal scaling, or any callable from vec to vec.
inline vec precondition(const vec& dinv, const vec& u) { return scale(dinv, u); }
template <class Apply>
vec precondition(const Apply& apply, const vec& u) {
  return apply(u);
}

/// 1 / A(i, i) for each row, the Jacobi preconditioner.
template <class HM>
vec inverse_diagonal(const HM& A) {
  vec d(A.numRows(), 0.0);
  for (std::int64_t i = 0; i < std::int64_t(A.numRows()); ++i)
    for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      if (A.graph.entries(k) == i) d[i] = 1.0 / A.values(k);
  return d;
}

/// Saad, Algorithm 9.1 (preconditioned CG), from x = 0.
template <class HM, class Precond>
int pcg(const HM& A, const Precond& dinv, const vec& b, double tol, int maxit) {
  const std::size_t n = b.size();
  vec x(n, 0.0), r = b, z = precondition(dinv, r), p = z;
  const double b_norm = norm(b);
  double rz = dot(r, z);
  for (int it = 1; it <= maxit; ++it) {
    const vec q = reference::spmv(A, p);
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    if (norm(r) <= tol * b_norm) return it;
    z = precondition(dinv, r);
    const double rz_next = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rz_next / rz * p[i];
    rz = rz_next;
  }
  return -1;
}

/// Right-preconditioned BiCGStab (Saad, Algorithm 7.7 on A M), from x = 0; an iteration whose
/// ||s|| meets the tolerance ends after its first half.
template <class HM, class Precond>
int bicgstab(const HM& A, const Precond& dinv, const vec& b, double tol, int maxit) {
  const std::size_t n = b.size();
  vec x(n, 0.0), r = b, r0 = b, p = r;
  const double b_norm = norm(b);
  double rho = dot(r0, r);
  for (int it = 1; it <= maxit; ++it) {
    const vec p_hat = precondition(dinv, p), v = reference::spmv(A, p_hat);
    const double alpha = rho / dot(r0, v);
    vec s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    if (norm(s) <= tol * b_norm) return it;
    const vec s_hat = precondition(dinv, s), t = reference::spmv(A, s_hat);
    const double omega = dot(t, s) / dot(t, t);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p_hat[i] + omega * s_hat[i];
      r[i] = s[i] - omega * t[i];
    }
    if (norm(r) <= tol * b_norm) return it;
    const double rho_next = dot(r0, r);
    const double beta = rho_next / rho * alpha / omega;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    rho = rho_next;
  }
  return -1;
}

/// Right-preconditioned GMRES(m) with modified Gram-Schmidt and textbook Givens rotations (Saad,
/// Algorithms 6.9 and 9.5), from x = 0. A cycle ends when the estimate |g_{j+1}| meets the
/// tolerance; convergence is then checked on the true residual, as the library does.
template <class HM>
int gmres(const HM& A, const vec& dinv, const vec& b, double tol, int maxit, int m) {
  const std::size_t n = b.size();
  vec x(n, 0.0);
  const double b_norm = norm(b);
  int it = 0;
  while (true) {
    vec r = reference::spmv(A, x);
    for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const double beta = norm(r);
    if (beta <= tol * b_norm) return it;
    if (it >= maxit) return -1;
    std::vector<vec> V(1, r), R(m, vec(m + 1, 0.0));  // R[j] is column j
    for (auto& e : V[0]) e /= beta;
    vec cs(m), sn(m), g(m + 1, 0.0);
    g[0] = beta;
    int k = 0;
    for (int j = 0; j < m && it < maxit; ++j) {
      vec w = reference::spmv(A, scale(dinv, V[j]));
      vec& h = R[j];
      for (int i = 0; i <= j; ++i) {
        h[i] = dot(w, V[i]);
        for (std::size_t l = 0; l < n; ++l) w[l] -= h[i] * V[i][l];
      }
      h[j + 1] = norm(w);
      for (auto& e : w) e /= h[j + 1];
      V.push_back(w);
      for (int i = 0; i < j; ++i) {
        const double a = h[i], c = h[i + 1];
        h[i] = cs[i] * a + sn[i] * c;
        h[i + 1] = -sn[i] * a + cs[i] * c;
      }
      const double d = std::hypot(h[j], h[j + 1]);
      cs[j] = h[j] / d;
      sn[j] = h[j + 1] / d;
      h[j] = d;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      ++it;
      k = j + 1;
      if (std::abs(g[j + 1]) <= tol * b_norm) break;
    }
    vec y(k), u(n, 0.0);
    for (int i = k - 1; i >= 0; --i) {
      double sum = g[i];
      for (int l = i + 1; l < k; ++l) sum -= R[l][i] * y[l];
      y[i] = sum / R[i][i];
    }
    for (int l = 0; l < k; ++l)
      for (std::size_t i = 0; i < n; ++i) u[i] += y[l] * V[l][i];
    for (std::size_t i = 0; i < n; ++i) x[i] += dinv[i] * u[i];
  }
}

/// Right-preconditioned TFQMR in the textbook form (Saad, Algorithm 7.8 on A M, with d stored and
/// A M u recomputed: no operator reuse), from x = 0. The stopping test uses the recursively updated
/// residual r -= eta A M d, and an iteration is one step m.
template <class HM>
int tfqmr(const HM& A, const vec& dinv, const vec& b, double tol, int maxit) {
  const std::size_t n = b.size();
  auto AM = [&](const vec& u) { return reference::spmv(A, scale(dinv, u)); };
  vec x(n, 0.0), r = b, w = b, u = b, r0 = b, d(n, 0.0);
  vec v = AM(u), Au = v;
  const double b_norm = norm(b);
  double tau = norm(r), theta = 0, eta = 0, rho = dot(r0, r), alpha = 0;
  for (int m = 0; m < maxit; ++m) {
    if (m % 2 == 0) alpha = rho / dot(v, r0);
    for (std::size_t i = 0; i < n; ++i) {
      w[i] -= alpha * Au[i];
      d[i] = u[i] + theta * theta * eta / alpha * d[i];
    }
    theta = norm(w) / tau;
    const double c = 1.0 / std::sqrt(1 + theta * theta);
    tau *= theta * c;
    eta = c * c * alpha;
    const vec Md = scale(dinv, d), AMd = reference::spmv(A, Md);
    for (std::size_t i = 0; i < n; ++i) x[i] += eta * Md[i], r[i] -= eta * AMd[i];
    if (norm(r) <= tol * b_norm) return m + 1;
    if (m % 2 == 1) {
      const double rho_next = dot(w, r0), beta = rho_next / rho;
      rho = rho_next;
      for (std::size_t i = 0; i < n; ++i) u[i] = w[i] + beta * u[i];
      const vec Au_next = AM(u);
      for (std::size_t i = 0; i < n; ++i) v[i] = Au_next[i] + beta * (Au[i] + beta * v[i]);
      Au = Au_next;
    } else {
      for (std::size_t i = 0; i < n; ++i) u[i] -= alpha * v[i];
      Au = AM(u);
    }
  }
  return -1;
}

}  // namespace syncfree::test::krylov_reference
