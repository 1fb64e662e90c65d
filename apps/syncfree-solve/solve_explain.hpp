// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief --explain: the performance model's time per iteration of the solve (where it has
/// formulas for the solver and the preconditioner), and for each triangular factor of an ILU or
/// IC preconditioner the predicted time of every SpTRSV algorithm, the one the preconditioner
/// runs and why, and with --explain=measure each algorithm analyzed and timed on the same factor.

#include <algorithm>
#include <optional>
#include <vector>

#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/jacobi/syncfree_jacobi_cost.hpp"
#include "algorithms/krylov/syncfree_krylov_cost.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "algorithms/spai/syncfree_spai_cost.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "apps/syncfree-solve/solve_options.hpp"
#include "apps/syncfree-solve/solve_report.hpp"
#include "core/syncfree_device_parameters.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_single_precision.hpp"
#include "core/syncfree_spmv_cost.hpp"
#include "core/syncfree_transpose.hpp"
#include "core/syncfree_triangular_split.hpp"

namespace syncfree::app::solve_detail {

/// Predicted solves over this long are not timed by --explain=measure (a launch per level of a
/// long chain, or a thread walking rows of thousands of entries).
inline constexpr double longest_measured_seconds = 0.5;

/// The median of 5 solves by `algorithm` of the triangle T (after its analysis and one solve).
template <class ExecSpace, class Matrix>
double measure_solve(const ExecSpace& exec, const Matrix& T, SptrsvOptions options) {
  using Vec = Vector<typename Matrix::non_const_value_type, typename Matrix::device_type>;
  SptrsvPlan<Matrix> plan(options);
  sptrsv_analyze(exec, plan, T);
  Vec b("explain b", T.numRows()), x("explain x", T.numRows());
  Kokkos::deep_copy(exec, b, 1);
  sptrsv_solve(exec, plan, T, b, x);
  std::vector<double> times;
  for (int k = 0; k < 5; ++k) {
    exec.fence();
    Kokkos::Timer timer;
    sptrsv_solve(exec, plan, T, b, x);
    exec.fence();
    times.push_back(timer.seconds());
  }
  std::sort(times.begin(), times.end());
  return times[2];
}

/// One factor: the triangle T as a matrix of its own, and the plan the preconditioner solves it
/// with.
template <class ExecSpace, class Matrix>
void explain_factor(const ExecSpace& exec, const char* factor, const Matrix& T,
                    const SptrsvOptions& options, const SptrsvPlan<Matrix>& used, bool measure,
                    const DeviceParameters& device, SolveReport& report) {
  sptrsv_find_levels(exec, used);
  report.explained_choices.push_back({factor, to_string(used.effective_algorithm()), used.choice(),
                                      std::int64_t(T.numRows()), std::int64_t(T.nnz()),
                                      std::int64_t(used.num_levels())});
  for (const auto& candidate : sptrsv_predict(exec, T, options, device)) {
    ExplainedSolve e;
    e.factor = factor;
    e.algorithm = to_string(candidate.algorithm);
    e.predicted_seconds = candidate.solve.seconds;
    e.bound = candidate.solve.bound();
    if (measure && candidate.solve.seconds <= longest_measured_seconds) {
      SptrsvOptions run = options;
      run.algorithm = candidate.algorithm;
      e.measured_seconds = measure_solve(exec, T, run);
    } else if (measure) {
      e.not_measured = "predicted over " + format_seconds(longest_measured_seconds);
    }
    report.explained.push_back(e);
  }
}

/// --explain for an ILU or IC preconditioner in `M` (of matrices `PMatrix`, or their single
/// precision forms); returns false where M is neither.
template <class PMatrix, class ExecSpace, class Op>
bool explain_preconditioner(const ExecSpace& exec, const Op& M, bool measure, SolveReport& report) {
  const DeviceParameters device = device_parameters(exec);
  report.explain_device = device.device + " (" + device.source + ")";
  if (const auto* ilu = dynamic_cast<const IluPreconditioner<PMatrix>*>(&M)) {
    const auto& plan = ilu->plan();
    SptrsvOptions lower{Triangle::lower, Diagonal::unit};
    SptrsvOptions upper{Triangle::upper, Diagonal::stored};
    explain_factor(exec, "L",
                   extract_triangle(exec, plan.factors(), Triangle::lower, Diagonal::unit), lower,
                   plan.lower_solve_plan(), measure, device, report);
    explain_factor(exec, "U",
                   extract_triangle(exec, plan.factors(), Triangle::upper, Diagonal::stored), upper,
                   plan.upper_solve_plan(), measure, device, report);
    return true;
  }
  if (const auto* ic = dynamic_cast<const IcPreconditioner<PMatrix>*>(&M)) {
    const auto& plan = ic->plan();
    explain_factor(exec, "L", plan.factor(), SptrsvOptions{Triangle::lower, Diagonal::stored},
                   plan.lower_solve_plan(), measure, device, report);
    // The column push has no SpTRSV plan to explain.
    if (plan.options().upper_solve == IcUpperSolve::transposed_copy)
      explain_factor(exec, "L^T", transpose_matrix_kept(exec, plan.factor()).matrix,
                     SptrsvOptions{Triangle::upper, Diagonal::stored}, plan.upper_solve_plan(),
                     measure, device, report);
    return true;
  }
  if constexpr (std::is_same_v<typename PMatrix::non_const_value_type, double>) {
    if (const auto* single = dynamic_cast<const SinglePrecisionPreconditioner<PMatrix>*>(&M))
      return explain_preconditioner<SinglePrecisionMatrix<PMatrix>>(exec, single->inner(), measure,
                                                                    report);
  }
  return false;
}

/// One application of M as the model predicts it (none, Jacobi, FSAI, SPAI); nothing for the
/// preconditioners it has no formula for.
template <class PMatrix, class Op>
std::optional<Prediction> predict_application(const DeviceParameters& device, const Op& M,
                                              long rows) {
  using Identity =
      IdentityOperator<typename PMatrix::non_const_value_type, typename PMatrix::device_type>;
  if (dynamic_cast<const Identity*>(&M)) return Prediction{};
  if (dynamic_cast<const JacobiPreconditioner<PMatrix>*>(&M))
    return predict_jacobi_apply(device, rows);
  if (const auto* fsai = dynamic_cast<const FsaiPreconditioner<PMatrix>*>(&M)) {
    const auto& G = fsai->plan().factor_spmv();
    const auto& Gt = fsai->plan().factor_transpose_spmv();
    return predict_fsai_apply(device, spmv_features(G), G.format(), spmv_features(Gt), Gt.format());
  }
  if (const auto* spai = dynamic_cast<const SpaiPreconditioner<PMatrix>*>(&M)) {
    const auto& plan = spai->plan().spmv_plan();
    return predict_spai_apply(device, spmv_features(plan), plan.format());
  }
  return std::nullopt;
}

/// --explain's time per iteration of `o.solver` with A's products and M, or why there is none.
template <class Matrix, class ExecSpace, class Op>
void explain_iteration(const ExecSpace& exec, const SolveOptions& o, const CrsOperator<Matrix>& A,
                       const Op& M, SolveReport& report) {
  const DeviceParameters device = device_parameters(exec);
  report.explain_device = device.device + " (" + device.source + ")";
  const KrylovSolver solver = parse_krylov_solver(o.solver);
  const long rows = long(A.num_rows());
  const auto apply = predict_application<Matrix>(device, M, rows);
  if (solver == KrylovSolver::tfqmr || !apply) {
    report.iteration_not_predicted =
        "no formula for " + (apply ? o.solver : M.name()) + " in the performance model";
    return;
  }
  const Prediction product = predict_spmv(device, spmv_features(A.plan()), A.plan().format());
  const Prediction iteration =
      predict_krylov_iteration(device, solver, rows, product, *apply, o.restart);
  report.iteration_predicted_seconds = iteration.seconds;
  report.iteration_prediction = iteration.describe();
}

}  // namespace syncfree::app::solve_detail
