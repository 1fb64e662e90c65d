// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What Stone's strongly implicit procedure computes at one grid point: the factorization
/// and the two sweeps, in the form of the Ferziger-Peric SIPSOL codes (the research report's
/// reconstruction, seed 002 section 1.4, written here by stride: x = +-1, y = +-nx, z = +-nx ny).
/// With l the point, a_x, a_y, a_z its lower and a_X, a_Y, a_Z its upper entries:
///   L_z = a_z / (1 + alpha (U_x[z] + U_y[z]))   L_y = a_y / (1 + alpha (U_x[y] + U_z[y]))
///   L_x = a_x / (1 + alpha (U_y[x] + U_z[x]))
///   P1 = alpha (L_z U_x[z] + L_y U_x[y])   P2 = alpha (L_z U_y[z] + L_x U_y[x])
///   P3 = alpha (L_y U_z[y] + L_x U_z[x])
///   B = 1 / (a_l + P1 + P2 + P3 - L_z U_z[z] - L_y U_y[y] - L_x U_x[x])
///   U_x = (a_X - P1) B,  U_y = (a_Y - P2) B,  U_z = (a_Z - P3) B  (0 where the grid ends)
///   forward:  R_l = (r_l - L_z R[z] - L_y R[y] - L_x R[x]) B
///   backward: d_l = R_l - U_x d[X] - U_y d[Y] - U_z d[Z]
/// so that (LU)^{-1} r = d, L = lower part with diagonal 1 / B, U = unit upper. alpha = 0 is
/// ILU(0) of the 5- or 7-point matrix.
///
/// A rule reads the values other points compute with `sip_read<Wait>` and writes its own with
/// `sip_write<Wait>`: with Wait, values are their own ready flags (the NaN sentinel,
/// core/impl/syncfree_sentinel.hpp); without, the caller's hyperplane barrier made them final.
/// Either way they travel through relaxed atomics, past caches that could hold a stale copy.

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "algorithms/sip/impl/syncfree_sip_grid.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_sentinel.hpp"

namespace syncfree::impl {

template <bool Wait, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar sip_read(const Scalar* p) {
  using S = Sentinel<Scalar>;
  if constexpr (Wait) {
    return S::wait_with_backoff(p);
  } else {
    return S::from_bits(
        atomic_load_relaxed(reinterpret_cast<typename S::bits_type*>(const_cast<Scalar*>(p))));
  }
}

template <bool Wait, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void sip_write(Scalar* p, Scalar value) {
  using S = Sentinel<Scalar>;
  if constexpr (Wait)
    S::publish(p, value);
  else
    atomic_store_relaxed(reinterpret_cast<typename S::bits_type*>(p), S::to_bits(value));
}

/// The factors: L's off-diagonal entries, B = 1 / L's diagonal, U's off-diagonal entries.
template <class Scalar, class Device>
struct SipFactors {
  Kokkos::View<Scalar*, Device> lx, ly, lz, b, ux, uy, uz;
};

inline constexpr int sip_zero_pivot = 0;
inline constexpr int sip_not_finite = 1;

template <class Matrix>
struct SipFactorRule {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  typename Matrix::row_map_type row_map;
  typename Matrix::index_type entries;
  typename Matrix::values_type values;
  SipStrides grid;
  scalar_type alpha;
  SipFactors<scalar_type, device_type> f;
  /// The smallest failing point, as point * 2 + kind.
  Kokkos::View<std::int64_t, device_type> failure;

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const SipPoint& q) const {
    const std::int64_t p = q.p;
    scalar_type ax = 0, ay = 0, az = 0, aX = 0, aY = 0, aZ = 0, diagonal = 0;
    for (auto e = row_map(p); e < row_map(p + 1); ++e) {
      const std::int64_t d = std::int64_t(entries(e)) - p;
      const scalar_type a = values(e);
      // The order of the tests is that of sip_non_neighbour's, for grids where strides coincide.
      if (d == 0)
        diagonal = a;
      else if (d == -1 && q.x)
        ax = a;
      else if (d == 1 && q.X)
        aX = a;
      else if (d == -grid.nx && q.y)
        ay = a;
      else if (d == grid.nx && q.Y)
        aY = a;
      else if (d == -grid.plane)
        az = a;
      else
        aZ = a;
    }
    // The U entries of the lower neighbours (0 outside the grid).
    scalar_type uxz = 0, uyz = 0, uzz = 0, uxy = 0, uyy = 0, uzy = 0, uxx = 0, uyx = 0, uzx = 0;
    if (q.z) {
      const std::int64_t z = p - grid.plane;
      uxz = sip_read<Wait>(&f.ux(z)), uyz = sip_read<Wait>(&f.uy(z));
      uzz = sip_read<Wait>(&f.uz(z));
    }
    if (q.y) {
      const std::int64_t y = p - grid.nx;
      uxy = sip_read<Wait>(&f.ux(y)), uyy = sip_read<Wait>(&f.uy(y));
      uzy = sip_read<Wait>(&f.uz(y));
    }
    if (q.x) {
      uxx = sip_read<Wait>(&f.ux(p - 1)), uyx = sip_read<Wait>(&f.uy(p - 1));
      uzx = sip_read<Wait>(&f.uz(p - 1));
    }
    const scalar_type one = 1;
    const scalar_type lz = az / (one + alpha * (uxz + uyz));
    const scalar_type ly = ay / (one + alpha * (uxy + uzy));
    const scalar_type lx = ax / (one + alpha * (uyx + uzx));
    const scalar_type p1 = alpha * (lz * uxz + ly * uxy);
    const scalar_type p2 = alpha * (lz * uyz + lx * uyx);
    const scalar_type p3 = alpha * (ly * uzy + lx * uzx);
    const scalar_type pivot = diagonal + p1 + p2 + p3 - lz * uzz - ly * uyy - lx * uxx;
    const scalar_type b = one / pivot;
    f.lx(p) = lx, f.ly(p) = ly, f.lz(p) = lz, f.b(p) = b;
    const scalar_type ux = q.X ? (aX - p1) * b : scalar_type(0);
    const scalar_type uy = q.Y ? (aY - p2) * b : scalar_type(0);
    const scalar_type uz = q.Z ? (aZ - p3) * b : scalar_type(0);
    sip_write<Wait>(&f.ux(p), ux);
    sip_write<Wait>(&f.uy(p), uy);
    sip_write<Wait>(&f.uz(p), uz);
    int kind = -1;
    if (pivot == scalar_type(0))
      kind = sip_zero_pivot;
    else if (!is_finite(b) || !is_finite(ux) || !is_finite(uy) || !is_finite(uz) ||
             !is_finite(lx) || !is_finite(ly) || !is_finite(lz))
      kind = sip_not_finite;
    if (kind >= 0) Kokkos::atomic_fetch_min(&failure(), 2 * p + kind);
  }
};

