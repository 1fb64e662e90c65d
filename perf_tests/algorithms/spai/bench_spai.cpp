// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_spai: building and applying sparse approximate inverses. For each matrix: SPAI(A),
// SPAI(A^2) (threshold 0.05), FSAI(A), FSAI(A) with rows of at most 32 unknowns in scratch memory
// ("narrow") and with every row in global memory ("global"), their analysis and factorization
// times, the dense work they take (sum over problems of |I| (|J| + 1)), the apply against SpmvPlan
// on A, and SPAI(A) built by the same algorithm on one host core (Kokkos::Serial) in the same
// process, where this build has it. Factorizations are repeated on one plan (a new matrix on the
// same pattern).
//
//   bench_spai [--out=FILE] [--host-rows=N] [--threshold=T] [--max-dense=D] [--variants=V,...]
//              [SOURCE ...]
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp), "chain:N", or a Matrix Market file
// ending in ".mtx". The host build runs on matrices of at most --host-rows rows (default 3000000).
// --threshold raises every variant's threshold to at least T (for matrices with rows or columns
// of thousands of entries, which every problem near them would meet). A variant whose problems
// would take more than --max-dense entries of dense work (default 2e10) is analyzed, not
// factored. --variants keeps the variants named (by the names above, without thresholds).

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<std::string> default_matrices = {"poisson3d:64", "poisson3d:100", "poisson3d:128",
                                                   "poisson3d:160", "convdiff3d:128"};

struct Variant {
  std::string name;
  bool fsai;
  int power;
  double threshold;
  int scratch_unknowns = FsaiOptions().scratch_unknowns;
};

const std::vector<Variant> base_variants = {{"spai(A)", false, 1, 0.0},
                                            {"spai(A^2)", false, 2, 0.05},
                                            {"fsai(A)", true, 1, 0.0},
                                            {"fsai(A) narrow", true, 1, 0.0, 32},
                                            {"fsai(A) global", true, 1, 0.0, 0}};

struct Settings {
  long host_rows = 3000000;
  double threshold = 0;
  double max_dense = 2e10;
  std::vector<std::string> variants;  ///< empty: all
};

/// Seconds of SPAI(A)'s analysis and factorization on one host core, or a negative time where
/// this build has no Kokkos::Serial.
double host_spai_seconds(const BenchCrs& A, const SpaiOptions& options) {
#if defined(KOKKOS_ENABLE_SERIAL)
  using HostCrs = CrsMatrix<double, int, int, Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>>;
  const HostCrs host = copy_to<Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>>(A);
  const Kokkos::Serial serial;
  SpaiPlan<HostCrs> plan;
  Kokkos::Timer timer;
  spai_analyze(serial, plan, host, options);
  const Outcome outcome = spai_factor(serial, plan, host);
  SYNCFREE_REQUIRE(outcome.ok(), InvalidMatrix, "host spai: ", outcome.reason);
  return timer.seconds();
#else
  (void)A;
  return -1;
#endif
}

