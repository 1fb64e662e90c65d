// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/ilu/ilu_report.hpp"

#include <nlohmann/json.hpp>

#include "perf_tests/common/report.hpp"

namespace syncfree::bench {
namespace {

const char* const cusparse_level = "cusparse:level";
const char* const kokkos_kernels = "kokkos_kernels";

const IluTimes* find_complete(const std::map<std::string, IluTimes>& methods, const char* name) {
  auto found = methods.find(name);
  return found != methods.end() && found->second.factored() ? &found->second : nullptr;
}

std::string speedup_cell(double value) { return value > 0 ? cell("%.2f", value) : "—"; }

}  // namespace

void report_ilu(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                const std::vector<std::shared_ptr<IluBenchMatrix>>& matrices,
                const IluResults& results) {
  nlohmann::json j = report_header("ilu", context);
  j["phases"] = {
      {"analysis", "symbolic phase from scratch, including the analysis of apply's two solves"},
      {"factor",
       "numeric factorization (cuSPARSE: copy of A's values, csrilu02, zero-pivot "
       "check, SpSV_updateMatrix of both solves)"},
      {"apply", "x = U^-1 L^-1 b (cuSPARSE: two SpSV solves)"},
      {"statistic", "median over repeated runs; *_runs says how many"}};
  j["matrices"] = nlohmann::json::array();

  std::string md = "# ILU on " + context.device + ", commit " + context.commit + ", " +
                   context.date +
                   "\n\nFP64, 32-bit indices, medians. `an+f` = analysis + factor. Speedups are "
                   "baseline time / method time: `× cuSP` against cuSPARSE csrilu02 with the "
                   "level policy (apply: its two SpSV solves), `× KK` against Kokkos Kernels "
                   "spiluk (factorization only).\n";

  for (const auto& m : matrices) {
    if (!results.count(m->name)) continue;
    const auto& methods = results.at(m->name);
    const IluTimes* cusparse = find_complete(methods, cusparse_level);
    const IluTimes* kk = find_complete(methods, kokkos_kernels);
    nlohmann::json jm = {{"name", m->name},
                         {"rows", m->A.numRows()},
                         {"nnz", m->A.nnz()},
                         {"levels", m->levels},
                         {"methods", nlohmann::json::object()}};
    md += "\n## " + m->name + ": " + std::to_string(m->A.numRows()) + " rows, " +
          std::to_string(m->A.nnz()) + " entries, " + std::to_string(m->levels) +
          " levels (lower triangle)\n\n";
    MarkdownTable table({"method", "k", "levels", "analysis ms", "factor ms", "an+f ms", "apply ms",
                         "factor × cuSP", "an+f × cuSP", "factor × KK", "an+f × KK", "apply × cuSP",
                         "max rel. error", "note"});
    for (const auto& [name, t] : methods) {
      nlohmann::json jt = {{"fill_level", t.fill_level}};
      if (!t.factored()) {
        jt["skipped"] = t.skipped.empty() ? "incomplete" : t.skipped;
        if (t.factor_error >= 0) jt["factor_max_relative_error"] = t.factor_error;
        jm["methods"][name] = jt;
        table.add_row({name, std::to_string(t.fill_level), "", "", "", "", "", "", "", "", "", "",
                       "", "skipped: " + jt["skipped"].get<std::string>()});
        continue;
      }
      const double an_f = t.analysis + t.factor;
      jt.update({{"analysis_ms", ms(t.analysis)},
                 {"factor_ms", ms(t.factor)},
                 {"analysis_plus_factor_ms", ms(an_f)},
                 {"analysis_runs", t.analysis_runs},
                 {"factor_runs", t.factor_runs},
                 {"factor_entries", t.factor_entries},
                 {"factor_max_relative_error", t.factor_error}});
      if (t.levels >= 0) jt["levels"] = t.levels;
      if (!t.note.empty()) jt["note"] = t.note;
      double f_cusp = 0, anf_cusp = 0, f_kk = 0, anf_kk = 0, apply_cusp = 0;
      // Speedups compare factorizations of the same fill level only: the baselines are ILU(0).
      if (t.fill_level == 0 && cusparse && name != cusparse_level) {
        f_cusp = cusparse->factor / t.factor;
        anf_cusp = (cusparse->analysis + cusparse->factor) / an_f;
        jt["speedup_vs_cusparse_level"] = {{"factor", f_cusp},
                                           {"analysis_plus_factor", anf_cusp},
                                           {"analysis", cusparse->analysis / t.analysis}};
      }
      if (t.fill_level == 0 && kk && name != kokkos_kernels) {
        f_kk = kk->factor / t.factor;
        anf_kk = (kk->analysis + kk->factor) / an_f;
        jt["speedup_vs_kokkos_kernels"] = {{"factor", f_kk},
                                           {"analysis_plus_factor", anf_kk},
                                           {"analysis", kk->analysis / t.analysis}};
      }
      if (t.applied()) {
        jt["apply_ms"] = ms(t.apply);
        jt["apply_runs"] = t.apply_runs;
        jt["apply_max_relative_error"] = t.apply_error;
        if (t.fill_level == 0 && cusparse && cusparse->applied() && name != cusparse_level) {
          apply_cusp = cusparse->apply / t.apply;
          jt["apply_speedup_vs_two_cusparse_spsv"] = apply_cusp;
        }
      }
      jm["methods"][name] = jt;
      const double error = std::max(t.factor_error, t.apply_error);
      table.add_row({name, std::to_string(t.fill_level),
                     t.levels >= 0 ? std::to_string(t.levels) : "", cell("%.3f", ms(t.analysis)),
                     cell("%.3f", ms(t.factor)), cell("%.3f", ms(an_f)),
                     t.applied() ? cell("%.3f", ms(t.apply)) : "—", speedup_cell(f_cusp),
                     speedup_cell(anf_cusp), speedup_cell(f_kk), speedup_cell(anf_kk),
                     speedup_cell(apply_cusp), cell("%.1e", error), t.note});
    }
    md += table.str();
    j["matrices"].push_back(jm);
  }
  write_report(out, json_path, j, md);
}

}  // namespace syncfree::bench
