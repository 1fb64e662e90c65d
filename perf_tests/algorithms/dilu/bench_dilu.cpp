// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_dilu: multicolor DILU's sweeps. For each matrix: the coloring and layout (analysis), and
// for each variant (per_color, sync_free_2d, sync_free_1d) the factorization, one smoothing step
// x += M^{-1} (b - A x) (a forward and a backward sweep, the residual formed in the forward one),
// and one application of M^{-1} as a preconditioner (from x = 0); against Kokkos Kernels'
// multicolor symmetric Gauss-Seidel (one forward and one backward sweep), in the same process.
// Every variant's smoothing step is checked against per_color's.
//
//   bench_dilu [--out=FILE] [--entries-per-lane=K] [SOURCE ...]
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp), "chain:N", or a Matrix Market file
// ending in ".mtx".

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_gauss_seidel.hpp>
#include <nlohmann/json.hpp>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"
#include "perf_tests/common/vector_difference.hpp"

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

const std::vector<std::string> default_matrices = {"poisson3d:128", "poisson2d:2048",
                                                   "convdiff3d:128", "poisson3d27:100"};
constexpr DiluVariant variants[] = {DiluVariant::per_color, DiluVariant::sync_free_2d,
                                    DiluVariant::sync_free_1d};

struct GaussSeidelTimes {
  double setup_ms = 0, sweep_ms = 0;
  int colors = 0;
};

/// Kokkos Kernels' symmetric Gauss-Seidel (its default algorithm for this execution space): setup
/// (coloring, symbolic and numeric) and one symmetric sweep on x, b unchanged between sweeps.
GaussSeidelTimes kokkos_kernels_gauss_seidel(const BenchCrs& A, const Vector<double>& b,
                                             const Vector<double>& x) {
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<int, int, double, ExecSpace,
                                                                  MemSpace, MemSpace>;
  const int n = A.numRows();
  GaussSeidelTimes t;
  Handle handle;
  const auto setup = [&] {
    handle.create_gs_handle(KokkosSparse::GS_DEFAULT);
    KokkosSparse::Experimental::gauss_seidel_symbolic(&handle, n, n, A.graph.row_map,
                                                      A.graph.entries, false);
    KokkosSparse::Experimental::gauss_seidel_numeric(&handle, n, n, A.graph.row_map,
                                                     A.graph.entries, A.values, false);
  };
  t.setup_ms = 1e3 * time_seconds(setup);
  t.colors = int(handle.get_gs_handle()->get_num_colors());
  bool first = true;
  t.sweep_ms = 1e3 * median(time_repeated(
                         [&] {
                           KokkosSparse::Experimental::symmetric_gauss_seidel_apply(
                               &handle, n, n, A.graph.row_map, A.graph.entries, A.values, x, b,
                               false, first, 1.0, 1);
                           first = false;
                         },
                         10, 100, 0.3));
  handle.destroy_gs_handle();
  return t;
}

