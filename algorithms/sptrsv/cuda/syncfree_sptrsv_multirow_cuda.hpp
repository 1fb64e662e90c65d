// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA kernel of the multirow and packed SpTRSV (SpTRSV_mr, SpTRSV_Fmt; after
/// `csr_L_solve_kernel_multirow` of HCL-Fing/SPTRSV): a warp claims the next warp of the multirow
/// layout, splits into vectors of `size` lanes, one row each, and every lane spins on the value of
/// its own entry; a segmented shuffle reduction gives each row its sum. Rows of a warp share a
/// level, so a lane never waits on its own warp, and warps are claimed in level order through the
/// ticket (forward progress as in impl/syncfree_sptrsv_syncfree.hpp). Values are their own flags
/// (core/impl/syncfree_sentinel.hpp): volatile loads and one volatile store, no fence.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>
#include <type_traits>

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_multirow.hpp"
#include "core/cuda/syncfree_cuda_launch.hpp"

namespace syncfree::impl::cuda {

/// The arrays of the one-thread-per-row kernel's solve operation, and the multirow layout on top.
template <class Op>
struct MultirowArgs {
  using Ordinal = typename Op::ordinal_type;
  using Offset = typename Op::offset_type;
  Op op;
  const Ordinal* warp_base;
  const std::int8_t* warp_vector;
  const Offset* packed_base;  // null unless packed
  const Ordinal* packed_columns;
  const typename Op::value_type* packed_values;
  const typename Op::value_type* packed_diagonal;
  Ordinal n_warps;
};

template <class Scalar>
__device__ __forceinline__ Scalar wait_for_value(const Scalar* p) {
  using B = Bits<Scalar>;
  typename B::type bits;
  while ((bits = B::load(p)) == B::pattern) __nanosleep(32);
  return B::value(bits);
}

template <bool packed, class Op>
__global__ void __launch_bounds__(256) multirow_kernel(const MultirowArgs<Op> a) {
  using Scalar = typename Op::value_type;
  using Ordinal = typename Op::ordinal_type;
  using Offset = typename Op::offset_type;
  const Op& op = a.op;
  const int lane = int(threadIdx.x % 32);
  unsigned w = 0;
  if (lane == 0) w = atomicAdd(op.ticket, 1u);
  w = __shfl_sync(full_mask, w, 0);
  if (w >= unsigned(a.n_warps)) return;
  const int size = a.warp_vector[w];
  const Ordinal base = a.warp_base[w];
  const Ordinal rows = a.warp_base[w + 1] - base;
  const int width = size == 0 ? 1 : size;
  const int v = lane / width, t = lane % width;
  const bool active = v < rows;
  const Ordinal p = base + (active ? v : 0);

  // Everything that does not depend on other rows is loaded before any lane waits.
  Ordinal row = 0;
  Scalar rhs = 0, a_pp = 1;
  if (active && t == 0) {
    row = op.order[p];
    rhs = op.b[row];
    if (!op.unit_diagonal) a_pp = packed ? a.packed_diagonal[p] : op.values[op.diagonal[p]];
  }
  const Scalar inverse = Scalar(1) / a_pp;
  Scalar sum = 0;
  if (active && size > 0) {
    Offset k = 0, end = 0;
    if constexpr (packed) {
      // One coalesced load of the warp's slots; only a whole-warp row continues in CSR.
      const Offset slot = a.packed_base[w] + lane;
      const Ordinal c = a.packed_columns[slot];
      const Scalar coefficient = a.packed_values[slot];
      if (size == 32) {
        k = op.row_map[p] + 32 + lane;
        end = op.row_map[p + 1];
      }
      if (c >= 0) sum = coefficient * wait_for_value(op.work + c);
    } else {
      k = op.row_map[p] + t;
      end = op.row_map[p + 1];
    }
    for (; k < end; k += width)
      sum += op.coefficient(k) * wait_for_value(op.work + op.dependency(k));
  }
  for (int offset = width / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(full_mask, sum, offset, width);
  if (active && t == 0) {
    const Scalar value = corrected_quotient(rhs - sum, a_pp, inverse);
    Bits<Scalar>::store(op.work + p, value);
    op.x[row] = value;
  }
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct MultirowSolve<Kokkos::Cuda, Matrix, BColumn, XColumn,
                     std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit, bool packed) {
    if (s.n_warps == 0) return;
    const cudaStream_t stream = cuda::reset_work(exec, s);
    const auto op = cuda::sptrsv_rounds_op(s, A, b, x, unit);
    const cuda::MultirowArgs<std::remove_const_t<decltype(op)>> args{op,
                                                                     s.warp_base.data(),
                                                                     s.warp_vector.data(),
                                                                     s.packed_base.data(),
                                                                     s.packed_columns.data(),
                                                                     s.packed_values.data(),
                                                                     s.packed_diagonal.data(),
                                                                     s.n_warps};
    constexpr int warps_per_block = 8;
    const unsigned blocks = unsigned((s.n_warps + warps_per_block - 1) / warps_per_block);
    if (packed) {
      cuda::multirow_kernel<true><<<blocks, 32 * warps_per_block, 0, stream>>>(args);
    } else {
      cuda::multirow_kernel<false><<<blocks, 32 * warps_per_block, 0, stream>>>(args);
    }
    cuda::require_launched("sptrsv multirow");
  }
};

}  // namespace syncfree::impl

#endif
