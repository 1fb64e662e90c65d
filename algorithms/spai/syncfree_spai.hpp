// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SPAI: the sparse approximate inverse M minimizing || A M - I ||_F on a static pattern
/// (right), or || M A - I ||_F (left), applied as one SpMV.
///
/// Phases: `spai_analyze` (the pattern of M, each least-squares problem's rows, the work space
/// and its batches), `spai_factor` (values: one dense least-squares problem per column of M, by
/// Householder QR, a team each) and `spai_apply`; `SpaiPreconditioner` wraps them as an
/// `Operator`.
///
/// Column k of a right SPAI has the unknowns J = {j : (j, k) in the pattern} and the equations
/// I = the rows where A's columns J have entries, found through A^T (made once at analysis), so
/// that the work is proportional to the entries the problems touch. A left SPAI is the right SPAI
/// of A^T, solved row by row straight from A's rows. The dense problems run in batches whose work
/// space fits `SpaiOptions::workspace_bytes`; a problem larger than that runs alone.

#include <cstdint>
#include <memory>
#include <string>

#include "algorithms/spai/impl/syncfree_spai_least_squares.hpp"
#include "algorithms/spai/impl/syncfree_spai_patterns.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_transpose.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

/// Which residual a sparse approximate inverse minimizes.
enum class SpaiSide {
  right,  ///< || A M - I ||_F, column by column
  left,   ///< || M A - I ||_F, row by row
};

inline const char* to_string(SpaiSide side) { return side == SpaiSide::right ? "right" : "left"; }

/// "right" or "left". \throws InvalidArgument on another name.
inline SpaiSide parse_spai_side(const std::string& name) {
  if (name == "right") return SpaiSide::right;
  SYNCFREE_REQUIRE(name == "left", InvalidArgument, "unknown SPAI side '", name,
                   "' (right or left)");
  return SpaiSide::left;
}

struct SpaiOptions {
  SpaiSide side = SpaiSide::right;
  /// M's pattern is that of T^power, T = A thresholded (1, 2 or 3: SPAI(A), SPAI(A^2), ...).
  int pattern_power = 1;
  /// T keeps the diagonal and the a_ij with |a_ij| >= threshold * sqrt(|a_ii a_jj|), so that the
  /// powers do not fill with small entries; 0 keeps all of A.
  double threshold = 0;
  /// A problem (a column of M, or a row for a left SPAI) with more unknowns keeps the diagonal
  /// and the entries of largest weight in |T|^power, so that rows and columns of thousands of
  /// entries (power-law hubs, circuit rails) do not make dense problems of thousands of columns;
  /// 0: no limit. A pattern given by the caller is not cut.
  long max_unknowns = 128;
  /// Work space of the dense least-squares problems run at once (bytes).
  std::size_t workspace_bytes = std::size_t(1) << 30;
  /// A column (row) k whose problem has no unique solution gets e_k / a_kk, Jacobi's, where the
  /// pattern holds the diagonal and a_kk is nonzero, instead of failing the factorization; they
  /// are counted in `SpaiPlan::fallbacks()`.
  bool fallback_to_diagonal = false;
  /// SpmvPrecision::single: the apply reads M's values rounded to float (M is computed in A's
  /// precision, the vectors stay in it): two thirds of the bytes an entry.
  SpmvPrecision apply_precision = SpmvPrecision::matrix;
};

template <class Matrix>
class SpaiPlan;

namespace impl {
template <class ExecSpace, class Matrix>
void spai_analyze_valid(const ExecSpace&, SpaiPlan<Matrix>&, const Matrix&, const Matrix&,
                        const SpaiOptions&, long);
}  // namespace impl