/// R = L^{-1} r; arms d (the backward sweep's flags) where the caller waits.
template <class Scalar, class Device, class R>
struct SipForwardRule {
  SipStrides grid;
  SipFactors<Scalar, Device> f;
  R r;
  Kokkos::View<Scalar*, Device> R_, d;

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const SipPoint& q) const {
    const std::int64_t p = q.p;
    // Everything that depends on no other point is loaded before the waits.
    Scalar value = Scalar(r(p));
    const Scalar lx = f.lx(p), ly = f.ly(p), lz = f.lz(p), b = f.b(p);
    if (q.z) value -= lz * sip_read<Wait>(&R_(p - grid.plane));
    if (q.y) value -= ly * sip_read<Wait>(&R_(p - grid.nx));
    if (q.x) value -= lx * sip_read<Wait>(&R_(p - 1));
    sip_write<Wait>(&R_(p), value * b);
    if constexpr (Wait) Sentinel<Scalar>::arm(&d(p));
  }
};

/// d = U^{-1} R, then out = scale d + keep out (out = scale d when keep is 0); arms R.
template <class Scalar, class Device, class Out>
struct SipBackwardRule {
  SipStrides grid;
  SipFactors<Scalar, Device> f;
  Kokkos::View<Scalar*, Device> R_, d;
  Out out;
  Scalar scale, keep;

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const SipPoint& q) const {
    const std::int64_t p = q.p;
    Scalar value = R_(p);
    const Scalar ux = f.ux(p), uy = f.uy(p), uz = f.uz(p);
    if (q.Z) value -= uz * sip_read<Wait>(&d(p + grid.plane));
    if (q.Y) value -= uy * sip_read<Wait>(&d(p + grid.nx));
    if (q.X) value -= ux * sip_read<Wait>(&d(p + 1));
    sip_write<Wait>(&d(p), value);
    if constexpr (Wait) Sentinel<Scalar>::arm(&R_(p));
    out(p) = keep == Scalar(0) ? scale * value : scale * value + keep * out(p);
  }
};

}  // namespace syncfree::impl
