// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA `wavefront` SpTRSV: a warp per unit of the wavefront layout
/// (impl/syncfree_sptrsv_wavefront_layout.hpp), lane r running row o of its segment at step
/// skew(r) + o, skew(r) being its distance in lines and planes from lane 0.
///
/// A row's own previous row is the lane's result of the step before (a register); the row at the
/// same place of the line before and of the plane before are the results of the step before of
/// the lane before and of the lane a group of lines before (one shuffle each); every other
/// dependency lies in an earlier unit, read from the work vector. The analysis put each row's
/// entries in slots saying which of the four an entry is.
///
/// The warp reads the layout's step table, so a step's loads read 32 consecutive entries (its
/// values copied there at the first solve), and takes its steps in chunks, keeping loads in
/// flight: a chunk's slots are loaded two chunks ahead, its values (coefficients, right-hand
/// sides, diagonals) one chunk ahead, and the first polls of its dependencies on earlier units are
/// issued together when it starts; each step then waits only for its own. A step is branch-free.
/// Measured on the H200 (perf_tests/results/2026-11-24-nvidia-h200-sptrsv-wavefront-3d.md):
/// reading the table instead of gathering by position made the grids 10-16 % faster; a unit that
/// never waits still takes about 440 ns a step, which is where the time is now.
///
/// Forward progress. A warp claims its unit through an atomic ticket once it is running, and the
/// analysis checked that every dependency of a unit's rows lies in an earlier unit (claimed by a
/// running warp) or is one of the three register paths of the same unit, which its earlier steps
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
/// Steps per chunk: the slots of that many steps are loaded two chunks ahead. Loading each place
/// of a chunk again right after its step (so that no load is copied between buffers) measured
/// slower: poisson3d:128 0.42 ms against 0.29.
inline constexpr int wavefront_chunk = 4;

template <class Scalar, class Ordinal, class Device>
struct WavefrontSolveOp {
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  // The step table (build_wavefront_steps), units.entries() entries of each kind.
  const Ordinal* rows;
  const Ordinal* slots;
  const Scalar* values;  ///< the slots' coefficients, then the diagonals
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  const Ordinal* segment_first;
  WavefrontUnits<Ordinal, Device> units;
};

/// A lane's rows at the C steps of a chunk: what the analysis fixed (-1: no row at that step).
template <int C, int K, class Ordinal>
struct WavefrontSlots {
  Ordinal row[C];
  Ordinal slot[C][K];
};

/// ... and what a solve reads for them: values, and the polled bits of dependencies on earlier
/// units (0 where the slot has none, the all-ones pattern until the value arrives).
template <int C, int K, class Scalar, class Bits>
struct WavefrontValues {
  Scalar rhs[C], diagonal[C], coefficient[C][K];
  Bits bits[C][K];
};

/// The step table's entries of `unit`'s steps `step` .. `step` + C - 1, for this lane: 32
/// consecutive entries per load. `steps`: the table's steps per unit (none beyond).
template <int C, int K, class Op, class Slots>
__device__ __forceinline__ void load_wavefront_slots(const Op& op, std::size_t unit_entry,
                                                     typename Op::ordinal_type steps,
                                                     typename Op::ordinal_type step, Slots& s) {
  using Ordinal = typename Op::ordinal_type;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const bool inside = step + c < steps;
    const std::size_t e = unit_entry + std::size_t(step + c) * segment_unit_size;
    s.row[c] = inside ? op.rows[e] : Ordinal(-1);
#pragma unroll
    for (int k = 0; k < K; ++k)
      s.slot[c][k] = inside ? op.slots[k * op.units.entries() + e] : Ordinal(wavefront_none);
  }
}

