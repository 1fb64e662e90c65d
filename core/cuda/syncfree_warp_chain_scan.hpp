// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The sync-free engine's chain scan (core/cuda/syncfree_sync_free_rounds.hpp): lanes of a
/// warp whose one remaining dependency is the lane before them get the value of that lane from one
/// segmented prefix scan of their maps x -> a + b x (Op::Link), instead of one shuffle step each.
///
/// The maps' multiplicative parts b depend only on data fixed before the warp waits (for the
/// solve, -a_p,p-1 / a_pp), and the segments a scan can use are parts of the structural segments
/// (a lane whose last entry is the lane before it continues its predecessor's segment). So each
/// lane composes, once before it waits, the b's of the windows its scan steps will combine, and
/// a step on the critical path shuffles one value and applies one map (one FMA for the solve)
/// instead of shuffling two maps and two flags and composing.
///
/// Which lanes may use the result is decided from ballots: a lane of a run of ready chain lanes
/// takes it when the lane before the run has finished. Finished lanes come first in their
/// structural segment (each depends on the one before it), and all of them but the last enter the
/// scan as the zero of the family (Op::chain_zero: b x 0 stays 0), so the sum a scan forms is that
/// of the run, started from the last finished lane's value.

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

  /// The value of the lane before each lane of `chains` (ready chain lanes: lane > 0, only the
  /// lane before them left, not finished), from one scan. `a`: this lane's Op::chain_link(...).a
  /// if it is a chain lane; `result`: its value if finished. `usable` is set where the value may
  /// be taken: the run of chain lanes the lane ends starts after a finished lane, and the value
  /// is that lane's own or Op::chain_usable accepts it.
  __device__ Value before(int lane, unsigned chains, unsigned finished, bool done, Value result,
                          Value a, bool& usable) const {
    const bool chain = (chains >> lane) & 1u;
    const bool next_finished = lane < 31 && ((finished >> (lane + 1)) & 1u);
    Value sum = chain ? a : done && !next_finished ? result : Op::chain_zero();
#pragma unroll
    for (int s = 0; s < steps; ++s) {
      const Value left = __shfl_up_sync(full_mask, sum, 1 << s);
      if (distance >= (1 << s)) sum = Op::compose(Link{sum, window[s]}, Link{left, window[s]}).a;
    }
    const Value here = done ? result : sum;
    const Value value_before = __shfl_up_sync(full_mask, here, 1);
    // The lane before the run of chain lanes this lane ends (0 where this is no chain lane).
    const int run_start = chain ? 31 - __clz(~chains & ((1u << lane) - 1u)) : 0;
    const bool before_finished = chain && ((finished >> (lane - 1)) & 1u);
    usable = chain && ((finished >> run_start) & 1u) &&
             (before_finished || Op::chain_usable(value_before));
    return value_before;
  }
};

}  // namespace syncfree::impl::cuda

#endif