void bench_matrix(const std::string& source, const Settings& settings, nlohmann::json& out,
                  std::string& markdown) {
  const ExecSpace exec;
  const BenchCrs A = load_matrix(source);
  const std::string name = bench_matrix_name(source);
  const long n = A.numRows();
  Vector<double> x("x", n), y("y", n);
  Kokkos::parallel_for(
      "bench_spai::x", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const long i) { x(i) = 1.0 + 0.25 * double(i % 7) - double(i % 3); });
  const SpmvPlan<BenchCrs> a_plan(exec, A);
  const double spmv_ms =
      1e3 * median(time_repeated([&] { a_plan.apply(exec, 1.0, x, 0.0, y); }, 10, 50, 0.2));
  std::printf("%s: %ld rows, %ld entries; A's SpMV %.4f ms\n", name.c_str(), n, long(A.nnz()),
              spmv_ms);
  std::fflush(stdout);

  nlohmann::json rows = nlohmann::json::array();
  MarkdownTable table({"variant", "entries of M", "dense entries", "analyze ms", "factor ms",
                       "ns per dense entry", "apply ms", "apply × A's SpMV", "status"});
  double spai_seconds = 0;
  SpaiOptions spai_a;
  for (Variant v : base_variants) {
    if (!settings.variants.empty() && std::find(settings.variants.begin(), settings.variants.end(),
                                                v.name) == settings.variants.end())
      continue;
    if (settings.threshold > v.threshold) v.threshold = settings.threshold;
    if (v.threshold > 0) v.name += " t=" + cell("%g", v.threshold);
    std::string status = "success";
    long entries = 0, global_rows = -1;
    std::int64_t dense = 0;
    double analyze_ms = 0, factor_ms = 0, apply_ms = 0;
    auto measure = [&](auto& plan, const auto& analyze, const auto& factor, const auto& apply) {
      analyze_ms = 1e3 * median(time_repeated(analyze, 1, 3, 2.0));
      if (double(plan.dense_entries()) > settings.max_dense) {
        dense = plan.dense_entries();
        status = "not factored: more than --max-dense entries of dense work";
        return;
      }
      Outcome outcome;
      factor_ms = 1e3 * median(time_repeated([&] { outcome = factor(); }, 1, 5, 2.0));
      dense = plan.dense_entries();
      if (!outcome.ok()) {
        status = std::string(to_string(outcome.status)) + ": " + outcome.reason;
        return;
      }
      apply_ms = 1e3 * median(time_repeated(apply, 10, 50, 0.2));
    };
    try {
      if (v.fsai) {
        FsaiOptions o;
        o.pattern_power = v.power;
        o.threshold = v.threshold;
        o.scratch_unknowns = v.scratch_unknowns;
        FsaiPlan<BenchCrs> plan;
        Vector<double> tmp("tmp", n);
        measure(
            plan, [&] { fsai_analyze(exec, plan, A, o); },
            [&] { return fsai_factor(exec, plan, A); }, [&] { fsai_apply(exec, plan, x, y, tmp); });
        entries = long(plan.factor().nnz());
        global_rows = long(plan.rows_in_global_memory());
      } else {
        SpaiOptions o;
        o.pattern_power = v.power;
        o.threshold = v.threshold;
        SpaiPlan<BenchCrs> plan;
        measure(
            plan, [&] { spai_analyze(exec, plan, A, o); },
            [&] { return spai_factor(exec, plan, A); }, [&] { spai_apply(exec, plan, x, y); });
        entries = long(plan.inverse().nnz());
        if (v.power == 1 && status == "success") {
          spai_seconds = (analyze_ms + factor_ms) * 1e-3;
          spai_a = o;
        }
      }
    } catch (const std::exception& e) {
      status = std::string("error: ") + e.what();
    }
    const double ns_per_entry = dense > 0 ? factor_ms * 1e6 / double(dense) : 0;
    std::printf(
        "  %-18s M %ld entries, dense %.3e, analyze %.2f ms, factor %.2f ms, apply %.4f "
        "ms (%.2fx A's SpMV), %ld rows in global memory %s\n",
        v.name.c_str(), entries, double(dense), analyze_ms, factor_ms, apply_ms, apply_ms / spmv_ms,
        global_rows, status.c_str());
    std::fflush(stdout);  // a run cut short keeps what it printed
    rows.push_back({{"variant", v.name},
                    {"entries", entries},
                    {"dense_entries", dense},
                    {"analyze_ms", analyze_ms},
                    {"factor_ms", factor_ms},
                    {"ns_per_dense_entry", ns_per_entry},
                    {"apply_ms", apply_ms},
                    {"apply_over_spmv", apply_ms / spmv_ms},
                    {"rows_in_global_memory", global_rows},
                    {"status", status}});
    table.add_row({v.name, std::to_string(entries), cell("%.3e", double(dense)),
                   cell("%.2f", analyze_ms), cell("%.2f", factor_ms), cell("%.2f", ns_per_entry),
                   cell("%.4f", apply_ms), cell("%.2f", apply_ms / spmv_ms), status});
  }
  nlohmann::json entry = {{"matrix", name},
                          {"rows", n},
                          {"entries", long(A.nnz())},
                          {"spmv_ms", spmv_ms},
                          {"variants", rows}};
  std::string host_line;
  if (n <= settings.host_rows && spai_seconds > 0) {
    const double host_seconds = host_spai_seconds(A, spai_a);
    if (host_seconds > 0) {
      entry["host_serial_spai_ms"] = host_seconds * 1e3;
      entry["spai_speedup_over_host_core"] = host_seconds / spai_seconds;
      std::printf("  spai(A) on one host core: %.1f ms (device analyze + factor %.1fx faster)\n",
                  host_seconds * 1e3, host_seconds / spai_seconds);
      host_line =
          "SPAI(A) analysis + factorization on one host core (Kokkos::Serial, same code): " +
          cell("%.1f", host_seconds * 1e3) + " ms, " + cell("%.1f", host_seconds / spai_seconds) +
          "× slower than the device.\n\n";
    }
  }
  out.push_back(entry);
  markdown += "\n## " + name + ": " + std::to_string(n) + " rows, " + std::to_string(A.nnz()) +
              " entries; A's SpMV (SpmvPlan) " + cell("%.4f", spmv_ms) + " ms\n\n" + host_line +
              table.str();
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  std::string out_flag;
  Settings settings;
  std::vector<std::string> sources;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--out=", 0) == 0)
      out_flag = arg.substr(6);
    else if (arg.rfind("--host-rows=", 0) == 0)
      settings.host_rows = std::stol(arg.substr(12));
    else if (arg.rfind("--threshold=", 0) == 0)
      settings.threshold = std::stod(arg.substr(12));
    else if (arg.rfind("--max-dense=", 0) == 0)
      settings.max_dense = std::stod(arg.substr(12));
    else if (arg.rfind("--variants=", 0) == 0)
      settings.variants = split_list(arg.substr(11), {});
    else
      sources.push_back(arg);
  }
  if (sources.empty()) sources = default_matrices;
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("spai", context);
  j["matrices"] = nlohmann::json::array();
  std::string markdown =
      "# Sparse approximate inverses on " + context.device + ", commit " + context.commit + ", " +
      context.date +
      "\n\nFP64, 32-bit indices, medians. SPAI is right (|| A M - I ||_F), on the pattern of A "
      "or of A^2 thresholded at 0.05 (t=T: a_ij kept where |a_ij| >= T sqrt(|a_ii a_jj|)); "
      "FSAI is G^T G on tril(A), rows of at most 64 unknowns solved in scratch memory (narrow: "
      "32; global: none); at most 128 unknowns per problem. Analysis: patterns, A^T, the "
      "problems' rows and their work space; factorization: the dense least-squares (Cholesky) "
      "problems, a team each. Dense entries: sum over problems of |I| (|J| + 1) + 2 |J| "
      "(FSAI: |J| (|J| + 1)). Apply: y = M x (FSAI: two products), against SpmvPlan on A.\n";
  j["threshold"] = settings.threshold;
  for (const auto& source : sources) bench_matrix(source, settings, j["matrices"], markdown);
  write_report(std::cout, result_path(out_flag, context, "spai"), j, markdown);
  return 0;
}
