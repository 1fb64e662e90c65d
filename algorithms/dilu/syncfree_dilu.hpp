// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Multicolor DILU (AmgX's multicolor_dilu_solver; Dufrechou's sync-free sweeps): the
/// rows colored so that neighbours in A + A^T differ, M = (D + L) D^{-1} (D + U) with L and U the
/// entries of earlier and later colors and D the pivots of an incomplete factorization that
/// updates only the diagonal (impl/syncfree_dilu_rules.hpp has the formulas). Only D is stored.
///
/// \code
///   syncfree::DiluPlan<Matrix> plan;
///   syncfree::dilu_analyze(exec, plan, A, options);   // coloring and layout (pattern only)
///   auto outcome = syncfree::dilu_factor(exec, plan, A);  // D (values)
///   syncfree::dilu_apply(exec, plan, A, r, z);        // z = omega M^{-1} r
///   syncfree::dilu_smooth(exec, plan, A, b, x, 2);    // x += omega M^{-1} (b - A x), twice
/// \endcode
///
/// The factorization and each sweep run color after color: one launch per color (`per_color`),
/// or one launch in which a row waits only on the rows it reads (`sync_free_2d`,
/// `sync_free_1d`, see impl/syncfree_dilu_sweeps.hpp). They read a copy of A with its rows
/// grouped by color (P A P^T, refreshed by each `dilu_factor`): each color's rows are contiguous,
/// and an entry's color relation is a comparison of its column with the color's first and last
/// row instead of a lookup.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/dilu/impl/syncfree_dilu_layout.hpp"
#include "algorithms/dilu/impl/syncfree_dilu_rules.hpp"
#include "algorithms/dilu/impl/syncfree_dilu_sweeps.hpp"
#include "algorithms/dilu/syncfree_dilu_options.hpp"
#include "algorithms/ordering/syncfree_ordering.hpp"
#include "core/impl/syncfree_diagonal_positions.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_rearranged_matrix.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "algorithms/dilu/cuda/syncfree_dilu_sync_free_1d_cuda.hpp"
#endif

namespace syncfree {

template <class Matrix>
class DiluPlan;

namespace impl {
template <class ExecSpace, class Matrix, class B, bool WithX, bool Scatter, class Out>
void dilu_sweeps(const ExecSpace& exec, const DiluPlan<Matrix>& plan, const B& b, const Out& out,
                 typename Matrix::non_const_value_type scale,
                 typename Matrix::non_const_value_type keep);
}  // namespace impl

template <class ExecSpace, class Matrix, class B, class X>
void dilu_smooth(const ExecSpace& exec, const DiluPlan<Matrix>& plan, const Matrix& A, const B& b,
                 const X& x, int sweeps = 1);

/// What the DILU phases store for one matrix pattern.
/// \tparam Matrix a `syncfree::CrsMatrix`
template <class Matrix>
class DiluPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return std::size_t(m_layout.n); }
  const DiluOptions& options() const { return m_options; }
  /// The variant the sweeps run (`automatic` resolved).
  DiluVariant variant() const { return m_variant; }
  int num_colors() const { return m_layout.num_colors; }
  /// Where each color starts in `rows_by_color()` (num_colors() + 1 entries).
  const std::vector<ordinal_type>& color_begin() const { return m_layout.color_begin; }
  /// The rows, ascending color, each color in row order: P of P A P^T.
  const Kokkos::View<ordinal_type*, device_type>& rows_by_color() const { return m_layout.perm; }
  /// The groups of rows of `sync_free_1d` (one color, one lane count each).
  ordinal_type num_groups() const { return m_layout.num_groups; }
  /// The color of each row.
  const Kokkos::View<ordinal_type*, device_type>& colors() const { return m_layout.color; }
  /// Pivots below zero at the last `dilu_factor`: with any, M is indefinite even where A is SPD
  /// (A not an M-matrix), and CG breaks down; BiCGStab and GMRES take it.
  std::int64_t negative_pivots() const { return m_negative_pivots; }
  /// E = D^{-1} by row of A (a copy), valid after a successful `dilu_factor`.
  Vector<scalar_type, device_type> inverse_diagonal() const {
    Vector<scalar_type, device_type> e("syncfree::dilu::inverse_diagonal", num_rows());
    impl::scatter_axpby(typename device_type::execution_space(), m_layout.perm, scalar_type(1),
                        m_inverse, scalar_type(0), e);
    return e;
  }

 private:
  template <class E, class M>
  friend void dilu_analyze(const E&, DiluPlan<M>&, const M&, const DiluOptions&);
  template <class E, class M>
  friend Outcome dilu_factor(const E&, DiluPlan<M>&, const M&);
  template <class E, class M, class B, bool WithX, bool Scatter, class Out>
  friend void impl::dilu_sweeps(const E&, const DiluPlan<M>&, const B&, const Out&,
                                typename M::non_const_value_type, typename M::non_const_value_type);
  template <class E, class M, class B, class X>
  friend void dilu_smooth(const E&, const DiluPlan<M>&, const M&, const B&, const X&, int);

  DiluOptions m_options;
  DiluVariant m_variant = DiluVariant::sync_free_1d;
  bool m_analyzed = false;
  bool m_factored = false;
  std::int64_t m_nnz = 0;
  std::int64_t m_negative_pivots = 0;
  impl::DiluLayout<ordinal_type, device_type> m_layout;
  RearrangedMatrix<Matrix> m_B;  ///< P A P^T, A's values at the last factorization
  Kokkos::View<std::int64_t*, device_type> m_diagonal;
  Kokkos::View<std::int64_t*, device_type> m_transposed;
  Vector<scalar_type, device_type> m_inverse;
  /// The sweeps' work: delta (forward) and Delta (backward), armed for the sync-free variants,
  /// and the smoother's x in B's order.
  Kokkos::View<scalar_type*, device_type> m_delta, m_Delta, m_x;
  mutable impl::Tickets<device_type> m_tickets;
};

