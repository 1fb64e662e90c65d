// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Krylov benchmark, end to end in one process: on symmetric positive definite problems PCG, on
// nonsymmetric ones BiCGStab and GMRES(m), each with SyncFree's ILU(0) and Jacobi and (CUDA)
// against the same algorithms written on cuSPARSE + cuBLAS, in two assemblies: csrilu02 + two
// SpSV ("cusparse:cg+ilu0"), and the inverse diagonal applied by cublasDdgmm
// ("cusparse:cg+jacobi"). Reports time to solution (setup + solve), iterations and time per
// iteration, speedups over the cuSPARSE assembly with the same preconditioner and over the faster
// of the two; for the Jacobi runs, the floor of an iteration: the bytes it must move / the copy
// bandwidth measured here with a large deep_copy.
//
//   bench_krylov [--syncfree_spd=SOURCE,...] [--syncfree_nonsymmetric=SOURCE,...]
//                [--syncfree_rhs=B.mtx,...] [--syncfree_methods=CASE,...]
//                [--syncfree_tolerance=T] [--syncfree_max_iterations=N] [--syncfree_restart=M]
//                [--syncfree_orthogonalization=mgs|cgs2] [--syncfree_check_every=K]
//                [--syncfree_copy_mib=MIB] [--syncfree_budget=SECONDS] [--syncfree_out=FILE]
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp; b = A x_true with its smooth x_true),
// a Matrix Market file ending in ".mtx" (b = A 1, i.e. x_true = 1), or "none" (no problem of that
// kind). Defaults: poisson3d:192 and convdiff3d:160. A file is read once however often it is
// named, and reported under its base name. --syncfree_rhs gives b for the files instead: one
// Matrix Market vector per ".mtx" source, in the order they are named (--syncfree_spd's first).
// For example, two SPD problems and a nonsymmetric one, the files' b read from files beside them:
//
//   bench_krylov --syncfree_spd=data/S.mtx,poisson3d:128 --syncfree_nonsymmetric=data/N.mtx
//                --syncfree_rhs=data/S_b.mtx,data/N_b.mtx
//
// The cuSPARSE cases exist in CUDA builds only: elsewhere they are not registered, and
// --syncfree_methods ignores them. A case runs at least 3 times (setup and solve each time, from
// x = 0) and on until 5 runs or --syncfree_budget seconds (default 5); medians are reported.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "perf_tests/algorithms/krylov/krylov_problems.hpp"
#include "perf_tests/algorithms/krylov/krylov_report.hpp"
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

KrylovSettings settings;
double budget_seconds = 5;
KrylovResults results;

/// Device copy bandwidth in bytes/s: median of deep_copy between two views of `mib` MiB each,
/// counting the read and the write.
double copy_bandwidth(std::size_t mib) {
  const std::size_t n = mib * (std::size_t(1) << 20) / sizeof(double);
  Vector<double> from("copy_from", n), to("copy_to", n);
  Kokkos::deep_copy(from, 1.0);
  std::vector<double> times;
  for (int i = 0; i < 11; ++i) times.push_back(time_seconds([&] { Kokkos::deep_copy(to, from); }));
  return 2.0 * double(n * sizeof(double)) / median(times);
}

void solve_benchmark(benchmark::State& state, std::shared_ptr<KrylovProblem> problem,
                     std::string name) {
  KrylovTimes& r = results[problem->info.name][name];
  const Kokkos::DefaultExecutionSpace exec;
  try {
    const KrylovCase c = parse_krylov_case(name);
    Vector<double> x("x", problem->A.numRows());
    for (auto _ : state) {
      std::vector<double> setups, solves;
      double spent = 0;
      while (solves.size() < 5 && (solves.size() < 3 || spent < budget_seconds)) {
        auto run = make_krylov_run(c, problem->A, settings);
        setups.push_back(time_seconds([&] { run->setup(); }));
        Kokkos::deep_copy(exec, x, 0.0);
        solves.push_back(time_seconds([&] { r.result = run->solve(problem->b, x); }));
        spent += setups.back() + solves.back();
        r.note = run->note();
        r.spmv_bytes = run->spmv_bytes();
        if (solves.size() == 1) {
          r.apply = run->apply_seconds(problem->b);
          r.features = run->model_features();
        }
      }
      r.setup = median(setups);
      r.solve = median(solves);
      r.runs = int(solves.size());
      state.SetIterationTime(r.setup + r.solve);
    }
    state.counters["iterations"] = r.result.iterations;
    state.counters["relative_residual"] = r.result.relative_residual;
    if (r.result.iterations > 0)
      state.counters["ms/iteration"] = 1e3 * r.solve / r.result.iterations;
    state.counters["apply_ms"] = 1e3 * r.apply;
  } catch (const std::exception& e) {
    r.skipped = std::string("failed: ") + e.what();
    state.SkipWithError(r.skipped.c_str());
  }
}

