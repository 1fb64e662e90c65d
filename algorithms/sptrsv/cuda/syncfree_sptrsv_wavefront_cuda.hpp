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
/// dependency lies in an earlier unit, read from the work vector.
///
/// The warp reads the layout's step table, so a step's loads read 32 consecutive entries: the
/// analysis resolved each row's entries into slots, one per register path (2-D grids have two,
/// 3-D grids three) unless the row reads that slot from memory, and the first solve divided the
/// values by the diagonal, so a step is a product, an FMA a slot, and its stores (about 440 ns a
/// step, with 160 instructions, where the kinds were resolved and the quotient corrected at each
/// step). The warp takes its steps in chunks, keeping loads in flight: a chunk's
/// rows are loaded two chunks ahead, the rest (positions, values, right-hand sides) one chunk
/// ahead, and the first polls of its dependencies on earlier units are issued together when it
/// starts; each step then waits only for its own. A step is branch-free.
/// Measured on the H200 (perf_tests/results/2026-11-24-nvidia-h200-sptrsv-wavefront-3d.md and
/// ...-wavefront-lean.md): reading the table instead of gathering by position made the grids
/// 10-16 % faster, the resolved slots took 5-8 % off the time after that.
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
/// all-ones pattern means "not computed" and is replaced by the canonical NaN where a result has
/// it.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"

namespace syncfree::impl::cuda {

inline constexpr int wavefront_block_size = 128;
/// Steps per chunk: the slots of that many steps are loaded two chunks ahead. Loading each place
/// of a chunk again right after its step (so that no load is copied between buffers) measured
/// slower: poisson3d:128 0.42 ms against 0.29.
inline constexpr int wavefront_chunk = 4;
static_assert(wavefront_chunk >= 2,
              "prefetch_wavefront_rhs takes a lane's direction from two steps");
/// Chunks ahead that the right-hand side is prefetched into L2 (prefetch_wavefront_rhs).
inline constexpr int wavefront_prefetch_chunks = 3;

template <class Scalar, class Ordinal, class Device>
struct WavefrontSolveOp {
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  // The step table (build_wavefront_steps), units.entries() entries of each kind.
  const Ordinal* rows;
  const Ordinal* positions;
  const Scalar* values;  ///< the slots' coefficients over the diagonal; the diagonal's inverse
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  const Ordinal* segment_first;
  WavefrontUnits<Ordinal, Device> units;
  Ordinal n;
};

/// A hint: the line holding `p` is wanted in L2 soon. No fault where `p` is not mapped.
template <class T>
__device__ __forceinline__ void prefetch_l2(const T* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

/// What a lane reads for the C steps of a chunk (S slots a step): the rows, loaded two chunks
/// ahead; the positions its slots read, the values, and the polled bits of the dependencies on
/// earlier units (0 where a slot has none, the all-ones pattern until the value arrives), one.
template <int C, class Ordinal>
struct WavefrontRows {
  Ordinal row[C];
};
template <int C, int S, class Scalar, class Ordinal, class Bits>
struct WavefrontStep {
  Ordinal position[C][S];
  Scalar rhs[C], inverse[C], coefficient[C][S];
  Bits bits[C][S];
};

/// The table's entry of this lane at `step` of its unit (32 lanes: 32 consecutive entries).
template <class Ordinal>
__device__ __forceinline__ std::size_t wavefront_entry(std::size_t unit_entry, Ordinal step) {
  return unit_entry + std::size_t(step) * segment_unit_size;
}

template <int C, class Op, class Rows>
__device__ __forceinline__ void load_wavefront_rows(const Op& op, std::size_t unit_entry,
                                                    typename Op::ordinal_type steps,
                                                    typename Op::ordinal_type step, Rows& r) {
  using Ordinal = typename Op::ordinal_type;
#pragma unroll
  for (int c = 0; c < C; ++c)
    r.row[c] = step + c < steps ? op.rows[wavefront_entry(unit_entry, step + c)] : Ordinal(-1);
}

/// Past the table's steps: no row, slots that read nothing, zero values.
template <int C, int P, int S, class Op, class Rows, class Step>
__device__ __forceinline__ void load_wavefront_step(const Op& op, std::size_t unit_entry,
                                                    typename Op::ordinal_type steps,
                                                    typename Op::ordinal_type step, const Rows& r,
                                                    Step& v) {
  using Scalar = typename Op::value_type;
  using Ordinal = typename Op::ordinal_type;
  const std::size_t entries = op.units.entries();
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const bool inside = step + c < steps;
    const std::size_t e = wavefront_entry(unit_entry, step + c);
    v.rhs[c] = r.row[c] >= 0 ? op.b[r.row[c]] : Scalar(0);
    v.inverse[c] = inside ? op.values[P * entries + e] : Scalar(0);
#pragma unroll
    for (int k = 0; k < S; ++k) {
      v.position[c][k] = inside ? op.positions[k * entries + e] : Ordinal(wavefront_unused);
      v.coefficient[c][k] =
          inside ? op.values[wavefront_value_index(k, P) * entries + e] : Scalar(0);
    }
  }
}

/// Prefetches into L2 the right-hand side of the row that this lane reaches `ahead` steps after
/// the chunk now running, extrapolated from its first two rows: a lane's rows run along its line,
/// so the address is exact on a grid. The values' loads one chunk ahead into registers hid too
/// little of the latency of that gather: on the H200 the prefetch made the 2-D grids 3-5 % faster
/// (perf_tests/results/2026-11-24-nvidia-h200-sptrsv-wavefront-lean.md). Prefetching the table's
/// entries too measured slower on the 2-D grids.
template <class Op, class Rows>
__device__ __forceinline__ void prefetch_wavefront_rhs(const Op& op, const Rows& running,
                                                       int ahead) {
  if (running.row[0] < 0 || running.row[1] < 0) return;
  const long long row =
      running.row[0] + (long long)(running.row[1] - running.row[0]) * (long long)ahead;
  if (row >= 0 && row < op.n) prefetch_l2(op.b + row);
}

/// Loads the dependencies on earlier units of steps `from` .. C - 1 that have not arrived
/// (`all`: every one, whatever its bits, and zero bits for the slots without one); whether one
/// of step `from`'s is still missing.
template <int C, int S, class Op, class Step>
__device__ __forceinline__ bool poll_wavefront(const Op& op, Step& v, int from, bool all) {
  using B = Bits<typename Op::value_type>;
  bool waiting = false;
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int k = 0; k < S; ++k)
      if (c >= from && v.position[c][k] >= 0 && (all || v.bits[c][k] == B::pattern)) {
        v.bits[c][k] = B::load(&op.work[v.position[c][k]]);
        if (c == from) waiting = waiting || v.bits[c][k] == B::pattern;
      } else if (all && v.position[c][k] < 0) {
        v.bits[c][k] = typename B::type(0);
      }
  return waiting;
}

