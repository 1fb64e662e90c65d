// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_wide_offsets: generated problems whose matrices need 64-bit offsets (more than 2^31 - 1
// entries), and, for the cost of the wider type, problems that fit 32-bit offsets run with both.
// For each: the generator, SpmvPlan (analysis, one product), CG + Jacobi for a fixed number of
// iterations (ms per iteration), and SpTRSV on the lower triangle (--sptrsv, `auto` by default:
// analysis, one solve; recorded as failed where its plan does not fit); the device memory in use
// after each phase where the backend tells it (CUDA).
//
//   bench_wide_offsets [--out=FILE] [--iterations=K] [--sptrsv=ALGORITHM] [SPEC[@32] ...]
//
// A SPEC is a generator spec (core/syncfree_problems.hpp), run with std::int64_t offsets, and
// with int offsets too where it ends in "@32". Default: poisson3d:600@32 poisson3d:700.

#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_cg.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

/// GiB of device memory in use (all processes), or -1 where the backend does not say.
double device_gib_in_use() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) return double(total - free) / double(1 << 30);
#endif
  return -1;
}

template <class Matrix>
nlohmann::json run(const std::string& spec, int iterations, SptrsvAlgorithm algorithm,
                   MarkdownTable& table) {
  const ExecSpace exec;
  const int bits = int(8 * sizeof(typename Matrix::non_const_size_type));
  const double before = device_gib_in_use();
  Problem<Matrix> problem;
  const double generate_s =
      time_seconds([&] { problem = generate_problem<Matrix>(exec, parse_problem_spec(spec)); });
  const Matrix& A = problem.A;
  const double after_generate = device_gib_in_use();

  std::unique_ptr<SpmvPlan<Matrix>> spmv;
  const double spmv_analyze_s =
      time_seconds([&] { spmv = std::make_unique<SpmvPlan<Matrix>>(exec, A); });
  Vector<double> y("y", A.numRows());
  const double spmv_s =
      median(time_repeated([&] { spmv->apply(exec, 1.0, problem.b, 0.0, y); }, 5, 20, 1.0));

  const CrsOperator<Matrix> op(exec, A);
  const JacobiPreconditioner<Matrix> jacobi(exec, A);
  Vector<double> x("x", A.numRows());
  KrylovOptions options;
  options.tolerance = 1e-12;  // not reached: a fixed number of iterations
  options.max_iterations = iterations;
  options.stagnation_window = 0;
  SolveResult result;
  const double cg_s =
      time_seconds([&] { result = cg_solve(exec, op, jacobi, problem.b, x, options); });
  const double cg_gib = device_gib_in_use();

  // The triangular solve last: where its plan does not fit beside A, the rest is measured.
  nlohmann::json sptrsv;
  try {
    const Matrix L = extract_triangle(exec, A, Triangle::lower, Diagonal::stored);
    SptrsvOptions sptrsv_options;
    sptrsv_options.algorithm = algorithm;
    SptrsvPlan<Matrix> plan(sptrsv_options);
    const double analyze_s = time_seconds([&] { sptrsv_analyze(exec, plan, L); });
    const double solve_s =
        median(time_repeated([&] { sptrsv_solve(exec, plan, L, problem.b, y); }, 3, 10, 1.0));
    sptrsv = {{"algorithm", to_string(plan.effective_algorithm())},
              {"analyze_ms", ms(analyze_s)},
              {"solve_ms", ms(solve_s)},
              {"plan_gib", double(plan.memory_bytes()) / double(1 << 30)},
              {"device_gib_with_plan", device_gib_in_use() - before}};
  } catch (const std::exception& e) {
    sptrsv = {{"algorithm", to_string(algorithm)}, {"failed", e.what()}};
  }

  const bool solved = !sptrsv.contains("failed");
  std::printf("%s, %d-bit offsets: %lld entries, SpMV %.2f ms, SpTRSV %s %s, CG %.2f ms/it\n",
              spec.c_str(), bits, (long long)A.nnz(), ms(spmv_s),
              sptrsv["algorithm"].get<std::string>().c_str(),
              solved ? cell("%.2f ms", sptrsv["solve_ms"].get<double>()).c_str()
                     : sptrsv["failed"].get<std::string>().c_str(),
              ms(cg_s) / result.iterations);
  std::fflush(stdout);
  table.add_row({spec, std::to_string(bits), std::to_string(A.numRows()), std::to_string(A.nnz()),
                 cell("%.0f", ms(generate_s)), cell("%.1f", after_generate - before),
                 cell("%.3f", ms(spmv_s)), sptrsv["algorithm"].get<std::string>(),
                 solved ? cell("%.0f", sptrsv["analyze_ms"].get<double>()) : "failed",
                 solved ? cell("%.2f", sptrsv["solve_ms"].get<double>()) : "—",
                 solved ? cell("%.1f", sptrsv["device_gib_with_plan"].get<double>()) : "—",
                 cell("%.3f", ms(cg_s) / result.iterations), cell("%.1f", cg_gib - before)});
  return {{"spec", spec},
          {"offset_bits", bits},
          {"rows", A.numRows()},
          {"entries", A.nnz()},
          {"generate_ms", ms(generate_s)},
          {"matrix_and_b_gib", after_generate - before},
          {"spmv", {{"analyze_ms", ms(spmv_analyze_s)}, {"apply_ms", ms(spmv_s)}}},
          {"sptrsv_lower", sptrsv},
          {"cg_jacobi",
           {{"iterations", result.iterations},
            {"ms_per_iteration", ms(cg_s) / result.iterations},
            {"relative_residual", result.relative_residual},
            {"device_gib_in_use", cg_gib - before}}}};
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  const PlainArguments arguments =
      parse_plain_arguments(argc, argv, {"out", "iterations", "sptrsv"});
  const syncfree::SptrsvAlgorithm algorithm =
      arguments.flag("sptrsv").empty() ? syncfree::SptrsvAlgorithm::automatic
                                       : syncfree::parse_sptrsv_algorithm(arguments.flag("sptrsv"));
  const int iterations =
      arguments.flag("iterations").empty() ? 100 : std::stoi(arguments.flag("iterations"));
  std::vector<std::string> specs = arguments.sources;
  if (specs.empty()) specs = {"poisson3d:600@32", "poisson3d:700"};
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("wide_offsets", context);
  j["cg_iterations"] = iterations;
  j["runs"] = nlohmann::json::array();
  MarkdownTable table({"problem", "offset bits", "rows", "entries", "generate ms", "A, b GiB",
                       "SpMV ms", "SpTRSV", "SpTRSV analysis ms", "SpTRSV solve ms",
                       "GiB with L's plan", "CG + Jacobi ms/it", "GiB in use (CG)"});
  for (std::string spec : specs) {
    const std::string narrow = "@32";
    const bool both = spec.size() > narrow.size() &&
                      spec.compare(spec.size() - narrow.size(), narrow.size(), narrow) == 0;
    if (both) {
      spec.resize(spec.size() - narrow.size());
      j["runs"].push_back(
          run<syncfree::CrsMatrix<double, int, int>>(spec, iterations, algorithm, table));
    }
    j["runs"].push_back(
        run<syncfree::CrsMatrix<double, int, std::int64_t>>(spec, iterations, algorithm, table));
  }
  const std::string markdown =
      "# Matrices beyond 2^31 - 1 entries on " + context.device + ", commit " + context.commit +
      ", " + context.date +
      "\n\nFP64, int ordinals; generated problems. SpMV: one `SpmvPlan` product (median); "
      "SpTRSV: the lower triangle with its diagonal, `auto`; CG + Jacobi: " +
      std::to_string(iterations) +
      " iterations; GiB: device memory in use beyond what the process held before the problem, "
      "after generating it and after CG (with A's and the triangle's plans alive).\n\n" +
      table.str();
  write_report(std::cout, result_path(arguments.flag("out"), context, "wide_offsets"), j, markdown);
  return 0;
}
