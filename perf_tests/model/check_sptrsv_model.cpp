// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// check_sptrsv_model: the performance model's SpTRSV predictions against bench_sptrsv's
// measurements. For every matrix of the reports and every algorithm with a formula, the library's
// prediction (from the features and chain levels the report recorded, and the device parameters
// of a calibration file) beside the measured solve; then the error statistics, separately for the
// matrices the constants were fitted to and those held back, and the selection regret: the
// measured time of the algorithm the model predicts fastest over the fastest measured.
//
//   check_sptrsv_model --device=CALIBRATION.json --held-back=FILE --out=OUT.json REPORT.json...
//
// FILE lists the held-back matrices, one name a line ('#' starts a comment).

#include <string>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "perf_tests/common/triangle_features_json.hpp"
#include "perf_tests/model/model_check.hpp"

namespace {

void check(const syncfree::bench::Options& o) {
  using namespace syncfree;
  bench::ModelCheck c(o, "algorithm");
  c.for_each_matrix(o.reports, "name", [&](const std::string& name, const auto& m, bool held) {
    const auto features = bench::triangle_features_from_json(m.at("features"));
    const auto& methods = m.at("methods");
    for (const auto algorithm : sptrsv_algorithms) {
      const auto key = std::string("syncfree:") + to_string(algorithm);
      if (!impl::sptrsv_cost_modeled(algorithm) || !methods.contains(key) ||
          !methods.at(key).contains("solve_ms"))
        continue;
      const auto& t = methods.at(key);
      c.add(name, held, to_string(algorithm),
            impl::predict_sptrsv_solve(c.device, features, algorithm, t.value("chain_levels", 0L)),
            double(t.at("solve_ms")) * 1e-3);
    }
    // What `auto` ran, and its time over the best measured of the modeled algorithms.
    const double best = c.select(name, held);
    const auto& automatic = methods.value("syncfree:auto", nlohmann::json::object());
    if (best > 0 && automatic.contains("solve_ms")) {
      auto& s = c.out["selection"].back();
      s["auto_choice"] = automatic.value("chosen", "");
      s["auto_regret"] = automatic.at("solve_ms").template get<double>() * 1e-3 / best;
    }
  });
  c.finish();
}

}  // namespace

int main(int argc, char* argv[]) {
  return syncfree::bench::model_check_main(argc, argv, "check_sptrsv_model", check);
}
