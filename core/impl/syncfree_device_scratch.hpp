// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Device arrays that live only as long as one computation, such as an analysis'
/// intermediate results: on CUDA they come from SyncFree's stream-ordered pool and go back to it,
/// in the order of the stream's work, when their DeviceScratch is destroyed
/// (cuda/syncfree_device_scratch_cuda.hpp); elsewhere they are ordinary Kokkos allocations.
///
/// Why: a cudaMalloc of 1 MiB or more is slow whatever its size and every cudaFree synchronizes the
/// device, while the analysis of a 2M-row 3-D factor made about a dozen temporary arrays.
///
/// Contract: no view taken from a DeviceScratch is used after the DeviceScratch is destroyed (on
/// CUDA the views do not own their memory). Results that outlive the computation are allocated
/// the ordinary way: functions that can place their results in a scratch take a `DeviceScratch*`
/// that is null by default.

#include <cstddef>
#include <string>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// Where a DeviceScratch takes the memory of its arrays in the memory spaces it `serves`, through
/// `void* allocate(bytes)`. Primary template: none (every array is a Kokkos allocation of its own,
/// freed with its last view); CUDA specializes it with SyncFree's stream-ordered pool.
template <class ExecSpace, class Enable = void>
class ScratchPool {
 public:
  explicit ScratchPool(const ExecSpace&) {}
  template <class MemorySpace>
  static constexpr bool serves = false;
};

template <class ExecSpace>
class DeviceScratch {
 public:
  explicit DeviceScratch(const ExecSpace& exec) : m_exec(exec), m_pool(exec) {}
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;

  /// n values, uninitialized.
  template <class T, class Device>
  Kokkos::View<T*, Device> uninitialized(const std::string& label, std::size_t n) {
    using Pool = ScratchPool<ExecSpace>;
    if constexpr (Pool::template serves<typename Device::memory_space>) {
      if (n == 0) return Kokkos::View<T*, Device>(static_cast<T*>(nullptr), 0);
      return Kokkos::View<T*, Device>(static_cast<T*>(m_pool.allocate(n * sizeof(T))), n);
    } else {
      return Kokkos::View<T*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
    }
  }

  /// n zeros, written on the execution space's queue.
  template <class T, class Device>
  Kokkos::View<T*, Device> zeros(const std::string& label, std::size_t n) {
    const auto v = uninitialized<T, Device>(label, n);
    Kokkos::deep_copy(m_exec, v, T(0));
    return v;
  }

 private:
  ExecSpace m_exec;
  ScratchPool<ExecSpace> m_pool;  // gives its memory back when the DeviceScratch goes
};

/// n uninitialized values from `scratch`, or a Kokkos allocation of their own when it is null.
template <class T, class Device, class ExecSpace>
Kokkos::View<T*, Device> uninitialized_array(DeviceScratch<ExecSpace>* scratch,
                                             const std::string& label, std::size_t n) {
  if (scratch) return scratch->template uninitialized<T, Device>(label, n);
  return Kokkos::View<T*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
}

/// n zeros from `scratch`, or a Kokkos allocation of their own when it is null.
template <class T, class Device, class ExecSpace>
Kokkos::View<T*, Device> zero_array(DeviceScratch<ExecSpace>* scratch, const std::string& label,
                                    std::size_t n) {
  if (scratch) return scratch->template zeros<T, Device>(label, n);
  return Kokkos::View<T*, Device>(label, n);
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_device_scratch_cuda.hpp"
#endif
