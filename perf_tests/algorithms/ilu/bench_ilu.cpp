// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// ILU benchmark: for every matrix and every method (SyncFree's ILU(0) variants and ILU(1),
// Kokkos Kernels' spiluk, cuSPARSE csrilu02 with both solve policies), in one process on the same
// device data, times the analysis, the factorization and the preconditioner apply (L then U
// solve); validates each method's factors and apply once against the serial oracle outside the
// timed runs; then prints the tables (times, analysis + factor, speedups) and writes JSON and
// Markdown.
//
//   bench_ilu [--syncfree_matrices=SOURCE,...] [--syncfree_methods=NAME,...]
//             [--syncfree_out=FILE] [--syncfree_budget=SECONDS] [--syncfree_ilu1_max_row=N]
//             [Google Benchmark flags]
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp), "chain:N", or a Matrix Market file
// ending in ".mtx", reported under its base name.
//
// Each benchmark runs once for Google Benchmark; inside it a phase is repeated at least 3 times
// and until --syncfree_budget seconds (default 1) are spent, and the median is reported.

#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "perf_tests/algorithms/ilu/ilu_methods.hpp"
#include "perf_tests/algorithms/ilu/ilu_report.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

const std::vector<std::string> default_matrices = {
    "poisson2d:1024", "poisson2d:2048",  "poisson3d:128",
    "poisson3d:192",  "poisson3d27:128", "convdiff2d:2048",
    "convdiff3d:160", "banded:500000:8", "banded:2000000:2000:16"};

/// Methods that launch once per level are not run where that means tens of thousands of launches.
constexpr int max_levels_for_level_scheduling = 20000;
/// Factors must match the oracle to this relative max error; apply's result likewise.
constexpr double tolerance = 1e-8;

double budget_seconds = 1.0;
int ilu1_max_row = 12;
IluResults results;

bool launches_per_level(const std::string& method) {
  return method == "kokkos_kernels" || method.find(":level_set") != std::string::npos;
}

/// Why `method` is not run on `m`, or "".
std::string skip_reason(const IluBenchMatrix& m, const std::string& method) {
  if (launches_per_level(method) && m.levels > max_levels_for_level_scheduling)
    return "more than 20000 levels: one launch per level";
  if (ilu_method_fill_level(method) > 0 && double(m.A.nnz()) > ilu1_max_row * m.A.numRows())
    return "ILU(1) not run where rows average more than " + std::to_string(ilu1_max_row) +
           " entries (--syncfree_ilu1_max_row): fill and oracle time grow with its square";
  return "";
}

/// Runs `body`; an exception marks the benchmark and the result as failed.
template <class Body>
void guarded(benchmark::State& state, IluTimes& r, const Body& body) {
  try {
    body();
  } catch (const std::exception& e) {
    r.skipped = std::string("failed: ") + e.what();
    state.SkipWithError(r.skipped.c_str());
  }
}

void analyze_benchmark(benchmark::State& state, std::shared_ptr<IluBenchMatrix> m,
                       std::string name) {
  IluTimes& r = results[m->name][name];
  guarded(state, r, [&] {
    auto method = make_ilu_method(name, *m);
    for (auto _ : state) {
      const auto times = time_repeated([&] { method->analyze(); }, 3, 10, budget_seconds,
                                       [&] { method->release(); });
      r.analysis = median(times);
      r.analysis_runs = int(times.size());
      state.SetIterationTime(r.analysis);
    }
    r.levels = method->levels();
    r.note = method->note();
    state.counters["levels"] = r.levels;
  });
}

void factor_benchmark(benchmark::State& state, std::shared_ptr<IluBenchMatrix> m,
                      std::string name) {
  IluTimes& r = results[m->name][name];
  guarded(state, r, [&] {
    auto method = make_ilu_method(name, *m);
    method->analyze();
    method->factor();
    const HostCrs lu = method->host_factors();
    r.factor_entries = std::size_t(lu.nnz());
    r.factor_error = factor_error(lu, m->oracle_factors(r.fill_level));
    if (!(r.factor_error <= tolerance)) {
      r.skipped = "failed validation: factors differ from the serial oracle";
      state.SkipWithError(r.skipped.c_str());
      return;
    }
    for (auto _ : state) {
      const auto times = time_repeated([&] { method->factor(); }, 3, 20, budget_seconds);
      r.factor = median(times);
      r.factor_runs = int(times.size());
      state.SetIterationTime(r.factor);
    }
    state.counters["nnz/s"] = double(r.factor_entries) / r.factor;
  });
}

void apply_benchmark(benchmark::State& state, std::shared_ptr<IluBenchMatrix> m, std::string name) {
  IluTimes& r = results[m->name][name];
  guarded(state, r, [&] {
    auto method = make_ilu_method(name, *m);
    method->analyze();
    method->factor();
    Vector<double> x("x", m->A.numRows());
    method->apply(m->b, x);
    r.apply_error = apply_error(x, m->oracle_apply(r.fill_level));
    if (!(r.apply_error <= tolerance)) {
      r.skipped = "failed validation: apply differs from the serial oracle";
      state.SkipWithError(r.skipped.c_str());
      return;
    }
    for (auto _ : state) {
      const auto times = time_repeated([&] { method->apply(m->b, x); }, 5, 50, budget_seconds / 2);
      r.apply = median(times);
      r.apply_runs = int(times.size());
      state.SetIterationTime(r.apply);
    }
  });
}

void register_benchmarks(const std::shared_ptr<IluBenchMatrix>& m,
                         const std::vector<std::string>& methods) {
  for (const auto& name : methods) {
    IluTimes& r = results[m->name][name];
    r.fill_level = ilu_method_fill_level(name);
    r.skipped = skip_reason(*m, name);
    if (!r.skipped.empty()) continue;
    const std::string suffix = "/" + m->name + "/" + name;
    auto add = [&](const std::string& phase, auto function) {
      benchmark::RegisterBenchmark(("BM_Ilu" + phase + suffix).c_str(), function, m, name)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    };
    add("Analyze", analyze_benchmark);
    add("Factor", factor_benchmark);
    if (ilu_method_applies(name)) add("Apply", apply_benchmark);
  }
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  auto options =
      take_syncfree_options(argc, argv, {"matrices", "methods", "out", "budget", "ilu1_max_row"});
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!options["budget"].empty()) budget_seconds = std::stod(options["budget"]);
  if (!options["ilu1_max_row"].empty()) ilu1_max_row = std::stoi(options["ilu1_max_row"]);

  const BenchmarkContext context = benchmark_context();
  const auto methods = split_list(options["methods"], ilu_method_names());
  std::vector<std::shared_ptr<IluBenchMatrix>> matrices;
  for (const auto& source : split_list(options["matrices"], default_matrices)) {
    matrices.push_back(load_ilu_bench_matrix(source));
    register_benchmarks(matrices.back(), methods);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  report_ilu(std::cout, result_path(options["out"], context, "ilu"), context, matrices, results);
  // The registered benchmarks hold the matrices: release their device views before finalize.
  benchmark::ClearRegisteredBenchmarks();
  matrices.clear();
  results.clear();
  return 0;
}
