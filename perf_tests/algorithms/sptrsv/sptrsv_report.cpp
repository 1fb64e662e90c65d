// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/sptrsv/sptrsv_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "perf_tests/common/report.hpp"
#include "perf_tests/common/triangle_features_json.hpp"

namespace syncfree::bench {
namespace {

constexpr const char* chain_prefix = "chain:";

/// Best complete SyncFree sync-free method on a matrix (the one the model line reports).
std::string best_syncfree(const std::map<std::string, SptrsvTimes>& methods) {
  std::string best;
  for (const auto& [name, t] : methods)
    if (name.rfind("syncfree:", 0) == 0 && t.complete() &&
        (best.empty() || t.solve < methods.at(best).solve))
      best = name;
  return best;
}

/// Dependency hops on the critical path of a method's solve.
long hops(const BenchMatrix& m, const SptrsvTimes& t) {
  return t.chain_levels > 0 ? t.chain_levels : m.levels;
}

}  // namespace

void report_sptrsv(std::ostream& out, const std::string& json_path, const BenchmarkContext& context,
                   const std::vector<std::shared_ptr<BenchMatrix>>& matrices,
                   const SptrsvResults& results) {
  nlohmann::json j = report_header("sptrsv", context);
  j["triangle"] = "lower";
  j["matrices"] = nlohmann::json::array();

  // Dependency-hop latency from the bidiagonal chain: solve time / hops, per method. A hop is a
  // level, or for a method that resolves chains inside a warp, a level between chain segments.
  std::map<std::string, double> hop;
  for (const auto& m : matrices)
    if (m->name.rfind(chain_prefix, 0) == 0 && results.count(m->name))
      for (const auto& [name, t] : results.at(m->name))
        if (t.complete()) hop[name] = t.solve / hops(*m, t);
  for (const auto& [name, h] : hop) j["hop_latency_us"][name] = h * 1e6;

  char line[512];
  for (const auto& m : matrices) {
    if (!results.count(m->name)) continue;
    const auto& methods = results.at(m->name);
    const double csr_bytes = 12.0 * double(m->L.nnz()) + 4.0 * (m->L.numRows() + 1);
    std::snprintf(line, sizeof line,
                  "\n%s: n %d, nnz(L) %d, levels %d, rows/level %.1f, rows %.1f entries (longest "
                  "%d), %.0f%% of dependencies within 32 rows, min traffic %.1f MB\n",
                  m->name.c_str(), m->L.numRows(), m->L.nnz(), m->levels, m->rows_per_level,
                  m->mean_row, m->longest_row, 100 * m->near_dependencies, m->bytes * 1e-6);
    out << line;
    std::snprintf(line, sizeof line, "  %-26s %11s %11s %11s %11s %12s %8s %9s %9s %9s\n", "method",
                  "analysis ms", "first ms", "solve ms", "an+10 ms", "an+100 ms", "GB/s", "x cuSP",
                  "an x cuSP", "+10 x cuSP");
    out << line;  // the three speedup columns appear where cuSPARSE ran
    const SptrsvTimes* cusparse = methods.count("cusparse") && methods.at("cusparse").complete()
                                      ? &methods.at("cusparse")
                                      : nullptr;
    const SptrsvTimes* kk =
        methods.count("kokkos_kernels") && methods.at("kokkos_kernels").complete()
            ? &methods.at("kokkos_kernels")
            : nullptr;
    nlohmann::json jm = {{"name", m->name},
                         {"n", m->L.numRows()},
                         {"nnz", m->L.nnz()},
                         {"levels", m->levels},
                         {"rows_per_level", m->rows_per_level},
                         {"longest_row", m->longest_row},
                         {"mean_row", m->mean_row},
                         {"near_dependencies", m->near_dependencies},
                         {"min_bytes", m->bytes},
                         {"features", to_json(m->features)},
                         {"methods", nlohmann::json::object()}};
    for (const auto& [name, t] : methods) {
      if (!t.complete()) {
        out << "  " << name << ": " << (t.skipped.empty() ? "failed validation" : t.skipped)
            << "\n";
        jm["methods"][name] = {{"skipped", t.skipped.empty() ? "failed validation" : t.skipped},
                               {"max_relative_error", t.max_relative_error}};
        continue;
      }
      const double gbps = m->bytes / t.solve * 1e-9;
      nlohmann::json jt = {{"analysis_ms", ms(t.analysis)},
                           {"first_solve_ms", ms(t.first_solve)},
                           {"solve_ms", ms(t.solve)},
                           {"analysis_plus_10_ms", ms(t.analysis_plus(10))},
                           {"analysis_plus_100_ms", ms(t.analysis_plus(100))},
                           {"effective_GBps", gbps},
                           {"max_relative_error", t.max_relative_error}};
      double s_solve = 0, s_analysis = 0, s_10 = 0;
      if (cusparse) {
        s_solve = cusparse->solve / t.solve;
        s_analysis = cusparse->analysis / t.analysis;
        s_10 = cusparse->analysis_plus(10) / t.analysis_plus(10);
        jt["speedup_vs_cusparse"] = {
            {"solve", s_solve},
            {"analysis", s_analysis},
            {"analysis_plus_10", s_10},
            {"analysis_plus_100", cusparse->analysis_plus(100) / t.analysis_plus(100)}};
      }
      if (kk) jt["speedup_vs_kokkos_kernels"] = {{"solve", kk->solve / t.solve}};
      if (t.chain_levels > 0) jt["chain_levels"] = t.chain_levels;
      if (!t.chosen.empty()) jt["chosen"] = t.chosen;
      if (!t.reason.empty() && name.find("auto") != std::string::npos) jt["choice"] = t.reason;
      if (t.packed_bytes > 0) {
        jt["packed_layout_bytes"] = t.packed_bytes;
        jt["packed_layout_x_csr"] = t.packed_bytes / csr_bytes;
      }
      jm["methods"][name] = jt;
      std::snprintf(line, sizeof line, "  %-26s %11.3f %11.3f %11.4f %11.3f %12.3f %8.1f",
                    name.c_str(), ms(t.analysis), ms(t.first_solve), ms(t.solve),
                    ms(t.analysis_plus(10)), ms(t.analysis_plus(100)), gbps);
      out << line;
      if (cusparse) {
        std::snprintf(line, sizeof line, " %9.2f %9.2f %9.2f", s_solve, s_analysis, s_10);
        out << line;
      }
      out << '\n';
    }
    for (const char* automatic : {"syncfree:auto", "syncfree:auto_tuned"})
      if (const auto found = methods.find(automatic);
          found != methods.end() && found->second.complete())
        out << "  " << automatic << " ran " << found->second.chosen << '\n';
    for (const auto& [name, t] : methods)
      if (t.complete() && t.chain_levels > 0) {
        std::snprintf(line, sizeof line, "  %s: %ld levels between chain segments\n", name.c_str(),
                      t.chain_levels);
        out << line;
      }
    for (const auto& [name, t] : methods)
      if (t.complete() && t.packed_bytes > 0) {
        std::snprintf(line, sizeof line, "  %s packed layout: %.1f MB, %.2fx the CSR of L\n",
                      name.c_str(), t.packed_bytes * 1e-6, t.packed_bytes / csr_bytes);
        out << line;
      }
    const std::string best = best_syncfree(methods);
    if (!best.empty() && hop.count(best)) {
      const long best_hops = hops(*m, methods.at(best));
      const double model = double(best_hops) * hop.at(best);
      std::snprintf(line, sizeof line,
                    "  model %s: hops x hop = %ld x %.3f us = %.3f ms; measured %.3f ms (%.2fx)\n",
                    best.c_str(), best_hops, hop.at(best) * 1e6, ms(model),
                    ms(methods.at(best).solve), methods.at(best).solve / model);
      out << line;
      jm["latency_model"] = {{"method", best},
                             {"hops", best_hops},
                             {"hops_x_hop_ms", ms(model)},
                             {"measured_ms", ms(methods.at(best).solve)}};
    }
    j["matrices"].push_back(jm);
  }
  std::ofstream file(json_path);
  file << j.dump(2) << '\n';
  out << "\nwrote " << json_path << '\n';
}

}  // namespace syncfree::bench
