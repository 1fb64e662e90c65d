// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The cuSPARSE baselines as a KrylovRun: SpMV descriptors, the textbook solvers, and as the
/// preconditioner csrilu02 + two SpSV ("ilu0") or the inverse diagonal applied by cublasDdgmm
/// ("jacobi"). CUDA builds only.

#include <memory>

#include "perf_tests/algorithms/ilu/ilu_cusparse.hpp"
#include "perf_tests/algorithms/krylov/krylov_cusparse_solvers.hpp"
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"
#include "perf_tests/algorithms/krylov/krylov_traffic.hpp"
#include "perf_tests/common/device_timer.hpp"

namespace syncfree::bench {

class CusparseKrylovRun final : public KrylovRun {
 public:
  CusparseKrylovRun(const KrylovCase& c, const BenchCrs& A, const KrylovSettings& settings)
      : m_case(c), m_A(A) {
    SYNCFREE_REQUIRE(c.preconditioner == "ilu0" || c.preconditioner == "jacobi", NotSupported,
                     "cusparse: the baseline preconditioners are ilu0 and jacobi, not ",
                     c.preconditioner);
    m_settings.tolerance = settings.tolerance;
    m_settings.max_iterations = settings.max_iterations;
    m_settings.restart = settings.restart;
  }

  void setup() override {
    m_ilu.reset();
    m_inverse_diagonal = Vector<double>();
    m_blas.reset();
    m_blas = std::make_unique<CusparseBlas>(m_handle, m_cublas, m_A);
    if (m_case.preconditioner == "jacobi") {
      m_inverse_diagonal = cusparse_inverse_diagonal(m_A);
      return;
    }
    m_ilu =
        std::make_unique<CusparseIluPreconditioner>(m_handle, m_A, CUSPARSE_SOLVE_POLICY_USE_LEVEL);
    m_ilu->analyze();
    m_ilu->factor();
  }

  SolveResult solve(const Vector<double>& b, const Vector<double>& x) override {
    DevicePreconditioner M = [this](const double* r, double* z) { m_ilu->apply(r, z); };
    if (m_case.preconditioner == "jacobi")
      M = [this](const double* r, double* z) { m_blas->dgmm(m_inverse_diagonal.data(), r, z); };
    if (m_case.solver == "cg") return cusparse_pcg(*m_blas, M, b.data(), x.data(), m_settings);
    if (m_case.solver == "bicgstab")
      return cusparse_bicgstab(*m_blas, M, b.data(), x.data(), m_settings);
    return cusparse_gmres(*m_blas, M, b.data(), x.data(), m_settings);
  }

  double apply_seconds(const Vector<double>& r) override {
    Vector<double> z(Kokkos::view_alloc(Kokkos::WithoutInitializing, "z"), r.extent(0));
    if (m_case.preconditioner == "jacobi")
      return median_seconds([&] { m_blas->dgmm(m_inverse_diagonal.data(), r.data(), z.data()); });
    return median_seconds([&] { m_ilu->apply(r.data(), z.data()); });
  }

  std::string note() const override {
    const std::string note = m_case.preconditioner == "jacobi" ? "inverse diagonal, cublasDdgmm"
                                                               : "csrilu02 (level policy)";
    return m_case.solver == "gmres" ? note + ", MGS" : note;
  }

  double spmv_bytes() const override { return csr_spmv_bytes(m_A.numRows(), m_A.nnz()); }

 private:
  KrylovCase m_case;
  BenchCrs m_A;
  BaselineSettings m_settings;
  CusparseHandle m_handle;  // handles are created with the run, outside the timed setup
  CublasHandle m_cublas;
  std::unique_ptr<CusparseBlas> m_blas;
  std::unique_ptr<CusparseIluPreconditioner> m_ilu;
  Vector<double> m_inverse_diagonal;
};

}  // namespace syncfree::bench
