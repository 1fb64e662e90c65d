// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "apps/syncfree-solve/solve_report.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::app {

SolveReport report_settings(const SolveOptions& o) {
  SolveReport report;
  report.solver = o.solver;
  report.precond_side = o.precond_side;
  report.precond_precision = o.precond_precision;
  if (o.solver == "gmres" || o.solver == "fgmres") {
    report.restart = o.restart;
    report.orthogonalization = o.orthogonalization;
  }
  report.tolerance = o.tolerance;
  report.max_iterations = o.max_iterations;
  return report;
}

namespace {

/// The measured seconds per iteration of the solve, or -1 where none ran.
double measured_per_iteration(const SolveReport& r) {
  return r.result.iterations > 0 ? r.solve_seconds / r.result.iterations : -1;
}

/// --explain's block: the time per iteration, predicted and measured; then per factor, what runs
/// and why, then the model's candidates.
void print_explained(std::ostream& out, const SolveReport& r) {
  out << "explain             performance model, " << r.explain_device << '\n';
  out << "  iteration: ";
  if (r.iteration_predicted_seconds >= 0) {
    out << "predicted " << r.iteration_prediction;
    if (measured_per_iteration(r) >= 0)
      out << "; measured " << format_seconds(measured_per_iteration(r));
  } else {
    out << r.iteration_not_predicted;
  }
  out << '\n';
  for (const auto& c : r.explained_choices) {
    out << "  " << c.factor << ": " << c.rows << " rows, " << c.entries << " entries, " << c.levels
        << " levels; runs " << c.algorithm << " (" << c.reason << ")\n";
    for (const auto& e : r.explained) {
      if (e.factor != c.factor) continue;
      out << "    " << std::left << std::setw(18) << e.algorithm << "predicted " << std::setw(10)
          << format_seconds(e.predicted_seconds) << " (" << e.bound << ")";
      if (e.measured_seconds >= 0)
        out << "  measured " << format_seconds(e.measured_seconds);
      else if (!e.not_measured.empty())
        out << "  not measured: " << e.not_measured;
      out << '\n';
    }
  }
}

nlohmann::json explained_json(const SolveReport& r) {
  nlohmann::json factors = nlohmann::json::array();
  for (const auto& c : r.explained_choices) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const auto& e : r.explained) {
      if (e.factor != c.factor) continue;
      nlohmann::json k = {{"algorithm", e.algorithm},
                          {"predicted_seconds", e.predicted_seconds},
                          {"bound", e.bound}};
      if (e.measured_seconds >= 0) k["measured_seconds"] = e.measured_seconds;
      if (!e.not_measured.empty()) k["not_measured"] = e.not_measured;
      candidates.push_back(k);
    }
    factors.push_back({{"factor", c.factor},
                       {"runs", c.algorithm},
                       {"reason", c.reason},
                       {"rows", c.rows},
                       {"entries", c.entries},
                       {"levels", c.levels},
                       {"candidates", candidates}});
  }
  nlohmann::json iteration;
  if (r.iteration_predicted_seconds >= 0) {
    iteration = {{"predicted_seconds", r.iteration_predicted_seconds},
                 {"prediction", r.iteration_prediction}};
    if (measured_per_iteration(r) >= 0) iteration["measured_seconds"] = measured_per_iteration(r);
  } else {
    iteration = {{"not_predicted", r.iteration_not_predicted}};
  }
  return {{"device", r.explain_device}, {"iteration", iteration}, {"factors", factors}};
}

}  // namespace

