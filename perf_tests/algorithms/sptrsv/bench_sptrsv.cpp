// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// SpTRSV benchmark: for every matrix and every method (SyncFree's algorithms, Kokkos Kernels'
// level-scheduled sptrsv, cuSPARSE SpSV), in one process on the same device data, times the
// analysis, the first solve after it and the solve alone; validates each method once against the
// serial oracle outside the timed loops; then prints the table of times, effective bandwidth and
// speedups, with the scenarios analysis + 10 and analysis + 100 solves, and writes it as JSON.
//
//   bench_sptrsv [--syncfree_matrices=SOURCE,...] [--syncfree_methods=NAME,...]
//                [--syncfree_out=FILE] [Google Benchmark flags]
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp), "chain:N", or a Matrix Market file
// ending in ".mtx" (its lower triangle is solved), reported under its base name.

#include <benchmark/benchmark.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "perf_tests/algorithms/sptrsv/sptrsv_methods.hpp"
#include "perf_tests/algorithms/sptrsv/sptrsv_report.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

const std::vector<std::string> default_matrices = {
    "chain:200000",     "poisson2d:1024",        "poisson2d:2048", "poisson3d:128",
    "poisson3d:192",    "poisson3d27:128",       "convdiff3d:128", "convdiff2d:1024",
    "banded:2000000:8", "banded:2000000:2000:16"};

/// Methods that launch once per level are not run where that means tens of thousands of launches.
constexpr int max_levels_for_level_scheduling = 20000;

bool launches_per_level(const std::string& method) {
  return method == "kokkos_kernels" || method == "syncfree:level_set";
}

SptrsvResults results;

/// An analysis of a few milliseconds varies by about 1 ms between runs (allocation), so it is
/// timed at least 3 and up to 21 times, until the runs add up to 0.2 s.
void analyze_benchmark(benchmark::State& state, std::shared_ptr<BenchMatrix> m, std::string name) {
  Vector<double> x("x", m->L.numRows());
  auto method = make_sptrsv_method(name, *m, x);
  std::vector<double> times;
  for (auto _ : state) {
    double spent = 0;
    while (times.size() < 3 || (times.size() < 21 && spent < 0.2)) {
      method->release();
      times.push_back(time_seconds([&] { method->analyze(); }));
      spent += times.back();
    }
    state.SetIterationTime(median(times));
  }
  results[m->name][name].analysis = median(times);
}

void first_solve_benchmark(benchmark::State& state, std::shared_ptr<BenchMatrix> m,
                           std::string name) {
  Vector<double> x("x", m->L.numRows());
  auto method = make_sptrsv_method(name, *m, x);
  std::vector<double> times;
  for (auto _ : state) {
    method->release();
    method->analyze();
    const double t = time_seconds([&] { method->solve(); });
    state.SetIterationTime(t);
    times.push_back(t);
  }
  results[m->name][name].first_solve = median(times);
}

void solve_benchmark(benchmark::State& state, std::shared_ptr<BenchMatrix> m, std::string name) {
  Vector<double> x("x", m->L.numRows());
  auto method = make_sptrsv_method(name, *m, x);
  method->analyze();
  const double once = time_seconds([&] { method->solve(); });
  auto& r = results[m->name][name];
  r.packed_bytes = double(method->packed_bytes());
  r.chain_levels = method->chain_levels();
  r.chosen = method->chosen();
  r.reason = method->reason();
  r.max_relative_error = max_relative_error(*m, x);
  if (!(r.max_relative_error <= 1e-10)) {
    state.SkipWithError("result differs from the serial oracle");
    return;
  }
  const int batch = once < 0.01 ? 10 : 1;  // amortize the fence over short solves
  std::vector<double> times;
  for (auto _ : state) {
    const double t = time_seconds([&] {
                       for (int i = 0; i < batch; ++i) method->solve();
                     }) /
                     batch;
    state.SetIterationTime(t);
    times.push_back(t);
  }
  r.solve = median(times);
  state.counters["GB/s"] = m->bytes / r.solve * 1e-9;
  state.counters["levels"] = m->levels;
}

void register_benchmarks(const std::shared_ptr<BenchMatrix>& m,
                         const std::vector<std::string>& methods) {
  for (const auto& name : methods) {
    if (launches_per_level(name) && m->levels > max_levels_for_level_scheduling) {
      results[m->name][name].skipped = "more than 20000 levels: one launch per level";
      continue;
    }
    const std::string suffix = "/" + m->name + "/" + name;
    benchmark::RegisterBenchmark(("BM_SptrsvAnalyze" + suffix).c_str(), analyze_benchmark, m, name)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_SptrsvFirstSolve" + suffix).c_str(), first_solve_benchmark, m,
                                 name)
        ->UseManualTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_SptrsvSolve" + suffix).c_str(), solve_benchmark, m, name)
        ->UseManualTime()
        ->Iterations(5)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  auto options = take_syncfree_options(argc, argv, {"matrices", "methods", "out"});
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  const BenchmarkContext context = benchmark_context();
  const auto matrix_names = split_list(options["matrices"], default_matrices);
  const auto methods = split_list(options["methods"], sptrsv_method_names());
  std::vector<std::shared_ptr<BenchMatrix>> matrices;
  for (const auto& source : matrix_names) {
    matrices.push_back(load_bench_matrix(source));
    register_benchmarks(matrices.back(), methods);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  report_sptrsv(std::cout, result_path(options["out"], context, "sptrsv"), context, matrices,
                results);
  // The registered benchmarks hold the matrices: release their device views before finalize.
  benchmark::ClearRegisteredBenchmarks();
  matrices.clear();
  results.clear();
  return 0;
}
