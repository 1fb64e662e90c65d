// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Vectors between double and single precision, scaled by a power of two so that a vector
/// whose entries lie beyond float's range (above 3.4e38, below its smallest normal 1.2e-38) keeps
/// its digits: the scale is exact, and a linear operator commutes with it.

#include <cstdint>
#include <cstring>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree::impl {

/// e with m / 2^e in [1, 2), clamped to [-1022, 1022] so that 2^e and 2^-e both are normal
/// doubles; 0 where m is 0, Inf or NaN (nothing to scale).
KOKKOS_INLINE_FUNCTION int scale_exponent(double m) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &m, sizeof(bits));
  const int biased = int((bits >> 52) & 0x7FF);
  if (biased == 0x7FF || (bits << 1) == 0) return 0;
  const int e = biased == 0 ? -1022 : biased - 1023;  // a subnormal m: as far up as 2^1022 takes it
  return e < -1022 ? -1022 : e > 1022 ? 1022 : e;
}

/// 2^e for e in [-1022, 1022], exactly.
KOKKOS_INLINE_FUNCTION double power_of_two(int e) {
  const std::uint64_t bits = std::uint64_t(e + 1023) << 52;
  double power = 0;
  std::memcpy(&power, &bits, sizeof(power));
  return power;
}

/// scale() = max_i |x(i)| (device memory, without waiting), then out(i) = x(i) / 2^e in float,
/// e = scale_exponent(scale()): the largest entry of `out` lies in [1, 2).
template <class ExecSpace, class X, class Out, class Scale>
void scaled_to_single(const ExecSpace& exec, const X& x, const Out& out, const Scale& scale) {
  Kokkos::parallel_reduce(
      "syncfree::single::max_abs", Kokkos::RangePolicy<ExecSpace>(exec, 0, x.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, double& m) {
        const double v = impl::abs(double(x(i)));
        // NaN compares false: a NaN entry leaves the scale alone and reaches `out` as NaN.
        if (v > m) m = v;
      },
      Kokkos::Max<double, typename Scale::memory_space>(scale));
  Kokkos::parallel_for(
      "syncfree::single::to_single", Kokkos::RangePolicy<ExecSpace>(exec, 0, x.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        out(i) = static_cast<float>(double(x(i)) * power_of_two(-scale_exponent(scale())));
      });
}

/// y = alpha * 2^e * v + beta * y in double, e = scale_exponent(scale()): undoes
/// scaled_to_single on the result of a linear operator. With beta == 0, y is overwritten.
template <class ExecSpace, class V, class Y, class Scale>
void scaled_from_single(const ExecSpace& exec, double alpha, const V& v, double beta, const Y& y,
                        const Scale& scale) {
  Kokkos::parallel_for(
      "syncfree::single::from_single", Kokkos::RangePolicy<ExecSpace>(exec, 0, y.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        const double value = alpha * (double(v(i)) * power_of_two(scale_exponent(scale())));
        y(i) = beta == 0.0 ? value : value + beta * y(i);
      });
}

/// y = 2^e v as scaled_from_single writes it, with sums(0) = u'y and sums(1) = y'y reduced in
/// the same pass (device memory, without waiting).
template <class ExecSpace, class V, class Y, class U, class Sums, class Scale>
void scaled_from_single_and_dots(const ExecSpace& exec, const V& v, const Y& y, const U& u,
                                 const Sums& sums, const Scale& scale) {
  reduce_into<2>(
      exec, "syncfree::single::from_single_dots", y.extent(0), sums,
      KOKKOS_LAMBDA(const std::size_t i, double* sum) {
        const double value = double(v(i)) * power_of_two(scale_exponent(scale()));
        y(i) = value;
        sum[0] += u(i) * value;
        sum[1] += value * value;
      });
}

}  // namespace syncfree::impl