void print_report(std::ostream& out, const SolveReport& r) {
  auto line = [&out](const char* key) -> std::ostream& {
    return out << std::left << std::setw(20) << key;
  };
  line("backend") << r.backend << '\n';
  if (r.ranks > 0) line("ranks") << r.ranks << " (overlap " << r.overlap << ")\n";
  line("problem") << r.problem << '\n';
  line("n") << r.n << '\n';
  line("nnz") << r.nnz;
  if (r.offset_bits != 32) out << " (" << r.offset_bits << "-bit offsets)";
  out << '\n';
  line("spmv format") << r.spmv_format << '\n';
  line("solver") << r.solver;
  if (r.restart > 0) out << " (restart " << r.restart << ", " << r.orthogonalization << ")";
  out << '\n';
  line("preconditioner") << r.preconditioner << " (" << r.precond_side << ")";
  if (!r.precond_reason.empty()) out << " (auto: " << r.precond_reason << ")";
  out << '\n';
  if (!r.renumber.empty()) {
    line("renumbering") << r.renumber;
    if (!r.renumber_reason.empty()) out << " (auto: " << r.renumber_reason << ")";
    out << '\n';
  }
  if (!r.ordering.empty()) {
    line("ordering") << r.ordering;
    if (r.colors > 0) out << ", " << r.colors << " colors";
    out << ", " << r.levels << " levels in L";
    if (!r.ordering_reason.empty()) out << " (auto: " << r.ordering_reason << ")";
    out << '\n';
  }
  if (r.shift >= 0) {
    line("diagonal shift") << r.shift;
    if (r.shift_attempts > 1) out << " (auto, found in " << r.shift_attempts << " factorizations)";
    out << '\n';
  }
  if (r.precond_bytes >= 0) {
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f MiB", double(r.precond_bytes) / (1 << 20));
    line("precond memory") << mib << '\n';
  }
  if (r.permuted_rows >= 0)
    line("row permutation") << r.permuted_rows << " rows moved for a zero-free diagonal\n";
  if (!r.sip_grid.empty()) line("sip grid") << r.sip_grid << '\n';
  if (!r.dilu_variant.empty())
    line("dilu") << r.colors << " colors, " << r.dilu_variant << " sweeps"
                 << (r.dilu_negative_pivots > 0
                         ? impl::concat(", ", r.dilu_negative_pivots,
                                        " negative pivots (M is indefinite: not for CG)")
                         : std::string())
                 << '\n';
  if (r.precond_nnz > 0) {
    line("approximate inverse") << r.precond_nnz << " entries";
    if (r.spai_max_residual >= 0)
      out << ", ||A m_k - e_k|| max " << r.spai_max_residual << ", mean " << r.spai_mean_residual;
    if (r.spai_fallbacks > 0) out << ", " << r.spai_fallbacks << " columns Jacobi's";
    out << '\n';
  }
  if (!r.explain_device.empty()) print_explained(out, r);
  line("status") << to_string(r.result.status)
                 << (r.result.reason.empty() ? "" : " (" + r.result.reason + ")") << '\n';
  line("iterations") << r.result.iterations;
  if (r.result.residual_replacements > 0)
    out << " (residual replaced " << r.result.residual_replacements << " times)";
  out << '\n';
  line("relative residual") << std::scientific << std::setprecision(3) << r.result.relative_residual
                            << "  (true ||b - A x|| / ||b||)\n";
  line("setup seconds") << std::fixed << std::setprecision(4) << r.setup_seconds << '\n';
  line("solve seconds") << r.solve_seconds << '\n';
  out << std::defaultfloat;
}

void write_json_report(const std::string& path, const SolveReport& r) {
  nlohmann::json j = {
      {"backend", r.backend},
      {"problem", r.problem},
      {"n", r.n},
      {"nnz", r.nnz},
      {"offset_bits", r.offset_bits},
      {"spmv_format", r.spmv_format},
      {"solver", r.solver},
      {"preconditioner", r.preconditioner},
      {"precond_side", r.precond_side},
      {"precond_precision", r.precond_precision},
      {"tolerance", r.tolerance},
      {"max_iterations", r.max_iterations},
      {"status", to_string(r.result.status)},
      {"reason", r.result.reason},
      {"converged", r.result.converged()},
      {"iterations", r.result.iterations},
      {"residual_replacements", r.result.residual_replacements},
      {"relative_residual", r.result.relative_residual},
      {"setup_seconds", r.setup_seconds},
      {"solve_seconds", r.solve_seconds},
  };
  if (r.ranks > 0) {
    j["ranks"] = r.ranks;
    j["overlap"] = r.overlap;
  }
  if (!r.renumber.empty()) {
    j["renumber"] = r.renumber;
    if (!r.renumber_reason.empty()) j["renumber_reason"] = r.renumber_reason;
  }
  if (!r.ordering.empty()) {
    j["ordering"] = r.ordering;
    j["levels"] = r.levels;
    if (r.colors > 0) j["colors"] = r.colors;
    if (!r.ordering_reason.empty()) j["ordering_reason"] = r.ordering_reason;
  }
  if (r.shift >= 0) {
    j["shift"] = r.shift;
    j["shift_attempts"] = r.shift_attempts;
  }
  if (!r.precond_reason.empty()) j["precond_reason"] = r.precond_reason;
  if (r.precond_bytes >= 0) j["precond_bytes"] = r.precond_bytes;
  if (r.permuted_rows >= 0) j["permuted_rows"] = r.permuted_rows;
  if (!r.sip_grid.empty()) j["sip_grid"] = r.sip_grid;
  if (!r.dilu_variant.empty()) {
    j["colors"] = r.colors;
    j["dilu_variant"] = r.dilu_variant;
    j["dilu_negative_pivots"] = r.dilu_negative_pivots;
  }
  if (r.precond_nnz > 0) j["precond_nnz"] = r.precond_nnz;
  if (r.spai_max_residual >= 0) {
    j["spai_max_residual"] = r.spai_max_residual;
    j["spai_mean_residual"] = r.spai_mean_residual;
    j["spai_fallbacks"] = r.spai_fallbacks;
  }
  if (r.restart > 0) {
    j["restart"] = r.restart;
    j["orthogonalization"] = r.orthogonalization;
  }
  if (!r.explain_device.empty()) j["explain"] = explained_json(r);
  if (!r.result.history.empty()) j["residual_history"] = r.result.history;
  std::ofstream file(path);
  SYNCFREE_REQUIRE(file.good(), InvalidArgument, "--json ", path,
                   ": cannot open for writing: ", std::strerror(errno));
  file << j.dump(2) << '\n';
}

}  // namespace syncfree::app
