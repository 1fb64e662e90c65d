// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of the one-thread-per-row sync-free SpTRSV.
///
/// Beyond the thesis: a dependency is passed along the cheapest path that reaches its consumer.
///  - Same warp: through a register shuffle. The warp runs in rounds; in each round every lane
///    takes whatever its dependencies already allow, then one shuffle hands each lane the value of
///    the in-warp row it waits on. A chain of 32 rows inside a warp costs 32 rounds of a few dozen
///    cycles instead of 32 trips through L2.
///  - Same block: through shared memory (value-as-flag there too).
///  - Other blocks: through the level-ordered work vector in global memory.
/// No lane ever blocks inside a round, so lanes of a warp never wait on each other's progress.
///
/// Forward progress. A block claims a chunk of consecutive level-order positions through an
/// atomic ticket once it is running, and positions only depend on smaller positions (level order
/// is topological). Smaller positions in the same chunk belong to the same resident block (warps
/// of a block are scheduled independently; the rounds never block); smaller chunks were claimed by
/// running blocks. The smallest unfinished position therefore always progresses, whatever order
/// the hardware launches blocks in.
///
/// Memory ordering. Values are their own flags (the NaN sentinel): written once with a volatile
/// 64- or 32-bit store, read with volatile loads compared bit-exactly. No other data travels with
/// a value, so no fence is needed. The one __syncthreads orders the shared-memory initialisation
/// before any read of it.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_sentinel.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_syncfree.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

inline constexpr int sptrsv_block_size = 256;
inline constexpr unsigned full_mask = 0xFFFFFFFFu;

template <class Scalar, class Ordinal, class Offset>
struct SptrsvCudaArgs {
  const Ordinal* order;
  const Offset* row_map;
  const Ordinal* columns;
  const Offset* source;
  const Offset* diagonal;
  const Scalar* values;
  const Scalar* b;
  Scalar* x;
  Scalar* x_work;
  unsigned* ticket;
  Ordinal n;
  bool unit_diagonal;
};

/// The bits of entry p, read past the caches that could hold a stale sentinel.
template <class Scalar>
__device__ __forceinline__ typename Sentinel<Scalar>::bits_type load_bits(const Scalar* p) {
  return *reinterpret_cast<const volatile typename Sentinel<Scalar>::bits_type*>(p);
}

template <class Scalar>
__device__ __forceinline__ void publish_volatile(Scalar* p, Scalar value) {
  using S = Sentinel<Scalar>;
  auto bits = S::to_bits(value);
  if (bits == S::pattern) bits = S::canonical_nan;
  *reinterpret_cast<volatile typename S::bits_type*>(p) = bits;
}

/// `sptrsv_prefetch`: entries per row held in registers (the rest are read one at a time); chosen
/// per matrix from its longest row, so a chain runs the lightest round and a 27-point row fits.
template <int sptrsv_prefetch, class Scalar, class Ordinal, class Offset>
__global__ void __launch_bounds__(sptrsv_block_size)
    sptrsv_sync_free_thread_kernel(const SptrsvCudaArgs<Scalar, Ordinal, Offset> a) {
  using S = Sentinel<Scalar>;
  __shared__ Scalar s_x[sptrsv_block_size];
  __shared__ unsigned s_chunk;
  if (threadIdx.x == 0) s_chunk = atomicAdd(a.ticket, 1u);
  s_x[threadIdx.x] = S::from_bits(S::pattern);
  __syncthreads();

  const Ordinal block_base = Ordinal(s_chunk) * sptrsv_block_size;
  const Ordinal warp_base = block_base + Ordinal(threadIdx.x & ~31u);
  const int lane = threadIdx.x & 31;
  const Ordinal p = block_base + Ordinal(threadIdx.x);
  bool done = p >= a.n;
  Ordinal row = 0;
  Offset begin = 0, k = 0, end = 0;
  Scalar sum = 0, result = 0, rhs = 0, diagonal = 1;
  // Everything a row reads that does not depend on other rows is loaded before it waits, so the
  // chains of dependent loads (source -> value, diagonal -> value) stay off the critical path.
  // The first entries live in registers: every index into these arrays is a compile-time one.
  Ordinal column[sptrsv_prefetch];
  Scalar coefficient[sptrsv_prefetch];
  if (!done) {
    row = a.order[p];
    begin = k = a.row_map[p];
    end = a.row_map[p + 1];
    rhs = a.b[row];
    if (!a.unit_diagonal) diagonal = a.values[a.diagonal[p]];
  }
#pragma unroll
  for (int i = 0; i < sptrsv_prefetch; ++i) {
    column[i] = warp_base;  // never polled: padding is treated as an in-warp entry, and skipped
    coefficient[i] = 0;
    if (begin + i < end) {
      column[i] = a.columns[begin + i];
      coefficient[i] = a.values[a.source[begin + i]];
    }
  }

  while (true) {
    bool progressed = false;
    if (!done) {
      // Poll every pending out-of-warp entry at once (independent loads in flight together:
      // one memory latency per round, not one per dependency), then take them in order.
      typename S::bits_type bits[sptrsv_prefetch];
#pragma unroll
      for (int i = 0; i < sptrsv_prefetch; ++i) {
        bits[i] = S::pattern;
        if (begin + i >= k && begin + i < end && column[i] < warp_base)
          bits[i] = column[i] >= block_base ? load_bits(&s_x[column[i] - block_base])
                                            : load_bits(&a.x_work[column[i]]);
      }
#pragma unroll
      for (int i = 0; i < sptrsv_prefetch; ++i) {
        if (begin + i == k && k < end && bits[i] != S::pattern) {
          sum += coefficient[i] * S::from_bits(bits[i]);
          ++k;
          progressed = true;
        }
      }
      // Entries beyond the registers (long rows): one at a time.
      while (k >= begin + sptrsv_prefetch && k < end) {
        const Ordinal q = a.columns[k];
        if (q >= warp_base) break;
        const auto b = q >= block_base ? load_bits(&s_x[q - block_base]) : load_bits(&a.x_work[q]);
        if (b == S::pattern) break;
        sum += a.values[a.source[k]] * S::from_bits(b);
        ++k;
        progressed = true;
      }
    }
    // One entry whose row lives in this warp: a shuffle from the lane that owns it.
    Ordinal q = warp_base - 1;
    Scalar c = 0;
    if (!done && k < end) {
#pragma unroll
      for (int i = 0; i < sptrsv_prefetch; ++i)
        if (begin + i == k) q = column[i], c = coefficient[i];
      if (k >= begin + sptrsv_prefetch) q = a.columns[k], c = a.values[a.source[k]];
    }
    const bool wants_lane = q >= warp_base;
    const int source_lane = wants_lane ? int(q - warp_base) : lane;
    const Scalar v = __shfl_sync(full_mask, result, source_lane);
    const unsigned finished = __ballot_sync(full_mask, done);
    if (wants_lane && ((finished >> source_lane) & 1u)) {
      sum += c * v;
      ++k;
      progressed = true;
    }
    if (!done && k == end) {
      result = (rhs - sum) / diagonal;
      publish_volatile(&s_x[threadIdx.x], result);
      publish_volatile(&a.x_work[p], result);
      a.x[row] = result;
      done = true;
      progressed = true;
    }
    if (__all_sync(full_mask, done)) break;
    // A warp that made no progress is waiting on memory: back off briefly.
    if (!__any_sync(full_mask, progressed)) __nanosleep(32);
  }
}