void fill(const Vector<double>& v, double shift) {
  Kokkos::parallel_for(
      "bench_dilu::fill", Kokkos::RangePolicy<ExecSpace>(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { v(i) = shift + 0.25 * double(i % 7) - double(i % 3); });
}

void bench_matrix(const std::string& source, int entries_per_lane, nlohmann::json& out,
                  MarkdownTable& table) {
  const ExecSpace exec;
  const BenchCrs A = load_matrix(source);
  const std::string name = bench_matrix_name(source);
  const long n = A.numRows();
  Vector<double> b("b", n), x0("x0", n), x("x", n), reference("reference", n), y("y", n);
  fill(b, 1.0);
  fill(x0, -0.5);
  const SpmvPlan<BenchCrs> a_plan(exec, A);
  const double spmv_ms =
      1e3 * median(time_repeated([&] { a_plan.apply(exec, 1.0, b, 0.0, y); }, 10, 50, 0.2));
  Kokkos::deep_copy(x, x0);
  const GaussSeidelTimes gs = kokkos_kernels_gauss_seidel(A, b, x);
  std::printf(
      "%s: %ld rows, %ld entries; SpMV %.4f ms; Kokkos Kernels symmetric GS: %d colors, "
      "setup %.2f ms, sweep %.4f ms\n",
      name.c_str(), n, long(A.nnz()), spmv_ms, gs.colors, gs.setup_ms, gs.sweep_ms);
  std::fflush(stdout);

  nlohmann::json rows = nlohmann::json::array();
  double per_color_smooth_ms = 0;
  for (const DiluVariant variant : variants) {
    DiluOptions options;
    options.variant = variant;
    options.entries_per_lane = entries_per_lane;
    DiluPlan<BenchCrs> plan;
    const double analyze_ms =
        1e3 * median(time_repeated([&] { dilu_analyze(exec, plan, A, options); }, 1, 3, 1.0));
    Outcome outcome;
    const double factor_ms =
        1e3 * median(time_repeated([&] { outcome = dilu_factor(exec, plan, A); }, 3, 20, 0.5));
    std::string status = outcome.ok() ? "success" : outcome.reason;
    double smooth_ms = 0, apply_ms = 0, difference = 0;
    if (outcome.ok()) {
      smooth_ms = 1e3 * median(time_repeated([&] { dilu_smooth(exec, plan, A, b, x); }, 10, 100,
                                             0.3, [&] { Kokkos::deep_copy(x, x0); }));
      apply_ms =
          1e3 * median(time_repeated([&] { dilu_apply(exec, plan, A, b, y); }, 10, 100, 0.3));
      Kokkos::deep_copy(x, x0);
      dilu_smooth(exec, plan, A, b, x);
      if (variant == DiluVariant::per_color) {
        per_color_smooth_ms = smooth_ms;
        Kokkos::deep_copy(reference, x);
      } else {
        difference = max_relative_difference(x, reference);
        // Lanes sum a row's terms in another order; on ill-conditioned matrices the sweeps
        // amplify that to 1e-8 (mesh3d_laplace_p2). A race would differ by far more.
        if (!(difference < 1e-6))
          status = "ERROR: differs from per_color by " + cell("%.2e", difference);
      }
    }
    const double speedup = smooth_ms > 0 ? per_color_smooth_ms / smooth_ms : 0;
    std::printf(
        "  %-13s %d colors, %ld groups: analyze %.2f ms, factor %.3f ms, smooth %.4f ms "
        "(%.2fx per_color, %.2fx KK GS sweep, %.2fx SpMV), apply %.4f ms %s\n",
        to_string(variant), plan.num_colors(), long(plan.num_groups()), analyze_ms, factor_ms,
        smooth_ms, speedup, gs.sweep_ms / smooth_ms, smooth_ms / spmv_ms, apply_ms, status.c_str());
    std::fflush(stdout);  // a run cut short keeps what it printed
    rows.push_back({{"variant", to_string(variant)},
                    {"colors", plan.num_colors()},
                    {"groups", long(plan.num_groups())},
                    {"analyze_ms", analyze_ms},
                    {"factor_ms", factor_ms},
                    {"smooth_ms", smooth_ms},
                    {"apply_ms", apply_ms},
                    {"speedup_over_per_color", speedup},
                    {"speedup_over_kokkos_kernels_gs", smooth_ms > 0 ? gs.sweep_ms / smooth_ms : 0},
                    {"difference_from_per_color", difference},
                    {"status", status}});
    table.add_row({name, std::to_string(n), std::to_string(plan.num_colors()), to_string(variant),
                   cell("%.2f", analyze_ms), cell("%.3f", factor_ms), cell("%.4f", smooth_ms),
                   cell("%.4f", apply_ms), cell("%.2f", speedup),
                   cell("%.2f", smooth_ms > 0 ? gs.sweep_ms / smooth_ms : 0),
                   cell("%.2f", smooth_ms / spmv_ms), status});
  }
  out.push_back({{"matrix", name},
                 {"rows", n},
                 {"entries", long(A.nnz())},
                 {"spmv_ms", spmv_ms},
                 {"kokkos_kernels_gs",
                  {{"colors", gs.colors}, {"setup_ms", gs.setup_ms}, {"sweep_ms", gs.sweep_ms}}},
                 {"variants", rows}});
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  const PlainArguments arguments = parse_plain_arguments(argc, argv, {"out", "entries-per-lane"});
  const std::string out_flag = arguments.flag("out");
  const int entries_per_lane = arguments.flag("entries-per-lane").empty()
                                   ? syncfree::DiluOptions().entries_per_lane
                                   : std::stoi(arguments.flag("entries-per-lane"));
  std::vector<std::string> sources = arguments.sources;
  if (sources.empty()) sources = default_matrices;
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("dilu", context);
  j["entries_per_lane"] = entries_per_lane;
  j["matrices"] = nlohmann::json::array();
  MarkdownTable table({"matrix", "rows", "colors", "variant", "analyze ms", "factor ms",
                       "smooth ms", "apply ms", "smooth × per_color", "smooth × KK GS sweep",
                       "smooth / SpMV", "status"});
  for (const auto& source : sources) bench_matrix(source, entries_per_lane, j["matrices"], table);
  const std::string markdown =
      "# Multicolor DILU on " + context.device + ", commit " + context.commit + ", " +
      context.date +
      "\n\nFP64, 32-bit indices, medians. Smooth: one step x += M^{-1} (b - A x) (forward and "
      "backward sweep); apply: M^{-1} r from zero; × per_color and × KK GS: speedups of the "
      "smoothing step over per_color's and over one symmetric Gauss-Seidel sweep of Kokkos "
      "Kernels; SpMV: SpmvPlan on A.\n\n" +
      table.str();
  write_report(std::cout, result_path(out_flag, context, "dilu"), j, markdown);
  return 0;
}
