// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_row_passes: the passes over a matrix's rows that analyses run before anything else
// (validation, each row's diagonal position, the entries far from their row, the rows not
// diagonally dominant), each as the library dispatches it (on CUDA a warp per 32 rows where rows
// average 8 or more entries) beside its generic pass (a thread per row) and, on CUDA, its warp pass
// on every matrix (the measurement behind that rule), and the setups built on them: CG + Jacobi's
// (A's SpmvPlan and Jacobi) and `suggest_preconditioner`. Medians of 11 fenced runs.
//
//   bench_row_passes [--out=FILE] SOURCE...
//
// A SOURCE is a generator spec or a Matrix Market path (perf_tests/common/bench_matrix_source.hpp).

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_preconditioner_choice.hpp"
#include "core/impl/syncfree_diagonal_dominance.hpp"
#include "core/impl/syncfree_diagonal_positions.hpp"
#include "core/impl/syncfree_far_entries.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_validation.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

// The passes a warp per 32 rows whatever the mean row, where the backend has them.
#if defined(KOKKOS_ENABLE_CUDA)
constexpr bool warp_passes = true;
#define WARP_PASS(call) impl::cuda::call
#else
constexpr bool warp_passes = false;
#define WARP_PASS(call)
#endif

double ms(double seconds) { return 1e3 * seconds; }

nlohmann::json run(const std::string& source, MarkdownTable& table) {
  const ExecSpace exec;
  const BenchCrs A = load_matrix(source);
  const std::int64_t far_reach = std::max<std::int64_t>(A.numRows() / 32, 4096);
  Kokkos::View<std::int64_t*> positions("positions", A.numRows());
  // Each pass as the library dispatches it, its generic pass and (CUDA) its warp pass.
  struct Pass {
    const char* name;
    double dispatched_ms, generic_ms, warp_ms;
  };
  std::vector<Pass> passes;
  const auto time_passes = [&](const char* name, const auto& dispatched, const auto& generic,
                               const auto& warp) {
    passes.push_back({name, ms(median_seconds(dispatched)), ms(median_seconds(generic)),
                      warp_passes ? ms(median_seconds(warp)) : -1.0});
  };
  time_passes(
      "validation (square)", [&] { check_matrix(exec, A, MatrixCheck::square); },
      [&] { impl::validate_rows_one_per_iteration(exec, A, MatrixCheck::square); },
      [&] { WARP_PASS(validate_rows_warp_per_32_rows(exec, A, MatrixCheck::square)); });
  time_passes(
      "diagonal positions",
      [&] { impl::DiagonalPositions<ExecSpace, BenchCrs>::run(exec, A, positions); },
      [&] { impl::diagonal_positions_one_per_iteration(exec, A, positions); },
      [&] { WARP_PASS(diagonal_positions_warp_per_32_rows(exec, A, positions)); });
  time_passes(
      "far entries", [&] { impl::FarEntries<ExecSpace, BenchCrs>::count(exec, A, far_reach); },
      [&] { impl::far_entries_one_per_iteration(exec, A, far_reach); },
      [&] { WARP_PASS(far_entries_warp_per_32_rows(exec, A, far_reach)); });
  time_passes(
      "rows not dominant", [&] { impl::rows_not_diagonally_dominant(exec, A); },
      [&] { impl::rows_not_dominant_one_per_iteration(exec, A); },
      [&] { WARP_PASS(rows_not_dominant_warp_per_32_rows(exec, A)); });
  using Far = impl::FarEntries<ExecSpace, BenchCrs>;
  const bool agree =
      Far::count(exec, A, far_reach) == impl::far_entries_one_per_iteration(exec, A, far_reach) &&
      impl::rows_not_diagonally_dominant(exec, A) ==
          impl::rows_not_dominant_one_per_iteration(exec, A);
  SYNCFREE_REQUIRE(agree, InvalidArgument, source,
                   ": a dispatched pass disagrees with the generic one");

  const double jacobi_setup_ms = ms(median_seconds([&] {
    const SpmvPlan<BenchCrs> spmv(exec, A);
    const JacobiPreconditioner<BenchCrs> jacobi(exec, A);
  }));
  PreconditionerSuggestion suggestion;
  const double suggest_ms =
      ms(median_seconds([&] { suggestion = suggest_preconditioner(exec, A, true); }));

  const std::string name = bench_matrix_name(source);
  nlohmann::json j = {{"matrix", name},
                      {"rows", A.numRows()},
                      {"entries", A.nnz()},
                      {"jacobi_setup_ms", jacobi_setup_ms},
                      {"suggest_preconditioner_ms", suggest_ms},
                      {"suggestion", suggestion.reason},
                      {"passes", nlohmann::json::array()}};
  std::vector<std::string> row = {name, std::to_string(A.numRows()),
                                  cell("%.1f", double(A.nnz()) / double(A.numRows()))};
  for (const auto& p : passes) {
    j["passes"].push_back({{"pass", p.name},
                           {"dispatched_ms", p.dispatched_ms},
                           {"generic_ms", p.generic_ms},
                           {"warp_ms", p.warp_ms}});
    row.push_back(cell("%.3f", p.dispatched_ms) + " / " + cell("%.3f", p.generic_ms) + " / " +
                  (p.warp_ms >= 0 ? cell("%.3f", p.warp_ms) : std::string("—")));
  }
  row.push_back(cell("%.3f", jacobi_setup_ms));
  row.push_back(cell("%.3f", suggest_ms));
  row.push_back(to_string(suggestion.choice));
  table.add_row(row);
  std::printf("%s: Jacobi setup %.3f ms, suggest_preconditioner %.3f ms (%s)\n", name.c_str(),
              jacobi_setup_ms, suggest_ms, suggestion.reason.c_str());
  std::fflush(stdout);
  return j;
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  const PlainArguments arguments = parse_plain_arguments(argc, argv, {"out"});
  std::vector<std::string> sources = arguments.sources;
  if (sources.empty()) sources = {"poisson3d:128", "poisson3d27:96"};
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("row_passes", context);
  j["runs"] = nlohmann::json::array();
  MarkdownTable table({"matrix", "rows", "mean row",
                       "validation ms: dispatched / thread per row / warp per 32 rows",
                       "diagonal positions", "far entries", "rows not dominant",
                       "CG + Jacobi setup ms", "suggest_preconditioner ms", "suggests"});
  for (const auto& source : sources) j["runs"].push_back(run(source, table));
  const std::string markdown =
      "# Passes over the rows on " + context.device + ", commit " + context.commit + ", " +
      context.date +
      "\n\nMedians of 11 fenced runs, ms: each pass as the library dispatches it, its generic "
      "pass (a thread per row) and, on CUDA, its pass a warp per 32 rows whatever the mean row; "
      "the CG + Jacobi setup (A's SpmvPlan and Jacobi) and "
      "`suggest_preconditioner` as built on them.\n\n" +
      table.str();
  write_report(std::cout, result_path(arguments.flag("out"), context, "row_passes"), j, markdown);
  return 0;
}
