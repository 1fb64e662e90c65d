// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// ilu_width_sweep: the ILU(0) numeric factorization of every generic kernel (sync-free vector,
// level set, shared) at every vector width 1..32, on the given matrices. It is the measurement
// behind the widths and the choice of `automatic` in algorithms/ilu/impl/syncfree_ilu_dispatch.hpp.
// Every run must give the same factors, bit for bit (each entry sees the same operations in the
// same order whatever the kernel and width); it exits 1 if one does not. Host backends run every
// width as one lane.
//
//   ilu_width_sweep [SPEC ...]      (default: poisson3d:192 poisson2d:2048 convdiff3d:160
//                                    poisson3d27:128)

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/device_timer.hpp"

namespace {

using namespace syncfree;
using Matrix = bench::BenchCrs;
using ExecSpace = Kokkos::DefaultExecutionSpace;

using HostValues = Kokkos::View<double*, Kokkos::HostSpace>;

/// Median milliseconds of loading A's values and running `factor` (loading is ~1 ms of it).
/// The factors of the last run must equal `expected` (filled by the first call).
template <class Factor>
double factor_ms(const ExecSpace& exec, const impl::IluPlanStorage<Matrix>& s, const Matrix& A,
                 const Factor& factor, HostValues& expected, bool& all_equal) {
  const auto run = [&] {
    impl::ilu_load_values(exec, s, A, s.lu.values, IluOptions{});
    factor();
  };
  run();  // warm-up
  const double ms = 1e3 * bench::median(bench::time_repeated(run, 3, 10, 0.5));
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.lu.values);
  if (expected.extent(0) == 0) expected = got;
  const bool equal = std::memcmp(got.data(), expected.data(), got.extent(0) * sizeof(double)) == 0;
  if (!equal) std::printf("  FACTORS DIFFER from the first run\n");
  all_equal = all_equal && equal;
  return ms;
}

/// Returns whether every run gave the same factors.
bool sweep(const std::string& spec) {
  const ExecSpace exec;
  const Matrix A = bench::load_matrix(spec);
  impl::IluPlanStorage<Matrix> s;
  impl::ilu_analyze_structure(exec, s, A, 0, SptrsvAlgorithm::automatic);
  std::printf("%s: n %d, nnz %d, levels %d, rows per level %.0f, mean row %.2f\n", spec.c_str(),
              int(A.numRows()), int(A.nnz()), int(s.lower.num_levels()),
              impl::ilu_rows_per_level(s), s.mean_row_length);
  std::printf("  width  sync-free ms  level-set ms  shared ms\n");
  HostValues expected;
  bool all_equal = true;
  for (int width : {1, 2, 4, 8, 16, 32}) {
    const double sync_free = factor_ms(
        exec, s, A, [&] { impl::ilu_factor_vector(exec, s, false, width); }, expected, all_equal);
    const double level_set = factor_ms(
        exec, s, A, [&] { impl::ilu_factor_level_set(exec, s, false, width); }, expected,
        all_equal);
    const double shared = factor_ms(
        exec, s, A, [&] { impl::ilu_factor_shared(exec, s, false, width); }, expected, all_equal);
    std::printf("  %5d  %12.3f  %12.3f  %9.3f\n", width, sync_free, level_set, shared);
  }
  std::printf("  chosen: width %d, automatic runs %s\n", impl::ilu_vector_width(s),
              to_string(impl::choose_ilu_algorithm<ExecSpace>(s)));
  return all_equal;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  bool all_equal = true;
  {
    std::vector<std::string> specs(argv + 1, argv + argc);
    if (specs.empty())
      specs = {"poisson3d:192", "poisson2d:2048", "convdiff3d:160", "poisson3d27:128"};
    for (const auto& spec : specs) all_equal = sweep(spec) && all_equal;
  }
  Kokkos::finalize();
  return all_equal ? 0 : 1;
}