/// `P`: the register paths (wavefront_paths), `S`: the slots per step (wavefront_slots), all in
/// registers.
template <int P, int S, class Op>
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

  // Rows two chunks ahead, the rest one: the loads of a chunk are in flight while the one before
  // runs. Polls are fresh at each chunk's start.
  const Ordinal table_steps = op.units.steps();
  const std::size_t unit_entry =
      wavefront_table_entry(std::size_t(unit), std::size_t(table_steps), 0, lane);
  WavefrontRows<C, Ordinal> rows, next_rows, after_rows;
  WavefrontStep<C, S, Scalar, Ordinal, typename B::type> v, next;
  load_wavefront_rows<C>(op, unit_entry, table_steps, 0, rows);
  load_wavefront_step<C, P, S>(op, unit_entry, table_steps, 0, rows, v);
  load_wavefront_rows<C>(op, unit_entry, table_steps, C, next_rows);
  Scalar last = 0;  // this lane's result of the step before
  for (Ordinal chunk = 0; chunk < steps; chunk += C) {
    load_wavefront_step<C, P, S>(op, unit_entry, table_steps, chunk + C, next_rows, next);
    load_wavefront_rows<C>(op, unit_entry, table_steps, chunk + 2 * C, after_rows);
    prefetch_wavefront_rhs(op, rows, wavefront_prefetch_chunks * C);
    poll_wavefront<C, S>(op, v, 0, true);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      // This step's dependencies on earlier units; each round polls the later steps' too.
      bool waiting = false;
#pragma unroll
      for (int k = 0; k < S; ++k) waiting = waiting || v.bits[c][k] == B::pattern;
      while (__any_sync(full_mask, waiting)) {
        __nanosleep(32);  // longer backoffs, up to 1 us, measured no faster
        waiting = poll_wavefront<C, S>(op, v, c, false);
      }
      // The step is a chain through `last`, `left` and `below` (the step before's results): the
      // terms off it come first. A slot reads its register path unless it reads memory (or
      // nothing: zero bits).
      const Scalar left = __shfl_up_sync(full_mask, last, 1);
      const Scalar below = __shfl_up_sync(full_mask, last, lines);  // 32 (none): its own
      Scalar sum = v.rhs[c] * v.inverse[c];
#pragma unroll
      for (int k = S - 1; k >= 0; --k) {
        const Scalar path = k == wavefront_own ? last : k == wavefront_left ? left : below;
        const Scalar read = B::value(v.bits[c][k]);
        sum = fma(-v.coefficient[c][k],
                  k < P && v.position[c][k] == wavefront_register ? path : read, sum);
      }
      const bool active = rows.row[c] >= 0;
      if (active) {
        B::store(&op.work[first + (chunk + c - skew)],
                 B::of(sum) == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : sum);
        op.x[rows.row[c]] = sum;
      }
      last = active ? sum : last;
    }
    rows = next_rows;
    next_rows = after_rows;
    v = next;
  }
}

template <int P, int S, class Op>
void launch_sptrsv_wavefront_kernel(const Op& op, cudaStream_t stream) {
  constexpr long warps_per_block = wavefront_block_size / 32;
  const unsigned blocks =
      unsigned((long(op.units.count()) + warps_per_block - 1) / warps_per_block);
  if (blocks > 0)
    sptrsv_wavefront_kernel<P, S, Op><<<blocks, wavefront_block_size, 0, stream>>>(op);
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
                s.wavefront_positions.data(),
                s.wavefront_values.data(),
                b.data(),
                x.data(),
                s.x_work.data(),
                s.ticket.data(),
                s.segment_first.data(),
                s.units,
                s.n};
    const cudaStream_t stream = cuda::reset_work(exec, s);
    static_assert(wavefront_max_entries == 4, "one kernel per slot count up to the maximum");
    const int paths = wavefront_paths(s), slots = wavefront_slots(s);
    if (paths == 2 && slots == 2)
      cuda::launch_sptrsv_wavefront_kernel<2, 2>(op, stream);
    else if (paths == 2 && slots == 3)
      cuda::launch_sptrsv_wavefront_kernel<2, 3>(op, stream);
    else if (paths == 2)
      cuda::launch_sptrsv_wavefront_kernel<2, 4>(op, stream);
    else if (slots == 3)
      cuda::launch_sptrsv_wavefront_kernel<3, 3>(op, stream);
    else
      cuda::launch_sptrsv_wavefront_kernel<3, 4>(op, stream);
    cuda::require_launched("sptrsv wavefront");
  }
};

}  // namespace syncfree::impl

#endif
