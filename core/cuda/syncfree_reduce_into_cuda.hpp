// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `reduce_into` and `reduce_groups_into` (core/impl/syncfree_reduce_into.hpp) on CUDA: N
/// sums of a body over [0, n) into device memory (for each of G groups: G N sums), in one launch.
/// The launch fills the GPU (as many blocks as are resident at once); each thread sums a strided
/// share of the indices in registers and each block leaves one partial per sum; the block that
/// finishes last (a ticket counted after each block's partials are visible, as in CUDA's
/// threadFenceReduction sample) adds the partials of every sum in a fixed order, writes the
/// result and then runs the caller's `then()` on one thread: the scalar step that would otherwise
/// be a launch of its own. Kokkos' parallel_reduce (4.6) launches at most as many blocks as a
/// block has threads, 256 here, a quarter of an H200's resident threads: too few to move a fused
/// update (such as CG's: three vectors read, two written, one sum) near the memory's bandwidth,
/// which this kernel comes close to.
///
/// The grid and the order of the final sums depend only on the device, so a run gives the same
/// bits every time.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl::cuda {

inline constexpr int reduce_block_size = 256;
inline constexpr int reduce_warps = reduce_block_size / 32;

/// Sums `value` over the block; the total is valid in thread 0. `shared` holds a value per warp.
template <class Scalar>
__device__ __forceinline__ Scalar block_sum(Scalar value, Scalar* shared) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(full_mask, value, offset);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();  // `shared` may still be read from the previous call
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  Scalar total = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < reduce_warps; ++w) total += shared[w];
  return total;
}

/// A counter of the blocks of one reduction that have left their partials, for each stream: a
/// stream's reductions run one after another, and the last block of each sets the counter back to
/// 0, so one counter serves all of them. Made (and zeroed on the stream) at a stream's first
/// reduction; never freed, like the device's context state (4 bytes per stream ever used).
inline unsigned* reduce_ticket(cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, unsigned*> tickets;
  int device = 0;
  require_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  unsigned*& ticket = tickets[{device, stream}];
  if (!ticket) {
    require_cuda(cudaMalloc(&ticket, sizeof(unsigned)), "cudaMalloc");
    require_cuda(cudaMemsetAsync(ticket, 0, sizeof(unsigned), stream), "cudaMemsetAsync");
  }
  return ticket;
}

/// partials[(chunk * G + group) * N + q] = the share of sum q of `group` (blockIdx.x, G of them)
/// from the rows of `chunk` (blockIdx.y); the groups of one chunk run side by side, so the
/// vectors they all read come from L2 for all but the first. The last block to finish adds the
/// partials of each (group, q) over the chunks into result[group * N + q], a warp per sum, and
/// runs `then()`.
template <int N, class Scalar, class Body, class Then>
__global__ void __launch_bounds__(reduce_block_size)
    reduce_kernel(const std::size_t n, const Body body, Scalar* __restrict__ partials,
                  unsigned* ticket, Scalar* __restrict__ result, const Then then) {
  Scalar sum[N];
  for (int q = 0; q < N; ++q) sum[q] = Scalar(0);
  const int group = blockIdx.x, groups = gridDim.x, chunks = gridDim.y;
  const std::size_t stride = std::size_t(chunks) * reduce_block_size;
  for (std::size_t i = std::size_t(blockIdx.y) * reduce_block_size + threadIdx.x; i < n;
       i += stride)
    body(i, group, sum);
  __shared__ Scalar shared[reduce_warps];
  const std::size_t out = (std::size_t(blockIdx.y) * groups + group) * N;
  for (int q = 0; q < N; ++q) {
    const Scalar total = block_sum(sum[q], shared);
    if (threadIdx.x == 0) partials[out + q] = total;
  }

  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials before its ticket
    last = atomicInc(ticket, unsigned(groups) * unsigned(chunks) - 1) ==
           unsigned(groups) * unsigned(chunks) - 1;  // the last resets the counter to 0
  }
  __syncthreads();
  if (!last) return;
  __threadfence();  // every block's partials after the last ticket
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int s = warp; s < groups * N; s += reduce_warps) {
    const int g = s / N, q = s % N;
    Scalar total = 0;
    for (int c = lane; c < chunks; c += 32)
      total += __ldcg(&partials[(std::size_t(c) * groups + g) * N + q]);
    for (int offset = 16; offset > 0; offset /= 2)
      total += __shfl_down_sync(full_mask, total, offset);
    if (lane == 0) result[s] = total;
  }
  __syncthreads();
  if (threadIdx.x == 0) then();
}

/// Blocks of reduce_kernel<N, Scalar, Body, Then> resident at once (found once per kernel, on
/// the device current at the first call).
template <int N, class Scalar, class Body, class Then>
int resident_blocks() {
  static const int blocks = [] {
    const auto kernel = reduce_kernel<N, Scalar, Body, Then>;
    int device = 0, sms = 0, per_sm = 0;
    require_cuda(cudaGetDevice(&device), "cudaGetDevice");
    require_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                 "cudaDeviceGetAttribute");
    require_cuda(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, reduce_block_size, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return sms * (per_sm > 0 ? per_sm : 1);
  }();
  return blocks;
}

/// For each of `groups` groups, the N sums of `body(i, group, sum)` over [0, n) into
/// result[group * N ...] (device memory), then `then()` on one device thread, on `stream`;
/// n = 0 gives zeros. No group, no launch: a `then` comes with one group (`reduce_into`).
template <int N, class Scalar, class Body, class Then>
void reduce_groups_into(cudaStream_t stream, std::size_t n, int groups, Scalar* result,
                        const Body& body, const Then& then) {
  if (groups == 0) return;
  const std::size_t needed = (n + reduce_block_size - 1) / reduce_block_size;
  const int chunks = int(std::min<std::size_t>(
      std::max(1, resident_blocks<N, Scalar, Body, Then>() / groups), needed > 0 ? needed : 1));
  StreamScratch partials(sizeof(Scalar) * N * std::size_t(chunks) * groups, stream);
  reduce_kernel<N><<<dim3(groups, chunks), reduce_block_size, 0, stream>>>(
      n, body, static_cast<Scalar*>(partials.get()), reduce_ticket(stream), result, then);
  require_launched("reduce");
}

}  // namespace syncfree::impl::cuda

#endif
