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
/// (impl/syncfree_sptrsv_sentinel.hpp): volatile loads and one volatile store, no fence.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_multirow.hpp"

namespace syncfree::impl::cuda {

template <class Scalar, class Ordinal, class Offset>
struct MultirowArgs {
  const Ordinal* warp_base;
  const std::int8_t* warp_vector;
  const Ordinal* order;
  const Offset* row_map;
  const Ordinal* columns;
  const Offset* source;
  const Offset* diagonal;
  const Scalar* values;
  const Offset* packed_base;  // null unless packed
  const Ordinal* packed_columns;
  const Scalar* packed_values;
  const Scalar* packed_diagonal;
  const Scalar* b;
  Scalar* x;
  Scalar* work;
  unsigned* ticket;
  Ordinal n_warps;
  bool unit_diagonal;
};

template <class Scalar>
__device__ __forceinline__ Scalar wait_for_value(const Scalar* p) {
  using B = Bits<Scalar>;
  typename B::type bits;
  while ((bits = B::load(p)) == B::pattern) __nanosleep(32);
  return B::value(bits);
}

template <bool packed, class Scalar, class Ordinal, class Offset>
__global__ void __launch_bounds__(256)
    multirow_kernel(const MultirowArgs<Scalar, Ordinal, Offset> a) {
  const int lane = int(threadIdx.x % 32);
  unsigned w = 0;
  if (lane == 0) w = atomicAdd(a.ticket, 1u);
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
    row = a.order[p];
    rhs = a.b[row];
    if (!a.unit_diagonal) a_pp = packed ? a.packed_diagonal[p] : a.values[a.diagonal[p]];
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
        k = a.row_map[p] + 32 + lane;
        end = a.row_map[p + 1];
      }
      if (c >= 0) sum = coefficient * wait_for_value(a.work + c);
    } else {
      k = a.row_map[p] + t;
      end = a.row_map[p + 1];
    }
    for (; k < end; k += width)
      sum += a.values[a.source[k]] * wait_for_value(a.work + a.columns[k]);
  }
  for (int offset = width / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(full_mask, sum, offset, width);
  if (active && t == 0) {
    const Scalar value = corrected_quotient(rhs - sum, a_pp, inverse);
    Bits<Scalar>::store(a.work + p, value);
    a.x[row] = value;
  }
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct MultirowSolve<Kokkos::Cuda, Matrix, BColumn, XColumn,
                     std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  static void solve(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit, bool packed) {
    using scalar_type = typename Matrix::non_const_value_type;
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    using offset_type = typename Matrix::non_const_size_type;
    if (s.n_warps == 0) return;
    const cudaStream_t stream = cuda::reset_work(exec, s);
    const cuda::MultirowArgs<scalar_type, ordinal_type, offset_type> args{s.warp_base.data(),
                                                                          s.warp_vector.data(),
                                                                          s.levels.order.data(),
                                                                          s.row_map.data(),
                                                                          s.columns.data(),
                                                                          s.source.data(),
                                                                          s.diagonal.data(),
                                                                          A.values.data(),
                                                                          s.packed_base.data(),
                                                                          s.packed_columns.data(),
                                                                          s.packed_values.data(),
                                                                          s.packed_diagonal.data(),
                                                                          b.data(),
                                                                          x.data(),
                                                                          s.x_work.data(),
                                                                          s.ticket.data(),
                                                                          s.n_warps,
                                                                          unit};
    constexpr int warps_per_block = 8;
    const unsigned blocks = unsigned((s.n_warps + warps_per_block - 1) / warps_per_block);
    if (packed) {
      cuda::multirow_kernel<true><<<blocks, 32 * warps_per_block, 0, stream>>>(args);
    } else {
      cuda::multirow_kernel<false><<<blocks, 32 * warps_per_block, 0, stream>>>(args);
    }
    const cudaError_t status = cudaGetLastError();
    SYNCFREE_REQUIRE(status == cudaSuccess, CudaError,
                     "sptrsv multirow kernel launch: ", cudaGetErrorString(status));
  }
};

}  // namespace syncfree::impl

#endif
