// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sorting a 1-D view of non-negative integer keys on the device: Kokkos::sort, or on CUDA
/// CUB's radix sort over the bits the keys use (cuda/syncfree_device_sort_cuda.hpp), where
/// Kokkos::sort took a visible share of the analysis.

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// Primary template: Kokkos::sort.
template <class ExecSpace, class View, class Enable = void>
struct SortKeys {
  static void run(const ExecSpace& exec, const View& keys, typename View::non_const_value_type) {
#if SYNCFREE_IMPL_KOKKOS_4
    Kokkos::sort(exec, keys);
#else
    (void)exec;
    Kokkos::sort(keys);
#endif
  }
};

/// Sorts `keys`, each in [0, max_key], ascending.
template <class ExecSpace, class View>
void sort_keys(const ExecSpace& exec, const View& keys,
               typename View::non_const_value_type max_key) {
  if (keys.extent(0) < 2) return;
  SortKeys<ExecSpace, View>::run(exec, keys, max_key);
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_device_sort_cuda.hpp"
#endif
