// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SpMV on CUDA: a vector of `width` lanes per row (one thread for short rows), entries
/// and values read through the read-only cache, partial sums combined by shuffles within the
/// vector. The width is the largest power of two not above a quarter of the mean row length: the
/// fastest of 1..32 on grids and meshes in their own numbering, where consecutive rows gather
/// neighbouring entries of x (rows of 5 and 7 entries: one lane; 9: two; 17 and 27: four). Where
/// the columns are scattered (most entries far from their row: a random numbering), every gather
/// is a sector of its own and a row's chain of gathers is what a thread waits on: there the
/// width is the power of two nearest half the mean row (7 entries: four lanes). Which of the two
/// needs an analysis of A (`Spmv::lanes`, run by SpmvPlan); without one, the first.
///
/// Rows far longer than the mean (power-law graphs, circuits' rails, dense rows and columns)
/// would keep their vector looping long after the rest of the matrix is done: a row that would
/// take a vector more than `spmv_vector_steps` steps is left by its vector to its whole warp,
/// which takes the warp's long rows one after another once its short rows are written. No
/// analysis is needed for that. With SpmvPlan's analysis, the longest rows (more than
/// `spmv_block_row_entries` and 8 times the mean) get a block each instead, the first blocks of
/// the launch, so that they run beside the short rows rather than after them. Either way a row's
/// sum is computed in the same order on every run.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <algorithm>
#include <limits>
#include <type_traits>

#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_far_entries.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

inline constexpr int spmv_block_size = 256;

/// Steps (entries per lane) beyond which a vector narrower than a warp leaves its row to the warp.
inline constexpr int spmv_vector_steps = 32;

/// Entries (and multiples of the mean row) beyond which the analyzed product gives a row a block.
inline constexpr long spmv_block_row_entries = 256;
inline constexpr double spmv_block_row_mean_multiple = 8;

/// sum_k values[k] x[entries[k]] over [first, end) in steps of `stride`, in that order, in the
/// vectors' precision `Scalar` (values may be stored in a narrower `Value`); unrolled so that a
/// long row has several gathers in flight per lane.
template <class Scalar, class Value, class Ordinal, class Offset>
__device__ Scalar row_sum(Offset first, Offset end, int stride, const Ordinal* __restrict__ entries,
                          const Value* __restrict__ values, const Scalar* __restrict__ x) {
  Scalar sum = 0;
#pragma unroll 4
  for (Offset k = first; k < end; k += stride)
    sum += Scalar(__ldg(&values[k])) * __ldg(&x[__ldg(&entries[k])]);
  return sum;
}

/// y[row] = alpha (A x)[row] + beta y[row] by the whole block: strided partial sums, then the
/// warps' sums in a fixed order.
template <class Scalar, class Value, class Ordinal, class Offset>
__device__ void block_row_product(const Ordinal row, const Offset* __restrict__ row_map,
                                  const Ordinal* __restrict__ entries,
                                  const Value* __restrict__ values, const Scalar* __restrict__ x,
                                  const Scalar alpha, const Scalar beta, Scalar* __restrict__ y) {
  __shared__ Scalar warp_sums[spmv_block_size / 32];
  Scalar sum = row_sum(__ldg(&row_map[row]) + Offset(threadIdx.x), __ldg(&row_map[row + 1]),
                       spmv_block_size, entries, values, x);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  sum = threadIdx.x < spmv_block_size / 32 ? warp_sums[threadIdx.x] : Scalar(0);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
  if (threadIdx.x == 0) y[row] = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y[row];
}

/// The first `block_row_count` blocks take a row of `block_rows` each; the others every row of
/// at most `block_row_entries` entries, `width` lanes to a row.
template <int width, class Scalar, class Value, class Ordinal, class Offset>
__global__ void __launch_bounds__(spmv_block_size)
    spmv_kernel(const Ordinal n, const Offset* __restrict__ row_map,
                const Ordinal* __restrict__ entries, const Value* __restrict__ values,
                const Scalar* __restrict__ x, const Scalar alpha, const Scalar beta,
                Scalar* __restrict__ y, const Ordinal* __restrict__ block_rows,
                const Ordinal block_row_count, const Offset block_row_entries) {
  if (Ordinal(blockIdx.x) < block_row_count)
    return block_row_product(__ldg(&block_rows[blockIdx.x]), row_map, entries, values, x, alpha,
                             beta, y);
  const long thread = long(blockIdx.x - block_row_count) * spmv_block_size + threadIdx.x;
  const Ordinal row = Ordinal(thread / width);
  const int lane = int(thread % width);
  Scalar sum = 0;
  Offset begin = 0, end = 0;
  bool to_warp = false;   // a long row, left to the whole warp
  bool to_block = false;  // a longer one, a block's of its own
  if (row < n) {
    begin = __ldg(&row_map[row]);
    end = __ldg(&row_map[row + 1]);
    to_block = end - begin > block_row_entries;
    to_warp = !to_block && width < 32 && end - begin > Offset(spmv_vector_steps) * width;
    if (!to_warp && !to_block) sum = row_sum(begin + lane, end, width, entries, values, x);
  }
  // Every lane of the warp reaches the shuffles (no early return), rows past n included.
  for (int offset = width / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset, width);
  if (row < n && lane == 0 && !to_warp && !to_block)
    y[row] = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y[row];
  if constexpr (width < 32) {
    const int warp_lane = int(threadIdx.x % 32);
    for (unsigned left = __ballot_sync(0xFFFFFFFFu, to_warp && lane == 0); left != 0;
         left &= left - 1) {
      const int leader = __ffs(left) - 1;
      const Ordinal r = __shfl_sync(0xFFFFFFFFu, row, leader);
      const Offset b = __shfl_sync(0xFFFFFFFFu, begin, leader);
      const Offset e = __shfl_sync(0xFFFFFFFFu, end, leader);
      Scalar s = row_sum(b + warp_lane, e, 32, entries, values, x);
      for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xFFFFFFFFu, s, offset);
      if (warp_lane == 0) y[r] = beta == Scalar(0) ? alpha * s : alpha * s + beta * y[r];
    }
  }
}

