// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One iteration of preconditioned CG on device-resident scalars.

#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"

namespace syncfree::impl {

/// Slots of CG in the state buffer. r'r, r'z and z'z alternate between two triples so that the
/// kernel that forms beta = r'z_new / r'z_old reads both while nobody writes either; a triple is
/// contiguous for the pass that forms all three where M is diagonal.
namespace cg_slot {
enum : int {
  rr_0 = slot::first_free,
  rz_0,
  zz_0,  ///< z'z beside each r'z: the preconditioner's fused pass gives it; unused
  rr_1,
  rz_1,
  zz_1,
  pq,
  qq,     ///< q'q: the operator's fused pass gives it with p'q; unused
  alpha,  ///< this iteration's alpha, for the direction pass's x += alpha p; 0 where none
  count = alpha + 1 - slot::first_free
};
}

template <class Scalar, class Device>
struct CgVectors {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  vector_type x, r, z, p, q;
};

/// q = A p and p'q (one pass where the operator fuses them); alpha = r'z / p'q; r -= alpha q and
/// r'r in one pass; z = M r and r'z (fused where the preconditioner fuses them; where M is
/// diagonal, all in the pass that updates r: 5 vector streams there, not 8); the scalar kernel
/// checks p'q > 0, r'z > 0 and the stopping test; x += alpha p and p = z + beta p in one pass,
/// which reads p once for both (8 vector streams an iteration besides A and M, against 9 with
/// x updated beside r).
/// \param parity which of the two r'z slots holds the current r'z
template <class Scalar, class Device>
void cg_iteration(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
                  const Operator<Scalar, Device>& M, const KrylovState<Scalar, Device>& st,
                  const CgVectors<Scalar, Device>& v, int parity) {
  using exec_space = typename Device::execution_space;
  const std::size_t n = v.x.extent(0);
  const int rz_old = parity == 0 ? cg_slot::rz_0 : cg_slot::rz_1;
  const int rz_new = parity == 0 ? cg_slot::rz_1 : cg_slot::rz_0;
  const int rr_new = parity == 0 ? cg_slot::rr_1 : cg_slot::rr_0;
  const auto x = v.x, r = v.r, z = v.z, p = v.p, q = v.q;

  A.apply_and_dots(exec, p, q, p,
                   Kokkos::subview(st.s, std::make_pair(int(cg_slot::pq), int(cg_slot::qq) + 1)));
  const auto d = M.diagonal_entries();
  if (d.extent(0) == n) {
    // z = D r: the scalar kernel stops the solve wherever this pass skips, so z is never read.
    reduce_into<3>(
        exec, "syncfree::cg::residual_diagonal", n,
        Kokkos::subview(st.s, std::make_pair(rr_new, rr_new + 3)),
        KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
          const Scalar pq = st[cg_slot::pq], rz = st[rz_old];
          if (!st.running() || !(pq > Scalar(0)) || !(rz > Scalar(0))) return;
          const Scalar ri = r(i) - (rz / pq) * q(i), zi = d(i) * ri;
          r(i) = ri;
          z(i) = zi;
          sum[0] += ri * ri;
          sum[1] += ri * zi;
          sum[2] += zi * zi;
        });
  } else {
    reduce_into<1>(
        exec, "syncfree::cg::residual", n, Kokkos::subview(st.s, rr_new),
        KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
          const Scalar pq = st[cg_slot::pq], rz = st[rz_old];
          if (!st.running() || !(pq > Scalar(0)) || !(rz > Scalar(0))) return;
          r(i) -= (rz / pq) * q(i);
          sum[0] += r(i) * r(i);
        });
    M.apply_and_dots(exec, r, z, r, Kokkos::subview(st.s, std::make_pair(rz_new, rz_new + 2)));
  }
  single_task(
      exec, "syncfree::cg::scalars", KOKKOS_LAMBDA(const int) {
        st[cg_slot::alpha] = Scalar(0);
        if (!st.running()) return;
        const Scalar pq = st[cg_slot::pq], rz = st[rz_old];
        if (!(rz > Scalar(0)))
          return st.stop(is_finite(rz) ? DeviceStatus::breakdown : DeviceStatus::not_finite,
                         StopCause::cg_rz_not_positive);
        if (!(pq > Scalar(0)))
          return st.stop(is_finite(pq) ? DeviceStatus::breakdown : DeviceStatus::not_finite,
                         StopCause::cg_pap_not_positive);
        st[cg_slot::alpha] = rz / pq;  // r was updated: x is, whether or not the solve stops here
        st.finish_iteration(impl::sqrt(st[rr_new]));
      });
  Kokkos::parallel_for(
      "syncfree::cg::solution_direction", Kokkos::RangePolicy<exec_space>(exec, 0, n),
      KOKKOS_LAMBDA(const std::size_t i) {
        const Scalar pi = p(i), alpha = st[cg_slot::alpha];
        if (alpha != Scalar(0)) x(i) += alpha * pi;  // never 0 * p: p may hold an Inf by now
        if (st.running()) p(i) = z(i) + (st[rz_new] / st[rz_old]) * pi;
      });
}

}  // namespace syncfree::impl
