// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The Krylov benchmark's tables and JSON: time to solution (setup + solve), iterations,
/// time per iteration, speedups over the cuSPARSE baselines of the same solver (the one with the
/// same preconditioner, and the faster of its ILU(0) and Jacobi assemblies), and for the Jacobi
/// runs the bandwidth floor of an iteration.

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/syncfree_status.hpp"
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"
#include "perf_tests/common/benchmark_context.hpp"

namespace syncfree::bench {

struct KrylovProblemInfo {
  std::string name;  ///< canonical generator spec, or a Matrix Market file's base name
  bool symmetric = false;
  int rows = 0;
  int nnz = 0;
  std::string file;  ///< the Matrix Market file's path; empty for a generated problem
  std::string rhs;   ///< where b came from
};

struct KrylovTimes {
  double setup = 0, solve = 0;  ///< medians, seconds
  double apply = 0;             ///< one preconditioner application (median), seconds
  int runs = 0;
  SolveResult result;  ///< of the last run
  std::string note;
  double spmv_bytes = 0;    ///< one product with A, in the format it ran
  nlohmann::json features;  ///< KrylovRun::model_features
  std::string skipped;
  bool complete() const { return skipped.empty() && runs > 0; }
};

/// problem name -> case name -> times. A matrix named in both problem lists keeps its CG cases and
/// its BiCGStab/GMRES cases under one name; the report tells them apart by the solver.
using KrylovResults = std::map<std::string, std::map<std::string, KrylovTimes>>;

void report_krylov(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                   const KrylovSettings& settings, double copy_bandwidth,
                   const std::vector<KrylovProblemInfo>& problems, const KrylovResults& results);

}  // namespace syncfree::bench