/// Which column views the kernel takes: contiguous float or double vectors.
template <class Matrix, class BColumn, class XColumn>
inline constexpr bool has_cuda_sync_free_v =
    (std::is_same_v<typename Matrix::non_const_value_type, double> ||
     std::is_same_v<typename Matrix::non_const_value_type, float>)&&!std::
        is_same_v<typename BColumn::array_layout, Kokkos::LayoutStride> &&
    !std::is_same_v<typename XColumn::array_layout, Kokkos::LayoutStride> &&
    std::is_same_v<typename XColumn::memory_space, Kokkos::CudaSpace>;

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct SyncFreeThreadSolve<Kokkos::Cuda, Matrix, BColumn, XColumn,
                           std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    using scalar_type = typename Matrix::non_const_value_type;
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    using offset_type = typename Matrix::non_const_size_type;
    if (s.n == 0) return;
    // All-ones bytes: the sentinel in every entry of the work vector; a zero ticket.
    const cudaStream_t stream = exec.cuda_stream();
    cudaMemsetAsync(s.x_work.data(), 0xFF, sizeof(scalar_type) * std::size_t(s.n), stream);
    cudaMemsetAsync(s.ticket.data(), 0, sizeof(unsigned), stream);
    const cuda::SptrsvCudaArgs<scalar_type, ordinal_type, offset_type> args{s.levels.order.data(),
                                                                            s.row_map.data(),
                                                                            s.columns.data(),
                                                                            s.source.data(),
                                                                            s.diagonal.data(),
                                                                            A.values.data(),
                                                                            b.data(),
                                                                            x.data(),
                                                                            s.x_work.data(),
                                                                            s.ticket.data(),
                                                                            s.n,
                                                                            unit};
    const unsigned blocks = unsigned((s.n + cuda::sptrsv_block_size - 1) / cuda::sptrsv_block_size);
    const auto launch = [&](auto kernel) {
      kernel<<<blocks, cuda::sptrsv_block_size, 0, stream>>>(args);
    };
    using cuda::sptrsv_sync_free_thread_kernel;
    using S = scalar_type;
    using O = ordinal_type;
    using F = offset_type;
    if (s.max_row_length <= 1) {
      launch(sptrsv_sync_free_thread_kernel<1, S, O, F>);
    } else if (s.max_row_length <= 2) {
      launch(sptrsv_sync_free_thread_kernel<2, S, O, F>);
    } else if (s.max_row_length <= 4) {
      launch(sptrsv_sync_free_thread_kernel<4, S, O, F>);
    } else if (s.max_row_length <= 8) {
      launch(sptrsv_sync_free_thread_kernel<8, S, O, F>);
    } else {
      launch(sptrsv_sync_free_thread_kernel<16, S, O, F>);
    }
    const cudaError_t status = cudaGetLastError();
    SYNCFREE_REQUIRE(status == cudaSuccess, CudaError,
                     "sptrsv sync_free_thread kernel launch: ", cudaGetErrorString(status));
  }
};

}  // namespace syncfree::impl

#endif
