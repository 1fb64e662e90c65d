// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief In-place inclusive prefix sum of a 1-D view, on the device: Kokkos' parallel_scan, or
/// CUB's on CUDA (cuda/syncfree_device_scan_cuda.hpp), where Kokkos' scan took a visible share of
/// the analysis.

#include <cstddef>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// Primary template: Kokkos' parallel_scan.
template <class ExecSpace, class View, class Enable = void>
struct InclusiveSumInPlace {
  using value_type = typename View::non_const_value_type;
  static void run(const ExecSpace& exec, const View& v) {
    Kokkos::parallel_scan(
        "syncfree::inclusive_sum", Kokkos::RangePolicy<ExecSpace>(exec, 0, v.extent(0)),
        KOKKOS_LAMBDA(const std::size_t i, value_type& sum, const bool final) {
          sum += v(i);
          if (final) v(i) = sum;
        });
  }
};

/// Replaces v(i) by v(0) + ... + v(i), enqueued on `exec` (the host does not wait for it).
template <class ExecSpace, class View>
void inclusive_sum_in_place(const ExecSpace& exec, const View& v) {
  InclusiveSumInPlace<ExecSpace, View>::run(exec, v);
}

/// `inclusive_sum_in_place`, then the sum of all entries (0 when v is empty), read back to the
/// host: it waits for the scan.
template <class ExecSpace, class View>
typename View::non_const_value_type inclusive_sum_in_place_total(const ExecSpace& exec,
                                                                 const View& v) {
  using value_type = typename View::non_const_value_type;
  inclusive_sum_in_place(exec, v);
  value_type total = 0;
  if (v.extent(0) == 0) return total;
  const Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_total(&total);
  Kokkos::deep_copy(exec, host_total, Kokkos::subview(v, v.extent(0) - 1));
  exec.fence();
  return total;
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_device_scan_cuda.hpp"
#endif
