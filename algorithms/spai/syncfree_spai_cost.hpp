// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The performance model's formulas for applying an approximate inverse: SPAI's M x is one
/// SpMV, FSAI's G^T (G x) two, each predicted by predict_spmv in the format its SpmvPlan chose and
/// with the bytes of a value as read (SpmvFeatures::value_bytes: 4 under SpmvPrecision::single).

#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_spmv_cost.hpp"

namespace syncfree {

/// One application of SPAI's M (features and format of M's product).
inline Prediction predict_spai_apply(const DeviceParameters& p, const SpmvFeatures& M,
                                     SpmvFormat format) {
  return predict_spmv(p, M, format);
}

/// One application of FSAI's G^T G: the products with G and with G^T, summed term by term.
inline Prediction predict_fsai_apply(const DeviceParameters& p, const SpmvFeatures& G,
                                     SpmvFormat g_format, const SpmvFeatures& Gt,
                                     SpmvFormat gt_format) {
  Prediction sum = predict_spmv(p, G, g_format);
  const Prediction second = predict_spmv(p, Gt, gt_format);
  for (std::size_t k = 0; k < sum.terms.size(); ++k)
    sum.terms[k].seconds += second.terms[k].seconds;
  sum.seconds += second.seconds;
  return sum;
}

}  // namespace syncfree
