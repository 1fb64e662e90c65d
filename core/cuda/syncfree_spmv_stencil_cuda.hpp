// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The stencil SpMV on CUDA (impl/syncfree_stencil_spmv.hpp): a thread per row, as
/// spmv_kernel<1> for short rows, reading the row's mask instead of its column indices; the set
/// bits are walked with __ffs, or, for byte masks, unrolled, so that every load of a row is in
/// flight at once. With the dots, one pass (as SpmvRowDots). It is the default
/// format of CrsOperator and SpmvPlan where a thread computes a row (mean row below 8 entries):
/// there it is faster than CSR.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>
#include <type_traits>

#include "core/cuda/syncfree_reduce_into_cuda.hpp"
#include "core/cuda/syncfree_spmv_cuda.hpp"
#include "core/impl/syncfree_stencil_spmv.hpp"

namespace syncfree::impl::cuda {

/// Row i's value of A x: the entries from `k` on, one per set bit of `mask`; x(j) read at
/// x[position_of[j]] where `position_of` is given (a vector kept in another order).
template <class Scalar, class Value, class Mask, class Ordinal = int>
__device__ __forceinline__ Scalar stencil_row(std::int64_t i, Mask mask, std::int64_t k,
                                              const std::int64_t* __restrict__ offsets,
                                              const Value* __restrict__ values,
                                              const Scalar* __restrict__ x, Scalar* diagonal_x,
                                              const Ordinal* __restrict__ position_of = nullptr) {
  const auto column = [&](std::int64_t offset) {
    const std::int64_t j = i + offset;
    return position_of != nullptr ? std::int64_t(__ldg(&position_of[j])) : j;
  };
  Scalar sum = 0;
  if constexpr (sizeof(Mask) == 1) {
    // At most 8 diagonals: every load of the row is issued before the first product, as the
    // entry of diagonal d is the row's entry number popc(mask below d).
    Scalar value[8], xk[8];
#pragma unroll
    for (int d = 0; d < 8; ++d) {
      if ((mask >> d) & 1u) {
        const std::int64_t offset = __ldg(&offsets[d]);
        value[d] = Scalar(__ldg(&values[k + __popc(unsigned(mask) & ((1u << d) - 1u))]));
        xk[d] = __ldg(&x[column(offset)]);
        if (offset == 0) *diagonal_x = xk[d];
      }
    }
#pragma unroll
    for (int d = 0; d < 8; ++d)
      if ((mask >> d) & 1u) sum += value[d] * xk[d];
  } else {
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const int d = __ffs(m) - 1;
      const std::int64_t offset = __ldg(&offsets[d]);
      const Scalar x_j = __ldg(&x[column(offset)]);
      sum += Scalar(__ldg(&values[k++])) * x_j;
      if (offset == 0) *diagonal_x = x_j;
    }
  }
  return sum;
}

template <class Scalar, class Value, class Offset, class Mask, class Ordinal>
__global__ void __launch_bounds__(spmv_block_size)
    stencil_spmv_kernel(const std::int64_t n, const Offset* __restrict__ row_map,
                        const Mask* __restrict__ masks, const std::int64_t* __restrict__ offsets,
                        const Value* __restrict__ values, const Scalar* __restrict__ x,
                        const Ordinal* __restrict__ position_of, const Scalar alpha,
                        const Scalar beta, Scalar* __restrict__ y) {
  const std::int64_t i = std::int64_t(blockIdx.x) * spmv_block_size + threadIdx.x;
  if (i >= n) return;
  Scalar unused;
  const Scalar sum = stencil_row<Scalar>(i, __ldg(&masks[i]), std::int64_t(__ldg(&row_map[i])),
                                         offsets, values, x, &unused, position_of);
  y[i] = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y[i];
}

