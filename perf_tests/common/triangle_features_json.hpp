// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief TriangleFeatures as JSON, in the benchmarks' reports and back (the model check reads
/// them). Histograms are written up to their last nonzero bucket.

#include <nlohmann/json.hpp>

#include "core/syncfree_triangle_features.hpp"

namespace syncfree::bench {

inline nlohmann::json histogram_json(const std::array<long, feature_buckets>& h) {
  int last = feature_buckets;
  while (last > 0 && h[last - 1] == 0) --last;
  return std::vector<long>(h.begin(), h.begin() + last);
}

inline nlohmann::json to_json(const TriangleFeatures& f) {
  return {{"rows", f.rows},
          {"entries", f.entries},
          {"levels", f.levels},
          {"longest_row", f.longest_row},
          {"critical_path_entries", f.critical_path_entries},
          {"near_share", f.near_share},
          {"rows_by_length", histogram_json(f.rows_by_length)},
          {"levels_by_width", histogram_json(f.levels_by_width)},
          {"rows_by_level_width", histogram_json(f.rows_by_level_width)}};
}

inline TriangleFeatures triangle_features_from_json(const nlohmann::json& j) {
  TriangleFeatures f;
  f.rows = j.at("rows");
  f.entries = j.at("entries");
  f.levels = j.at("levels");
  f.longest_row = j.at("longest_row");
  f.critical_path_entries = j.at("critical_path_entries");
  f.near_share = j.at("near_share");
  const auto read = [&](const char* name, std::array<long, feature_buckets>& h) {
    const auto& v = j.at(name);
    for (std::size_t k = 0; k < v.size() && k < h.size(); ++k) h[k] = v[k];
  };
  read("rows_by_length", f.rows_by_length);
  read("levels_by_width", f.levels_by_width);
  read("rows_by_level_width", f.rows_by_level_width);
  return f;
}

}  // namespace syncfree::bench
