// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/krylov/krylov_report.hpp"

#include <nlohmann/json.hpp>

#include "perf_tests/algorithms/krylov/krylov_traffic.hpp"
#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

double total_seconds(const KrylovTimes& t) { return t.setup + t.solve; }

/// The cuSPARSE case of `solver` (ILU(0) or Jacobi) that converged in the least total time; empty
/// when none did.
std::string best_cusparse(const std::map<std::string, KrylovTimes>& cases,
                          const std::string& solver) {
  std::string best;
  for (const char* preconditioner : {"ilu0", "jacobi"}) {
    const std::string name = "cusparse:" + solver + "+" + preconditioner;
    const auto found = cases.find(name);
    if (found == cases.end() || !found->second.complete() || !found->second.result.converged())
      continue;
    if (best.empty() || total_seconds(found->second) < total_seconds(cases.at(best))) best = name;
  }
  return best;
}

}  // namespace

void report_krylov(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                   const KrylovSettings& settings, double copy_bandwidth,
                   const std::vector<KrylovProblemInfo>& problems, const KrylovResults& results) {
  nlohmann::json j = report_header("krylov", context);
  j["tolerance"] = settings.tolerance;
  j["max_iterations"] = settings.max_iterations;
  j["gmres_restart"] = settings.restart;
  j["copy_bandwidth_GBps"] = copy_bandwidth * 1e-9;
  j["definitions"] = {
      {"setup", "operator and preconditioner: analysis + factorization"},
      {"solve", "the solver call from x = 0, including its final true-residual check"},
      {"iteration", "cg/bicgstab: one loop (bicgstab: two SpMVs); gmres: one Arnoldi step"},
      {"apply", "one preconditioner application z = M b after setup: median of 11 runs"},
      {"best_cusparse",
       "per solver, the faster (total) of the cuSPARSE ILU(0) and Jacobi cases that converged"},
      {"floor",
       "bytes one textbook iteration moves, GMRES orthogonalizing in whole-basis passes "
       "(perf_tests/algorithms/krylov/krylov_traffic.hpp) / copy bandwidth (large deep_copy, "
       "read + write)"}};
  j["problems"] = nlohmann::json::array();

  std::string md =
      "# Krylov solvers on " + context.device + ", commit " + context.commit + ", " + context.date +
      "\n\nFP64, stop at ||b - Ax|| <= " + cell("%.0e", settings.tolerance) +
      " ||b||, x0 = 0, b = A x_true (generated problems: x_true smooth in [1, 1.5]; Matrix Market "
      "files: x_true = 1 unless b was read from a file, as noted under the problem), GMRES(" +
      std::to_string(settings.restart) +
      "). Medians. `total` = setup + solve; `× cuSP` = cuSPARSE total / total for the same solver "
      "and preconditioner (cuSPARSE: csrilu02 + two SpSV, or the inverse diagonal by cublasDdgmm); "
      "`× best` = the faster converged cuSPARSE assembly's total / total; `apply ms` = one "
      "preconditioner application z = M b (median of 11). Jacobi floor = bytes "
      "per iteration (A counted in the format its products ran in, named in the note) / measured "
      "copy bandwidth (" +
      cell("%.0f", copy_bandwidth * 1e-9) + " GB/s).\n";

  for (const auto& p : problems) {
    if (!results.count(p.name)) continue;
    const auto& cases = results.at(p.name);
    nlohmann::json jp = {{"name", p.name}, {"rows", p.rows},
                         {"nnz", p.nnz},   {"symmetric", p.symmetric},
                         {"rhs", p.rhs},   {"cases", nlohmann::json::object()}};
    if (!p.file.empty()) jp["file"] = p.file;
    md += "\n## " + p.name + ": " + std::to_string(p.rows) + " rows, " + std::to_string(p.nnz) +
          " entries\n\n";
    if (!p.file.empty()) md += "From " + p.file + ", b = " + p.rhs + ".\n\n";
    std::map<std::string, std::string> best;  // solver -> best cuSPARSE case
    MarkdownTable table({"case", "status", "iterations", "rel. residual", "setup ms", "solve ms",
                         "total ms", "ms/iteration", "apply ms", "× cuSP", "× best", "floor ms/it",
                         "× floor", "note"});
    for (const auto& [name, t] : cases) {
      const KrylovCase c = parse_krylov_case(name);
      if ((c.solver == "cg") != p.symmetric) continue;  // the matrix's cases from the other list
      if (!best.count(c.solver)) best[c.solver] = best_cusparse(cases, c.solver);
      if (!t.complete()) {
        jp["cases"][name] = {{"skipped", t.skipped}};
        table.add_row({name, "skipped: " + t.skipped});
        continue;
      }
      const int iterations = t.result.iterations;
      const double total = t.setup + t.solve;
      const double per_iteration = iterations > 0 ? t.solve / iterations : 0;
      nlohmann::json jc = {{"status", to_string(t.result.status)},
                           {"iterations", iterations},
                           {"relative_residual", t.result.relative_residual},
                           {"setup_ms", ms(t.setup)},
                           {"solve_ms", ms(t.solve)},
                           {"total_ms", ms(total)},
                           {"ms_per_iteration", ms(per_iteration)},
                           {"apply_ms", ms(t.apply)},
                           {"runs", t.runs}};
      if (!t.note.empty()) jc["note"] = t.note;
      if (!t.features.is_null()) jc["features"] = t.features;
      if (!t.result.reason.empty()) jc["reason"] = t.result.reason;
      std::string speedup = "—", best_cell = "—", floor_cell = "—", ratio_cell = "—";
      const std::string baseline = "cusparse:" + c.solver + "+" + c.preconditioner;
      if (c.implementation == "syncfree" && cases.count(baseline) &&
          cases.at(baseline).complete()) {
        const KrylovTimes& b = cases.at(baseline);
        const double s = (b.setup + b.solve) / total;
        jc["speedup_vs_cusparse"] = {
            {"total", s}, {"setup", b.setup / t.setup}, {"solve", b.solve / t.solve}};
        speedup = cell("%.2f", s);
      }
      if (c.implementation == "syncfree" && !best[c.solver].empty()) {
        const double s = total_seconds(cases.at(best[c.solver])) / total;
        jc["speedup_vs_best_cusparse"] = {{"total", s}, {"baseline", best[c.solver]}};
        best_cell = cell("%.2f", s);
      }
      if (c.preconditioner == "jacobi" && iterations > 0 && copy_bandwidth > 0) {
        const auto traffic = jacobi_iteration_traffic(c.solver, p.rows, t.spmv_bytes,
                                                      settings.restart, settings.orthogonalization);
        const double floor = traffic.bytes() / copy_bandwidth;
        jc["floor"] = {{"bytes_per_iteration", traffic.bytes()},
                       {"spmvs_per_iteration", traffic.spmvs},
                       {"vector_passes_per_iteration", traffic.vector_passes},
                       {"floor_ms_per_iteration", ms(floor)},
                       {"measured_over_floor", per_iteration / floor}};
        floor_cell = cell("%.4f", ms(floor));
        ratio_cell = cell("%.2f", per_iteration / floor);
      }
      jp["cases"][name] = jc;
      table.add_row({name, to_string(t.result.status), std::to_string(iterations),
                     cell("%.1e", t.result.relative_residual), cell("%.2f", ms(t.setup)),
                     cell("%.2f", ms(t.solve)), cell("%.2f", ms(total)),
                     cell("%.4f", ms(per_iteration)), cell("%.4f", ms(t.apply)), speedup, best_cell,
                     floor_cell, ratio_cell, t.note});
    }
    md += table.str();
    for (const auto& [solver, name] : best) {
      if (name.empty()) continue;
      jp["best_cusparse"][solver] = name;
      md += "\nFaster cuSPARSE assembly for " + solver + ": " + name + ".\n";
    }
    j["problems"].push_back(jp);
  }
  write_report(out, json_path, j, md);
}

}  // namespace syncfree::bench
