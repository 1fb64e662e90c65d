// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_spmv: y = A x by `syncfree::spmv`, by Kokkos Kernels' SpMV and (CUDA) by cuSPARSE SpMV,
// in one process on the same data, plus SyncFree's CUDA kernel at every vector width 1..32: the
// measurement behind the width rule in core/cuda/syncfree_spmv_cuda.hpp. Every result is checked
// against Kokkos Kernels' once, outside the timed runs; the program exits 1 if one differs by more
// than rounding. Effective GB/s counts the matrix (in CSR), x and y once each. Where the matrix
// has a stencil pattern, SpmvPlan's stencil format runs too (`syncfree-stencil`). SpmvPlan's CSR
// format (`syncfree-plan`: the lanes per row and the rows given a block each that its analysis
// chose, which the Krylov solvers' A runs) and the product with a Krylov iteration's two dot
// products (`syncfree-dots`: syncfree::spmv_dots, fused where a thread takes a row;
// `syncfree-plan-dots`: the plan's) run too.
//
//   bench_spmv [--out=FILE] [SOURCE ...]   (default: the SpTRSV benchmark's stencils and bands)
//
// A SOURCE is a generator spec (core/syncfree_problems.hpp), "chain:N", or a Matrix Market file
// ending in ".mtx", reported under its base name.

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/syncfree_spmv.hpp"
#include "core/syncfree_spmv_cost.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"
#include "perf_tests/common/spmv_features_json.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/common/cusparse_spmv.hpp"
#endif

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<std::string> default_matrices = {
    "poisson2d:2048", "poisson3d:128",    "poisson3d:192",         "poisson3d27:128",
    "convdiff3d:160", "banded:2000000:8", "banded:2000000:2000:16"};

double max_difference(const Vector<double>& a, const Vector<double>& b) {
  double m = 0;
  Kokkos::parallel_reduce(
      "bench_spmv::difference", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(const int i, double& local) {
        const double scale = syncfree::impl::abs(b(i)) > 1.0 ? syncfree::impl::abs(b(i)) : 1.0;
        const double d = syncfree::impl::abs(a(i) - b(i)) / scale;
        if (d > local) local = d;
      },
      Kokkos::Max<double>(m));
  return m;
}