/// What the SPAI phases store for one matrix.
/// \tparam Matrix a `syncfree::CrsMatrix`
template <class Matrix>
class SpaiPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  using execution_space = typename device_type::execution_space;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return m_n; }
  const SpaiOptions& options() const { return m_options; }
  /// M, valid after a successful `spai_factor` (its pattern after `spai_analyze`).
  const Matrix& inverse() const { return m_M; }
  /// The product with M, valid after a successful `spai_factor`.
  const SpmvPlan<Matrix>& spmv_plan() const { return *m_spmv; }
  /// Entries of dense work space the problems take together (|I| (|J| + 1) + 2 |J| each): the
  /// measure of the factorization's work.
  std::int64_t dense_entries() const { return m_layout.total; }
  /// Columns (rows) that the last `spai_factor` gave Jacobi's e_k / a_kk
  /// (`SpaiOptions::fallback_to_diagonal`).
  std::int64_t fallbacks() const { return m_fallbacks; }
  /// The batches the factorizations run in.
  std::size_t num_batches() const { return m_layout.num_batches(); }
  /// || A m_k - e_k || (right) or || m_k^T A - e_k^T || (left) of each column or row k of M after
  /// `spai_factor` (1 where its problem failed).
  const Kokkos::View<double*, device_type>& residuals() const { return m_residuals; }

 private:
  template <class E, class M>
  friend void impl::spai_analyze_valid(const E&, SpaiPlan<M>&, const M&, const M&,
                                       const SpaiOptions&, long);
  template <class E, class M>
  friend Outcome spai_factor(const E&, SpaiPlan<M>&, const M&);

  std::size_t m_n = 0;
  std::size_t m_nnz = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  SpaiOptions m_options;
  Matrix m_unknowns;   ///< row k: the pattern of M's column k (right) or row k (left)
  Matrix m_equations;  ///< row k: the rows of A (right) or columns (left) problem k meets
  RearrangedMatrix<Matrix> m_transposed_A;  ///< A^T, for a right SPAI
  RearrangedMatrix<Matrix> m_result_to_M;   ///< M from the rows solved, for a right SPAI
  Matrix m_M;
  std::unique_ptr<SpmvPlan<Matrix>> m_spmv;
  impl::DenseWorkspaceLayout<device_type> m_layout;
  Kokkos::View<double*, device_type> m_residuals;
  std::int64_t m_fallbacks = 0;
};

namespace impl {

/// `spai_analyze` on a valid A and pattern, each problem cut to `max_unknowns` (0: not cut).
template <class ExecSpace, class Matrix>
void spai_analyze_valid(const ExecSpace& exec, SpaiPlan<Matrix>& plan, const Matrix& A,
                        const Matrix& pattern, const SpaiOptions& options, long max_unknowns) {
  SYNCFREE_REQUIRE(options.workspace_bytes > 0, InvalidArgument,
                   "spai_analyze: workspace_bytes must be positive");
  using scalar_type = typename Matrix::non_const_value_type;
  plan = SpaiPlan<Matrix>();
  plan.m_n = std::size_t(A.numRows());
  plan.m_nnz = std::size_t(A.nnz());
  plan.m_options = options;
  // Problem k combines rows of B: A^T's for a right SPAI (A's columns), A's own for a left one.
  Matrix B = A;
  if (options.side == SpaiSide::right) {
    plan.m_transposed_A = transpose_matrix_kept(exec, A);
    B = plan.m_transposed_A.matrix;
    plan.m_unknowns = capped_rows(exec, transpose_matrix(exec, pattern), max_unknowns);
  } else {
    plan.m_unknowns = capped_rows(exec, pattern, max_unknowns);
  }
  plan.m_equations = pattern_product(exec, plan.m_unknowns, B);
  typename Matrix::values_type::non_const_type values("syncfree::spai::values",
                                                      plan.m_unknowns.nnz());
  const Matrix solved =
      make_crs<Matrix>("syncfree::spai::solved", A.numRows(), A.numCols(),
                       plan.m_unknowns.graph.row_map, plan.m_unknowns.graph.entries, values);
  if (options.side == SpaiSide::right) {
    plan.m_result_to_M = transpose_matrix_kept(exec, solved);
    plan.m_M = plan.m_result_to_M.matrix;
  } else {
    plan.m_M = solved;
  }
  plan.m_spmv = std::make_unique<SpmvPlan<Matrix>>(exec, plan.m_M, SpmvFormat::automatic,
                                                   options.apply_precision);

  const auto j_map = plan.m_unknowns.graph.row_map;
  const auto i_map = plan.m_equations.graph.row_map;
  plan.m_layout = layout_dense_workspace<ExecSpace, typename Matrix::device_type>(
      exec, std::int64_t(plan.m_n), std::int64_t(options.workspace_bytes / sizeof(scalar_type)),
      KOKKOS_LAMBDA(const std::int64_t k) {
        return least_squares_workspace(i_map(k + 1) - i_map(k), j_map(k + 1) - j_map(k));
      });
  plan.m_analyzed = true;
}

}  // namespace impl

/// Structure phase with the pattern of M given: `pattern` (n x n, rows sorted) names M's entries;
/// `options.pattern_power`, `threshold` and `max_unknowns` are not used. Depends only on the
/// patterns.
/// \throws InvalidMatrix when A or the pattern is not square, has unsorted or repeated columns in
/// a row, or they differ in size.
template <class ExecSpace, class Matrix>
void spai_analyze(const ExecSpace& exec, SpaiPlan<Matrix>& plan, const Matrix& A,
                  const Matrix& pattern, const SpaiOptions& options) {
  require_valid(exec, A, MatrixCheck::square | MatrixCheck::sorted_unique, "spai_analyze");
  require_valid(exec, pattern, MatrixCheck::square | MatrixCheck::sorted_unique,
                "spai_analyze: the pattern");
  SYNCFREE_REQUIRE(pattern.numRows() == A.numRows(), InvalidMatrix, "spai_analyze: the pattern is ",
                   pattern.numRows(), "x", pattern.numCols(), ", A is ", A.numRows(), "x",
                   A.numCols());
  impl::spai_analyze_valid(exec, plan, A, pattern, options, 0);
}

