// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief cuSPARSE's generic SpSV (CUDA 12+), the vendor baseline, on the same device data.

#include <memory>

#include <cusparse.h>

#include "core/syncfree_error.hpp"
#include "perf_tests/algorithms/sptrsv/sptrsv_methods.hpp"

namespace syncfree::bench {

#define SYNCFREE_IMPL_CUSPARSE_CHECK(call)                                 \
  do {                                                                     \
    const cusparseStatus_t status_ = (call);                               \
    SYNCFREE_REQUIRE(status_ == CUSPARSE_STATUS_SUCCESS, CudaError, #call, \
                     " failed: ", cusparseGetErrorString(status_));        \
  } while (false)

class CusparseSpsv final : public SptrsvMethod {
 public:
  CusparseSpsv(const BenchMatrix& m, const Vector<double>& x) : m_matrix(m), m_x(x) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreate(&m_handle));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSetStream(m_handle, Kokkos::DefaultExecutionSpace().cuda_stream()));
  }
  ~CusparseSpsv() override {
    release();
    cusparseDestroy(m_handle);
  }

  void analyze() override {
    release();
    const Matrix& L = m_matrix.L;
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateCsr(
        &m_A, L.numRows(), L.numCols(), L.nnz(), const_cast<int*>(L.graph.row_map.data()),
        const_cast<int*>(L.graph.entries.data()), const_cast<double*>(L.values.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpMatSetAttribute(m_A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpMatSetAttribute(m_A, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseCreateDnVec(&m_b, L.numRows(), const_cast<double*>(m_matrix.b.data()), CUDA_R_64F));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateDnVec(&m_xv, L.numRows(), m_x.data(), CUDA_R_64F));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpSV_createDescr(&m_spsv));
    std::size_t bytes = 0;
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpSV_bufferSize(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_alpha, m_A, m_b,
                                m_xv, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m_spsv, &bytes));
    SYNCFREE_REQUIRE(cudaMalloc(&m_buffer, bytes) == cudaSuccess, CudaError,
                     "cudaMalloc of the SpSV buffer failed");
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpSV_analysis(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_alpha, m_A, m_b, m_xv,
                              CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m_spsv, m_buffer));
  }

  void solve() override {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpSV_solve(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                    &m_alpha, m_A, m_b, m_xv, CUDA_R_64F,
                                                    CUSPARSE_SPSV_ALG_DEFAULT, m_spsv));
  }

 private:
  void release() {
    if (m_spsv) cusparseSpSV_destroyDescr(m_spsv);
    if (m_A) cusparseDestroySpMat(m_A);
    if (m_b) cusparseDestroyDnVec(m_b);
    if (m_xv) cusparseDestroyDnVec(m_xv);
    if (m_buffer) cudaFree(m_buffer);
    m_spsv = nullptr, m_A = nullptr, m_b = nullptr, m_xv = nullptr, m_buffer = nullptr;
  }

  const BenchMatrix& m_matrix;
  Vector<double> m_x;
  const double m_alpha = 1.0;
  cusparseHandle_t m_handle = nullptr;
  cusparseSpMatDescr_t m_A = nullptr;
  cusparseDnVecDescr_t m_b = nullptr, m_xv = nullptr;
  cusparseSpSVDescr_t m_spsv = nullptr;
  void* m_buffer = nullptr;
};

inline std::unique_ptr<SptrsvMethod> make_cusparse_spsv(const BenchMatrix& m,
                                                        const Vector<double>& x) {
  return std::make_unique<CusparseSpsv>(m, x);
}

}  // namespace syncfree::bench
