// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief y = A x by cuSPARSE SpMV (default algorithm), the baseline every benchmark uses for A x.
/// CUDA builds only.

#include <cstdint>

#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/cusparse_check.hpp"

namespace syncfree::bench {

class CusparseSpmv {
 public:
  /// Descriptors and work buffer for A (setup); the handle is the caller's.
  CusparseSpmv(cusparseHandle_t handle, const BenchCrs& A) : m_handle(handle), m_n(A.numRows()) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateCsr(
        &m_A, A.numRows(), A.numCols(), A.nnz(), const_cast<int*>(A.graph.row_map.data()),
        const_cast<int*>(A.graph.entries.data()), const_cast<double*>(A.values.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    m_scratch = Vector<double>("cusparse::spmv_scratch", 2 * std::size_t(m_n));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateDnVec(&m_x, m_n, m_scratch.data(), CUDA_R_64F));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseCreateDnVec(&m_y, m_n, m_scratch.data() + m_n, CUDA_R_64F));
    std::size_t bytes = 0;
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpMV_bufferSize(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                         &m_one, m_A, m_x, &m_zero, m_y, CUDA_R_64F,
                                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    m_buffer.resize(bytes);
  }
  ~CusparseSpmv() {
    cusparseDestroyDnVec(m_x);
    cusparseDestroyDnVec(m_y);
    cusparseDestroySpMat(m_A);
  }
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;

  std::int64_t size() const { return m_n; }

  /// y = A x
  void apply(const double* x, double* y) {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_x, const_cast<double*>(x)));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDnVecSetValues(m_y, y));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSpMV(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one,
                                              m_A, m_x, &m_zero, m_y, CUDA_R_64F,
                                              CUSPARSE_SPMV_ALG_DEFAULT, m_buffer.data()));
  }

 private:
  cusparseHandle_t m_handle;
  std::int64_t m_n;
  const double m_one = 1.0, m_zero = 0.0;
  cusparseSpMatDescr_t m_A = nullptr;
  cusparseDnVecDescr_t m_x = nullptr, m_y = nullptr;
  Vector<double> m_scratch;
  DeviceBuffer m_buffer;
};

}  // namespace syncfree::bench
