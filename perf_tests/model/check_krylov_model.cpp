// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// check_krylov_model: the performance model's time per Krylov iteration, and per preconditioner
// application, against bench_krylov's measurements of SyncFree's CG, BiCGStab and GMRES with
// Jacobi, FSAI and SPAI (the cases whose features the report recorded); the error statistics,
// separately for fitted and held-back matrices. Selection: per matrix and solver, the case the
// model picks with the measured setup and iterations (setup + iterations x predicted iteration)
// against the fastest measured total.
//
//   check_krylov_model --device=CALIBRATION.json [--held-back=FILE] [--out=OUT.json] REPORT.json...

#include <fstream>
#include <map>
#include <string>

#include "algorithms/jacobi/syncfree_jacobi_cost.hpp"
#include "algorithms/krylov/syncfree_krylov_cost.hpp"
#include "algorithms/spai/syncfree_spai_cost.hpp"
#include "perf_tests/common/spmv_features_json.hpp"
#include "perf_tests/model/model_check.hpp"

namespace {

using namespace syncfree;

Prediction product(const DeviceParameters& device, const nlohmann::json& f) {
  return predict_spmv(device, bench::spmv_features_from_json(f),
                      parse_spmv_format(f.at("format").get<std::string>()));
}

/// The prediction of one application of the preconditioner `m` describes.
Prediction application(const DeviceParameters& device, const nlohmann::json& m, long rows) {
  const std::string kind = m.at("kind");
  if (kind == "jacobi") return predict_jacobi_apply(device, rows);
  if (kind == "spai") return product(device, m.at("M"));
  const auto& G = m.at("G");
  const auto& Gt = m.at("Gt");
  return predict_fsai_apply(device, bench::spmv_features_from_json(G),
                            parse_spmv_format(G.at("format").get<std::string>()),
                            bench::spmv_features_from_json(Gt),
                            parse_spmv_format(Gt.at("format").get<std::string>()));
}

/// The solver of a case named "<implementation>:<solver>+<preconditioner>...".
KrylovSolver solver_of(const std::string& case_name) {
  const auto colon = case_name.find(':');
  return parse_krylov_solver(case_name.substr(colon + 1, case_name.find('+') - colon - 1));
}

void check(const bench::Options& o) {
  bench::ModelCheck c(o, "case");
  bench::Errors apply_fitted, apply_held;
  c.out["applies"] = nlohmann::json::array();
  for (const auto& path : o.reports) {
    std::ifstream in(path);
    if (!in) throw InvalidArgument("cannot read " + path);
    const auto report = nlohmann::json::parse(in);
    const int restart = report.value("gmres_restart", 30);
    for (const auto& problem : report.at("problems")) {
      const std::string name = bench::base_name(problem.at("name"));
      const bool held = c.held_back(name);
      // per solver: case -> (setup + iterations x predicted iteration, measured total)
      std::map<KrylovSolver, bench::ModelCheck::Times> totals;
      for (const auto& [case_name, t] : problem.at("cases").items()) {
        if (!t.contains("features") || !t.at("features").contains("M")) continue;
        if (t.at("iterations").get<int>() <= 0) continue;
        const auto& f = t.at("features");
        const long rows = f.at("A").at("rows");
        const KrylovSolver solver = solver_of(case_name);
        const Prediction apply = application(c.device, f.at("M"), rows);
        const Prediction iteration = predict_krylov_iteration(
            c.device, solver, rows, product(c.device, f.at("A")), apply, restart);
        c.add(name, held, case_name, iteration, double(t.at("ms_per_iteration")) * 1e-3);
        const double measured_apply = double(t.at("apply_ms")) * 1e-3;
        (held ? apply_held : apply_fitted).add(apply.seconds, measured_apply);
        c.out["applies"].push_back({{"matrix", name},
                                    {"held_back", held},
                                    {"case", case_name},
                                    {"predicted_ms", apply.seconds * 1e3},
                                    {"measured_ms", measured_apply * 1e3}});
        if (t.at("status") == "success")
          totals[solver][case_name] = {
              double(t.at("setup_ms")) * 1e-3 + t.at("iterations").get<int>() * iteration.seconds,
              double(t.at("total_ms")) * 1e-3};
      }
      for (const auto& [solver, cases] : totals) c.select_among(name, held, cases);
    }
  }
  SYNCFREE_REQUIRE(!c.out["cases"].empty(), InvalidArgument,
                   "no SyncFree case of a report recorded the model's features");
  c.out["apply_errors"] = {{"fitted", apply_fitted.summary()}, {"held_back", apply_held.summary()}};
  std::cout << "\napplication errors (predicted / measured): " << c.out["apply_errors"].dump(1)
            << '\n';
  c.finish();
}

}  // namespace

int main(int argc, char* argv[]) {
  return syncfree::bench::model_check_main(argc, argv, "check_krylov_model", check);
}
