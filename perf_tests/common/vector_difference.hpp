// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief How far a benchmark's result lies from a reference result, on the device.

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::bench {

/// max_i |u_i - v_i| / max_i |v_i| (the absolute difference where v is zero).
inline double max_relative_difference(const Vector<double>& u, const Vector<double>& v) {
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>;
  double difference = 0, scale = 0;
  Kokkos::parallel_reduce(
      "bench::difference", Policy(0, u.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, double& d) {
        const double a = impl::abs(u(i) - v(i));
        if (a > d) d = a;
      },
      Kokkos::Max<double>(difference));
  Kokkos::parallel_reduce(
      "bench::scale", Policy(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, double& s) {
        const double a = impl::abs(v(i));
        if (a > s) s = a;
      },
      Kokkos::Max<double>(scale));
  return scale > 0 ? difference / scale : difference;
}

}  // namespace syncfree::bench