/// Structure phase: colors the rows (options.coloring_distance, deterministic) and
/// lays them out for options.variant. Depends only on the pattern of A.
/// \throws InvalidMatrix when A is not square or its rows are not sorted and unique (naming the
/// row); InvalidArgument on options out of range.
template <class ExecSpace, class Matrix>
void dilu_analyze(const ExecSpace& exec, DiluPlan<Matrix>& plan, const Matrix& A,
                  const DiluOptions& options = {}) {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  SYNCFREE_REQUIRE(options.coloring_distance == 1 || options.coloring_distance == 2,
                   InvalidArgument, "dilu_analyze: coloring distance must be 1 or 2, got ",
                   options.coloring_distance);
  SYNCFREE_REQUIRE(options.sweeps >= 1, InvalidArgument, "dilu_analyze: sweeps must be >= 1, got ",
                   options.sweeps);
  SYNCFREE_REQUIRE(options.entries_per_lane >= 1, InvalidArgument,
                   "dilu_analyze: entries per lane must be >= 1, got ", options.entries_per_lane);
  SYNCFREE_REQUIRE(impl::is_finite(options.omega) && options.omega != 0, InvalidArgument,
                   "dilu_analyze: omega must be finite and nonzero, got ", options.omega);
  require_valid(exec, A, MatrixCheck::square | MatrixCheck::sorted_unique, "dilu_analyze");
  impl::ScopedRegion region("syncfree::dilu::analyze");
  plan = DiluPlan<Matrix>();
  plan.m_options = options;
  plan.m_variant =
      options.variant == DiluVariant::automatic ? DiluVariant::sync_free_1d : options.variant;
  plan.m_nnz = std::int64_t(A.nnz());

  const auto colors =
      impl::color_graph(exec, impl::symmetric_adjacency(exec, A), options.coloring_distance);
  plan.m_layout = impl::make_dilu_layout(exec, A.graph.row_map, colors, options.entries_per_lane);

  plan.m_B = permute_matrix_kept(exec, A, plan.m_layout.perm);
  plan.m_diagonal = impl::diagonal_positions(exec, plan.m_B.matrix, "syncfree::dilu::diagonal");
  plan.m_transposed = impl::dilu_transposed_positions(
      exec, plan.m_B.matrix, plan.m_layout.color_begin_device, plan.m_layout.num_colors);
  const std::size_t n = std::size_t(A.numRows());
  plan.m_inverse = Vector<scalar_type, device_type>("syncfree::dilu::inverse_diagonal", n);
  plan.m_delta = Kokkos::View<scalar_type*, device_type>("syncfree::dilu::delta", n);
  plan.m_Delta = Kokkos::View<scalar_type*, device_type>("syncfree::dilu::Delta", n);
  plan.m_x = Kokkos::View<scalar_type*, device_type>("syncfree::dilu::x", n);
  plan.m_tickets.allocate("syncfree::dilu::ticket");
  if (plan.m_variant != DiluVariant::per_color) {
    const auto delta = plan.m_delta;
    const auto Delta = plan.m_Delta;
    Kokkos::parallel_for(
        "syncfree::dilu::arm", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const std::size_t i) {
          impl::Sentinel<scalar_type>::arm(&delta(i));
          impl::Sentinel<scalar_type>::arm(&Delta(i));
        });
  }
  plan.m_analyzed = true;
}