/// One row per thread of `reduce_groups_into`: y(i) = (A x)(i) and the row's terms of u'y and y'y;
/// where u is x (CG's p'Ap), u(i) is the x(i) the diagonal gathered (see SpmvRowDots).
template <class Scalar, class Offset, class Mask>
struct StencilRowDots {
  const Offset* row_map;
  const Mask* masks;
  const std::int64_t* offsets;
  const Scalar* values;
  const Scalar* x;
  const Scalar* u;
  Scalar* y;
  int diagonal_bit;  ///< the bit of offset 0, or -1
  __device__ void operator()(const std::size_t i, int, Scalar* sum) const {
    Scalar xi = Scalar(0);
    const Mask mask = __ldg(&masks[i]);
    const Scalar yi = stencil_row<Scalar>(std::int64_t(i), mask, std::int64_t(__ldg(&row_map[i])),
                                          offsets, values, x, &xi);
    y[i] = yi;
    const bool diagonal = diagonal_bit >= 0 && ((std::uint32_t(mask) >> diagonal_bit) & 1u);
    sum[0] += (u == x && diagonal ? xi : __ldg(&u[i])) * yi;
    sum[1] += yi * yi;
  }
};

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class Masks, class X, class Y>
struct StencilSpmv<Kokkos::Cuda, Matrix, Masks, X, Y,
                   std::enable_if_t<cuda::has_cuda_spmv_v<Matrix, X, Y>>> {
  using scalar_type = typename Y::non_const_value_type;
  using value_type = typename Matrix::non_const_value_type;
  using offset_type = typename Matrix::row_map_type::non_const_value_type;
  using mask_type = typename Masks::non_const_value_type;

  /// Where a thread computes a row (cuda::spmv_width).
  static bool preferred(double mean_row_length) { return cuda::spmv_width(mean_row_length) == 1; }

  using ordinal_type = typename Matrix::non_const_ordinal_type;

  template <class Device>
  static void apply(const Kokkos::Cuda& exec, scalar_type alpha, const Matrix& A,
                    const StencilPattern<Device>& pattern, const Masks& masks, const X& x,
                    scalar_type beta, const Y& y) {
    launch(exec, alpha, A, pattern, masks, x.data(), static_cast<const ordinal_type*>(nullptr),
           beta, y);
  }

  /// y = A x with x(j) at x[position_of(j)]: the product reads a vector kept in another order
  /// (the ILU's chained apply, cuda/syncfree_ilu_apply_cuda.hpp).
  template <class Device, class Positions>
  static void apply_by_position(const Kokkos::Cuda& exec, const Matrix& A,
                                const StencilPattern<Device>& pattern, const Masks& masks,
                                const scalar_type* x, const Positions& position_of, const Y& y) {
    launch(exec, scalar_type(1), A, pattern, masks, x, position_of.data(), scalar_type(0), y);
  }

  template <class Device, class U, class Sums>
  static void apply_dots(const Kokkos::Cuda& exec, const Matrix& A,
                         const StencilPattern<Device>& pattern, const Masks& masks, const X& x,
                         const Y& y, const U& u, const Sums& sums) {
    if constexpr (cuda::has_cuda_spmv_v<Matrix, U, Sums> &&
                  std::is_same_v<value_type, scalar_type>) {
      const cuda::StencilRowDots<scalar_type, offset_type, mask_type> body{A.graph.row_map.data(),
                                                                           masks.data(),
                                                                           pattern.offsets.data(),
                                                                           A.values.data(),
                                                                           x.data(),
                                                                           u.data(),
                                                                           y.data(),
                                                                           pattern.diagonal_bit};
      cuda::reduce_groups_into<2>(exec.cuda_stream(), std::size_t(A.numRows()), 1, sums.data(),
                                  body);
    } else {
      apply(exec, scalar_type(1), A, pattern, masks, x, scalar_type(0), y);
      dots_into(exec, u, y, sums);
    }
  }

 private:
  template <class Device>
  static void launch(const Kokkos::Cuda& exec, scalar_type alpha, const Matrix& A,
                     const StencilPattern<Device>& pattern, const Masks& masks,
                     const scalar_type* x, const ordinal_type* position_of, scalar_type beta,
                     const Y& y) {
    const std::int64_t n = A.numRows();
    if (n == 0) return;
    const unsigned blocks = unsigned((n + cuda::spmv_block_size - 1) / cuda::spmv_block_size);
    cuda::stencil_spmv_kernel<<<blocks, cuda::spmv_block_size, 0, exec.cuda_stream()>>>(
        n, A.graph.row_map.data(), masks.data(), pattern.offsets.data(), A.values.data(), x,
        position_of, alpha, beta, y.data());
    cuda::require_launched("stencil_spmv");
  }
};

}  // namespace syncfree::impl

#endif