/// Coefficients are 0 and diagonals 1 where a slot or a step has no row (build_wavefront_steps).
template <int C, int K, class Op, class Slots, class Values>
__device__ __forceinline__ void load_wavefront_values(const Op& op, std::size_t unit_entry,
                                                      typename Op::ordinal_type steps,
                                                      typename Op::ordinal_type step,
                                                      const Slots& s, Values& v) {
  using Scalar = typename Op::value_type;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const bool inside = step + c < steps;
    const std::size_t e = unit_entry + std::size_t(step + c) * segment_unit_size;
    v.rhs[c] = s.row[c] >= 0 ? op.b[s.row[c]] : Scalar(0);
    v.diagonal[c] = inside ? op.values[K * op.units.entries() + e] : Scalar(1);
#pragma unroll
    for (int k = 0; k < K; ++k)
      v.coefficient[c][k] = inside ? op.values[k * op.units.entries() + e] : Scalar(0);
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
  using B = Bits<Scalar>;
  constexpr int C = wavefront_chunk;
  const int lane = threadIdx.x & 31;
  unsigned claimed = 0;
  if (lane == 0) claimed = atomicAdd(op.ticket, 1u);
  const Ordinal unit = Ordinal(__shfl_sync(full_mask, claimed, 0));
  if (unit >= op.units.count()) return;

  const Ordinal segment = op.units.first_segment(unit) + lane;
  Ordinal first = 0, length = 0;
  if (segment < op.units.first_segment(unit + 1)) {
    first = op.segment_first[segment];
    length = op.segment_first[segment + 1] - first;
  }
  const int lines = op.units.lines;
  const int skew = wavefront_skew(lane, lines);
  Ordinal steps = length > 0 ? Ordinal(skew) + length : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    const Ordinal other = __shfl_xor_sync(full_mask, steps, offset);
    steps = other > steps ? other : steps;
  }

  // Slots two chunks ahead, values one: the loads of a chunk are in flight while the one before
  // runs. Polls are fresh at each chunk's start.
  const Ordinal table_steps = op.units.steps();
  const std::size_t unit_entry = std::size_t(unit) * table_steps * segment_unit_size + lane;
  WavefrontSlots<C, K, Ordinal> slots, next, after;
  WavefrontValues<C, K, Scalar, typename B::type> v, next_values;
  load_wavefront_slots<C, K>(op, unit_entry, table_steps, 0, slots);
  load_wavefront_values<C, K>(op, unit_entry, table_steps, 0, slots, v);
  load_wavefront_slots<C, K>(op, unit_entry, table_steps, C, next);
  Scalar last = 0;  // this lane's result of the step before
  for (Ordinal chunk = 0; chunk < steps; chunk += C) {
    load_wavefront_values<C, K>(op, unit_entry, table_steps, chunk + C, next, next_values);
    load_wavefront_slots<C, K>(op, unit_entry, table_steps, chunk + 2 * C, after);
    poll_wavefront<C, K>(op, slots, v, 0, true);
    // The steps are a chain through `last`, `left` and `below`; what they do not need is taken
    // off it: the coefficients of the three register paths, the inverse of the diagonal, and (after
    // the step's wait) the terms of the dependencies on earlier units. No branch inside a step.
    Scalar inverse[C], own[C], left_coefficient[C], below_coefficient[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      inverse[c] = Scalar(1) / v.diagonal[c];
      own[c] = left_coefficient[c] = below_coefficient[c] = Scalar(0);
#pragma unroll
      for (int k = 0; k < K; ++k) {
        own[c] += slots.slot[c][k] == wavefront_own ? v.coefficient[c][k] : Scalar(0);
        left_coefficient[c] += slots.slot[c][k] == wavefront_left ? v.coefficient[c][k] : Scalar(0);
        below_coefficient[c] +=
            slots.slot[c][k] == wavefront_below ? v.coefficient[c][k] : Scalar(0);
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
      const Scalar below = __shfl_up_sync(full_mask, last, lines);  // 32 (none): its own
      Scalar base = v.rhs[c];
#pragma unroll
      for (int k = 0; k < K; ++k)
        base -= (slots.slot[c][k] >= 0 ? v.coefficient[c][k] : Scalar(0)) * B::value(v.bits[c][k]);
      const Scalar sum = fma(-below_coefficient[c], below,
                             fma(-left_coefficient[c], left, fma(-own[c], last, base)));
      const Scalar value = corrected_quotient(sum, v.diagonal[c], inverse[c]);
      const bool active = slots.row[c] >= 0;
      if (active) {
        B::store(&op.work[first + (chunk + c - skew)], value);
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
  const unsigned blocks =
      unsigned((long(op.units.count()) + warps_per_block - 1) / warps_per_block);
  if (blocks > 0) sptrsv_wavefront_kernel<K, Op><<<blocks, wavefront_block_size, 0, stream>>>(op);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct LayoutSolve<SptrsvAlgorithm::wavefront, Kokkos::Cuda, Matrix, BColumn, XColumn,
                   std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    if (s.n == 0) return;
    using Op = cuda::WavefrontSolveOp<typename Matrix::non_const_value_type,
                                      typename Matrix::non_const_ordinal_type,
                                      typename Matrix::device_type>;
    sptrsv_pack_wavefront_values(exec, s, A, unit);
    const Op op{s.wavefront_rows.data(),
                s.wavefront_slots.data(),
                s.wavefront_values.data(),
                b.data(),
                x.data(),
                s.x_work.data(),
                s.ticket.data(),
                s.segment_first.data(),
                s.units};
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
