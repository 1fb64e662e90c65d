// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sparse matrix-vector product y = alpha A x + beta y.
///
/// Kokkos Kernels' SpMV everywhere except CUDA, where SyncFree's own kernel
/// (cuda/syncfree_spmv_cuda.hpp) runs, faster there than Kokkos Kernels' on every benchmark
/// matrix. The Krylov solvers apply A through it.

#include <type_traits>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree {
namespace impl {

/// What an analysis of A (SpmvPlan's) tells the backend's CSR kernel: the lanes per row (0: the
/// kernel's own rule from the mean row) and the rows long enough for a team each: every row of
/// more than `long_row_length` entries (none: such rows go to smaller groups of lanes).
template <class Matrix>
struct CsrSpmvHints {
  int lanes = 0;
  long long_row_length = 0;
  Kokkos::View<const typename Matrix::non_const_ordinal_type*, typename Matrix::device_type>
      long_rows;
};

/// y = alpha A x + beta y, a row per index, each product in the vectors' precision: for values
/// stored narrower than the vectors (Kokkos Kernels' SpMV takes one scalar type).
template <class Exec, class Matrix, class X, class Y>
void spmv_rows(const Exec& exec, typename Y::non_const_value_type alpha, const Matrix& A,
               const X& x, typename Y::non_const_value_type beta, const Y& y) {
  using scalar_type = typename Y::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  Kokkos::parallel_for(
      "syncfree::spmv_rows", Kokkos::RangePolicy<Exec>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        scalar_type sum = 0;
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          sum += scalar_type(values(k)) * x(entries(k));
        y(i) = beta == scalar_type(0) ? alpha * sum : alpha * sum + beta * y(i);
      });
}

/// Primary template: Kokkos Kernels (spmv_rows where the values are narrower than the vectors).
/// CUDA specializes it for contiguous float and double vectors. `analyze(exec, A, longest_row)`
/// gives the hints `apply` takes for A (none where the backend has no use for them); without hints
/// `apply` needs no analysis.
template <class Exec, class Matrix, class X, class Y, class Enable = void>
struct Spmv {
  static CsrSpmvHints<Matrix> analyze(const Exec&, const Matrix&, long /*longest_row*/ = -1) {
    return {};
  }
  static void apply(const Exec& exec, typename Y::non_const_value_type alpha, const Matrix& A,
                    const X& x, typename Y::non_const_value_type beta, const Y& y,
                    const CsrSpmvHints<Matrix>& /*hints*/ = {}) {
    if constexpr (std::is_same_v<typename Matrix::non_const_value_type,
                                 typename Y::non_const_value_type>)
      impl::spmv(exec, alpha, A, x, beta, y);
    else
      spmv_rows(exec, alpha, A, x, beta, y);
  }
};

/// Rows longer than this are better not computed by one thread each: SpmvPlan::apply_dots then
/// takes spmv_then_dots rather than `spmv_dots`' one pass.
inline constexpr long spmv_dots_fused_longest_row = 64;

/// y = A x, then sums(0) = u'y and sums(1) = y'y in a second pass.
template <class Exec, class Matrix, class X, class Y, class U, class Sums>
void spmv_then_dots(const Exec& exec, const Matrix& A, const X& x, const Y& y, const U& u,
                    const Sums& sums, const CsrSpmvHints<Matrix>& hints = {}) {
  using scalar_type = typename Y::non_const_value_type;
  Spmv<Exec, Matrix, X, Y>::apply(exec, scalar_type(1), A, x, scalar_type(0), y, hints);
  dots_into(exec, u, y, sums);
}

/// Primary template: spmv_then_dots. CUDA fuses the sums into the product where a thread computes
/// a whole row. `hints` as `Spmv::apply`'s.
template <class Exec, class Matrix, class X, class Y, class U, class Sums, class Enable = void>
struct SpmvDots {
  static void apply(const Exec& exec, const Matrix& A, const X& x, const Y& y, const U& u,
                    const Sums& sums, const CsrSpmvHints<Matrix>& hints = {}) {
    spmv_then_dots(exec, A, x, y, u, sums, hints);
  }
};

}  // namespace impl

/// y = alpha * A * x + beta * y, on `exec`. With beta == 0, y is overwritten (NaN in y does not
/// propagate). x and y must not overlap. A's values may be float with double vectors (the
/// products then in double).
template <class Exec, class Matrix, class X, class Y>
void spmv(const Exec& exec, typename Y::non_const_value_type alpha, const Matrix& A, const X& x,
          typename Y::non_const_value_type beta, const Y& y) {
  impl::Spmv<Exec, Matrix, X, Y>::apply(exec, alpha, A, x, beta, y);
}

/// y = A x, then sums(0) = u'y and sums(1) = y'y into device memory (two contiguous entries), on
/// `exec` without waiting: the product and the dot products a Krylov iteration takes of it. On
/// CUDA one pass where one thread computes a row (short rows: the mean row below 8 entries), else
/// an SpMV and a reduction. A matrix with a few very long rows wants the second way too, which
/// SpmvPlan::apply_dots knows.
template <class Exec, class Matrix, class X, class Y, class U, class Sums>
void spmv_dots(const Exec& exec, const Matrix& A, const X& x, const Y& y, const U& u,
               const Sums& sums) {
  impl::SpmvDots<Exec, Matrix, X, Y, U, Sums>::apply(exec, A, x, y, u, sums);
}

}  // namespace syncfree

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_spmv_cuda.hpp"
#endif
