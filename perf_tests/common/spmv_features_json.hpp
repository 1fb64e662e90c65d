// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SpmvFeatures as JSON, in the benchmarks' reports and back (the model checks read them).

#include <nlohmann/json.hpp>

#include "core/syncfree_spmv_cost.hpp"

namespace syncfree::bench {

inline nlohmann::json to_json(const SpmvFeatures& f) {
  return {{"rows", f.rows},
          {"cols", f.cols},
          {"entries", f.entries},
          {"x_sectors", f.x_sectors},
          {"value_bytes", f.value_bytes}};
}

inline SpmvFeatures spmv_features_from_json(const nlohmann::json& j) {
  SpmvFeatures f;
  f.rows = j.at("rows");
  f.cols = j.at("cols");
  f.entries = j.at("entries");
  f.x_sectors = j.at("x_sectors");
  f.value_bytes = j.value("value_bytes", 8);
  return f;
}

}  // namespace syncfree::bench
