// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One iteration of right-preconditioned BiCGStab on device-resident scalars.

#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"

namespace syncfree::impl {

namespace bicgstab_slot {
enum : int {
  rho = slot::first_free,  ///< (r0, r) of the previous iteration
  alpha,
  omega,
  rv,       ///< (r0, v)
  vv,       ///< (v, v): the operator's fused pass gives it with (r0, v); unused
  ss,       ///< ||s||^2
  ts,       ///< (t, s)
  tt,       ///< (t, t)
  half,     ///< 1 when ||s|| already met the tolerance: x += alpha p^ ends the iteration
  rho_new,  ///< (r0, r) of the current residual; rr must follow it
  rr,
  count = rr + 1 - slot::first_free
};
}

template <class Scalar, class Device>
struct BicgstabVectors {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  vector_type x, r, r0, p, v, p_hat, s, s_hat, t;
};

/// Sets rho = alpha = omega = 1 and rho_new = (r0, r) once r0 = r is in place.
template <class Scalar, class Device>
void bicgstab_start(const typename Device::execution_space& exec,
                    const KrylovState<Scalar, Device>& st,
                    const BicgstabVectors<Scalar, Device>& v) {
  reduce_into<1>(exec, "syncfree::bicgstab::rho", v.r.extent(0),
                 Kokkos::subview(st.s, int(bicgstab_slot::rho_new)),
                 DotBody<Scalar, Device>{v.r0, v.r});
  single_task(
      exec, "syncfree::bicgstab::start", KOKKOS_LAMBDA(const int) {
        st[bicgstab_slot::rho] = st[bicgstab_slot::alpha] = st[bicgstab_slot::omega] = Scalar(1);
      });
}

/// After the residual r was replaced by b - A x: rho_new = (r0, r) and rr = (r, r) from it, so the
/// next direction and stopping test use the true residual (van der Vorst & Ye, 2000).
template <class Scalar, class Device>
void bicgstab_residual_replaced(const typename Device::execution_space& exec,
                                const KrylovState<Scalar, Device>& st,
                                const BicgstabVectors<Scalar, Device>& v) {
  const auto r = v.r, r0 = v.r0;
  reduce_into<2>(
      exec, "syncfree::bicgstab::replaced", r.extent(0),
      Kokkos::subview(st.s,
                      std::make_pair(int(bicgstab_slot::rho_new), int(bicgstab_slot::rr) + 1)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        sum[0] += r0(i) * r(i);
        sum[1] += r(i) * r(i);
      });
}

/// Starts again from the residual r now in place: r0 = r, p = v = 0, then `bicgstab_start`.
template <class Scalar, class Device>
void bicgstab_restart(const typename Device::execution_space& exec,
                      const KrylovState<Scalar, Device>& st,
                      const BicgstabVectors<Scalar, Device>& v) {
  Kokkos::deep_copy(exec, v.r0, v.r);
  Kokkos::deep_copy(exec, v.p, Scalar(0));
  Kokkos::deep_copy(exec, v.v, Scalar(0));
  bicgstab_start(exec, st, v);
}

/// van der Vorst (1992); Saad, 2nd ed., Algorithm 7.7, with x = M u:
///   p = r + beta (p - omega v); p^ = M p; v = A p^; alpha = rho / (r0, v); s = r - alpha v;
///   s^ = M s; t = A s^; omega = (t, s) / (t, t); x += alpha p^ + omega s^; r = s - omega t.
/// Two operator pairs, four reductions ((r0, v) and then (t,s), (t,t) with the operator where it
/// fuses them, ||s||^2 fused with s = r - alpha v, ||r||^2 and (r0, r) fused with the update of x
/// and r), two scalar kernels.
template <class Scalar, class Device>
void bicgstab_iteration(const typename Device::execution_space& exec,
                        const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                        const KrylovState<Scalar, Device>& st,
                        const BicgstabVectors<Scalar, Device>& vec) {
  using exec_space = typename Device::execution_space;
  namespace sl = bicgstab_slot;
  const std::size_t n = vec.x.extent(0);
  const auto x = vec.x, r = vec.r, r0 = vec.r0, p = vec.p, v = vec.v, p_hat = vec.p_hat, s = vec.s,
             s_hat = vec.s_hat, t = vec.t;

  Kokkos::parallel_for(
      "syncfree::bicgstab::direction", Kokkos::RangePolicy<exec_space>(exec, 0, n),
      KOKKOS_LAMBDA(const std::size_t i) {
        if (!st.running()) return;
        const Scalar beta = (st[sl::rho_new] / st[sl::rho]) * (st[sl::alpha] / st[sl::omega]);
        p(i) = r(i) + beta * (p(i) - st[sl::omega] * v(i));
      });
  M.apply(exec, p, p_hat);
  A.apply_and_dots(exec, p_hat, v, r0,
                   Kokkos::subview(st.s, std::make_pair(int(sl::rv), int(sl::vv) + 1)));
  reduce_into<1>(
      exec, "syncfree::bicgstab::s", n, Kokkos::subview(st.s, int(sl::ss)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        const Scalar rv = st[sl::rv];
        if (!st.running() || rv == Scalar(0) || !is_finite(rv)) return;
        s(i) = r(i) - (st[sl::rho_new] / rv) * v(i);
        sum[0] += s(i) * s(i);
      });
  single_task(
      exec, "syncfree::bicgstab::alpha", KOKKOS_LAMBDA(const int) {
        if (!st.running()) return;
        const Scalar rv = st[sl::rv];
        if (!is_finite(rv))
          return st.stop(DeviceStatus::not_finite, StopCause::bicgstab_scalar_not_finite);
        if (rv == Scalar(0)) return st.stop(DeviceStatus::breakdown, StopCause::bicgstab_rv_zero);
        st[sl::alpha] = st[sl::rho_new] / rv;
        st[sl::rho] = st[sl::rho_new];
        st[sl::half] = impl::sqrt(st[sl::ss]) <= st[slot::threshold] ? Scalar(1) : Scalar(0);
      });
  M.apply(exec, s, s_hat);
  A.apply_and_dots(exec, s_hat, t, s,
                   Kokkos::subview(st.s, std::make_pair(int(sl::ts), int(sl::tt) + 1)));
  reduce_into<2>(
      exec, "syncfree::bicgstab::update", n,
      Kokkos::subview(st.s, std::make_pair(int(sl::rho_new), int(sl::rr) + 1)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        if (!st.running()) return;
        const Scalar tt = st[sl::tt];
        const Scalar omega =
            st[sl::half] != Scalar(0) || !(tt > Scalar(0)) ? Scalar(0) : st[sl::ts] / tt;
        x(i) += st[sl::alpha] * p_hat(i) + omega * s_hat(i);
        r(i) = s(i) - omega * t(i);
        sum[0] += r0(i) * r(i);
        sum[1] += r(i) * r(i);
      });
  single_task(
      exec, "syncfree::bicgstab::omega", KOKKOS_LAMBDA(const int) {
        if (!st.running()) return;
        st.finish_iteration(impl::sqrt(st[sl::rr]));
        if (!st.running()) return;
        const Scalar tt = st[sl::tt];
        const Scalar omega = tt > Scalar(0) ? st[sl::ts] / tt : Scalar(0);
        if (!is_finite(omega) || !is_finite(st[sl::rho_new]))
          return st.stop(DeviceStatus::not_finite, StopCause::bicgstab_scalar_not_finite);
        if (omega == Scalar(0))
          return st.stop(DeviceStatus::breakdown, StopCause::bicgstab_omega_zero);
        if (st[sl::rho_new] == Scalar(0))
          return st.stop(DeviceStatus::breakdown, StopCause::bicgstab_rho_zero);
        st[sl::omega] = omega;
      });
}

}  // namespace syncfree::impl