struct Method {
  std::string name;
  std::function<void()> run;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <int width>
Method fixed_width(const BenchCrs& A, const Vector<double>& x, const Vector<double>& y) {
  return {"syncfree-width:" + std::to_string(width), [=] {
            impl::cuda::launch_spmv<width>(ExecSpace().cuda_stream(), 1.0, A, x.data(), 0.0,
                                           y.data());
          }};
}
#endif

/// Returns whether every method matched Kokkos Kernels.
bool bench_matrix(const std::string& source, nlohmann::json& out, std::string& markdown) {
  const ExecSpace exec;
  const BenchCrs A = load_matrix(source);
  const std::string name = bench_matrix_name(source);
  const int n = A.numRows();
  const double mean = n > 0 ? double(A.nnz()) / n : 0.0;
  Vector<double> x("x", A.numCols()), y("y", n), expected("expected", n);
  Kokkos::parallel_for(
      "bench_spmv::x", Kokkos::RangePolicy<ExecSpace>(0, A.numCols()),
      KOKKOS_LAMBDA(const int i) { x(i) = 1.0 + 0.25 * (i % 7) - (i % 3); });
  impl::spmv(exec, 1.0, A, x, 0.0, expected);
  const double bytes = 12.0 * double(A.nnz()) + 4.0 * (n + 1) + 8.0 * A.numCols() + 8.0 * n;

  std::vector<Method> methods = {{"syncfree", [&] { spmv(exec, 1.0, A, x, 0.0, y); }},
                                 {"kokkos_kernels", [&] { impl::spmv(exec, 1.0, A, x, 0.0, y); }}};
  // The stencil format where the matrix has it (analyzed here, outside the timed runs).
  const SpmvPlan<BenchCrs> plan(exec, A);
  if (plan.format() == SpmvFormat::stencil)
    methods.push_back({"syncfree-stencil", [&] { plan.apply(exec, 1.0, x, 0.0, y); }});
  const SpmvPlan<BenchCrs> csr_plan(exec, A, SpmvFormat::csr);
  Vector<double> sums("sums", 2);
  methods.push_back({"syncfree-plan", [&] { csr_plan.apply(exec, 1.0, x, 0.0, y); }});
  methods.push_back({"syncfree-dots", [&] { spmv_dots(exec, A, x, y, x, sums); }});
  methods.push_back({"syncfree-plan-dots", [&] { csr_plan.apply_dots(exec, x, y, x, sums); }});
#if defined(KOKKOS_ENABLE_CUDA)
  CusparseHandle handle;
  CusparseSpmv cusparse(handle, A);
  methods.push_back({"cusparse", [&] { cusparse.apply(x.data(), y.data()); }});
  methods.push_back(fixed_width<1>(A, x, y));
  methods.push_back(fixed_width<2>(A, x, y));
  methods.push_back(fixed_width<4>(A, x, y));
  methods.push_back(fixed_width<8>(A, x, y));
  methods.push_back(fixed_width<16>(A, x, y));
  methods.push_back(fixed_width<32>(A, x, y));
#endif

  std::printf(
      "%s: %d rows, %ld entries, mean row %.1f, the CSR plan's lanes %d and team rows %ld\n",
      name.c_str(), n, long(A.nnz()), mean, csr_plan.csr_lanes(), csr_plan.csr_team_rows());
  nlohmann::json rows = nlohmann::json::array();
  double kk_ms = 0, cusparse_ms = 0;
  bool all_match = true;
  MarkdownTable table({"method", "ms", "GB/s", "× KK", "× cuSPARSE", "max rel. difference"});
  std::vector<std::pair<std::string, double>> times;
  for (const auto& m : methods) {
    Kokkos::deep_copy(y, 1e300);  // a method that leaves y alone fails the check
    m.run();
    exec.fence();
    const double difference = max_difference(y, expected);
    const bool match = difference <= 1e-12;
    all_match = all_match && match;
    const double t = 1e3 * median(time_repeated(m.run, 10, 50, 0.2));
    if (m.name == "kokkos_kernels") kk_ms = t;
    if (m.name == "cusparse") cusparse_ms = t;
    times.push_back({m.name, t});
    rows.push_back({{"method", m.name},
                    {"ms", t},
                    {"gb_per_s", bytes / t * 1e-6},
                    {"max_rel_difference", difference},
                    {"matches", match}});
    std::printf("  %-18s %9.4f ms %7.0f GB/s%s\n", m.name.c_str(), t, bytes / t * 1e-6,
                match ? "" : "  DIFFERS from Kokkos Kernels");
  }
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t = times[i].second;
    rows[i]["speedup_vs_kokkos_kernels"] = kk_ms / t;
    if (cusparse_ms > 0) rows[i]["speedup_vs_cusparse"] = cusparse_ms / t;
    table.add_row({times[i].first, cell("%.4f", t), cell("%.0f", bytes / t * 1e-6),
                   cell("%.2f", kk_ms / t), cusparse_ms > 0 ? cell("%.2f", cusparse_ms / t) : "—",
                   cell("%.1e", rows[i]["max_rel_difference"].get<double>())});
  }
  out.push_back({{"matrix", name},
                 {"rows", n},
                 {"entries", long(A.nnz())},
                 {"mean_row_length", mean},
                 {"csr_plan_lanes", csr_plan.csr_lanes()},
                 {"csr_plan_team_rows", csr_plan.csr_team_rows()},
                 {"bytes", bytes},
                 {"features", to_json(spmv_features(copy_to<HostDevice>(A)))},
                 {"methods", rows}});
  markdown += "\n## " + name + ": " + std::to_string(n) + " rows, " + std::to_string(A.nnz()) +
              " entries, mean row " + cell("%.1f", mean) + "\n\n" + table.str();
  return all_match;
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  std::string out_flag;
  std::vector<std::string> sources;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--out=", 0) == 0)
      out_flag = arg.substr(6);
    else
      sources.push_back(arg);
  }
  if (sources.empty()) sources = default_matrices;
  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("spmv", context);
  j["matrices"] = nlohmann::json::array();
  std::string markdown =
      "# SpMV on " + context.device + ", commit " + context.commit + ", " + context.date +
      "\n\nFP64, 32-bit indices, y = A x, medians. `syncfree` is what "
      "`syncfree::spmv` runs (on CUDA: its kernel at the width its rule picks); "
      "`syncfree-width:W` forces the width; `syncfree-stencil` is SpmvPlan's "
      "stencil format (CrsOperator's on CUDA), where the matrix has it; "
      "`syncfree-plan` its CSR format (the lanes and block rows its analysis chose); "
      "`syncfree-dots` and `syncfree-plan-dots` the product with two dot "
      "products of y, as a Krylov iteration takes it. GB/s counts A (in CSR), x "
      "and y once.\n";
  bool ok = true;
  for (const auto& source : sources) ok = bench_matrix(source, j["matrices"], markdown) && ok;
  write_report(std::cout, result_path(out_flag, context, "spmv"), j, markdown);
  return ok ? 0 : 1;
}
