// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Reads of a few device scalars that the host takes later than it asks for them: `post`
/// queues the copy of a device buffer into one of a few host slots behind the work already queued
/// on the execution space and returns; `take` returns the slot's values once that copy is done.
/// A solver can so launch its next iteration before it looks at the last one's state, and the
/// device does not wait for the host between iterations. On CUDA the slots are pinned host memory
/// and an event marks each copy; on host backends `post` copies at once.

#include <cstddef>
#include <utility>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

template <class Scalar, class ExecSpace>
class HostReads {
 public:
  HostReads(std::size_t count, int slots)
      : m_count(count), m_slots("syncfree::host_reads", count * std::size_t(slots)) {}

  /// Queues the copy of `source` (`count` contiguous scalars) into slot `slot`.
  template <class Source>
  void post(const ExecSpace& exec, const Source& source, int slot) {
    Kokkos::deep_copy(exec, Kokkos::subview(m_slots, range(slot)), source);
    exec.fence();
  }
  /// The values of slot `slot` once its copy is done.
  const Scalar* take(int slot) { return m_slots.data() + std::size_t(slot) * m_count; }

 private:
  std::pair<std::size_t, std::size_t> range(int slot) const {
    return {std::size_t(slot) * m_count, std::size_t(slot + 1) * m_count};
  }
  std::size_t m_count;
  Kokkos::View<Scalar*, Kokkos::HostSpace> m_slots;
};

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "core/cuda/syncfree_host_reads_cuda.hpp"
#endif
