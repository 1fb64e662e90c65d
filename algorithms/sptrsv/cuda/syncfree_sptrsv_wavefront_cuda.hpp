// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA `wavefront` SpTRSV: a warp per unit of the wavefront layout
/// (impl/syncfree_sptrsv_wavefront_layout.hpp), lane r running row o of its segment at step
/// r + o.
///
/// A row's own previous row is the lane's result of the step before (a register), the row of the
/// lane before at the same place is that lane's result of the step before (one shuffle), and
/// every other dependency lies in an earlier unit, read from the work vector. The warp takes its
/// steps in chunks: it loads the chunk's rows (entries, coefficients, right-hand sides,
/// diagonals) and polls all their dependencies on earlier units at once, one memory latency per
/// chunk and not per step, then runs the chunk's steps in registers.
///
/// Forward progress. A warp claims its unit through an atomic ticket once it is running, and the
/// analysis checked that every dependency of a unit's rows lies in an earlier unit (claimed by a
/// running warp) or is one of the two register paths of the same unit, which its earlier steps
/// produced. The warp of the smallest unfinished unit therefore always progresses, whatever order
/// blocks launch in. Every loop of the kernel runs the same number of times on every lane, so the
/// shuffles always find the whole warp.
///
/// Memory ordering: as in the sync-free engine (core/cuda/syncfree_sync_free_rounds.hpp), a value
/// is its own flag, written once with a volatile store and polled with volatile loads; the
/// all-ones pattern means "not computed" and no computed value has it (corrected_quotient).

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"

namespace syncfree::impl::cuda {

inline constexpr int wavefront_block_size = 128;
/// Steps per chunk: one poll of the work vector for that many steps of every lane.
inline constexpr int wavefront_chunk = 4;

template <class Scalar, class Ordinal, class Offset>
struct WavefrontSolveOp {
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  const Ordinal* order;
  const Offset* row_map;
  const Ordinal* columns;
  const Offset* source;
  const Offset* diagonal;
  const Scalar* values;
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  const Ordinal* segment_first;
  WavefrontUnits<Ordinal> units;
  Ordinal n_units;
  bool unit_diagonal;
};

/// Where an entry's value comes from.
enum WavefrontSource : int { wavefront_none, wavefront_own, wavefront_left, wavefront_memory };

/// `K`: the most off-diagonal entries of a row (at most wavefront_max_entries), all in registers.
template <int K, class Op>
__global__ void __launch_bounds__(wavefront_block_size) sptrsv_wavefront_kernel(const Op op) {
  using Scalar = typename Op::value_type;
  using Ordinal = typename Op::ordinal_type;
  using Offset = typename Op::offset_type;
  using B = Bits<Scalar>;
  constexpr int C = wavefront_chunk;
  const int lane = threadIdx.x & 31;
  unsigned claimed = 0;
  if (lane == 0) claimed = atomicAdd(op.ticket, 1u);
  const Ordinal unit = Ordinal(__shfl_sync(full_mask, claimed, 0));
  if (unit >= op.n_units) return;

  const Ordinal segment = op.units.first_segment(unit) + lane;
  Ordinal first = 0, length = 0;
  if (segment < op.units.first_segment(unit + 1)) {
    first = op.segment_first[segment];
    length = op.segment_first[segment + 1] - first;
  }
  // Every lane shuffles (a full-mask shuffle that lane 0 skipped would hang the warp); lane 0
  // has no lane before it.
  const Ordinal left_first = __shfl_up_sync(full_mask, first, 1);
  const Ordinal up_length = __shfl_up_sync(full_mask, length, 1);
  const Ordinal left_length = lane > 0 ? up_length : Ordinal(0);
  Ordinal steps = length > 0 ? Ordinal(lane) + length : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    const Ordinal other = __shfl_xor_sync(full_mask, steps, offset);
    steps = other > steps ? other : steps;
  }

