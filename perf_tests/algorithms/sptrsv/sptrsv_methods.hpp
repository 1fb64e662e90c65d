// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Every SpTRSV the benchmark compares, behind one interface: SyncFree's algorithms, Kokkos
/// Kernels' level-scheduled sptrsv, and (CUDA) cuSPARSE SpSV.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "perf_tests/algorithms/sptrsv/sptrsv_bench_matrix.hpp"

namespace syncfree::bench {

class SptrsvMethod {
 public:
  virtual ~SptrsvMethod() = default;
  /// Analysis from scratch (structure and whatever the method prepares before solving), as a
  /// first use would run it: after release().
  virtual void analyze() = 0;
  /// Frees the previous analysis. The benchmark times it apart from the next analysis, which a
  /// first use would not pay: freeing device memory synchronizes the device (about 0.2 ms for a
  /// 1M-row plan on the H200).
  virtual void release() = 0;
  /// x = L^{-1} b, asynchronous; only after analyze().
  virtual void solve() = 0;
  /// Device memory of the packed layout (SyncFree's packed algorithms), 0 for the others.
  virtual std::size_t packed_bytes() const { return 0; }
  /// Levels between chain segments (SyncFree's sync_free_thread), 0 for the others.
  virtual long chain_levels() const { return 0; }
  /// The algorithm SyncFree's analysis runs (for `auto`, its choice); empty for the others.
  virtual std::string chosen() const { return {}; }
  /// Why SyncFree's analysis runs it (SptrsvPlan::choice()); empty for the others.
  virtual std::string reason() const { return {}; }
};

/// Names of the methods this build can run, e.g. "syncfree:sync_free_thread", "cusparse".
std::vector<std::string> sptrsv_method_names();

/// The method `name` solving m.L x = m.b into x.
std::unique_ptr<SptrsvMethod> make_sptrsv_method(const std::string& name, const BenchMatrix& m,
                                                 const Vector<double>& x);

}  // namespace syncfree::bench