/// Structure phase: M's pattern from A (`options.pattern_power`, `threshold`, `max_unknowns`).
/// With a threshold, the pattern depends on A's values at analysis; later factorizations keep it.
/// \throws as the other `spai_analyze`.
template <class ExecSpace, class Matrix>
void spai_analyze(const ExecSpace& exec, SpaiPlan<Matrix>& plan, const Matrix& A,
                  const SpaiOptions& options = {}) {
  require_valid(exec, A, MatrixCheck::square | MatrixCheck::sorted_unique, "spai_analyze");
  SYNCFREE_REQUIRE(options.pattern_power >= 1 && options.pattern_power <= 3, InvalidArgument,
                   "spai_analyze: pattern_power must be 1, 2 or 3, not ", options.pattern_power);
  SYNCFREE_REQUIRE(options.threshold >= 0, InvalidArgument,
                   "spai_analyze: the threshold must not be negative");
  const Matrix base = impl::thresholded_pattern(exec, A, options.threshold);
  SYNCFREE_REQUIRE(options.max_unknowns >= 0, InvalidArgument,
                   "spai_analyze: max_unknowns must not be negative");
  impl::spai_analyze_valid(exec, plan, A, impl::pattern_power(exec, base, options.pattern_power),
                           options, options.max_unknowns);
}

/// Numeric phase: one least-squares problem per column (right) or row (left) of M. Call again
/// when A's values change (same pattern).
/// \returns `Status::rank_deficient` with the first column (row) k whose problem has no unique
/// solution, or where no column (row) of A in its pattern has an entry in row (column) k;
/// `Status::not_finite` where NaN or Inf appear; else success. A failed column (row) of M is zero
/// (with `fallback_to_diagonal`, Jacobi's where it can be: then not a failure).
/// \throws InvalidState before `spai_analyze`; StructureMismatch when A has another size or
/// number of entries; InvalidMatrix under SpmvPrecision::single where an entry of M is beyond
/// float's range.
template <class ExecSpace, class Matrix>
Outcome spai_factor(const ExecSpace& exec, SpaiPlan<Matrix>& plan, const Matrix& A) {
  SYNCFREE_REQUIRE(plan.m_analyzed, InvalidState, "spai_factor: call spai_analyze first");
  SYNCFREE_REQUIRE(std::size_t(A.numRows()) == plan.m_n && std::size_t(A.nnz()) == plan.m_nnz,
                   StructureMismatch, "spai_factor: plan was analyzed for ", plan.m_n, " rows and ",
                   plan.m_nnz, " entries, the matrix has ", A.numRows(), " and ", A.nnz());
  const bool right = plan.m_options.side == SpaiSide::right;
  Matrix B = A;
  if (right) {
    plan.m_transposed_A.refill(exec, A);
    B = plan.m_transposed_A.matrix;
  }
  impl::SpaiLeastSquares<ExecSpace, Matrix> problems;
  problems.j_map = plan.m_unknowns.graph.row_map;
  problems.j_cols = plan.m_unknowns.graph.entries;
  problems.i_map = plan.m_equations.graph.row_map;
  problems.i_cols = plan.m_equations.graph.entries;
  problems.b_map = B.graph.row_map;
  problems.b_cols = B.graph.entries;
  problems.b_values = B.values;
  problems.workspace_offsets = plan.m_layout.offsets;
  // A right SPAI solves the rows of M^T: into a values array of their own, then moved into M.
  typename Matrix::values_type::non_const_type values = plan.m_M.values;
  if (right)
    values = decltype(values)(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::spai::solved_values"),
        plan.m_unknowns.nnz());
  problems.result = values;
  plan.m_residuals = Kokkos::View<double*, typename Matrix::device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::spai::residuals"), plan.m_n);
  problems.residual = plan.m_residuals;
  problems.fallback = plan.m_options.fallback_to_diagonal;
  problems.fallbacks =
      Kokkos::View<std::int64_t*, typename Matrix::device_type>("syncfree::spai::fallbacks", 1);
  const std::int64_t first_bad =
      impl::run_in_batches(exec, "syncfree::spai::least_squares", problems, plan.m_layout);
  plan.m_fallbacks =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), problems.fallbacks)(0);
  if (right) {
    const Matrix rows_solved =
        make_crs<Matrix>("syncfree::spai::solved", A.numRows(), A.numCols(),
                         plan.m_unknowns.graph.row_map, plan.m_unknowns.graph.entries, values);
    plan.m_result_to_M.refill(exec, rows_solved);
  }
  plan.m_factored = first_bad < 0;
  if (plan.m_factored) {
    plan.m_spmv->round_values(exec);
    return {};
  }
  const std::int64_t k = first_bad / 4;
  const char* what = right ? "column " : "row ";
  switch (int(first_bad % 4)) {
    case impl::least_squares_not_finite:
      return {Status::not_finite, k,
              impl::concat(what, k,
                           " of the approximate inverse: NaN or Inf in its least-squares "
                           "problem (from A's values)")};
    case impl::least_squares_misses_k:
      return {Status::rank_deficient, k,
              impl::concat(what, k, " of the approximate inverse: no ", right ? "column" : "row",
                           " of A in its pattern has an entry in ", right ? "row " : "column ", k,
                           ", so (", right ? "A M" : "M A", ")(", k, ", ", k, ") would be 0")};
    default:
      return {Status::rank_deficient, k,
              impl::concat(what, k,
                           " of the approximate inverse: its least-squares problem is rank "
                           "deficient (A restricted to the pattern has dependent ",
                           right ? "columns" : "rows", ")")};
  }
}

