// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The SpTRSV benchmark's table and JSON: times, scenarios, bandwidth, speedups, and the
/// latency model hops x hop.

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "perf_tests/algorithms/sptrsv/sptrsv_bench_matrix.hpp"
#include "perf_tests/common/benchmark_context.hpp"

namespace syncfree::bench {

/// Median seconds of each phase for one method on one matrix.
struct SptrsvTimes {
  double analysis = 0;
  double first_solve = 0;
  double solve = 0;
  double max_relative_error = -1;
  double packed_bytes = 0;  ///< of the packed layout, for the methods that have one
  long chain_levels = 0;    ///< levels between chain segments, for the methods that have them
  std::string chosen;       ///< what SyncFree's `auto` ran
  std::string reason;       ///< and why (SptrsvPlan::choice())
  std::string skipped;      ///< why the method did not run, if it did not

  bool complete() const { return skipped.empty() && analysis > 0 && first_solve > 0 && solve > 0; }
  double analysis_plus(int solves) const { return analysis + first_solve + (solves - 1) * solve; }
};

/// matrix name -> method name -> times
using SptrsvResults = std::map<std::string, std::map<std::string, SptrsvTimes>>;

void report_sptrsv(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                   const std::vector<std::shared_ptr<BenchMatrix>>& matrices,
                   const SptrsvResults& results);

}  // namespace syncfree::bench
