// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The kernels of the cuSPARSE Krylov baselines: A x by cuSPARSE SpMV and vector work by
/// cuBLAS with host scalars (each reduction returns to the host), as a cuSPARSE user writes them.
/// CUDA builds only.

#include <cublas_v2.h>

#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/cusparse_check.hpp"

#define SYNCFREE_IMPL_CUBLAS_CHECK(call)                                                     \
  do {                                                                                       \
    const cublasStatus_t status_ = (call);                                                   \
    SYNCFREE_REQUIRE(status_ == CUBLAS_STATUS_SUCCESS, CudaError, #call, " failed: status ", \
                     int(status_));                                                          \
  } while (false)

namespace syncfree::bench {

/// A cuBLAS handle on the default execution space's stream, with host scalars.
class CublasHandle {
 public:
  CublasHandle() {
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasCreate(&m_handle));
    SYNCFREE_IMPL_CUBLAS_CHECK(
        cublasSetStream(m_handle, Kokkos::DefaultExecutionSpace().cuda_stream()));
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasSetPointerMode(m_handle, CUBLAS_POINTER_MODE_HOST));
  }
  ~CublasHandle() { cublasDestroy(m_handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  operator cublasHandle_t() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};

/// y = A x and the BLAS-1 a textbook Krylov loop needs, on the default execution space's stream.
class CusparseBlas {
 public:
  /// SpMV descriptors and buffer (part of a solver's setup); the handles are the caller's.
  CusparseBlas(cusparseHandle_t sparse, cublasHandle_t blas, const BenchCrs& A)
      : m_sparse(sparse), m_blas(blas), m_n(A.numRows()) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateCsr(
        &m_A, A.numRows(), A.numCols(), A.nnz(), const_cast<int*>(A.graph.row_map.data()),
        const_cast<int*>(A.graph.entries.data()), const_cast<double*>(A.values.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    m_scratch = Vector<double>("cusparse::spmv_scratch", 2 * std::size_t(m_n));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateDnVec(&m_x, m_n, m_scratch.data(), CUDA_R_64F));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseCreateDnVec(&m_y, m_n, m_scratch.data() + m_n, CUDA_R_64F));
    std::size_t bytes = 0;
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpMV_bufferSize(m_sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                         &m_one, m_A, m_x, &m_zero, m_y, CUDA_R_64F,
                                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    m_buffer.resize(bytes);
  }
  ~CusparseBlas() {
    cusparseDestroyDnVec(m_x);
    cusparseDestroyDnVec(m_y);
    cusparseDestroySpMat(m_A);
  }
  CusparseBlas(const CusparseBlas&) = delete;
  CusparseBlas& operator=(const CusparseBlas&) = delete;

  int size() const { return int(m_n); }

  /// y = A x
  void spmv(const double* x, double* y) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_x, const_cast<double*>(x)));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_y, y));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpMV(m_sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one,
                                              m_A, m_x, &m_zero, m_y, CUDA_R_64F,
                                              CUSPARSE_SPMV_ALG_DEFAULT, m_buffer.data()));
  }
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

 private:
  cusparseHandle_t m_sparse;
  cublasHandle_t m_blas;
  std::int64_t m_n;
  const double m_one = 1.0, m_zero = 0.0;
  cusparseSpMatDescr_t m_A = nullptr;
  cusparseDnVecDescr_t m_x = nullptr, m_y = nullptr;
  Vector<double> m_scratch;
  DeviceBuffer m_buffer;
};

}  // namespace syncfree::bench
