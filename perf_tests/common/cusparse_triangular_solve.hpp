// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief One triangle of a CSR matrix solved by cuSPARSE's generic SpSV (CUDA 12+): the vendor
/// baseline of the SpTRSV benchmark, and the L and U solves of the cuSPARSE ILU preconditioner.
/// CUDA builds only.

#include "core/syncfree_types.hpp"
#include "perf_tests/common/cusparse_check.hpp"

namespace syncfree::bench {

/// x = T^{-1} b where T is the `triangle` of a square CSR matrix (32-bit indices, double values;
/// entries of the other triangle are ignored) with its diagonal stored or taken as 1. Holds the
/// matrix's arrays, not a copy: they must outlive the solver.
class CusparseTriangularSolve {
 public:
  template <class Matrix>
  CusparseTriangularSolve(cusparseHandle_t handle, const Matrix& A, Triangle triangle,
                          Diagonal diagonal)
      : m_handle(handle), m_n(A.numRows()) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateCsr(
        &m_A, A.numRows(), A.numCols(), A.nnz(), const_cast<int*>(A.graph.row_map.data()),
        const_cast<int*>(A.graph.entries.data()), const_cast<double*>(A.values.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseFillMode_t fill =
        triangle == Triangle::lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t diag =
        diagonal == Diagonal::unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpMatSetAttribute(m_A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpMatSetAttribute(m_A, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpSV_createDescr(&m_spsv));
  }
  ~CusparseTriangularSolve() {
    cusparseSpSV_destroyDescr(m_spsv);
    cusparseDestroySpMat(m_A);
    if (m_b) cusparseDestroyDnVec(m_b);
    if (m_x) cusparseDestroyDnVec(m_x);
  }
  CusparseTriangularSolve(const CusparseTriangularSolve&) = delete;
  CusparseTriangularSolve& operator=(const CusparseTriangularSolve&) = delete;

  /// Buffer sizing and analysis, with b and x as the vectors cuSPARSE analyzes with.
  void analyze(const double* b, double* x) {
    bind(b, x);
    std::size_t bytes = 0;
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpSV_bufferSize(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one, m_A, m_b, m_x,
                                CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m_spsv, &bytes));
    m_buffer.resize(bytes);
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpSV_analysis(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one, m_A, m_b, m_x,
                              CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m_spsv, m_buffer.data()));
  }

  /// Tells cuSPARSE that the matrix's values changed since the analysis (a refactorization).
  void update_values(double* values) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSpSV_updateMatrix(m_handle, m_spsv, values, CUSPARSE_SPSV_UPDATE_GENERAL));
  }

  /// x = T^{-1} b, asynchronous on the handle's stream; only after analyze().
  void solve(const double* b, double* x) {
    bind(b, x);
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpSV_solve(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                    &m_one, m_A, m_b, m_x, CUDA_R_64F,
                                                    CUSPARSE_SPSV_ALG_DEFAULT, m_spsv));
  }

 private:
  void bind(const double* b, double* x) {
    if (!m_b) {
      SYNCFREE_IMPL_CUSPARSE_CHECK(
          cusparseCreateDnVec(&m_b, m_n, const_cast<double*>(b), CUDA_R_64F));
      SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateDnVec(&m_x, m_n, x, CUDA_R_64F));
      return;
    }
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_b, const_cast<double*>(b)));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_x, x));
  }

  cusparseHandle_t m_handle;
  std::int64_t m_n;
  const double m_one = 1.0;
  cusparseSpMatDescr_t m_A = nullptr;
  cusparseDnVecDescr_t m_b = nullptr, m_x = nullptr;
  cusparseSpSVDescr_t m_spsv = nullptr;
  DeviceBuffer m_buffer;
};

}  // namespace syncfree::bench
