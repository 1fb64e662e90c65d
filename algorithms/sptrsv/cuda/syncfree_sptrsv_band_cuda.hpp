// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA `band` SpTRSV: a warp sweeps a run of consecutive positions of the band layout
/// (impl/syncfree_sptrsv_band_layout.hpp), 32 at a time, lane r holding position p0 + r of the
/// window at p0.
///
/// Every dependency of the window lies in the window before (the band is at most 32 wide) or in
/// the window itself. Those before: the lane that computed them still holds them (one shuffle
/// each). Those inside: the window's rows finish in order, row j's value passed to the later lanes
/// by one shuffle, each lane that depends on row j (a bit mask) subtracting it times the head of
/// its queue of coefficients, kept in row order in registers. A row's own division was done when
/// the table was packed (coefficients divided by the diagonal; the right-hand side is multiplied
/// by its inverse), so the chain from one row to the next is one shuffle and one fused
/// multiply-add, and no value on it passes through memory: on a narrow band, several times faster
/// than sync_free_thread.
///
/// Runs of `band_run_windows` windows make room for parallelism where the band allows it: a run's
/// first window reads its dependencies in the run before from the work vector, where each run
/// publishes its last window, and runs that do not depend on each other go on together.
///
/// Forward progress. A warp claims its run through an atomic ticket once it is running, and a run
/// depends only on the run before it, which a running warp claimed earlier; so the warp of the
/// smallest unfinished run always progresses, whatever order blocks launch in. Every shuffle is
/// executed by the whole warp: the lanes that wait on the run before converge (__syncwarp)
/// before the window's shuffles.
///
/// Memory ordering: as in the sync-free engine (core/cuda/syncfree_sync_free_rounds.hpp), a value
/// is its own flag, written once with a volatile store (never the all-ones pattern, see
/// core/impl/syncfree_sentinel.hpp) and polled with volatile loads.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <cstdint>

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_band_layout.hpp"

namespace syncfree::impl::cuda {

inline constexpr int band_block_size = 128;
/// Windows per run: 64 windows (2048 rows) cost one hop through memory per run on a band that is
/// one chain, and leave n / 2048 runs to go on together where the band is not.
inline constexpr int band_run_windows = 64;

template <class Scalar>
struct BandSolveOp {
  using value_type = Scalar;
  const std::int8_t* offsets;  ///< the table (build_band_table), `entries` slots
  const Scalar* values;
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  std::size_t n;
  int entries;
  bool lower;
  /// The row at position p (triangle_order).
  __device__ std::size_t row(std::size_t p) const { return lower ? p : n - 1 - p; }
};

/// A lane's row of one window: its dependencies (distance back, 0: none) and their coefficients
/// divided by the diagonal, the inverse of the diagonal, and the right-hand side.
template <int R, class Scalar>
struct BandRow {
  int offset[R];
  Scalar coefficient[R];
  Scalar inverse, rhs;
};

template <int R, class Op, class Row>
__device__ __forceinline__ void load_band_row(const Op& op, std::size_t p, Row& r) {
  using Scalar = typename Op::value_type;
  const bool valid = p < op.n;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    const bool inside = valid && k < op.entries;
    r.offset[k] = inside ? int(op.offsets[std::size_t(k) * op.n + p]) : 0;
    r.coefficient[k] = inside ? op.values[std::size_t(k) * op.n + p] : Scalar(0);
  }
  r.inverse = valid ? op.values[std::size_t(op.entries) * op.n + p] : Scalar(0);
  r.rhs = valid ? op.b[op.row(p)] : Scalar(0);
}