  Scalar last = 0;  // this lane's result of the step before
  for (Ordinal chunk = 0; chunk < steps; chunk += C) {
    Ordinal row[C], column[C][K];
    Scalar sum[C], diag[C], coefficient[C][K];
    int from[C][K];
    typename B::type bits[C][K];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const Ordinal o = chunk + c - lane;
      const Ordinal p = first + o;
      const bool active = o >= 0 && o < length;
      Offset begin = 0, end = 0;
      row[c] = -1;
      if (active) {
        begin = op.row_map[p];
        end = op.row_map[p + 1];
        row[c] = op.order[p];
        sum[c] = op.b[row[c]];
        diag[c] = op.unit_diagonal ? Scalar(1) : op.values[op.diagonal[p]];
      }
#pragma unroll
      for (int k = 0; k < K; ++k) {
        from[c][k] = wavefront_none;
        bits[c][k] = 0;
        if (begin + k < end) {
          const Ordinal q = column[c][k] = op.columns[begin + k];
          coefficient[c][k] = op.values[op.source[begin + k]];
          from[c][k] = o > 0 && q == p - 1                      ? wavefront_own
                       : o < left_length && q == left_first + o ? wavefront_left
                                                                : wavefront_memory;
          if (from[c][k] == wavefront_memory) bits[c][k] = B::pattern;
        }
      }
    }
    // Dependencies on earlier units: every pending one polled in each round.
    while (true) {
      bool waiting = false;
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (bits[c][k] == B::pattern) bits[c][k] = B::load(&op.work[column[c][k]]);
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int k = 0; k < K; ++k) waiting = waiting || bits[c][k] == B::pattern;
      if (!__any_sync(full_mask, waiting)) break;
      __nanosleep(32);
    }
    Scalar inverse[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      if (row[c] < 0) continue;
      inverse[c] = Scalar(1) / diag[c];
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (from[c][k] == wavefront_memory) sum[c] -= coefficient[c][k] * B::value(bits[c][k]);
    }
    // The steps: registers and shuffles only.
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const Scalar left = __shfl_up_sync(full_mask, last, 1);
      if (row[c] < 0) continue;
      Scalar s = sum[c];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (from[c][k] == wavefront_own) s -= coefficient[c][k] * last;
        if (from[c][k] == wavefront_left) s -= coefficient[c][k] * left;
      }
      const Scalar value = corrected_quotient(s, diag[c], inverse[c]);
      B::store(&op.work[first + (chunk + c - lane)], value);
      op.x[row[c]] = value;
      last = value;
    }
  }
}

template <int K, class Op>
void launch_sptrsv_wavefront_kernel(const Op& op, cudaStream_t stream) {
  constexpr long warps_per_block = wavefront_block_size / 32;
  const unsigned blocks = unsigned((long(op.n_units) + warps_per_block - 1) / warps_per_block);
  if (blocks > 0) sptrsv_wavefront_kernel<K, Op><<<blocks, wavefront_block_size, 0, stream>>>(op);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct WavefrontSolve<Kokkos::Cuda, Matrix, BColumn, XColumn,
                      std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    if (s.n == 0) return;
    using Op = cuda::WavefrontSolveOp<typename Matrix::non_const_value_type,
                                      typename Matrix::non_const_ordinal_type,
                                      typename Matrix::non_const_size_type>;
    const Op op{s.order.data(),
                s.row_map.data(),
                s.columns.data(),
                s.source.data(),
                s.diagonal.data(),
                A.values.data(),
                b.data(),
                x.data(),
                s.x_work.data(),
                s.ticket.data(),
                s.segment_first.data(),
                s.units,
                s.wavefront_units,
                unit};
    const cudaStream_t stream = cuda::reset_work(exec, s);
    static_assert(wavefront_max_entries == 4, "one kernel per row length up to the maximum");
    switch (s.max_row_length) {
      case 0:
      case 1:
        cuda::launch_sptrsv_wavefront_kernel<1>(op, stream);
        break;
      case 2:
        cuda::launch_sptrsv_wavefront_kernel<2>(op, stream);
        break;
      case 3:
        cuda::launch_sptrsv_wavefront_kernel<3>(op, stream);
        break;
      default:
        cuda::launch_sptrsv_wavefront_kernel<4>(op, stream);
    }
    cuda::require_launched("sptrsv wavefront");
  }
};

}  // namespace syncfree::impl

#endif