/// y = alpha M x + beta y.
/// \throws InvalidState unless the last `spai_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y>
void spai_apply(const ExecSpace& exec, const SpaiPlan<Matrix>& plan, const X& x, const Y& y,
                typename Matrix::non_const_value_type alpha = 1,
                typename Matrix::non_const_value_type beta = 0) {
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "spai_apply: no successful spai_factor for this plan");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows(),
                   DimensionMismatch, "spai_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0));
  plan.spmv_plan().apply(exec, alpha, x, beta, y);
}

/// The largest and the mean residual norm of M's columns (rows): see `SpaiPlan::residuals`.
struct SpaiQuality {
  double max_residual = 0;
  double mean_residual = 0;
};

template <class ExecSpace, class Matrix>
SpaiQuality spai_quality(const ExecSpace& exec, const SpaiPlan<Matrix>& plan) {
  SYNCFREE_REQUIRE(plan.residuals().extent(0) == plan.num_rows() && plan.num_rows() > 0,
                   InvalidState, "spai_quality: no spai_factor for this plan");
  const auto r = plan.residuals();
  SpaiQuality q;
  Kokkos::parallel_reduce(
      "syncfree::spai::max_residual", Kokkos::RangePolicy<ExecSpace>(exec, 0, r.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k, double& m) {
        if (r(k) > m) m = r(k);
      },
      Kokkos::Max<double>(q.max_residual));
  Kokkos::parallel_reduce(
      "syncfree::spai::sum_residual", Kokkos::RangePolicy<ExecSpace>(exec, 0, r.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k, double& s) { s += r(k); }, q.mean_residual);
  q.mean_residual /= double(r.extent(0));
  return q;
}

/// SPAI as an `Operator`: analyzes and factors on construction.
template <class Matrix>
class SpaiPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = typename Preconditioner<Matrix>::base;

  /// \throws as `spai_analyze`. A failed factorization is not thrown: check `outcome()`; `apply`
  /// then throws InvalidState.
  SpaiPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                     const SpaiOptions& options = {}) {
    spai_analyze(exec, m_plan, A, options);
    m_outcome = spai_factor(exec, m_plan, A);
  }
  /// On M's pattern given (`spai_analyze` with a pattern).
  SpaiPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                     const Matrix& pattern, const SpaiOptions& options) {
    spai_analyze(exec, m_plan, A, pattern, options);
    m_outcome = spai_factor(exec, m_plan, A);
  }

  const Outcome& outcome() const override { return m_outcome; }
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    m_outcome = spai_factor(exec, m_plan, A);
    return m_outcome;
  }
  const SpaiPlan<Matrix>& plan() const { return m_plan; }
  std::size_t num_rows() const override { return m_plan.num_rows(); }
  std::size_t num_cols() const override { return m_plan.num_rows(); }
  std::string name() const override {
    return m_plan.options().apply_precision == SpmvPrecision::single
               ? "spai, single-precision values"
               : "spai";
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState,
                     "spai: factorization failed: ", m_outcome.reason);
    spai_apply(exec, m_plan, x, y, alpha, beta);
  }

 private:
  SpaiPlan<Matrix> m_plan;
  Outcome m_outcome;
};

}  // namespace syncfree
