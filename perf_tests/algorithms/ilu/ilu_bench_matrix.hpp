// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A matrix the ILU benchmark factors, with what validation needs: a host copy, the serial
/// oracle's factors and preconditioned vector for each fill level (computed on first use).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "perf_tests/common/bench_matrix_source.hpp"

namespace syncfree::bench {

using HostCrs = HostMatrix<BenchCrs>;

struct IluBenchMatrix {
  std::string name;
  BenchCrs A;
  HostCrs A_host;
  Vector<double> b;  ///< right-hand side of the timed applies
  int levels = 0;    ///< levels of the lower triangle of A: the critical path of ILU(0)

  /// The oracle's L\U of ILU(k) (reference::iluk), computed on the first call for each k.
  const HostCrs& oracle_factors(int fill_level);
  /// U^{-1} L^{-1} b with the oracle's factors.
  const std::vector<double>& oracle_apply(int fill_level);

 private:
  std::map<int, HostCrs> m_factors;
  std::map<int, std::vector<double>> m_apply;
};

/// `load_matrix(source)`, its host copy, b and the level count.
std::shared_ptr<IluBenchMatrix> load_ilu_bench_matrix(const std::string& source);

/// Largest |lu - oracle| over the entries, relative to the largest |oracle| entry; infinity when
/// the patterns differ or a value is NaN.
double factor_error(const HostCrs& lu, const HostCrs& oracle);

/// Largest |x - oracle| over the entries, relative to the largest |oracle| entry.
double apply_error(const Vector<double>& x, const std::vector<double>& oracle);

}  // namespace syncfree::bench
