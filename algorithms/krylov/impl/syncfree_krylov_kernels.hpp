// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The Krylov solvers' own kernels: a single-thread kernel for the scalar recurrences, a
/// one-team kernel for small dense ones, the combination of basis vectors, and the body of a dot
/// product for `reduce_into` (core/impl/syncfree_reduce_into.hpp: a fused pass over the vectors
/// that also reduces N sums into device memory). None blocks the host.

#include <cstddef>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree::impl {

/// Runs `body(0)` on one thread of `exec`: the scalar recurrences between two vector kernels.
template <class Exec, class Body>
void single_task(const Exec& exec, const char* label, const Body& body) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(exec, 0, 1), body);
}

/// Threads of the team that `team_task` runs: a warp on a device, one thread on a host backend.
template <class Exec>
constexpr int small_team_size() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible
             ? 1
             : 32;
}

/// Runs `body(member, scratch)` on one team of `small_team_size` threads of `exec`, `scratch`
/// pointing at `count` scalars of team scratch (shared memory where they fit, else level 1): the
/// small dense recurrences whose loads a single thread would wait for one by one.
template <class Scalar, class Exec, class Body>
void team_task(const Exec& exec, const char* label, std::size_t count, const Body& body) {
  using policy_type = Kokkos::TeamPolicy<Exec>;
  using scratch_view = Kokkos::View<Scalar*, typename Exec::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t bytes = scratch_view::shmem_size(count);
  const int level = bytes <= std::size_t(policy_type::scratch_size_max(0)) ? 0 : 1;
  Kokkos::parallel_for(
      label,
      policy_type(exec, 1, small_team_size<Exec>()).set_scratch_size(level, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const typename policy_type::member_type& team) {
        const scratch_view scratch(team.team_scratch(level), count);
        body(team, scratch.data());
      });
}

/// y = alpha B c + beta y for the k columns of a basis B (n x k, LayoutLeft) and k coefficients c
/// in device memory (beta = 0: y is only written). One row per thread, its k terms summed in
/// column order, so a run gives the same bits every time: Kokkos Kernels' gemv ("N") made
/// GMRES's iterates differ in their last bits from one run to the next on CUDA (H200; the batched
/// state-read test of test_krylov_solve failed for GMRES and FGMRES), and CG, which has no gemv,
/// repeated exactly.
template <class Exec, class Basis, class Coefficients, class Y>
void combine_basis(const Exec& exec, typename Y::non_const_value_type alpha, const Basis& B,
                   const Coefficients& c, typename Y::non_const_value_type beta, const Y& y) {
  using Scalar = typename Y::non_const_value_type;
  const int k = int(B.extent(1));
  Kokkos::parallel_for(
      "syncfree::krylov::combine_basis", Kokkos::RangePolicy<Exec>(exec, 0, B.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        Scalar sum = 0;
        for (int l = 0; l < k; ++l) sum += B(i, l) * c(l);
        y(i) = beta == Scalar(0) ? alpha * sum : beta * y(i) + alpha * sum;
      });
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