void register_benchmarks(const std::shared_ptr<KrylovProblem>& problem,
                         const std::vector<std::string>& cases) {
  for (const auto& name : cases) {
    benchmark::RegisterBenchmark(("BM_KrylovSolve/" + problem->info.name + "/" + name).c_str(),
                                 solve_benchmark, problem, name)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

/// The cases of `available` that `wanted` names (all of them when `wanted` is empty), and those
/// it names with an ordering ('#') or an SpMV format ('@') where the case without them is
/// available.
std::vector<std::string> select(const std::vector<std::string>& available,
                                const std::vector<std::string>& wanted) {
  if (wanted.empty()) return available;
  const auto is_available = [&](const std::string& name) {
    return std::find(available.begin(), available.end(), name) != available.end();
  };
  std::vector<std::string> chosen;
  for (const auto& w : wanted)
    if (is_available(w) || is_available(w.substr(0, w.find_first_of("#@")))) chosen.push_back(w);
  return chosen;
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  auto options = take_syncfree_options(
      argc, argv,
      {"spd", "nonsymmetric", "methods", "tolerance", "max_iterations", "restart",
       "orthogonalization", "check_every", "copy_mib", "budget", "out", "rhs"});
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!options["tolerance"].empty()) settings.tolerance = std::stod(options["tolerance"]);
  if (!options["max_iterations"].empty())
    settings.max_iterations = std::stoi(options["max_iterations"]);
  if (!options["restart"].empty()) settings.restart = std::stoi(options["restart"]);
  if (!options["orthogonalization"].empty())
    settings.orthogonalization = options["orthogonalization"];
  SYNCFREE_REQUIRE(settings.orthogonalization == "mgs" || settings.orthogonalization == "cgs2",
                   syncfree::InvalidArgument, "--syncfree_orthogonalization: mgs or cgs2, not '",
                   settings.orthogonalization, "'");
  if (!options["check_every"].empty()) settings.check_every = std::stoi(options["check_every"]);
  if (!options["budget"].empty()) budget_seconds = std::stod(options["budget"]);
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t copy_mib = 2048;
#else
  std::size_t copy_mib = 64;
#endif
  if (!options["copy_mib"].empty()) copy_mib = std::stoul(options["copy_mib"]);

  const BenchmarkContext context = benchmark_context();
  const double bandwidth = copy_bandwidth(copy_mib);
  const auto wanted = split_list(options["methods"], {});
  const std::vector<std::string> sources[] = {
      split_list(options["spd"], {"poisson3d:192"}),
      split_list(options["nonsymmetric"], {"convdiff3d:160"})};
  const auto rhs_files = split_list(options["rhs"], {});
  std::size_t files = 0;
  for (const auto& list : sources)
    for (const auto& source : list) files += is_matrix_market_path(source) ? 1 : 0;
  SYNCFREE_REQUIRE(rhs_files.empty() || rhs_files.size() == files, syncfree::InvalidArgument,
                   "--syncfree_rhs: ", rhs_files.size(), " right-hand sides for ", files,
                   " Matrix Market matrices (give one for each, or none for b = A 1)");
  KrylovProblemLoader loader;
  std::vector<std::shared_ptr<KrylovProblem>> problems;
  std::vector<KrylovProblemInfo> infos;
  std::size_t next_rhs = 0;
  for (const bool symmetric : {true, false}) {
    const auto cases = select(krylov_case_names(symmetric), wanted);
    for (const auto& source : sources[symmetric ? 0 : 1]) {
      const bool file = is_matrix_market_path(source);
      const std::string rhs = file && !rhs_files.empty() ? rhs_files[next_rhs++] : "";
      if (source == "none" || cases.empty()) continue;
      problems.push_back(loader.load(source, symmetric, rhs));
      infos.push_back(problems.back()->info);
      register_benchmarks(problems.back(), cases);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  report_krylov(std::cout, result_path(options["out"], context, "krylov"), context, settings,
                bandwidth, infos, results);
  benchmark::ClearRegisteredBenchmarks();
  problems.clear();
  results.clear();
  return 0;
}