/// y = alpha A x + beta y with `width` lanes per row, on `stream`; the rows of `block_rows` (every
/// row longer than `block_row_entries`, none by default) a block each.
template <int width, class Matrix, class Scalar>
void launch_spmv(cudaStream_t stream, Scalar alpha, const Matrix& A, const Scalar* x, Scalar beta,
                 Scalar* y, const typename Matrix::non_const_ordinal_type* block_rows = nullptr,
                 typename Matrix::non_const_ordinal_type block_row_count = 0,
                 long block_row_entries = std::numeric_limits<long>::max()) {
  using offset_type = typename Matrix::row_map_type::non_const_value_type;
  const long threads = long(A.numRows()) * width;
  if (threads == 0) return;
  const unsigned blocks =
      unsigned(block_row_count + (threads + spmv_block_size - 1) / spmv_block_size);
  const offset_type entries = block_row_entries < long(std::numeric_limits<offset_type>::max())
                                  ? offset_type(block_row_entries)
                                  : std::numeric_limits<offset_type>::max();
  spmv_kernel<width, Scalar><<<blocks, spmv_block_size, 0, stream>>>(
      A.numRows(), A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), x, alpha, beta,
      y, block_rows, block_row_count, entries);
  require_launched("spmv");
}

/// Lanes per row for rows of `mean_row_length` entries, whose columns are `scattered` or not.
inline int spmv_width(double mean_row_length, bool scattered = false) {
  int width = 1;
  if (scattered) {  // nearest in ratio: 2w / target <= target / w
    const double target = mean_row_length / 2;
    while (width < 32 && 2.0 * width * width < target * target) width *= 2;
    return width;
  }
  while (width < 32 && 2 * width <= mean_row_length / 4) width *= 2;
  return width;
}

/// Columns count as scattered where more than half the entries lie this far from their row (see
/// far_entry_fraction): random numberings, not grids, meshers' orders or netlists.
inline constexpr double spmv_scattered_far_fraction = 0.5;

/// One row per thread of `reduce_groups_into`: y(i) = (A x)(i), summed as spmv_kernel<1> sums it,
/// and the row's terms of u'y and y'y. When u is x (CG's p'Ap), u(i) is the x(i) the row's
/// diagonal entry gathered, not a second read.
template <class Scalar, class Ordinal, class Offset>
struct SpmvRowDots {
  const Offset* row_map;
  const Ordinal* entries;
  const Scalar* values;
  const Scalar* x;
  const Scalar* u;
  Scalar* y;
  __device__ void operator()(const std::size_t i, int, Scalar* sum) const {
    Scalar yi = 0, xi = 0;
    bool diagonal = false;
    const Offset end = __ldg(&row_map[i + 1]);
    for (Offset k = __ldg(&row_map[i]); k < end; ++k) {
      const Ordinal col = __ldg(&entries[k]);
      const Scalar xk = __ldg(&x[col]);
      yi += __ldg(&values[k]) * xk;
      if (col == Ordinal(i)) {
        xi = xk;
        diagonal = true;
      }
    }
    y[i] = yi;
    sum[0] += (u == x && diagonal ? xi : __ldg(&u[i])) * yi;
    sum[1] += yi * yi;
  }
};

/// The scalars SyncFree's CUDA kernels take.
template <class Scalar>
inline constexpr bool is_float_or_double_v =
    std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>;

