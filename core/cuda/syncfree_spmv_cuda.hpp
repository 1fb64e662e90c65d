// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SpMV on CUDA: a vector of `width` lanes per row (one thread for short rows), entries
/// and values read through the read-only cache, partial sums combined by shuffles within the
/// vector. The width is the largest power of two not above a quarter of the mean row length: the
/// fastest of 1..32 on every benchmark matrix (rows of 5 and 7 entries: one lane; 9: two; 17 and
/// 27: four), see perf_tests/results/2026-11-21-nvidia-h200-spmv.md.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

inline constexpr int spmv_block_size = 256;

template <int width, class Scalar, class Ordinal, class Offset>
__global__ void __launch_bounds__(spmv_block_size)
    spmv_kernel(const Ordinal n, const Offset* __restrict__ row_map,
                const Ordinal* __restrict__ entries, const Scalar* __restrict__ values,
                const Scalar* __restrict__ x, const Scalar alpha, const Scalar beta,
                Scalar* __restrict__ y) {
  const long thread = long(blockIdx.x) * spmv_block_size + threadIdx.x;
  const Ordinal row = Ordinal(thread / width);
  const int lane = int(thread % width);
  Scalar sum = 0;
  if (row < n) {
    const Offset end = __ldg(&row_map[row + 1]);
    for (Offset k = __ldg(&row_map[row]) + lane; k < end; k += width)
      sum += __ldg(&values[k]) * __ldg(&x[__ldg(&entries[k])]);
  }
  // Every lane of the warp reaches the shuffles (no early return), rows past n included.
  for (int offset = width / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset, width);
  if (row < n && lane == 0) y[row] = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y[row];
}

inline int spmv_width(double mean_row_length) {
  int width = 1;
  while (width < 32 && 2 * width <= mean_row_length / 4) width *= 2;
  return width;
}

template <class Matrix, class X, class Y>
inline constexpr bool has_cuda_spmv_v =
    (std::is_same_v<typename Matrix::non_const_value_type, double> ||
     std::is_same_v<typename Matrix::non_const_value_type, float>)&&X::rank == 1 &&
    Y::rank == 1 && std::is_same_v<typename X::non_const_value_type,
                                   typename Matrix::non_const_value_type> &&
    std::is_same_v<typename Y::non_const_value_type, typename Matrix::non_const_value_type> &&
    !std::is_same_v<typename X::array_layout, Kokkos::LayoutStride> &&
    !std::is_same_v<typename Y::array_layout, Kokkos::LayoutStride> &&
    std::is_same_v<typename X::memory_space, Kokkos::CudaSpace> &&
    std::is_same_v<typename Y::memory_space, Kokkos::CudaSpace> &&
    std::is_same_v<typename Matrix::memory_space, Kokkos::CudaSpace>;

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class X, class Y>
struct Spmv<Kokkos::Cuda, Matrix, X, Y, std::enable_if_t<cuda::has_cuda_spmv_v<Matrix, X, Y>>> {
  using scalar_type = typename Matrix::non_const_value_type;

  static void apply(const Kokkos::Cuda& exec, scalar_type alpha, const Matrix& A, const X& x,
                    scalar_type beta, const Y& y) {
    const auto n = A.numRows();
    if (n == 0) return;
    const int width = cuda::spmv_width(double(A.nnz()) / double(n));
    switch (width) {
      case 1:
        return launch<1>(exec, alpha, A, x, beta, y);
      case 2:
        return launch<2>(exec, alpha, A, x, beta, y);
      case 4:
        return launch<4>(exec, alpha, A, x, beta, y);
      case 8:
        return launch<8>(exec, alpha, A, x, beta, y);
      case 16:
        return launch<16>(exec, alpha, A, x, beta, y);
      default:
        return launch<32>(exec, alpha, A, x, beta, y);
    }
  }

 private:
  template <int width>
  static void launch(const Kokkos::Cuda& exec, scalar_type alpha, const Matrix& A, const X& x,
                     scalar_type beta, const Y& y) {
    const long threads = long(A.numRows()) * width;
    const unsigned blocks = unsigned((threads + cuda::spmv_block_size - 1) / cuda::spmv_block_size);
    cuda::spmv_kernel<width><<<blocks, cuda::spmv_block_size, 0, exec.cuda_stream()>>>(
        A.numRows(), A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), x.data(),
        alpha, beta, y.data());
    const cudaError_t status = cudaGetLastError();
    SYNCFREE_REQUIRE(status == cudaSuccess, CudaError, "spmv kernel launch: ",
                     cudaGetErrorString(status));
  }
};

}  // namespace syncfree::impl

#endif
