// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The kernels of the cuSPARSE Krylov baselines: A x by cuSPARSE SpMV and vector work by
/// cuBLAS with host scalars (each reduction returns to the host), as a cuSPARSE user writes them;
/// for the Jacobi baseline, A's inverse diagonal (one Kokkos kernel: neither library extracts a
/// diagonal) and its elementwise product (cublasDdgmm). CUDA builds only.

#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/cublas_handle.hpp"
#include "perf_tests/common/cusparse_check.hpp"
#include "perf_tests/common/cusparse_spmv.hpp"

namespace syncfree::bench {

/// y = A x and the BLAS-1 a textbook Krylov loop needs, on the default execution space's stream.
class CusparseBlas {
 public:
  /// SpMV descriptors and buffer (part of a solver's setup); the handles are the caller's.
  CusparseBlas(cusparseHandle_t sparse, cublasHandle_t blas, const BenchCrs& A)
      : m_spmv(sparse, A), m_blas(blas) {}

  int size() const { return int(m_spmv.size()); }

  /// y = A x
  void spmv(const double* x, double* y) { m_spmv.apply(x, y); }
  double dot(const double* x, const double* y) {
    double result = 0;
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDdot(m_blas, size(), x, 1, y, 1, &result));
    return result;
  }
  double nrm2(const double* x) {
    double result = 0;
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDnrm2(m_blas, size(), x, 1, &result));
    return result;
  }
  /// y += a x
  void axpy(double a, const double* x, double* y) {
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDaxpy(m_blas, size(), &a, x, 1, y, 1));
  }
  /// x *= a
  void scal(double a, double* x) {
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDscal(m_blas, size(), &a, x, 1));
  }
  /// y = x
  void copy(const double* x, double* y) {
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDcopy(m_blas, size(), x, 1, y, 1));
  }
  /// y = diag(d) x, elementwise: x as an n x 1 matrix scaled from the left
  void dgmm(const double* d, const double* x, double* y) {
    SYNCFREE_IMPL_CUBLAS_CHECK(
        cublasDdgmm(m_blas, CUBLAS_SIDE_LEFT, size(), 1, x, size(), d, 1, y, size()));
  }

 private:
  CusparseSpmv m_spmv;
  cublasHandle_t m_blas;
};

/// 1 / A(i, i) for every row, on the default execution space; the first row whose diagonal is
/// zero, missing or not finite is reported to the host (one reduction, like SyncFree's
/// jacobi_factor).
/// \throws InvalidMatrix naming that row
inline Vector<double> cusparse_inverse_diagonal(const BenchCrs& A) {
  const int n = A.numRows();
  Vector<double> inverse(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cusparse::jacobi"), n);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  int first_bad = 0;  // Kokkos::Min starts from INT_MAX: that is what a clean diagonal gives
  Kokkos::parallel_reduce(
      "bench::cusparse_inverse_diagonal",
      Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(Kokkos::DefaultExecutionSpace(), 0, n),
      KOKKOS_LAMBDA(const int i, int& bad) {
        double d = 0;
        for (int k = row_map(i); k < row_map(i + 1); ++k)
          if (entries(k) == i) d += values(k);
        inverse(i) = 1.0 / d;
        if ((d == 0 || !Kokkos::isfinite(d)) && i < bad) bad = i;
      },
      Kokkos::Min<int>(first_bad));
  SYNCFREE_REQUIRE(first_bad >= n, InvalidMatrix, "jacobi: row ", first_bad,
                   ": diagonal entry is zero, missing or not finite");
  return inverse;
}

}  // namespace syncfree::bench
