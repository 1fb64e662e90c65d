// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Every ILU the benchmark compares, behind one interface: SyncFree's variants (ILU(0) and
/// ILU(1)), Kokkos Kernels' spiluk, and (CUDA) cuSPARSE csrilu02 with both solve policies, its
/// preconditioner applied by two SpSV solves.

#include <memory>
#include <string>
#include <vector>

#include "core/syncfree_error.hpp"
#include "perf_tests/algorithms/ilu/ilu_bench_matrix.hpp"

namespace syncfree::bench {

class IluMethod {
 public:
  virtual ~IluMethod() = default;
  /// Symbolic phase from scratch, including the analysis of the triangular solves of apply(), as
  /// a first use would run it: after release().
  virtual void analyze() = 0;
  /// Frees the previous analysis and factors. The benchmark times it apart from the next
  /// analysis, which a first use would not pay: freeing device memory synchronizes the device.
  virtual void release() = 0;
  /// Numeric factorization from A's values; only after analyze(). \throws Error on a failed one.
  virtual void factor() = 0;
  /// x = U^{-1} L^{-1} b, asynchronous; only after factor() and where ilu_method_applies().
  virtual void apply(const Vector<double>& b, const Vector<double>& x) = 0;
  /// The factors as one host matrix: L strictly below the diagonal, U on and above it.
  virtual HostCrs host_factors() = 0;
  /// Levels of the method's own schedule (-1 when it does not say), after analyze().
  virtual int levels() const { return -1; }
  /// Anything worth recording, e.g. the variant `auto` chose.
  virtual std::string note() const { return {}; }
};

/// Method names this build can run: "syncfree:<variant>" (ILU(0)), "syncfree-ilu1:<variant>",
/// "kokkos_kernels", and with CUDA "cusparse:level", "cusparse:no_level".
std::vector<std::string> ilu_method_names();

/// The fill level a method name factors with.
int ilu_method_fill_level(const std::string& name);

/// Whether the method `name` has an apply() (all but "kokkos_kernels").
bool ilu_method_applies(const std::string& name);

/// The method `name` factoring m.A.
std::unique_ptr<IluMethod> make_ilu_method(const std::string& name, const IluBenchMatrix& m);

}  // namespace syncfree::bench