namespace impl {

template <class Matrix, class Rows>
void fill_dilu_rows(Rows& rows, const Matrix& B) {
  rows.row_map = B.graph.row_map;
  rows.entries = B.graph.entries;
  rows.values = B.values;
}

template <class Plan, class Matrix>
void require_dilu_pattern(const Plan& plan, const Matrix& A, const char* phase) {
  SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, phase, ": call dilu_analyze first");
  SYNCFREE_REQUIRE(std::size_t(A.numRows()) == plan.num_rows() && A.numCols() == A.numRows(),
                   StructureMismatch, phase, ": plan was analyzed for ", plan.num_rows(),
                   " rows, the matrix is ", A.numRows(), "x", A.numCols());
}

}  // namespace impl

/// Numeric phase: the pivots D, color after color. Call again whenever the values of A change.
/// \returns `Status::zero_pivot` naming the row (of A) whose diagonal is missing or whose pivot is
/// zero, `Status::not_finite` naming the row whose pivot is NaN or Inf, else success. Of several
/// failures, the one in the earliest color is named (later rows only inherit it).
/// \throws InvalidState before `dilu_analyze`; StructureMismatch when A has another pattern size.
template <class ExecSpace, class Matrix>
Outcome dilu_factor(const ExecSpace& exec, DiluPlan<Matrix>& plan, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  impl::require_dilu_pattern(plan, A, "dilu_factor");
  SYNCFREE_REQUIRE(std::int64_t(A.nnz()) == plan.m_nnz, StructureMismatch,
                   "dilu_factor: plan was analyzed for ", plan.m_nnz, " entries, the matrix has ",
                   A.nnz());
  impl::ScopedRegion region("syncfree::dilu::factor");
  plan.m_B.refill(exec, A);
  impl::DiluFactorRule<Matrix> rule;
  impl::fill_dilu_rows(rule, plan.m_B.matrix);
  rule.diagonal = plan.m_diagonal;
  rule.transposed = plan.m_transposed;
  rule.inverse = plan.m_inverse;
  rule.failure = Kokkos::View<std::int64_t, device_type>("syncfree::dilu::failure");
  Kokkos::deep_copy(exec, rule.failure, std::numeric_limits<std::int64_t>::max());
  rule.negative = Kokkos::View<std::int64_t, device_type>("syncfree::dilu::negative_pivots");
  if (plan.m_variant != DiluVariant::per_color) {
    const auto inverse = plan.m_inverse;
    Kokkos::parallel_for(
        "syncfree::dilu::arm", Kokkos::RangePolicy<ExecSpace>(exec, 0, plan.num_rows()),
        KOKKOS_LAMBDA(const std::size_t i) { impl::Sentinel<scalar_type>::arm(&inverse(i)); });
  }
  impl::dilu_sweep(exec, plan.m_layout, plan.m_variant, rule, false, plan.m_tickets);
  std::int64_t failure = 0;
  Kokkos::deep_copy(exec, failure, rule.failure);
  Kokkos::deep_copy(exec, plan.m_negative_pivots, rule.negative);
  exec.fence();
  plan.m_factored = failure == std::numeric_limits<std::int64_t>::max();
  if (plan.m_factored) return {};
  ordinal_type failed = 0;  // A's row at the failing position of B
  Kokkos::deep_copy(exec, failed,
                    Kokkos::subview(plan.m_layout.perm, ordinal_type(failure & 0xFFFFFFFFll)));
  exec.fence();
  const std::int64_t row = failed;
  switch (int((failure >> 32) & 3)) {
    case impl::dilu_missing_diagonal:
      return {Status::zero_pivot, row,
              impl::concat("row ", row, ": no diagonal entry; DILU needs one in every row")};
    case impl::dilu_zero_pivot:
      return {Status::zero_pivot, row, impl::concat("row ", row, ": the DILU pivot is zero")};
    default:
      return {Status::not_finite, row, impl::concat("row ", row, ": the DILU pivot is not finite")};
  }
}

