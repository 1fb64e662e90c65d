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
/// every other dependency lies in an earlier unit, read from the work vector. The analysis put
/// each row's entries in slots saying which of the three an entry is.
///
/// The warp takes its steps in chunks and keeps loads in flight: a chunk's slots are loaded two
/// chunks ahead, its values (coefficients, right-hand sides, diagonals) one chunk ahead, and the
/// first polls of its dependencies on earlier units are issued together when it starts; each
/// step then waits only for its own. A step is branch-free. Measured on the H200 with per-step
/// timestamps (perf_tests/results/2026-11-24-nvidia-h200-sptrsv-wavefront.md): a step takes
/// about 130 ns and a chunk boundary about 1 us on 2-D grids, 2 us on 3-D ones. The boundary is
/// the loads: a lane's rows lie 32 positions from its neighbours', so every load of a chunk
/// touches 32 lines. Faster grids need a layout whose steps read consecutive positions.
///
/// Forward progress. A warp claims its unit through an atomic ticket once it is running, and the
/// analysis checked that every dependency of a unit's rows lies in an earlier unit (claimed by a
/// running warp) or is one of the two register paths of the same unit, which its earlier steps
/// produced. The warp of the smallest unfinished unit therefore always progresses, whatever order
/// blocks launch in. Every loop of the kernel runs the same number of times on every lane, and
/// every shuffle and vote is executed by every lane, so they always find the whole warp.
///
/// Memory ordering: as in the sync-free engine (core/cuda/syncfree_sync_free_rounds.hpp), a value
/// is its own flag, written once with a volatile store and polled with volatile loads; the
/// all-ones pattern means "not computed" and no computed value has it (corrected_quotient).

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"

namespace syncfree::impl::cuda {

inline constexpr int wavefront_block_size = 128;
/// Steps per chunk: the slots of that many steps are loaded one chunk ahead.
inline constexpr int wavefront_chunk = 4;

template <class Scalar, class Ordinal, class Offset>
struct WavefrontSolveOp {
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  const Ordinal* order;
  const Offset* diagonal;
  const Ordinal* slots;
  const Offset* slot_source;
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

/// A lane's rows at the C steps of a chunk: what the analysis fixed (-1: no row at that step).
template <int C, int K, class Ordinal, class Offset>
struct WavefrontSlots {
  Ordinal row[C];
  Offset diagonal[C];
  Ordinal slot[C][K];
  Offset source[C][K];
};

/// ... and what a solve reads for them: values, and the polled bits of dependencies on earlier
/// units (0 where the slot has none, the all-ones pattern until the value arrives).
template <int C, int K, class Scalar, class Bits>
struct WavefrontValues {
  Scalar rhs[C], diagonal[C], coefficient[C][K];
  Bits bits[C][K];
};

template <int C, int K, class Op, class Slots>
__device__ __forceinline__ void load_wavefront_slots(const Op& op, typename Op::ordinal_type first,
                                                     typename Op::ordinal_type length, int lane,
                                                     typename Op::ordinal_type step, Slots& s) {
  using Ordinal = typename Op::ordinal_type;
  using Offset = typename Op::offset_type;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const Ordinal o = step + c - lane;
    const bool active = o >= 0 && o < length;
    const Ordinal p = first + o;
    s.row[c] = active ? op.order[p] : Ordinal(-1);
    s.diagonal[c] = active && !op.unit_diagonal ? op.diagonal[p] : Offset(0);
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::size_t at = std::size_t(p) * K + k;
      s.slot[c][k] = active ? op.slots[at] : Ordinal(wavefront_none);
      s.source[c][k] = active ? op.slot_source[at] : Offset(0);
    }
  }
}

template <int C, int K, class Op, class Slots, class Values>
__device__ __forceinline__ void load_wavefront_values(const Op& op, const Slots& s, Values& v) {
  using Scalar = typename Op::value_type;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const bool active = s.row[c] >= 0;
    v.rhs[c] = active ? op.b[s.row[c]] : Scalar(0);
    v.diagonal[c] = active && !op.unit_diagonal ? op.values[s.diagonal[c]] : Scalar(1);
#pragma unroll
    for (int k = 0; k < K; ++k)
      v.coefficient[c][k] = s.slot[c][k] != wavefront_none ? op.values[s.source[c][k]] : Scalar(0);
  }
}

