// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `HostReads` (core/impl/syncfree_host_reads.hpp) on CUDA: the slots in pinned host
/// memory, so that the copy is asynchronous, and an event after each copy for `take` to wait on.

#include <cstddef>
#include <vector>

#include "core/cuda/syncfree_cuda_launch.hpp"

namespace syncfree::impl {

template <class Scalar>
class HostReads<Scalar, Kokkos::Cuda> {
 public:
  HostReads(std::size_t count, int slots) : m_count(count), m_events(std::size_t(slots)) {
    cuda::require_cuda(cudaMallocHost(&m_slots, sizeof(Scalar) * count * std::size_t(slots)),
                       "cudaMallocHost");
    for (auto& event : m_events)
      cuda::require_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
                         "cudaEventCreateWithFlags");
  }
  ~HostReads() {
    for (auto& event : m_events)
      if (event) cudaEventDestroy(event);
    if (m_slots) cudaFreeHost(m_slots);
  }
  HostReads(const HostReads&) = delete;
  HostReads& operator=(const HostReads&) = delete;

  template <class Source>
  void post(const Kokkos::Cuda& exec, const Source& source, int slot) {
    cuda::require_cuda(cudaMemcpyAsync(slot_data(slot), source.data(), sizeof(Scalar) * m_count,
                                       cudaMemcpyDeviceToHost, exec.cuda_stream()),
                       "cudaMemcpyAsync");
    cuda::require_cuda(cudaEventRecord(m_events[std::size_t(slot)], exec.cuda_stream()),
                       "cudaEventRecord");
  }
  const Scalar* take(int slot) {
    cuda::require_cuda(cudaEventSynchronize(m_events[std::size_t(slot)]), "cudaEventSynchronize");
    return slot_data(slot);
  }

 private:
  Scalar* slot_data(int slot) const { return m_slots + std::size_t(slot) * m_count; }
  std::size_t m_count;
  Scalar* m_slots = nullptr;
  std::vector<cudaEvent_t> m_events;
};

}  // namespace syncfree::impl
