// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_sip: Stone's SIP on structured grids. For each grid matrix and variant (level_sync,
// element_sync, triangular): the factorization, the forward sweep alone (R = L^{-1} r; not
// separable for triangular, which runs SpTRSV), and the application (LU)^{-1} r, with ns per
// grid point and element_sync's speedup over level_sync; every variant's application is checked
// against element_sync's.
//
//   bench_sip [--out=FILE] [--alpha=A] [SOURCE ...]
//
// A SOURCE is a generator spec of a 5- or 7-point matrix (poisson2d:N, poisson3d:N,
// convdiff3d:N[:BETA], ...) or a Matrix Market file of one.

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/sip/syncfree_sip.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"
#include "perf_tests/common/vector_difference.hpp"

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<std::string> default_matrices = {"poisson3d:32",  "poisson3d:64",
                                                   "poisson3d:128", "poisson3d:192",
                                                   "poisson3d:256", "poisson2d:2048"};

void bench_matrix(const std::string& source, double alpha, int team, nlohmann::json& out,
                  MarkdownTable& table) {
  const ExecSpace exec;
  const BenchCrs A = load_matrix(source);
  const std::string name = bench_matrix_name(source);
  const long n = A.numRows();
  Vector<double> r("r", n), y("y", n), reference("reference", n);
  Kokkos::parallel_for(
      "bench_sip::r", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const long i) { r(i) = 1.0 + 0.25 * double(i % 7) - double(i % 3); });
  nlohmann::json rows = nlohmann::json::array();
  double level_sync_forward_ms = 0;
  long levels = 0;
  std::string grid;
  for (const SipVariant variant :
       {SipVariant::element_sync, SipVariant::level_sync, SipVariant::triangular}) {
    SipOptions options;
    options.alpha = alpha;
    options.variant = variant;
    options.team_size = team;
    SipPlan<BenchCrs> plan;
    std::string status = "success";
    double analyze_ms = 0, factor_ms = 0, forward_ms = 0, apply_ms = 0, difference = 0;
    try {
      analyze_ms =
          1e3 * median(time_repeated([&] { sip_analyze(exec, plan, A, options); }, 1, 3, 1.0));
      levels = long(plan.num_levels());
      grid = std::to_string(plan.grid().nx) + "x" + std::to_string(plan.grid().ny) + "x" +
             std::to_string(plan.grid().nz);
      Outcome outcome;
      factor_ms =
          1e3 * median(time_repeated([&] { outcome = sip_factor(exec, plan, A); }, 3, 20, 0.5));
      if (!outcome.ok()) throw InvalidMatrix(outcome.reason);
      if (variant != SipVariant::triangular)
        forward_ms = 1e3 * median(time_repeated([&] { impl::sip_forward(exec, plan, r); }, 10, 100,
                                                0.3, [&] { impl::sip_rearm_forward(exec, plan); }));
      apply_ms = 1e3 * median(time_repeated([&] { sip_apply(exec, plan, r, y); }, 10, 100, 0.3));
      sip_apply(exec, plan, r, y);
      if (variant == SipVariant::element_sync) {
        Kokkos::deep_copy(reference, y);
      } else {
        difference = max_relative_difference(y, reference);
        if (!(difference < 1e-10))
          status = "ERROR: differs from element_sync by " + cell("%.2e", difference);
      }
    } catch (const std::exception& e) {
      status = std::string("ERROR: ") + e.what();
    }
    if (variant == SipVariant::level_sync) level_sync_forward_ms = forward_ms;
    const double ns_per_point = forward_ms * 1e6 / double(n);
    std::printf(
        "%s (%s, %ld hyperplanes) %-12s analyze %.1f ms, factor %.3f ms, forward %.4f ms "
        "(%.3f ns/point), apply %.4f ms %s\n",
        name.c_str(), grid.c_str(), levels, to_string(variant), analyze_ms, factor_ms, forward_ms,
        ns_per_point, apply_ms, status.c_str());
    std::fflush(stdout);  // a run cut short keeps what it printed
    rows.push_back({{"variant", to_string(variant)},
                    {"analyze_ms", analyze_ms},
                    {"factor_ms", factor_ms},
                    {"forward_ms", forward_ms},
                    {"forward_ns_per_point", ns_per_point},
                    {"apply_ms", apply_ms},
                    {"difference_from_element_sync", difference},
                    {"status", status}});
  }
  // element_sync is timed first; its speedup over level_sync once both are known.
  const double es_forward_ms = rows[0]["forward_ms"].get<double>();
  const double speedup = es_forward_ms > 0 ? level_sync_forward_ms / es_forward_ms : 0;
  for (const auto& row : rows)
    table.add_row({name, grid, std::to_string(levels), row["variant"].get<std::string>(),
                   cell("%.3f", row["factor_ms"].get<double>()),
                   cell("%.4f", row["forward_ms"].get<double>()),
                   cell("%.3f", row["forward_ns_per_point"].get<double>()),
                   cell("%.4f", row["apply_ms"].get<double>()),
                   row["variant"] == "element_sync" ? cell("%.2f", speedup) : "",
                   row["status"].get<std::string>()});
  std::printf("  element_sync forward %.2fx level_sync\n", speedup);
  out.push_back({{"matrix", name},
                 {"grid", grid},
                 {"rows", n},
                 {"hyperplanes", levels},
                 {"element_sync_forward_over_level_sync", speedup},
                 {"variants", rows}});
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  const PlainArguments arguments = parse_plain_arguments(argc, argv, {"out", "alpha", "team"});
  const std::string out_flag = arguments.flag("out");
  const double alpha = arguments.flag("alpha").empty() ? syncfree::SipOptions().alpha
                                                       : std::stod(arguments.flag("alpha"));
  std::vector<std::string> sources = arguments.sources;
  if (sources.empty()) sources = default_matrices;
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("sip", context);
  j["alpha"] = alpha;
  j["matrices"] = nlohmann::json::array();
  MarkdownTable table({"matrix", "grid", "hyperplanes", "variant", "factor ms", "forward ms",
                       "forward ns/point", "apply ms", "ES forward × LS", "status"});
  const int team = arguments.flag("team").empty() ? 0 : std::stoi(arguments.flag("team"));
  j["team_size"] = team;
  for (const auto& source : sources) bench_matrix(source, alpha, team, j["matrices"], table);
  const std::string markdown =
      "# Stone's SIP on " + context.device + ", commit " + context.commit + ", " + context.date +
      "\n\nFP64, medians, alpha " + cell("%.2f", alpha) +
      ". Forward: R = L^{-1} r alone (level_sync, element_sync); apply: (LU)^{-1} r (for "
      "triangular two SyncFree SpTRSV solves). ES forward × LS: element_sync's forward sweep "
      "against level_sync's.\n\n" +
      table.str();
  write_report(std::cout, result_path(out_flag, context, "sip"), j, markdown);
  return 0;
}
