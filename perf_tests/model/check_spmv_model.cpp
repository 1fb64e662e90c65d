// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// check_spmv_model: the performance model's SpMV predictions against bench_spmv's measurements,
// for SyncFree's CSR kernel ("syncfree") and its stencil format ("syncfree-stencil") where the
// matrix has one; the error statistics, separately for fitted and held-back matrices, and which
// format the model picks where both ran.
//
//   check_spmv_model --device=CALIBRATION.json [--held-back=FILE] [--out=OUT.json] REPORT.json...

#include <map>
#include <string>

#include "core/syncfree_spmv_cost.hpp"
#include "perf_tests/common/spmv_features_json.hpp"
#include "perf_tests/model/model_check.hpp"

namespace {

const std::map<std::string, syncfree::SpmvFormat> formats = {
    {"syncfree", syncfree::SpmvFormat::csr}, {"syncfree-stencil", syncfree::SpmvFormat::stencil}};

void check(const syncfree::bench::Options& o) {
  using namespace syncfree;
  bench::ModelCheck c(o, "format");
  c.for_each_matrix(o.reports, "matrix", [&](const std::string& name, const auto& m, bool held) {
    const auto features = bench::spmv_features_from_json(m.at("features"));
    for (const auto& method : m.at("methods")) {
      const auto format = formats.find(method.at("method").template get<std::string>());
      if (format == formats.end()) continue;
      c.add(name, held, to_string(format->second), predict_spmv(c.device, features, format->second),
            double(method.at("ms")) * 1e-3);
    }
    c.select(name, held);
  });
  c.finish();
}

}  // namespace

int main(int argc, char* argv[]) {
  return syncfree::bench::model_check_main(argc, argv, "check_spmv_model", check);
}
