// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The performance model's formula for one Jacobi application z = D^-1 r: a launch and a
/// pass that reads r and the inverse diagonal and writes z (24 bytes a row in double).

#include "core/syncfree_cost_model.hpp"

namespace syncfree {

inline Prediction predict_jacobi_apply(const DeviceParameters& p, long rows) {
  Prediction prediction;
  prediction.terms = {{"launch", p.launch_latency},
                      {"streaming", streaming_seconds(p, 24.0 * double(rows))}};
  for (const auto& t : prediction.terms) prediction.seconds += t.seconds;
  return prediction;
}

}  // namespace syncfree
