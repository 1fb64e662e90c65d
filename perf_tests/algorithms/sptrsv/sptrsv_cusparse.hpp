// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief cuSPARSE's generic SpSV (CUDA 12+), the vendor baseline, on the same device data.

#include <memory>

#include "perf_tests/algorithms/sptrsv/sptrsv_methods.hpp"
#include "perf_tests/common/cusparse_triangular_solve.hpp"

namespace syncfree::bench {

class CusparseSpsv final : public SptrsvMethod {
 public:
  CusparseSpsv(const BenchMatrix& m, const Vector<double>& x) : m_matrix(m), m_x(x) {}

  /// Everything from the matrix descriptor on, as a first use would do it.
  void analyze() override {
    m_solve = std::make_unique<CusparseTriangularSolve>(m_handle, m_matrix.L, Triangle::lower,
                                                        Diagonal::stored);
    m_solve->analyze(m_matrix.b.data(), m_x.data());
  }

  void release() override { m_solve.reset(); }
  void solve() override { m_solve->solve(m_matrix.b.data(), m_x.data()); }

 private:
  const BenchMatrix& m_matrix;
  Vector<double> m_x;
  CusparseHandle m_handle;
  std::unique_ptr<CusparseTriangularSolve> m_solve;
};

inline std::unique_ptr<SptrsvMethod> make_cusparse_spsv(const BenchMatrix& m,
                                                        const Vector<double>& x) {
  return std::make_unique<CusparseSpsv>(m, x);
}

}  // namespace syncfree::bench
