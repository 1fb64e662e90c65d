// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief FSAI: the factorized sparse approximate inverse M = G^T G of an SPD matrix A, G lower
/// triangular on the pattern of tril(T^power) (T = A thresholded), so that CG keeps a symmetric
/// positive definite preconditioner. Applied as two SpMVs.
///
/// Row i of G with pattern J solves A(J, J) g = e_i and is scaled so that (G A G^T)(i, i) = 1
/// (Kolotilina and Yeremin): one small Cholesky factorization per row, a team each. Phases:
/// `fsai_analyze` (pattern, work space), `fsai_factor` (values), `fsai_apply`; `FsaiPreconditioner`
/// wraps them as an `Operator`. A is read as symmetric: only the rows of A named by J.

#include <cstdint>
#include <memory>
#include <string>

#include "algorithms/spai/impl/syncfree_fsai_rows.hpp"
#include "algorithms/spai/impl/syncfree_spai_patterns.hpp"
#include "algorithms/spai/impl/syncfree_square_systems.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_transpose.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

struct FsaiOptions {
  /// G's pattern is tril(T^power), T = A thresholded (1, 2 or 3).
  int pattern_power = 1;
  /// T keeps the diagonal and the a_ij with |a_ij| >= threshold * sqrt(|a_ii a_jj|); 0 keeps A.
  double threshold = 0;
  /// A row of G with more entries keeps the diagonal and the entries of largest weight in
  /// |T|^power (see SpaiOptions::max_unknowns); 0: no limit.
  long max_unknowns = 128;
  /// Rows with at most this many entries solve their dense system in the team's scratch (GPU
  /// shared) memory, the others in global work space; 0 to 64, 0: all in global memory.
  int scratch_unknowns = 64;
  /// Global work space of the dense problems run at once (bytes).
  std::size_t workspace_bytes = std::size_t(1) << 30;
  /// SpmvPrecision::single: the apply reads G's values rounded to float (G is computed in A's
  /// precision, the vectors stay in it): two thirds of the bytes an entry, and M = G^T G stays one
  /// fixed SPD matrix, so CG's iterations barely change.
  SpmvPrecision apply_precision = SpmvPrecision::matrix;
};

/// What the FSAI phases store for one matrix.
template <class Matrix>
class FsaiPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return m_n; }
  const FsaiOptions& options() const { return m_options; }
  /// G, valid after a successful `fsai_factor` (its pattern after `fsai_analyze`).
  const Matrix& factor() const { return m_G; }
  /// G^T, as `factor()`.
  const Matrix& factor_transpose() const { return m_Gt.matrix; }
  const SpmvPlan<Matrix>& factor_spmv() const { return *m_G_spmv; }
  const SpmvPlan<Matrix>& factor_transpose_spmv() const { return *m_Gt_spmv; }
  /// Entries of dense work space the rows of G take together (|J| (|J| + 1) each): the measure
  /// of the factorization's work.
  std::int64_t dense_entries() const { return m_layout.dense_entries; }
  /// Rows whose dense system is solved in global work space (longer than `scratch_unknowns`).
  std::size_t rows_in_global_memory() const { return m_layout.global_rows.extent(0); }
  /// Launches over those rows (0 when every row fits scratch).
  std::size_t num_batches() const { return m_layout.num_batches(); }

 private:
  template <class E, class M>
  friend void fsai_analyze(const E&, FsaiPlan<M>&, const M&, const FsaiOptions&);
  template <class E, class M>
  friend Outcome fsai_factor(const E&, FsaiPlan<M>&, const M&);

  std::size_t m_n = 0;
  std::size_t m_nnz = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  FsaiOptions m_options;
  Matrix m_G;
  RearrangedMatrix<Matrix> m_Gt;
  std::unique_ptr<SpmvPlan<Matrix>> m_G_spmv;
  std::unique_ptr<SpmvPlan<Matrix>> m_Gt_spmv;
  impl::SquareSystemsLayout<device_type, typename Matrix::non_const_ordinal_type> m_layout;
};

/// Structure phase. With a threshold, the pattern depends on A's values at analysis; later
/// factorizations keep it.
/// \throws InvalidMatrix when A is not square or a row has unsorted or repeated columns;
/// InvalidArgument on options out of range.
template <class ExecSpace, class Matrix>
void fsai_analyze(const ExecSpace& exec, FsaiPlan<Matrix>& plan, const Matrix& A,
                  const FsaiOptions& options = {}) {
  require_valid(exec, A, MatrixCheck::square | MatrixCheck::sorted_unique, "fsai_analyze");
  SYNCFREE_REQUIRE(options.pattern_power >= 1 && options.pattern_power <= 3, InvalidArgument,
                   "fsai_analyze: pattern_power must be 1, 2 or 3, not ", options.pattern_power);
  SYNCFREE_REQUIRE(options.threshold >= 0, InvalidArgument,
                   "fsai_analyze: the threshold must not be negative");
  SYNCFREE_REQUIRE(options.workspace_bytes > 0 && options.max_unknowns >= 0, InvalidArgument,
                   "fsai_analyze: workspace_bytes must be positive, max_unknowns not negative");
  using scalar_type = typename Matrix::non_const_value_type;
  plan = FsaiPlan<Matrix>();
  plan.m_n = std::size_t(A.numRows());
  plan.m_nnz = std::size_t(A.nnz());
  plan.m_options = options;
  const Matrix base = impl::thresholded_pattern(exec, A, options.threshold);
  plan.m_G = impl::capped_rows(
      exec, impl::lower_pattern(exec, impl::pattern_power(exec, base, options.pattern_power)),
      options.max_unknowns);
  Kokkos::deep_copy(exec, plan.m_G.values, scalar_type(0));  // weights, not yet G's values
  plan.m_Gt = transpose_matrix_kept(exec, plan.m_G);
  plan.m_G_spmv = std::make_unique<SpmvPlan<Matrix>>(exec, plan.m_G, SpmvFormat::automatic,
                                                     options.apply_precision);
  plan.m_Gt_spmv = std::make_unique<SpmvPlan<Matrix>>(exec, plan.m_Gt.matrix, SpmvFormat::automatic,
                                                      options.apply_precision);
  plan.m_layout = impl::layout_square_systems(
      exec, plan.m_G, impl::FsaiRows<ExecSpace, Matrix>::vectors, options.scratch_unknowns,
      options.workspace_bytes, "fsai_analyze");
  plan.m_analyzed = true;
}