namespace impl {

/// The forward and backward sweeps on B: out = scale Delta + keep out, Delta = M^{-1} (b - A x)
/// with x the plan's m_x (in B's order) under WithX, else 0; out in A's order under Scatter.
template <class ExecSpace, class Matrix, class B, bool WithX, bool Scatter, class Out>
void dilu_sweeps(const ExecSpace& exec, const DiluPlan<Matrix>& plan, const B& b, const Out& out,
                 typename Matrix::non_const_value_type scale,
                 typename Matrix::non_const_value_type keep) {
  impl::DiluForwardRule<Matrix, B, WithX> forward;
  impl::fill_dilu_rows(forward, plan.m_B.matrix);
  forward.perm = plan.m_layout.perm;
  forward.inverse = plan.m_inverse;
  forward.b = b;
  forward.x = plan.m_x;
  forward.delta = plan.m_delta;
  forward.Delta = plan.m_Delta;
  impl::dilu_sweep(exec, plan.m_layout, plan.m_variant, forward, false, plan.m_tickets);

  impl::DiluBackwardRule<Matrix, Out, Scatter> backward;
  impl::fill_dilu_rows(backward, plan.m_B.matrix);
  backward.perm = plan.m_layout.perm;
  backward.inverse = plan.m_inverse;
  backward.delta = plan.m_delta;
  backward.Delta = plan.m_Delta;
  backward.out = out;
  backward.scale = scale;
  backward.keep = keep;
  impl::dilu_sweep(exec, plan.m_layout, plan.m_variant, backward, true, plan.m_tickets);
}

template <class Plan, class Matrix>
void require_dilu_factored(const Plan& plan, const Matrix& A, const char* phase) {
  require_dilu_pattern(plan, A, phase);
  SYNCFREE_REQUIRE(plan.factored(), InvalidState, phase,
                   ": no successful dilu_factor for this plan");
}

}  // namespace impl

/// y = alpha omega M^{-1} x + beta y: one step of the smoother from zero. A is the factored matrix
/// (its size is checked; the sweeps read the plan's copy of its values, taken by `dilu_factor`).
/// x and y must not alias.
/// \throws InvalidState unless the last `dilu_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y>
void dilu_apply(const ExecSpace& exec, const DiluPlan<Matrix>& plan, const Matrix& A, const X& x,
                const Y& y, typename Matrix::non_const_value_type alpha = 1,
                typename Matrix::non_const_value_type beta = 0) {
  using scalar_type = typename Matrix::non_const_value_type;
  impl::require_dilu_factored(plan, A, "dilu_apply");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows(),
                   DimensionMismatch, "dilu_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0));
  impl::ScopedRegion region("syncfree::dilu::apply");
  impl::dilu_sweeps<ExecSpace, Matrix, X, false, true, Y>(
      exec, plan, x, y, alpha * scalar_type(plan.options().omega), beta);
}

