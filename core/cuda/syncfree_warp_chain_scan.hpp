// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The sync-free engine's chain scan (core/cuda/syncfree_sync_free_rounds.hpp): lanes of a
/// warp whose last dependency is the lane before them ("linked" lanes: a chain through the warp)
/// get their values from one segmented prefix scan of their maps x -> a + b x (Op::Link), instead
/// of one shuffle step each.
///
/// The maps' multiplicative parts b depend only on data fixed before the warp waits (for the
/// solve, -a_p,p-1 / a_pp), and a scan's segments are the structural ones (a run of linked lanes
/// after the lane that heads it). So each lane composes, once before it waits, the b's of the
/// windows its scan steps will combine, and a step on the critical path shuffles one value and
/// applies one map (one FMA for the solve) instead of shuffling two maps and composing.
///
/// Run to run, the same bits: a linked lane's value is always the scan from its segment's head
/// (the head's value, then each linked lane's map, its a fixed once all its other entries are
/// taken), in a combination tree that depends only on the lane and its segment. So whichever round
/// and whichever of its lanes happened to be ready first, every linked lane gets the same value.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include "core/cuda/syncfree_cuda_launch.hpp"

namespace syncfree::impl::cuda {

template <class Op, bool = Op::chain_links>
struct WarpChainScan {};  // operations without chains: nothing to prepare

template <class Op>
struct WarpChainScan<Op, true> {
  using Value = typename Op::value_type;
  using Link = typename Op::Link;
  using Part = decltype(Link{}.b);
  static constexpr int steps = 5;  // offsets 1, 2, 4, 8, 16

  int distance = 0;      ///< lanes from the head of this lane's structural segment (0: a head)
  Part window[steps]{};  ///< window[s]: the b of this lane's map composed over 2^s lanes

  /// Before the warp waits. `linked`: this lane's last entry is the lane before it (the lane is
  /// not finished); `b`: the multiplicative part of its map (Op::chain_link's b).
  __device__ void prepare(int lane, bool linked, Part b) {
    const unsigned heads = ~__ballot_sync(full_mask, linked && lane > 0);
    distance = lane - (31 - __clz(heads & ((2u << lane) - 1u)));  // bit 0 of heads is set
    window[0] = b;
#pragma unroll
    for (int s = 1; s < steps; ++s) {
      const Part left = __shfl_up_sync(full_mask, window[s - 1], 1 << (s - 1));
      window[s] = Op::compose(Link{Value{}, window[s - 1]}, Link{Value{}, left}).b;
    }
  }

  /// Whether this lane's segment, from its head to the lane, is `available` (a bit per lane).
  __device__ bool segment_available(int lane, unsigned available) const {
    const unsigned span = ((2u << lane) - 1u) & ~((1u << (lane - distance)) - 1u);
    return (available & span) == span;
  }

  /// The inclusive scan over this lane's segment: `own` is the head's value at the head and each
  /// linked lane's map's a elsewhere. Where the segment up to the lane is available, the result is
  /// the lane's value.
  __device__ Value scan(Value own) const {
    Value sum = own;
#pragma unroll
    for (int s = 0; s < steps; ++s) {
      const Value left = __shfl_up_sync(full_mask, sum, 1 << s);
      if (distance >= (1 << s)) sum = Op::compose(Link{sum, window[s]}, Link{left, window[s]}).a;
    }
    return sum;
  }
};

}  // namespace syncfree::impl::cuda

#endif