/// Values of `Value` read into products of `Scalar`: the same type, or float values with double
/// vectors (a preconditioner's values kept in single precision, see SpmvPrecision).
template <class Value, class Scalar>
inline constexpr bool reads_values_as_v = is_float_or_double_v<Scalar> &&
                                          (std::is_same_v<Value, Scalar> ||
                                           (std::is_same_v<Value, float> &&
                                            std::is_same_v<Scalar, double>));

template <class Matrix, class X, class Y>
inline constexpr bool has_cuda_spmv_v =
    reads_values_as_v<typename Matrix::non_const_value_type, typename Y::non_const_value_type>&&
            X::rank == 1 &&
    Y::rank == 1 &&
    std::is_same_v<typename X::non_const_value_type, typename Y::non_const_value_type> &&
    !std::is_same_v<typename X::array_layout, Kokkos::LayoutStride> &&
    !std::is_same_v<typename Y::array_layout, Kokkos::LayoutStride> &&
    std::is_same_v<typename X::memory_space, Kokkos::CudaSpace> &&
    std::is_same_v<typename Y::memory_space, Kokkos::CudaSpace> &&
    std::is_same_v<typename Matrix::memory_space, Kokkos::CudaSpace>;

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class X, class Y>
struct Spmv<Kokkos::Cuda, Matrix, X, Y, std::enable_if_t<cuda::has_cuda_spmv_v<Matrix, X, Y>>> {
  using scalar_type = typename Y::non_const_value_type;

  /// The lanes (see spmv_width) and the rows that take a block (see spmv_block_row_entries).
  static CsrSpmvHints<Matrix> analyze(const Kokkos::Cuda& exec, const Matrix& A,
                                      long longest_row = -1) {
    CsrSpmvHints<Matrix> hints;
    if (A.numRows() == 0) return hints;
    const double mean_row = double(A.nnz()) / double(A.numRows());
    hints.lanes = cuda::spmv_width(
        mean_row, far_entry_fraction(exec, A, longest_row) > cuda::spmv_scattered_far_fraction);
    hints.long_row_length =
        std::max(cuda::spmv_block_row_entries, long(cuda::spmv_block_row_mean_multiple * mean_row));
    hints.long_rows = rows_longer_than(exec, A, hints.long_row_length);
    return hints;
  }

  static void apply(const Kokkos::Cuda& exec, scalar_type alpha, const Matrix& A, const X& x,
                    scalar_type beta, const Y& y, const CsrSpmvHints<Matrix>& hints = {}) {
    if (A.numRows() == 0) return;
    const ordinal_type block_rows = ordinal_type(hints.long_rows.extent(0));
    const auto launch = [&](auto width) {
      cuda::launch_spmv<decltype(width)::value>(
          exec.cuda_stream(), alpha, A, x.data(), beta, y.data(), hints.long_rows.data(),
          block_rows, block_rows > 0 ? hints.long_row_length : std::numeric_limits<long>::max());
    };
    switch (hints.lanes > 0 ? hints.lanes
                            : cuda::spmv_width(double(A.nnz()) / double(A.numRows()))) {
      case 1:
        return launch(std::integral_constant<int, 1>());
      case 2:
        return launch(std::integral_constant<int, 2>());
      case 4:
        return launch(std::integral_constant<int, 4>());
      case 8:
        return launch(std::integral_constant<int, 8>());
      case 16:
        return launch(std::integral_constant<int, 16>());
      default:
        return launch(std::integral_constant<int, 32>());
    }
  }

 private:
  using ordinal_type = typename Matrix::non_const_ordinal_type;
};

template <class Matrix, class X, class Y, class U, class Sums>
struct SpmvDots<
    Kokkos::Cuda, Matrix, X, Y, U, Sums,
    std::enable_if_t<
        cuda::has_cuda_spmv_v<Matrix, X, Y> && cuda::has_cuda_spmv_v<Matrix, U, Sums> &&
        std::is_same_v<typename Matrix::non_const_value_type, typename Y::non_const_value_type>>> {
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::row_map_type::non_const_value_type;

  static void apply(const Kokkos::Cuda& exec, const Matrix& A, const X& x, const Y& y, const U& u,
                    const Sums& sums, const CsrSpmvHints<Matrix>& hints = {}) {
    const int lanes =
        hints.lanes > 0
            ? hints.lanes
            : cuda::spmv_width(double(A.nnz()) / double(A.numRows() > 0 ? A.numRows() : 1));
    if (lanes > 1 || hints.long_rows.extent(0) > 0)
      return spmv_then_dots(exec, A, x, y, u, sums, hints);
    const cuda::SpmvRowDots<scalar_type, ordinal_type, offset_type> body{A.graph.row_map.data(),
                                                                         A.graph.entries.data(),
                                                                         A.values.data(),
                                                                         x.data(),
                                                                         u.data(),
                                                                         y.data()};
    cuda::reduce_groups_into<2>(exec.cuda_stream(), std::size_t(A.numRows()), 1, sums.data(), body);
  }
};

}  // namespace syncfree::impl

#endif