/// `R`: slots per row in registers, at least the table's.
template <int R, class Op>
__global__ void __launch_bounds__(band_block_size) sptrsv_band_kernel(const Op op) {
  using Scalar = typename Op::value_type;
  using B = Bits<Scalar>;
  const int lane = threadIdx.x & 31;
  unsigned claimed = 0;
  if (lane == 0) claimed = atomicAdd(op.ticket, 1u);
  const std::size_t run = __shfl_sync(full_mask, claimed, 0);
  const std::size_t run_first = run * band_run_windows * band_window;
  if (run_first >= op.n) return;

  BandRow<R, Scalar> row, next;
  load_band_row<R>(op, run_first + lane, row);
  Scalar previous = 0;  // this lane's value in the window before
  for (int w = 0; w < band_run_windows; ++w) {
    const std::size_t p0 = run_first + std::size_t(w) * band_window;
    if (p0 >= op.n) break;
    const std::size_t p = p0 + lane;
    if (w + 1 < band_run_windows) load_band_row<R>(op, p + band_window, next);

    Scalar value = row.rhs * row.inverse;
    if (w == 0) {
      // The run before published its last window; rows of the first run have none there.
#pragma unroll
      for (int k = 0; k < R; ++k)
        if (row.offset[k] > lane) {
          const Scalar* q = op.work + (p - std::size_t(row.offset[k]));
          auto bits = B::load(q);
          while (bits == B::pattern) {
            __nanosleep(32);
            bits = B::load(q);
          }
          value = fma(-row.coefficient[k], B::value(bits), value);
        }
      __syncwarp();
    } else {
#pragma unroll
      for (int k = 0; k < R; ++k) {
        const Scalar before = __shfl_sync(full_mask, previous, (lane - row.offset[k]) & 31);
        value = row.offset[k] > lane ? fma(-row.coefficient[k], before, value) : value;
      }
    }
    // This lane's dependencies inside the window, in the order of their rows: bit j of `rows`
    // for row j, their coefficients in `queue`, the next one first. The table holds the farthest
    // first (sptrsv_build_structure), so the slots before the window lead; they are dropped here.
    std::uint32_t rows = 0;
    Scalar queue[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
      queue[k] = row.coefficient[k];
      if (row.offset[k] > 0 && row.offset[k] <= lane) rows |= 1u << (lane - row.offset[k]);
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const bool before = row.offset[k] > lane;
#pragma unroll
      for (int i = 0; i + 1 < R; ++i) queue[i] = before ? queue[i + 1] : queue[i];
    }
    // Row j of the window is final once rows 0 .. j - 1 are in: it passes its value on.
#pragma unroll
    for (int j = 0; j < band_window - 1; ++j) {
      const bool depends = (rows >> j) & 1u;
      const Scalar v = __shfl_sync(full_mask, value, j);
      value = depends ? fma(-queue[0], v, value) : value;
#pragma unroll
      for (int i = 0; i + 1 < R; ++i) queue[i] = depends ? queue[i + 1] : queue[i];
    }
    if (p < op.n) {
      op.x[op.row(p)] = value;
      if (w == band_run_windows - 1) {
        const auto bits = B::of(value);
        B::store(op.work + p,
                 bits == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : value);
      }
    }
    previous = value;
    row = next;
  }
}

template <int R, class Op>
void launch_sptrsv_band_kernel(const Op& op, cudaStream_t stream) {
  constexpr std::size_t run_rows = std::size_t(band_run_windows) * band_window;
  constexpr std::size_t warps_per_block = band_block_size / 32;
  const std::size_t runs = (op.n + run_rows - 1) / run_rows;
  const unsigned blocks = unsigned((runs + warps_per_block - 1) / warps_per_block);
  if (blocks > 0) sptrsv_band_kernel<R, Op><<<blocks, band_block_size, 0, stream>>>(op);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct LayoutSolve<SptrsvAlgorithm::band, Kokkos::Cuda, Matrix, BColumn, XColumn,
                   std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    if (s.n == 0) return;
    using Op = cuda::BandSolveOp<typename Matrix::non_const_value_type>;
    sptrsv_pack_band_values(exec, s, A, unit);
    const Op op{s.band_offsets.data(),
                s.band_values.data(),
                b.data(),
                x.data(),
                s.x_work.data(),
                s.ticket.data(),
                std::size_t(s.n),
                int(s.band_entries),
                s.triangle == Triangle::lower};
    const cudaStream_t stream = cuda::reset_work(exec, s);
    static_assert(band_max_entries == 16, "one kernel per slot count up to the maximum");
    if (op.entries <= 1)
      cuda::launch_sptrsv_band_kernel<1>(op, stream);
    else if (op.entries <= 2)
      cuda::launch_sptrsv_band_kernel<2>(op, stream);
    else if (op.entries <= 4)
      cuda::launch_sptrsv_band_kernel<4>(op, stream);
    else if (op.entries <= 8)
      cuda::launch_sptrsv_band_kernel<8>(op, stream);
    else
      cuda::launch_sptrsv_band_kernel<16>(op, stream);
    cuda::require_launched("sptrsv band");
  }
};

}  // namespace syncfree::impl

#endif