/// Numeric phase: G's rows (and under SpmvPrecision::single their values in float). Call again
/// when A's values change (same pattern).
/// \returns `Status::not_positive_definite` with the first row i whose A(J, J) has a pivot <= 0
/// (A is not SPD), `Status::not_finite` where NaN or Inf appear; else success. A failed row of G
/// is zero.
/// \throws InvalidState before `fsai_analyze`; StructureMismatch when A has another size or
/// number of entries; InvalidMatrix under SpmvPrecision::single where an entry of G is beyond
/// float's range.
template <class ExecSpace, class Matrix>
Outcome fsai_factor(const ExecSpace& exec, FsaiPlan<Matrix>& plan, const Matrix& A) {
  SYNCFREE_REQUIRE(plan.m_analyzed, InvalidState, "fsai_factor: call fsai_analyze first");
  SYNCFREE_REQUIRE(std::size_t(A.numRows()) == plan.m_n && std::size_t(A.nnz()) == plan.m_nnz,
                   StructureMismatch, "fsai_factor: plan was analyzed for ", plan.m_n, " rows and ",
                   plan.m_nnz, " entries, the matrix has ", A.numRows(), " and ", A.nnz());
  impl::FsaiRows<ExecSpace, Matrix> rows;
  rows.g_map = plan.m_G.graph.row_map;
  rows.g_cols = plan.m_G.graph.entries;
  rows.a_map = A.graph.row_map;
  rows.a_cols = A.graph.entries;
  rows.a_values = A.values;
  rows.result = plan.m_G.values;
  const std::int64_t first_bad = impl::solve_square_systems(exec, "syncfree::fsai::rows", rows,
                                                            plan.m_layout, std::int64_t(plan.m_n));
  plan.m_Gt.refill(exec, plan.m_G);
  plan.m_factored = first_bad < 0;
  if (plan.m_factored) {
    plan.m_G_spmv->round_values(exec);
    plan.m_Gt_spmv->round_values(exec);
    return {};
  }
  const std::int64_t i = first_bad / 4;
  if (first_bad % 4 == impl::fsai_not_finite)
    return {Status::not_finite, i,
            impl::concat("row ", i, " of FSAI's factor: NaN or Inf (from A's values)")};
  return {Status::not_positive_definite, i,
          impl::concat("row ", i,
                       " of FSAI's factor: A restricted to the row's pattern is not positive "
                       "definite (a pivot <= 0), so A is not SPD")};
}

/// y = alpha G^T G x + beta y, `tmp` (n entries) holding G x.
/// \throws InvalidState unless the last `fsai_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y, class Tmp>
void fsai_apply(const ExecSpace& exec, const FsaiPlan<Matrix>& plan, const X& x, const Y& y,
                const Tmp& tmp, typename Matrix::non_const_value_type alpha = 1,
                typename Matrix::non_const_value_type beta = 0) {
  using scalar_type = typename Matrix::non_const_value_type;
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "fsai_apply: no successful fsai_factor for this plan");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows() &&
                       tmp.extent(0) == plan.num_rows(),
                   DimensionMismatch, "fsai_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0), ", tmp ", tmp.extent(0));
  plan.factor_spmv().apply(exec, scalar_type(1), x, scalar_type(0), tmp);
  plan.factor_transpose_spmv().apply(exec, alpha, tmp, beta, y);
}

/// FSAI as an `Operator`: analyzes and factors on construction.
template <class Matrix>
class FsaiPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = typename Preconditioner<Matrix>::base;

  /// \throws as `fsai_analyze`. A failed factorization is not thrown: check `outcome()`; `apply`
  /// then throws InvalidState.
  FsaiPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                     const FsaiOptions& options = {})
      : m_tmp("syncfree::fsai::tmp", std::size_t(A.numRows())) {
    fsai_analyze(exec, m_plan, A, options);
    m_outcome = fsai_factor(exec, m_plan, A);
  }

  const Outcome& outcome() const override { return m_outcome; }
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    m_outcome = fsai_factor(exec, m_plan, A);
    return m_outcome;
  }
  const FsaiPlan<Matrix>& plan() const { return m_plan; }
  std::size_t num_rows() const override { return m_plan.num_rows(); }
  std::size_t num_cols() const override { return m_plan.num_rows(); }
  std::string name() const override {
    return m_plan.options().apply_precision == SpmvPrecision::single
               ? "fsai, single-precision values"
               : "fsai";
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState,
                     "fsai: factorization failed: ", m_outcome.reason);
    fsai_apply(exec, m_plan, x, y, m_tmp, alpha, beta);
  }

 private:
  FsaiPlan<Matrix> m_plan;
  Outcome m_outcome;
  typename base::vector_type m_tmp;
};

}  // namespace syncfree
