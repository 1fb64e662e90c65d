// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The two launch shapes of the Krylov solvers' own kernels: a fused pass over the vectors
/// that also reduces N sums into device memory, and a single-thread kernel for the scalar
/// recurrences. Neither blocks the host.

#include <cstddef>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// An array reduction of N sums whose body is a (device) lambda `body(i, sum)`.
template <class Scalar, int N, class Body>
struct ArrayReduction {
  using value_type = Scalar[];
  using size_type = std::size_t;
  unsigned value_count = N;
  Body body;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type sum) const {
    body(i, sum);
  }
};

/// Runs `body(i, sum)` for i in [0, n) and writes the N sums into `result` (device memory, N
/// entries). Asynchronous: the result stays on the device for the kernels that follow.
template <int N, class Exec, class ResultView, class Body>
void reduce_into(const Exec& exec, const char* label, std::size_t n, const ResultView& result,
                 const Body& body) {
  using scalar_type = typename ResultView::non_const_value_type;
  Kokkos::View<scalar_type*, typename ResultView::memory_space, Kokkos::MemoryUnmanaged> out(
      result.data(), N);
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Exec>(exec, 0, n),
                          ArrayReduction<scalar_type, N, Body>{N, body}, out);
}

/// Runs `body(0)` on one thread of `exec`: the scalar recurrences between two vector kernels.
template <class Exec, class Body>
void single_task(const Exec& exec, const char* label, const Body& body) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(exec, 0, 1), body);
}

/// The body of a dot product u'v, for `reduce_into<1>`.
template <class Scalar, class Device>
struct DotBody {
  Kokkos::View<const Scalar*, Kokkos::LayoutLeft, Device> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, Scalar* sum) const {
    sum[0] += u(i) * v(i);
  }
};

}  // namespace syncfree::impl