/// Loads the dependencies on earlier units of steps `from` .. C - 1 that have not arrived
/// (`all`: every one, whatever its bits, and zero bits for the slots without one); whether one
/// of step `from`'s is still missing.
template <int C, int K, class Op, class Slots, class Values>
__device__ __forceinline__ bool poll_wavefront(const Op& op, const Slots& s, Values& v, int from,
                                               bool all) {
  using B = Bits<typename Op::value_type>;
  bool waiting = false;
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (c >= from && s.slot[c][k] >= 0 && (all || v.bits[c][k] == B::pattern)) {
        v.bits[c][k] = B::load(&op.work[s.slot[c][k]]);
        if (c == from) waiting = waiting || v.bits[c][k] == B::pattern;
      } else if (all && s.slot[c][k] < 0) {
        v.bits[c][k] = typename B::type(0);
      }
  return waiting;
}

/// `K`: the slots per row (at most wavefront_max_entries), all in registers.
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
  Ordinal steps = length > 0 ? Ordinal(lane) + length : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    const Ordinal other = __shfl_xor_sync(full_mask, steps, offset);
    steps = other > steps ? other : steps;
  }

  // Slots two chunks ahead, values one: the loads of a chunk are in flight while the one before
  // runs. Polls are fresh at each chunk's start.
  WavefrontSlots<C, K, Ordinal, Offset> slots, next, after;
  WavefrontValues<C, K, Scalar, typename B::type> v, next_values;
  load_wavefront_slots<C, K>(op, first, length, lane, 0, slots);
  load_wavefront_values<C, K>(op, slots, v);
  load_wavefront_slots<C, K>(op, first, length, lane, C, next);
  Scalar last = 0;  // this lane's result of the step before
  for (Ordinal chunk = 0; chunk < steps; chunk += C) {
    load_wavefront_values<C, K>(op, next, next_values);
    load_wavefront_slots<C, K>(op, first, length, lane, chunk + 2 * C, after);
    poll_wavefront<C, K>(op, slots, v, 0, true);
    // The steps are a chain through `last` and `left`; what they do not need is taken off it:
    // the coefficients of the two register paths, the inverse of the diagonal, and (after the
    // step's wait) the terms of the dependencies on earlier units. No branch inside a step.
    Scalar inverse[C], own[C], left_coefficient[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      inverse[c] = Scalar(1) / v.diagonal[c];
      own[c] = left_coefficient[c] = Scalar(0);
#pragma unroll
      for (int k = 0; k < K; ++k) {
        own[c] += slots.slot[c][k] == wavefront_own ? v.coefficient[c][k] : Scalar(0);
        left_coefficient[c] += slots.slot[c][k] == wavefront_left ? v.coefficient[c][k] : Scalar(0);
      }
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
      // This step's dependencies on earlier units; each round polls the later steps' too.
      bool waiting = false;
#pragma unroll
      for (int k = 0; k < K; ++k) waiting = waiting || v.bits[c][k] == B::pattern;
      while (__any_sync(full_mask, waiting)) {
        __nanosleep(32);  // longer backoffs, up to 1 us, measured no faster
        waiting = poll_wavefront<C, K>(op, slots, v, c, false);
      }
      const Scalar left = __shfl_up_sync(full_mask, last, 1);
      Scalar base = v.rhs[c];
#pragma unroll
      for (int k = 0; k < K; ++k)
        base -= (slots.slot[c][k] >= 0 ? v.coefficient[c][k] : Scalar(0)) * B::value(v.bits[c][k]);
      const Scalar sum = fma(-left_coefficient[c], left, fma(-own[c], last, base));
      const Scalar value = corrected_quotient(sum, v.diagonal[c], inverse[c]);
      const bool active = slots.row[c] >= 0;
      if (active) {
        B::store(&op.work[first + (chunk + c - lane)], value);
        op.x[slots.row[c]] = value;
      }
      last = active ? value : last;
    }
    slots = next;
    next = after;
    v = next_values;
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
                s.diagonal.data(),
                s.wavefront_slots.data(),
                s.wavefront_source.data(),
                A.values.data(),
                b.data(),
                x.data(),
                s.x_work.data(),
                s.ticket.data(),
                s.segment_first.data(),
                s.units,
                s.units.count(),
                unit};
    const cudaStream_t stream = cuda::reset_work(exec, s);
    static_assert(wavefront_max_entries == 4, "one kernel per slot count up to the maximum");
    switch (s.wavefront_slot_count()) {
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