/// `sweeps` steps of the smoother x += omega M^{-1} (b - A x), the residual formed inside the
/// forward sweep. A is the factored matrix (as for `dilu_apply`); x is gathered into B's order
/// before the steps and scattered back after them.
/// \throws InvalidState unless the last `dilu_factor` succeeded; DimensionMismatch on sizes;
/// InvalidArgument when sweeps < 0.
template <class ExecSpace, class Matrix, class B, class X>
void dilu_smooth(const ExecSpace& exec, const DiluPlan<Matrix>& plan, const Matrix& A, const B& b,
                 const X& x, int sweeps) {
  using scalar_type = typename Matrix::non_const_value_type;
  impl::require_dilu_factored(plan, A, "dilu_smooth");
  SYNCFREE_REQUIRE(b.extent(0) == plan.num_rows() && x.extent(0) == plan.num_rows(),
                   DimensionMismatch, "dilu_smooth: plan has ", plan.num_rows(), " rows, b ",
                   b.extent(0), ", x ", x.extent(0));
  SYNCFREE_REQUIRE(sweeps >= 0, InvalidArgument, "dilu_smooth: sweeps must be >= 0, got ", sweeps);
  impl::ScopedRegion region("syncfree::dilu::smooth");
  if (sweeps == 0) return;
  const auto perm = plan.m_layout.perm;
  const auto x_b = plan.m_x;  // x in B's order
  Kokkos::parallel_for(
      "syncfree::dilu::gather_x", Kokkos::RangePolicy<ExecSpace>(exec, 0, plan.num_rows()),
      KOKKOS_LAMBDA(const std::size_t i) { x_b(i) = x(perm(i)); });
  for (int s = 0; s < sweeps; ++s)
    impl::dilu_sweeps<ExecSpace, Matrix, B, true, false, decltype(plan.m_x)>(
        exec, plan, b, plan.m_x, scalar_type(plan.options().omega), scalar_type(1));
  Kokkos::parallel_for(
      "syncfree::dilu::scatter_x", Kokkos::RangePolicy<ExecSpace>(exec, 0, plan.num_rows()),
      KOKKOS_LAMBDA(const std::size_t i) { x(perm(i)) = x_b(i); });
}

/// Multicolor DILU as an `Operator`: `options.sweeps` steps of the smoother from zero per
/// application (one: omega M^{-1}). Analyzes and factors on construction; keeps A (shallow).
template <class Matrix>
class DiluPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = typename Preconditioner<Matrix>::base;

  /// \throws as dilu_analyze. A failed factorization is not thrown: check `outcome()`; `apply`
  /// then throws InvalidState.
  DiluPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                     const DiluOptions& options = {})
      : m_A(A) {
    dilu_analyze(exec, m_plan, A, options);
    m_outcome = dilu_factor(exec, m_plan, A);
    if (options.sweeps > 1)
      m_work = typename base::vector_type("syncfree::dilu::smoothed", m_plan.num_rows());
  }

  const Outcome& outcome() const override { return m_outcome; }
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    m_A = A;
    m_outcome = dilu_factor(exec, m_plan, A);
    return m_outcome;
  }
  const DiluPlan<Matrix>& plan() const { return m_plan; }
  std::size_t num_rows() const override { return m_plan.num_rows(); }
  std::size_t num_cols() const override { return m_plan.num_rows(); }
  std::string name() const override { return "dilu"; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState,
                     "dilu: factorization failed: ", m_outcome.reason);
    if (m_plan.options().sweeps == 1) {
      dilu_apply(exec, m_plan, m_A, x, y, alpha, beta);
      return;
    }
    dilu_apply(exec, m_plan, m_A, x, m_work);
    dilu_smooth(exec, m_plan, m_A, x, m_work, m_plan.options().sweeps - 1);
    impl::axpby(exec, alpha, m_work, beta, y);
  }

 private:
  Matrix m_A;
  DiluPlan<Matrix> m_plan;
  Outcome m_outcome;
  typename base::vector_type m_work;
};

}  // namespace syncfree
