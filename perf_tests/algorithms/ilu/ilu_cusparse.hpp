// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief cuSPARSE's csrilu02 (ILU(0), in place on a copy of A's values) with a solve policy, and
/// its preconditioner applied as two SpSV solves (L unit lower, U upper), the way NVIDIA's samples
/// use it. CUDA builds only.

#include <memory>

#include "perf_tests/algorithms/ilu/ilu_methods.hpp"
#include "perf_tests/common/cusparse_triangular_solve.hpp"

namespace syncfree::bench {

/// cuSPARSE csrilu02's analysis, factorization and zero-pivot check, on an L\U matrix that shares
/// A's pattern. Shared by the ILU benchmark and the cuSPARSE Krylov baselines.
class CusparseIlu0 {
 public:
  CusparseIlu0(cusparseHandle_t handle, const BenchCrs& A, cusparseSolvePolicy_t policy)
      : m_handle(handle),
        m_A(A),
        m_policy(policy),
        m_lu("cusparse::LU", A.numRows(), A.numCols(), A.nnz(),
             BenchCrs::values_type::non_const_type("cusparse::LU_values", A.nnz()), A.graph.row_map,
             A.graph.entries) {}
  ~CusparseIlu0() { release(); }
  CusparseIlu0(const CusparseIlu0&) = delete;
  CusparseIlu0& operator=(const CusparseIlu0&) = delete;

  /// Descriptors, buffer and csrilu02_analysis; then the structural zero-pivot check.
  void analyze() {
    release();
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateMatDescr(&m_descr));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSetMatIndexBase(m_descr, CUSPARSE_INDEX_BASE_ZERO));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseSetMatType(m_descr, CUSPARSE_MATRIX_TYPE_GENERAL));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreateCsrilu02Info(&m_info));
    int bytes = 0;
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDcsrilu02_bufferSize(
        m_handle, n(), nnz(), m_descr, values(), row_map(), entries(), m_info, &bytes));
    m_buffer.resize(std::size_t(bytes));
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDcsrilu02_analysis(m_handle, n(), nnz(), m_descr, values(),
                                                            row_map(), entries(), m_info, m_policy,
                                                            m_buffer.data()));
    check_zero_pivot("structural");
  }

  /// Copies A's values into the factors and factors them in place; then the zero-pivot check.
  void factor() {
    Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), m_lu.values, m_A.values);
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseDcsrilu02(m_handle, n(), nnz(), m_descr, values(),
                                                   row_map(), entries(), m_info, m_policy,
                                                   m_buffer.data()));
    check_zero_pivot("numerical");
  }

  /// L strictly below the diagonal (unit diagonal implied), U on and above it.
  const BenchCrs& factors() const { return m_lu; }

 private:
  int n() const { return m_A.numRows(); }
  int nnz() const { return m_A.nnz(); }
  double* values() const { return m_lu.values.data(); }
  const int* row_map() const { return m_lu.graph.row_map.data(); }
  const int* entries() const { return m_lu.graph.entries.data(); }

  void check_zero_pivot(const char* kind) {
    int position = -1;
    const cusparseStatus_t status = cusparseXcsrilu02_zeroPivot(m_handle, m_info, &position);
    SYNCFREE_REQUIRE(status != CUSPARSE_STATUS_ZERO_PIVOT, InvalidMatrix, "csrilu02: ", kind,
                     " zero pivot in row ", position);
  }

  void release() {
    if (m_info) cusparseDestroyCsrilu02Info(m_info);
    if (m_descr) cusparseDestroyMatDescr(m_descr);
    m_info = nullptr, m_descr = nullptr;
  }

  cusparseHandle_t m_handle;
  BenchCrs m_A;
  cusparseSolvePolicy_t m_policy;
  BenchCrs m_lu;
  cusparseMatDescr_t m_descr = nullptr;
  csrilu02Info_t m_info = nullptr;
  DeviceBuffer m_buffer;
};

/// ILU(0) preconditioner from cuSPARSE: csrilu02 and the two SpSV solves on its factors.
class CusparseIluPreconditioner {
 public:
  CusparseIluPreconditioner(cusparseHandle_t handle, const BenchCrs& A,
                            cusparseSolvePolicy_t policy)
      : m_handle(handle),
        m_ilu(handle, A, policy),
        m_y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cusparse::ilu_y"), A.numRows()),
        m_x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cusparse::ilu_x"), A.numRows()) {}

  /// csrilu02's analysis and both SpSV analyses.
  void analyze() {
    m_ilu.analyze();
    m_lower = std::make_unique<CusparseTriangularSolve>(m_handle, m_ilu.factors(), Triangle::lower,
                                                        Diagonal::unit);
    m_upper = std::make_unique<CusparseTriangularSolve>(m_handle, m_ilu.factors(), Triangle::upper,
                                                        Diagonal::stored);
    m_lower->analyze(m_y.data(), m_x.data());
    m_upper->analyze(m_x.data(), m_y.data());
  }

  /// csrilu02, then SpSV_updateMatrix on both solves: what a refactorization needs.
  void factor() {
    m_ilu.factor();
    double* values = m_ilu.factors().values.data();
    m_lower->update_values(values);
    m_upper->update_values(values);
  }

  /// x = U^{-1} L^{-1} b.
  void apply(const double* b, double* x) {
    m_lower->solve(b, m_y.data());
    m_upper->solve(m_y.data(), x);
  }

  const BenchCrs& factors() const { return m_ilu.factors(); }

 private:
  cusparseHandle_t m_handle;
  CusparseIlu0 m_ilu;
  Vector<double> m_y, m_x;
  std::unique_ptr<CusparseTriangularSolve> m_lower, m_upper;
};

class CusparseIluMethod final : public IluMethod {
 public:
  CusparseIluMethod(const IluBenchMatrix& m, cusparseSolvePolicy_t policy)
      : m_matrix(m), m_policy(policy) {}

  void release() override { m_preconditioner.reset(); }
  void analyze() override {
    m_preconditioner = std::make_unique<CusparseIluPreconditioner>(m_handle, m_matrix.A, m_policy);
    m_preconditioner->analyze();
  }
  void factor() override { m_preconditioner->factor(); }
  void apply(const Vector<double>& b, const Vector<double>& x) override {
    m_preconditioner->apply(b.data(), x.data());
  }
  HostCrs host_factors() override { return copy_to<HostDevice>(m_preconditioner->factors()); }

 private:
  const IluBenchMatrix& m_matrix;
  cusparseSolvePolicy_t m_policy;
  CusparseHandle m_handle;
  std::unique_ptr<CusparseIluPreconditioner> m_preconditioner;
};

}  // namespace syncfree::bench
