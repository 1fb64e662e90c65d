// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A warp walking the entries of 32 consecutive CSR rows together, 32 consecutive entries at
/// a time, each lane told the row of its entry.
///
/// A thread per row reads its row alone: neighbouring threads' loads fall a row apart, and a row of
/// thousands of entries keeps its thread (and its block) long after the others. Here the warp's
/// loads are consecutive and a long row is shared by 32 lanes. A lane finds the row of its entry
/// from the row starts inside the chunk (one OR-reduction) and a table of the warp's non-empty rows
/// in shared memory.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_device_scratch.hpp"

namespace syncfree::impl::cuda {

/// Rows of fewer entries on average are better read one per thread: a warp's loads then share
/// 32-byte sectors, and the walk's instructions per chunk of 32 entries cost more than they save
/// (perf_tests/results/nvidia-h200-row-passes.md)...
inline constexpr std::int64_t warp_rows_min_mean_length = 8;
/// ...unless some row is longer than this: its thread then reads it entry after entry while the
/// rest of the pass is done (circuits' rails of thousands of entries among rows of 4).
inline constexpr long warp_rows_long_row = 512;

/// Whether a pass over A's rows reads them a warp per 32 rows. `longest`: A's longest row where the
/// caller knows it, else -1, and it is found where the mean row does not decide (a reduction over
/// the row pointers, which must be as many as the rows and one).
template <class Matrix>
bool warp_rows_preferred(const Kokkos::Cuda& exec, const Matrix& A, long longest = -1) {
  if (std::int64_t(A.graph.entries.extent(0)) >=
      warp_rows_min_mean_length * std::int64_t(A.numRows()))
    return true;
  return (longest >= 0 ? longest : impl::longest_row(exec, A)) > warp_rows_long_row;
}

/// Threads in a block of a row pass: 8 warps of 32 rows each.
inline constexpr int warp_rows_block_size = 256;
inline constexpr int warp_rows_block_warps = warp_rows_block_size / 32;

/// Blocks of a row pass over n rows.
inline unsigned warp_rows_blocks(std::int64_t n) {
  return unsigned((n + warp_rows_block_size - 1) / warp_rows_block_size);
}

/// Where a thread of a row pass stands: its warp's 32 rows from `first_row`, its own `row`
/// (`in`: below n).
struct WarpRowsThread {
  int lane, warp;
  std::int64_t first_row, row;
  bool in;
};

__device__ __forceinline__ WarpRowsThread warp_rows_thread(std::int64_t n) {
  WarpRowsThread t;
  t.lane = int(threadIdx.x & 31u);
  t.warp = int(threadIdx.x >> 5);
  t.first_row = (std::int64_t(blockIdx.x) * warp_rows_block_warps + t.warp) * 32;
  t.row = t.first_row + t.lane;
  t.in = t.row < n;
  return t;
}

/// Adds the warp's `count`s into `*counter`, one atomic per warp.
__device__ __forceinline__ void add_warp_count(unsigned count, unsigned long long* counter) {
  for (int s = 16; s > 0; s >>= 1) count += __shfl_xor_sync(full_mask, count, s);
  if ((threadIdx.x & 31u) == 0 && count > 0) atomicAdd(counter, (unsigned long long)count);
}

/// Runs `launch(counter)` (a row pass adding into one device counter, from 0) on `exec` and returns
/// the count; waits for it.
template <class Device, class Launch>
unsigned long long count_on_device(const Kokkos::Cuda& exec, const char* kernel,
                                   const Launch& launch) {
  DeviceScratch<Kokkos::Cuda> scratch(exec);
  const auto counter = scratch.zeros<unsigned long long, Device>(kernel, 1);
  launch(counter.data());
  require_launched(kernel);
  unsigned long long host = 0;
  Kokkos::deep_copy(exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace>(&host, 1), counter);
  exec.fence();
  return host;
}

__device__ __forceinline__ unsigned warp_or(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_or_sync(full_mask, v);
#else
  for (int s = 16; s > 0; s >>= 1) v |= __shfl_xor_sync(full_mask, v, s);
  return v;
#endif
}

/// Calls `body(k, valid, owner)` on every lane of the warp for each chunk of 32 consecutive
/// entries of rows first_row .. first_row + 31 (those below `n`): k = the lane's entry, `valid`
/// whether it is one of those rows' entries, `owner` the lane whose row holds it (0 where not
/// valid). Every lane calls `body` the same number of times, so it may use warp intrinsics.
/// \param begin, end this lane's row's entries (0, 0 past the last row); every row's pointers
/// must be sound (within the entries, non-decreasing), else ranges outside them are read.
/// \param lane_of_rank 32 bytes of shared memory of this warp's own
template <class Offset, class Body>
__device__ void walk_warp_rows(const Offset begin, const Offset end, const std::int64_t first_row,
                               const std::int64_t n, unsigned char* lane_of_rank,
                               const Body& body) {
  const int lane = int(threadIdx.x & 31u);
  const bool in = first_row + lane < n;
  const int last_lane = n - 1 - first_row < 31 ? int(n - 1 - first_row) : 31;
  const Offset warp_begin = __shfl_sync(full_mask, begin, 0);
  const Offset warp_end = __shfl_sync(full_mask, end, last_lane);
  const bool nonempty = in && end > begin;
  const unsigned nonempty_rows = __ballot_sync(full_mask, nonempty);
  __syncwarp();  // an earlier walk's readers of the table are done
  if (nonempty) lane_of_rank[__popc(nonempty_rows & ((1u << lane) - 1u))] = (unsigned char)lane;
  __syncwarp();
  int rows_begun = 0;  // non-empty rows begun before the chunk
  for (Offset chunk = warp_begin; chunk < warp_end; chunk += 32) {
    const unsigned starts =
        warp_or(nonempty && begin >= chunk && begin - chunk < 32 ? 1u << (begin - chunk) : 0u);
    const Offset k = chunk + lane;
    const bool valid = k < warp_end;
    // Lane 31's mask (2u << 31) wraps to 0, and 0 - 1 is every bit.
    const int rank = rows_begun + __popc(starts & ((2u << lane) - 1u)) - 1;
    body(k, valid, valid ? int(lane_of_rank[rank]) : 0);
    rows_begun += __popc(starts);
  }
}

/// Inside a `walk_warp_rows` body, called by every lane: the sum of `v` over the chunk's entries
/// of this lane's own row (0 where it has none there), `v` 0 where not valid. A segmented scan over
/// the rows' runs of lanes, then each row's lane reads its run's last lane: no atomics, and the
/// same sum on every run.
/// \param begin, end this lane's row's entries, as given to `walk_warp_rows`
template <class Offset>
__device__ double sum_for_row_lane(double v, const Offset k, const bool valid, const int owner,
                                   const Offset begin, const Offset end) {
  const int lane = int(threadIdx.x & 31u);
  const int run = valid ? owner : 32;  // the lanes past the last entry: a run of their own
  for (int d = 1; d < 32; d <<= 1) {
    const double up = __shfl_up_sync(full_mask, v, d);
    const int up_run = __shfl_up_sync(full_mask, run, d);
    if (lane >= d && up_run == run) v += up;
  }
  const Offset chunk = k - lane;
  const bool mine = begin < chunk + 32 && end > chunk;
  const int last = mine ? int((end < chunk + 32 ? end : chunk + 32) - 1 - chunk) : 0;
  const double sum = __shfl_sync(full_mask, v, last);
  return mine ? sum : 0.0;
}

}  // namespace syncfree::impl::cuda

#endif
