// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A tuned analysis (`SptrsvOptions::tune`): the algorithm `automatic` chose and the
/// performance model's fastest candidates are each analyzed and timed on a few solves, and the
/// plan keeps the fastest. The model ranks algorithms whose times differ by less than its own
/// error poorly; a measurement ranks them. Included by syncfree_sptrsv.hpp after SptrsvPlan.

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_cost.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_access.hpp"
#include "core/syncfree_device_parameters.hpp"
#include "core/syncfree_triangle_features.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// A matrix with A's pattern (the same arrays) and identity values: 1 on the diagonal, 0
/// elsewhere. Timed solves on it do every algorithm's full work and stay finite.
template <class ExecSpace, class Matrix>
Matrix with_identity_values(const ExecSpace& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;
  typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::identity_values"),
      A.nnz());
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  Kokkos::parallel_for(
      "syncfree::sptrsv::identity_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          values(k) = entries(k) == i ? scalar_type(1) : scalar_type(0);
      });
  return make_crs<Matrix>("syncfree::sptrsv::identity", A.numRows(), A.numCols(), row_map, entries,
                          values);
}

/// What a tuned analysis times: `running` (what the plan runs), then the model's fastest
/// `model_picks` of `ranked` (fastest first) predicted within `spread` times the fastest, each
/// once.
inline std::vector<SptrsvAlgorithm> sptrsv_tuning_candidates(
    SptrsvAlgorithm running, const std::vector<SptrsvPrediction>& ranked, int model_picks = 3,
    double spread = 2.0) {
  std::vector<SptrsvAlgorithm> candidates{running};
  for (int i = 0; i < int(ranked.size()) && i < model_picks; ++i) {
    if (ranked[std::size_t(i)].solve.seconds > spread * ranked.front().solve.seconds) break;
    const auto a = ranked[std::size_t(i)].algorithm;
    if (std::find(candidates.begin(), candidates.end(), a) == candidates.end())
      candidates.push_back(a);
  }
  return candidates;
}

/// The model's prediction for every algorithm it has a formula for, fastest first, for a triangle
/// with features `f`. `chain_levels`: those of a `sync_free_thread` plan in chain order, or 0 where
/// it runs in level order.
inline std::vector<SptrsvPrediction> sptrsv_rank(const DeviceParameters& device,
                                                 const TriangleFeatures& f, long chain_levels) {
  std::vector<SptrsvPrediction> ranked;
  for (const auto algorithm : sptrsv_algorithms)
    if (sptrsv_cost_modeled(algorithm))
      ranked.push_back({algorithm, predict_sptrsv_solve(device, f, algorithm, chain_levels)});
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.solve.seconds < b.solve.seconds; });
  return ranked;
}

/// The least time of a few solves by `plan` after one that is not timed (layouts that copy the
/// values do so at their first solve); fewer where one solve is long.
template <class ExecSpace, class Matrix, class Vector>
double least_solve_seconds(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan, const Matrix& A,
                           const Vector& b, const Vector& x) {
  constexpr int repeats = 3;
  constexpr double budget_seconds = 0.05;  // per candidate, beyond the untimed solve
  sptrsv_solve(exec, plan, A, b, x);
  exec.fence();
  double least = std::numeric_limits<double>::infinity(), spent = 0;
  for (int r = 0; r < repeats && spent < budget_seconds; ++r) {
    Kokkos::Timer timer;
    sptrsv_solve(exec, plan, A, b, x);
    exec.fence();
    const double seconds = timer.seconds();
    least = std::min(least, seconds);
    spent += seconds;
  }
  return least;
}

/// Times the candidates (sptrsv_tuning_candidates) on A (the plan's pattern; its values, or a
/// stand-in with the same pattern and a nonzero diagonal, are what the timed solves read) and
/// makes `plan` run the fastest; its choice() then lists what was measured. Plans whose
/// layout `automatic` took by structure (`wavefront`, `band`) are left as they are.
template <class ExecSpace, class Matrix>
void sptrsv_tune(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Matrix& A) {
  using scalar_type = typename Matrix::non_const_value_type;
  const SptrsvAlgorithm running = plan.effective_algorithm();
  if (running == SptrsvAlgorithm::wavefront || running == SptrsvAlgorithm::band) return;
  const std::string rule = plan.choice();
  SptrsvOptions trial_options = plan.options();
  trial_options.tune = false;

  long chain_levels = long(plan.num_chain_levels());
  if (running != SptrsvAlgorithm::sync_free_thread) {
    trial_options.algorithm = SptrsvAlgorithm::sync_free_thread;
    SptrsvPlan<Matrix> chains(trial_options);
    SptrsvPlanAccess::analyze_trusted(exec, chains, A, nullptr, nullptr);
    chain_levels = long(chains.num_chain_levels());
  }
  // The features the plan's levels give (a level pass on the device where its layout had none),
  // not a pass over the triangle on the host: the model only narrows the candidates down.
  SptrsvPlanAccess::find_levels(exec, plan);
  const auto ranked =
      sptrsv_rank(syncfree::device_parameters(exec),
                  sptrsv_storage_features(SptrsvPlanAccess::storage(plan)), chain_levels);
  const auto candidates = sptrsv_tuning_candidates(running, ranked);
  std::string measured =
      concat("; tuned, the model's fastest ", to_string(ranked.front().algorithm));
  if (candidates.size() == 1) {
    SptrsvPlanAccess::set_choice(plan, rule + measured + ": the same");
    return;
  }

  const std::size_t n = std::size_t(A.numRows());
  Kokkos::View<scalar_type*, typename Matrix::device_type> b("syncfree::sptrsv::tune_b", n),
      x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::tune_x"), n);
  Kokkos::deep_copy(exec, b, scalar_type(1));
  double fastest = least_solve_seconds(exec, plan, A, b, x);
  measured += concat(", measured ", to_string(running), " ", format_seconds(fastest));
  for (std::size_t c = 1; c < candidates.size(); ++c) {
    trial_options.algorithm = candidates[c];
    SptrsvPlan<Matrix> trial(trial_options);
    SptrsvPlanAccess::analyze_trusted(exec, trial, A, nullptr, nullptr);
    const double seconds = least_solve_seconds(exec, trial, A, b, x);
    measured += concat(", ", to_string(trial.effective_algorithm()), " ", format_seconds(seconds));
    if (seconds < fastest) {
      fastest = seconds;
      SptrsvPlanAccess::adopt(plan, std::move(trial));
    }
  }
  SptrsvPlanAccess::set_choice(plan,
                               rule + measured + ": runs " + to_string(plan.effective_algorithm()));
}

}  // namespace syncfree::impl
