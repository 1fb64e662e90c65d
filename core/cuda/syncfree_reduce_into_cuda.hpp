// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `reduce_into` and `reduce_groups_into` (core/impl/syncfree_reduce_into.hpp) on CUDA: N
/// sums of a body over [0, n) into device memory (for each of G groups: G N sums), in two
/// kernels. The first fills the GPU (as many blocks as are resident at once), sums a strided share
/// of the indices per thread in registers and leaves one partial per block and sum; the second
/// adds the partials of each sum in a fixed order. Kokkos' parallel_reduce (4.6) launches at most
/// as many blocks as a block has threads, 256 here, a quarter of an H200's resident threads: too
/// few to move a fused update (such as CG's: three vectors read, two written, one sum) near the
/// memory's bandwidth, which these kernels come close to.
///
/// The grid depends only on the device, so a run gives the same bits every time.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <algorithm>
#include <cstddef>

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

/// partials[(chunk * G + group) * N + q] = the share of sum q of `group` (blockIdx.x, G of them)
/// from the rows of `chunk` (blockIdx.y). The groups of one chunk run side by side, so the
/// vectors they all read come from L2 for all but the first.
template <int N, class Scalar, class Body>
__global__ void __launch_bounds__(reduce_block_size)
    reduce_partials_kernel(const std::size_t n, const Body body, Scalar* __restrict__ partials) {
  Scalar sum[N];
  for (int q = 0; q < N; ++q) sum[q] = Scalar(0);
  const int group = blockIdx.x;
  const std::size_t stride = std::size_t(gridDim.y) * reduce_block_size;
  for (std::size_t i = std::size_t(blockIdx.y) * reduce_block_size + threadIdx.x; i < n;
       i += stride)
    body(i, group, sum);
  __shared__ Scalar shared[reduce_warps];
  const std::size_t out = (std::size_t(blockIdx.y) * gridDim.x + group) * N;
  for (int q = 0; q < N; ++q) {
    const Scalar total = block_sum(sum[q], shared);
    if (threadIdx.x == 0) partials[out + q] = total;
  }
}

/// result[group * N + q] = the sum over chunks of the partials of (group, q); one block each.
template <int N, class Scalar>
__global__ void __launch_bounds__(reduce_block_size)
    reduce_finish_kernel(const int chunks, const Scalar* __restrict__ partials,
                         Scalar* __restrict__ result) {
  const int q = blockIdx.x, group = blockIdx.y, groups = gridDim.y;
  Scalar sum = 0;
  for (int c = threadIdx.x; c < chunks; c += reduce_block_size)
    sum += partials[(std::size_t(c) * groups + group) * N + q];
  __shared__ Scalar shared[reduce_warps];
  const Scalar total = block_sum(sum, shared);
  if (threadIdx.x == 0) result[group * N + q] = total;
}

/// Blocks of reduce_partials_kernel<N, Scalar, Body> resident at once (found once per kernel, on
/// the device current at the first call).
template <int N, class Scalar, class Body>
int resident_blocks() {
  static const int blocks = [] {
    const auto kernel = reduce_partials_kernel<N, Scalar, Body>;
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
/// result[group * N ...] (device memory), on `stream`; n = 0 gives zeros.
template <int N, class Scalar, class Body>
void reduce_groups_into(cudaStream_t stream, std::size_t n, int groups, Scalar* result,
                        const Body& body) {
  if (groups == 0) return;
  const std::size_t needed = (n + reduce_block_size - 1) / reduce_block_size;
  const int chunks = int(std::min<std::size_t>(
      std::max(1, resident_blocks<N, Scalar, Body>() / groups), needed > 0 ? needed : 1));
  StreamScratch partials(sizeof(Scalar) * N * std::size_t(chunks) * groups, stream);
  auto* p = static_cast<Scalar*>(partials.get());
  reduce_partials_kernel<N><<<dim3(groups, chunks), reduce_block_size, 0, stream>>>(n, body, p);
  require_launched("reduce_partials");
  reduce_finish_kernel<N><<<dim3(N, groups), reduce_block_size, 0, stream>>>(chunks, p, result);
  require_launched("reduce_finish");
}

}  // namespace syncfree::impl::cuda

#endif
