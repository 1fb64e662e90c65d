// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One step of right-preconditioned TFQMR with operator reuse, on device-resident scalars.

#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"

namespace syncfree::impl {

namespace tfqmr_slot {
enum : int {
  rho = slot::first_free,  ///< (w, r0) of the last odd step
  alpha,                   ///< alpha of the current pair of steps
  theta,
  eta,
  tau,
  beta,
  vr,       ///< (v, r0)
  ww,       ///< ||w||^2
  rr,       ///< ||r||^2
  rho_new,  ///< (w, r0)
  count = rho_new + 1 - slot::first_free
};
}

/// The nine vectors of Carmona & Castillo (2012, Sec. 3.1.2): y = M u and z = A M u are kept up to
/// date with u, and p = M d, q = A M d replace d, so a step applies M once and A once.
template <class Scalar, class Device>
struct TfqmrVectors {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  vector_type x, r, r0, w, u, v, y, z, p, q;
};

/// alpha of the current step, computed in every thread of a vector kernel (rho / (v, r0) on even
/// steps, before the scalar kernel stores it); false when the step must not touch the vectors.
template <class Scalar, class Device>
struct TfqmrAlpha {
  KrylovState<Scalar, Device> st;
  bool even;
  KOKKOS_INLINE_FUNCTION bool operator()(Scalar& alpha) const {
    if (!st.running()) return false;
    if (!even) {
      alpha = st[tfqmr_slot::alpha];
      return true;
    }
    const Scalar vr = st[tfqmr_slot::vr];
    if (vr == Scalar(0) || !is_finite(vr)) return false;
    alpha = st[tfqmr_slot::rho] / vr;
    return true;
  }
};

/// Initial state: w = u = r0 = r, y = M u, z = A y, v = 0 (the first even step adds z),
/// p = q = 0, theta = eta = 0, tau = ||r||, rho = (r, r0).
template <class Scalar, class Device>
void tfqmr_start(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
                 const Operator<Scalar, Device>& M, const KrylovState<Scalar, Device>& st,
                 const TfqmrVectors<Scalar, Device>& v) {
  Kokkos::deep_copy(exec, v.r0, v.r);
  Kokkos::deep_copy(exec, v.w, v.r);
  Kokkos::deep_copy(exec, v.u, v.r);
  M.apply(exec, v.u, v.y);
  A.apply(exec, v.y, v.z);
  reduce_into<1>(exec, "syncfree::tfqmr::rho", v.r.extent(0),
                 Kokkos::subview(st.s, int(tfqmr_slot::rho)), DotBody<Scalar, Device>{v.r, v.r0});
  single_task(
      exec, "syncfree::tfqmr::start", KOKKOS_LAMBDA(const int) {
        st[tfqmr_slot::theta] = st[tfqmr_slot::eta] = Scalar(0);
        st[tfqmr_slot::tau] = st[slot::residual];
        st[tfqmr_slot::alpha] = Scalar(1);
      });
}

/// Starts the recurrences again from the residual r now in place (replaced by b - A x): v, p
/// and q back to zero, then `tfqmr_start`, whose shadow residual is the new r.
template <class Scalar, class Device>
void tfqmr_restart(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
                   const Operator<Scalar, Device>& M, const KrylovState<Scalar, Device>& st,
                   const TfqmrVectors<Scalar, Device>& v) {
  Kokkos::deep_copy(exec, v.v, Scalar(0));
  Kokkos::deep_copy(exec, v.p, Scalar(0));
  Kokkos::deep_copy(exec, v.q, Scalar(0));
  tfqmr_start(exec, A, M, st, v);
}

/// Step m of TFQMR (Freund 1993; Saad, 2nd ed., Algorithm 7.8) on A M, with x = M u:
///   m even: v += z (completing v = A M u + beta (...)), alpha = rho / (v, r0)
///   w -= alpha z; p = y + (theta^2 eta / alpha) p; q = z + (theta^2 eta / alpha) q
///   theta = ||w|| / tau; c = 1 / sqrt(1 + theta^2); tau = tau theta c; eta = c^2 alpha
///   x += eta p; r -= eta q (the recursive residual of the stopping test)
///   m odd: rho' = (w, r0), beta = rho' / rho; u = w + beta u; v = beta (z + beta v)
///   m even: u -= alpha v
///   y = M u; z = A y
/// One application of M and one of A per step.
template <class Scalar, class Device>
void tfqmr_step(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
                const Operator<Scalar, Device>& M, const KrylovState<Scalar, Device>& st,
                const TfqmrVectors<Scalar, Device>& vec, int m) {
  using exec_space = typename Device::execution_space;
  namespace sl = tfqmr_slot;
  const std::size_t n = vec.x.extent(0);
  const bool even = m % 2 == 0;
  const auto x = vec.x, r = vec.r, r0 = vec.r0, w = vec.w, u = vec.u, v = vec.v, y = vec.y,
             z = vec.z, p = vec.p, q = vec.q;

  if (even)
    reduce_into<1>(
        exec, "syncfree::tfqmr::vr", n, Kokkos::subview(st.s, int(sl::vr)),
        KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
          v(i) += z(i);
          sum[0] += v(i) * r0(i);
        });
  const TfqmrAlpha<Scalar, Device> step_alpha{st, even};
  reduce_into<1>(
      exec, "syncfree::tfqmr::w", n, Kokkos::subview(st.s, int(sl::ww)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        Scalar alpha = Scalar(0);
        if (!step_alpha(alpha)) return;
        const Scalar coef = st[sl::theta] * st[sl::theta] * st[sl::eta] / alpha;
        w(i) -= alpha * z(i);
        p(i) = y(i) + coef * p(i);
        q(i) = z(i) + coef * q(i);
        sum[0] += w(i) * w(i);
      });
  reduce_into<1>(
      exec, "syncfree::tfqmr::x", n, Kokkos::subview(st.s, int(sl::rr)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        Scalar alpha = Scalar(0);
        if (!step_alpha(alpha)) return;
        const Scalar theta = impl::sqrt(st[sl::ww]) / st[sl::tau];
        const Scalar eta = alpha / (Scalar(1) + theta * theta);
        if (!is_finite(eta)) return;  // the scalar kernel reports it
        x(i) += eta * p(i);
        r(i) -= eta * q(i);
        sum[0] += r(i) * r(i);
      });
  single_task(
      exec, "syncfree::tfqmr::scalars", KOKKOS_LAMBDA(const int) {
        if (!st.running()) return;
        if (even) {
          const Scalar vr = st[sl::vr];
          if (!is_finite(vr))
            return st.stop(DeviceStatus::not_finite, StopCause::tfqmr_scalar_not_finite);
          if (vr == Scalar(0)) return st.stop(DeviceStatus::breakdown, StopCause::tfqmr_vr_zero);
          st[sl::alpha] = st[sl::rho] / vr;
        }
        const Scalar theta = impl::sqrt(st[sl::ww]) / st[sl::tau];
        const Scalar c2 = Scalar(1) / (Scalar(1) + theta * theta);
        if (!is_finite(c2 * st[sl::alpha]))
          return st.stop(DeviceStatus::not_finite, StopCause::tfqmr_scalar_not_finite);
        st[sl::theta] = theta;
        st[sl::tau] = st[sl::tau] * theta * impl::sqrt(c2);
        st[sl::eta] = c2 * st[sl::alpha];
        st.finish_iteration(impl::sqrt(st[sl::rr]));
      });
  if (even) {
    Kokkos::parallel_for(
        "syncfree::tfqmr::u_even", Kokkos::RangePolicy<exec_space>(exec, 0, n),
        KOKKOS_LAMBDA(const std::size_t i) { u(i) -= st[sl::alpha] * v(i); });
  } else {
    reduce_into<1>(exec, "syncfree::tfqmr::rho", n, Kokkos::subview(st.s, int(sl::rho_new)),
                   DotBody<Scalar, Device>{w, r0});
    single_task(
        exec, "syncfree::tfqmr::beta", KOKKOS_LAMBDA(const int) {
          if (!st.running()) return;
          const Scalar rho_new = st[sl::rho_new];
          if (!is_finite(rho_new))
            return st.stop(DeviceStatus::not_finite, StopCause::tfqmr_scalar_not_finite);
          if (rho_new == Scalar(0))
            return st.stop(DeviceStatus::breakdown, StopCause::tfqmr_rho_zero);
          st[sl::beta] = rho_new / st[sl::rho];
          st[sl::rho] = rho_new;
        });
    Kokkos::parallel_for(
        "syncfree::tfqmr::u_odd", Kokkos::RangePolicy<exec_space>(exec, 0, n),
        KOKKOS_LAMBDA(const std::size_t i) {
          const Scalar beta = st[sl::beta];
          u(i) = w(i) + beta * u(i);
          v(i) = beta * (z(i) + beta * v(i));
        });
  }
  M.apply(exec, u, y);
  A.apply(exec, y, z);
}

}  // namespace syncfree::impl
