// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of the one-thread-per-row sync-free SpTRSV: the operation "x_p =
/// (b - sum of a_pq x_q) / a_pp" run by the sync-free engine (core/cuda/syncfree_sync_free_rounds
/// .hpp, which carries the forward-progress and memory-ordering arguments) over the level-ordered
/// structure of the plan. Dependencies inside a warp travel by shuffle, inside a block through
/// shared memory, and only the others through global memory.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_syncfree.hpp"
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_sync_free_rounds.hpp"
#include "core/impl/syncfree_sentinel.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

/// a / d from r = 1 / d computed earlier: q = a r with one Markstein correction,
/// q + (a - q d) r, the correctly rounded quotient but in rare cases (then within an ulp). A
/// non-finite q (overflow, Inf or NaN in a) is kept as it is. Never the all-ones pattern: see
/// core/impl/syncfree_sentinel.hpp.
template <class Scalar>
__device__ __forceinline__ Scalar corrected_quotient(Scalar a, Scalar d, Scalar r) {
  using S = Sentinel<Scalar>;
  Scalar value = a * r;
  if (isfinite(value)) value = fma(fma(-value, d, a), r, value);
  return S::to_bits(value) == S::pattern ? S::from_bits(S::canonical_nan) : value;
}

/// `Chains`: whether the engine looks for chains to scan (chain-segment order). Level order has
/// none, and the kernel runs it faster without the scan's code.
template <class Scalar, class Ordinal, class Offset, bool Chains = true>
struct SptrsvRounds {
  using value_type = Scalar;
  using coefficient_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  static constexpr unsigned max_backoff_ns = 32;  // longer backoffs measured slower
  static constexpr bool chain_links = Chains;
  struct Row {
    Ordinal row;
    Scalar rhs, diagonal, inverse, sum;
  };
  /// x -> a + b x. A chain position is (rhs - sum - c x) / d = (rhs - sum) / d - (c / d) x; a
  /// finished one is the constant (b = 0).
  struct Link {
    Scalar a, b;
  };

  const Ordinal* order;  ///< the row of b and x at each position
  const Offset* row_map;
  const Ordinal* columns;
  const Offset* source;
  const Offset* diagonal;
  const Scalar* values;
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  Ordinal n;
  bool unit_diagonal;
  int blocks_per_sm;  ///< see sptrsv_blocks_per_sm

  __device__ Row start(Ordinal p, Offset& begin, Offset& end) const {
    begin = row_map[p];
    end = row_map[p + 1];
    const Ordinal row = order[p];
    const Scalar d = unit_diagonal ? Scalar(1) : values[diagonal[p]];
    return {row, b[row], d, Scalar(1) / d, Scalar(0)};
  }
  __device__ Ordinal dependency(Offset k) const { return columns[k]; }
  __device__ Scalar coefficient(Offset k) const { return values[source[k]]; }
  __device__ static void combine(Row& r, Scalar a, Scalar x_q) { r.sum += a * x_q; }
  /// (b - sum) / a_pp with the division off the critical path: r = 1 / a_pp is computed in `start`,
  /// before the row waits, which shortens each dependency hop of a chain; every benchmark matrix
  /// gave solutions bit-identical to the division's.
  __device__ Scalar finish(const Row& r) const {
    return corrected_quotient(r.rhs - r.sum, r.diagonal, r.inverse);
  }
  __device__ void write(Ordinal, const Row& r, Scalar value) const { x[r.row] = value; }

  __device__ static Link chain_link(const Row& r, Scalar c) {
    return {(r.rhs - r.sum) * r.inverse, -c * r.inverse};
  }
  __device__ static Link compose(const Link& later, const Link& earlier) {
    return {fma(later.b, earlier.a, later.a), later.b * earlier.b};
  }
  __device__ static Scalar chain_zero() { return Scalar(0); }
  /// A chain position's value is its scanned one: (b - sum) / a_pp - (c / a_pp) x composed from
  /// its chain's head, the sequential formula rounded in a fixed tree (the same bits every run).
  /// A non-finite one (overflow in a product of the scan, or NaN/Inf data) is left to the
  /// step-by-step path, which propagates data's NaN and Inf as the sequential solve does.
  __device__ static bool chain_usable(Scalar v) { return isfinite(v); }
};

/// Starts a solve on `exec`'s stream: all-ones bytes ("not computed") in every entry of the work
/// vector, a zero ticket. Returns the stream.
template <class Storage>
cudaStream_t reset_work(const Kokkos::Cuda& exec, const Storage& s) {
  const cudaStream_t stream = exec.cuda_stream();
  cudaMemsetAsync(s.x_work.data(), 0xFF, sizeof(typename Storage::scalar_type) * std::size_t(s.n),
                  stream);
  cudaMemsetAsync(s.ticket.data(), 0, sizeof(unsigned), stream);
  return stream;
}

/// Resident blocks of the solve per SM: fewer waiting warps beside the ready ones. 2 blocks of 256
/// were faster than full occupancy, and on no matrix slower; 1 block was faster still where chain
/// levels are narrow but starved wide ones (192^3, 18,000 rows per chain level). The triangle's
/// own order (short chains) asks for 2 whether or not the plan has found its levels: with 1 it was
/// slower on random bands and on meshes of narrow levels alike.
template <class Storage>
int sptrsv_blocks_per_sm(const Storage& s) {
  constexpr long narrow_level = 4096;  // rows
  return s.chain_levels > 0 && long(s.n) < narrow_level * long(s.chain_levels) ? 1 : 2;
}

/// The solve operation over the plan's level-ordered structure, for one right-hand-side column.
template <bool Chains = true, class Storage, class Matrix, class BColumn, class XColumn>
auto sptrsv_rounds_op(const Storage& s, const Matrix& A, const BColumn& b, const XColumn& x,
                      bool unit) {
  using Op =
      SptrsvRounds<typename Matrix::non_const_value_type, typename Matrix::non_const_ordinal_type,
                   typename Matrix::non_const_size_type, Chains>;
  return Op{s.io_rows().data(),
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
            unit,
            sptrsv_blocks_per_sm(s)};
}

/// Which column views the kernel takes: contiguous float or double vectors in CUDA memory.
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
    if (s.n == 0) return;
    const cudaStream_t stream = cuda::reset_work(exec, s);
    if (s.chain_levels > 0)
      cuda::launch_sync_free_rounds(cuda::sptrsv_rounds_op<true>(s, A, b, x, unit),
                                    long(s.max_row_length), stream);
    else
      cuda::launch_sync_free_rounds(cuda::sptrsv_rounds_op<false>(s, A, b, x, unit),
                                    long(s.max_row_length), stream);
    cuda::require_launched("sptrsv sync_free_thread");
  }
};

}  // namespace syncfree::impl

#endif
