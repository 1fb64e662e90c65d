// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The ILU benchmark's tables and JSON: time per phase, analysis + factor, speedups over
/// cuSPARSE csrilu02 (level policy) and Kokkos Kernels spiluk, apply against two cuSPARSE SpSV.

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "perf_tests/algorithms/ilu/ilu_bench_matrix.hpp"
#include "perf_tests/common/benchmark_context.hpp"

namespace syncfree::bench {

/// Median seconds of each phase of one method on one matrix, and what validation found.
struct IluTimes {
  int fill_level = 0;
  double analysis = 0, factor = 0, apply = 0;
  int analysis_runs = 0, factor_runs = 0, apply_runs = 0;
  double factor_error = -1;  ///< relative max error of the factors against the oracle
  double apply_error = -1;   ///< relative max error of apply's result against the oracle
  int levels = -1;           ///< the method's own level count, where it reports one
  std::size_t factor_entries = 0;
  std::string note;
  std::string skipped;  ///< why the method did not run (or failed), if so

  bool factored() const { return skipped.empty() && analysis > 0 && factor > 0; }
  bool applied() const { return factored() && apply > 0; }
};

/// matrix name -> method name -> times
using IluResults = std::map<std::string, std::map<std::string, IluTimes>>;

void report_ilu(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                const std::vector<std::shared_ptr<IluBenchMatrix>>& matrices,
                const IluResults& results);

}  // namespace syncfree::bench
