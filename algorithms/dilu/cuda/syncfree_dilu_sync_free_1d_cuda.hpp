// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of DILU's `sync_free_1d` (Dufrechou's SFMILU_1D): a warp per group
/// of rows (one color, lengths of one class), its lanes split into 32 / lanes rows of `lanes`
/// lanes each, each row's terms summed by shuffles inside its lanes. A block claims consecutive
/// groups, one per warp, through one atomic ticket (one per warp would put a million atomics on
/// one address in a sweep of a 4M-row matrix). The forward-progress argument of
/// impl/syncfree_dilu_sweeps.hpp holds unchanged: the warps of a running block are resident, and
/// the rows of a warp share a color and never wait on each other.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include "algorithms/dilu/impl/syncfree_dilu_sweeps.hpp"
#include "core/cuda/syncfree_cuda_launch.hpp"

namespace syncfree::impl::cuda {

inline constexpr int dilu_block_size = 256;

/// (The ordinal type is a parameter of its own: nvcc's registration stub cannot name a type
/// reached through the rule's base class.)
template <class Rule, class Ordinal>
__global__ void __launch_bounds__(dilu_block_size)
    dilu_sync_free_1d_kernel(const Rule rule, const Ordinal* grouped_rows,
                             const Ordinal* group_begin, const int* group_lanes,
                             const int* group_color, const Ordinal* color_begin, Ordinal groups,
                             unsigned* counter, unsigned base, bool descending) {
  using ordinal_type = Ordinal;
  using scalar_type = typename Rule::scalar_type;
  constexpr unsigned warps = dilu_block_size / 32;
  __shared__ unsigned s_chunk;
  if (threadIdx.x == 0) s_chunk = atomicAdd(counter, 1u) - base;
  __syncthreads();
  const int lane = int(threadIdx.x & 31u);
  const unsigned ticket = s_chunk * warps + threadIdx.x / 32;
  if (ticket >= unsigned(groups)) return;
  const ordinal_type g = descending ? groups - 1 - ordinal_type(ticket) : ordinal_type(ticket);
  const int lanes = group_lanes[g];
  const ordinal_type first = group_begin[g];
  const int slot = lane / lanes;
  const bool active = ordinal_type(slot) < group_begin[g + 1] - first;
  const int index = group_color[g];
  const DiluColor<Ordinal> c{index, color_begin[index], color_begin[index + 1]};
  ordinal_type i = 0;
  scalar_type sum = 0;
  if (active) {
    i = grouped_rows[first + slot];
    const auto end = rule.row_map(i + 1);
    for (auto k = rule.row_map(i) + (lane & (lanes - 1)); k < end; k += lanes)
      sum += rule.template term<true>(k, c);
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(full_mask, sum, offset);
  if (active && (lane & (lanes - 1)) == 0) rule.template finish<true>(i, c, sum);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Layout, class Rule, class Device>
struct DiluSyncFree1d<Kokkos::Cuda, Layout, Rule, Device> {
  static void run(const Kokkos::Cuda& exec, const Layout& layout, const Rule& rule, bool descending,
                  Tickets<Device>& tickets) {
    using ordinal_type = typename Rule::ordinal_type;
    constexpr int warps_per_block = cuda::dilu_block_size / 32;
    const ordinal_type groups = layout.num_groups;
    if (groups == 0) return;
    const ordinal_type blocks = (groups + warps_per_block - 1) / warps_per_block;
    const unsigned base = tickets.take(unsigned(blocks));
    cuda::dilu_sync_free_1d_kernel<<<unsigned(blocks), cuda::dilu_block_size, 0,
                                     exec.cuda_stream()>>>(
        rule, layout.grouped_rows.data(), layout.group_begin.data(), layout.group_lanes.data(),
        layout.group_color.data(), layout.color_begin_device.data(), groups, tickets.counter.data(),
        base, descending);
    cuda::require_launched("syncfree::dilu::sync_free_1d");
  }
};

}  // namespace syncfree::impl

#endif
