// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Incomplete Cholesky factorization IC(0) of a symmetric matrix, A ~ L L^T on the pattern
/// of A's lower triangle, with a synchronization-free numeric factorization and the two
/// triangular solves of its application.
///
/// \code
///   syncfree::IcPlan<Matrix> plan;
///   syncfree::ic_analyze(exec, plan, A);               // symmetry, pattern, levels
///   auto outcome = syncfree::ic_factor(exec, plan, A);  // values; again whenever they change
///   syncfree::ic_apply(exec, plan, r, z);              // z = L^{-T} L^{-1} r
/// \endcode
///
/// For a symmetric positive definite A, IC(0) is what ILU(0) computes (U = D L^T) with one
/// triangle's factor: a preconditioner that is symmetric positive definite by construction, which
/// CG needs. Where A is SPD but far from diagonally dominant (structural stiffness matrices), a
/// pivot can come out non-positive; `shift` factors A + alpha diag(A) instead, and `auto_shift`
/// searches for the smallest alpha of a doubling sequence that works (Manteuffel, 1980).
///
/// The solve with L^T runs on a transposed copy of L by default; `IcUpperSolve::column_push`
/// solves on L itself, so the plan holds one triangle (about half ILU(0)'s memory), at the price
/// of atomic adds whose order varies (syncfree_ic_column_push.hpp).

#include <cmath>
#include <memory>
#include <string>

#include "algorithms/ic/impl/syncfree_ic_analyze.hpp"
#include "algorithms/ic/impl/syncfree_ic_factor.hpp"
#include "algorithms/ic/syncfree_ic_options.hpp"
#include "algorithms/ilu/impl/syncfree_shift_search.hpp"
#include "algorithms/ordering/syncfree_ordering.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// Plan for the IC(0) factorization of one symmetric sparsity pattern. Owns the factor and every
/// work array. Copies of a plan share that storage.
/// \tparam Matrix a `syncfree::CrsMatrix` (scalar float or double)
template <class Matrix>
class IcPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;

  /// \throws InvalidArgument when the shift is negative or not finite.
  explicit IcPlan(const IcOptions& options = {}) : m_options(options) { set_shift(options.shift); }

  const IcOptions& options() const { return m_options; }
  bool analyzed() const { return m_analyzed; }
  /// Whether the last `ic_factor` succeeded (so `ic_apply` may run).
  bool factored() const { return m_factored; }
  ordinal_type num_rows() const { return m_storage.n; }
  /// Entries of L, the diagonal included: A's lower triangle.
  std::size_t num_factor_entries() const { return std::size_t(m_storage.factor.nnz()); }
  /// L: the factor after a successful `ic_factor`.
  const Matrix& factor() const { return m_storage.factor; }
  /// The solve plans of L and of L^T (on the plan's copy of L^T; not analyzed with
  /// IcUpperSolve::column_push, which needs no plan).
  const SptrsvPlan<Matrix>& lower_solve_plan() const { return m_storage.lower; }
  const SptrsvPlan<Matrix>& upper_solve_plan() const { return m_storage.upper; }
  /// With IcUpperSolve::column_push: whether it runs a launch per level of L (else sync-free).
  bool column_push_by_levels() const { return m_storage.push.by_levels; }
  /// The diagonal shift of the next `ic_factor` (IcOptions::shift until `set_shift`).
  double shift() const { return m_shift; }
  /// \throws InvalidArgument unless `shift` is finite and >= 0.
  void set_shift(double shift) {
    SYNCFREE_REQUIRE(shift >= 0 && std::isfinite(shift), InvalidArgument,
                     "IcPlan: the diagonal shift must be finite and >= 0, got ", shift);
    m_shift = shift;
  }
  /// Device memory the plan holds.
  std::size_t memory_bytes() const { return m_storage.bytes(); }

 private:
  template <class E, class M>
  friend void ic_analyze(const E&, IcPlan<M>&, const M&);
  template <class E, class M>
  friend Outcome ic_factor(const E&, IcPlan<M>&, const M&);
  template <class E, class M, class B, class X>
  friend void ic_apply(const E&, const IcPlan<M>&, const B&, const X&);

  IcOptions m_options;
  double m_shift = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  impl::IcPlanStorage<Matrix> m_storage;
};

/// Symbolic phase: validates A, takes its lower triangle as the factor's pattern, finds the levels
/// and row order of the factorization and of both triangular solves. Reusable while the pattern
/// of A stays the same.
/// \throws InvalidMatrix when A is not square, has unsorted or duplicate column indices, a missing
/// diagonal entry, a NaN or Inf value, or is not symmetric (an entry differing from its mirror by
/// more than 1e-10 times the largest of its row, a missing mirror counting as zero);
/// InvalidArgument when `reproducible` comes with `tune_solves` or the column push.
template <class ExecSpace, class Matrix>
void ic_analyze(const ExecSpace& exec, IcPlan<Matrix>& plan, const Matrix& A) {
  impl::ScopedRegion region("syncfree::ic::analyze");
  plan.m_analyzed = plan.m_factored = false;
  const IcOptions& o = plan.m_options;
  impl::require_tuning_not_reproducible(o.tune_solves, o.reproducible, "ic_analyze");
  SYNCFREE_REQUIRE(!(o.reproducible && o.upper_solve == IcUpperSolve::column_push), InvalidArgument,
                   "ic_analyze: reproducible results cannot come from the column push (its atomic "
                   "adds land in an order that varies); use the transposed copy");
  impl::ic_analyze_structure(exec, plan.m_storage, A, o.solve_algorithm, o.reproducible,
                             o.tune_solves, o.upper_solve == IcUpperSolve::column_push);
  plan.m_analyzed = true;
}

/// Numeric phase: computes L from the values of A (plus the plan's shift on the diagonal). Call
/// again whenever they change.
/// \returns success, or the problem of the first row that has one: `Status::not_finite` when its
/// values in A hold a NaN or Inf or its pivot became one, `Status::not_positive_definite` when its
/// pivot is not positive. One small read back to the host per call.
/// \throws InvalidState before `ic_analyze`; StructureMismatch when A does not have the pattern
/// the plan analyzed.
template <class ExecSpace, class Matrix>
Outcome ic_factor(const ExecSpace& exec, IcPlan<Matrix>& plan, const Matrix& A) {
  SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "ic_factor: call ic_analyze first");
  impl::ScopedRegion region("syncfree::ic::factor");
  plan.m_factored = false;
  const Outcome outcome = impl::ic_factor_values(exec, plan.m_storage, A, plan.m_shift);
  auto& s = plan.m_storage;
  sptrsv_values_changed(s.lower);
  if (plan.m_options.upper_solve == IcUpperSolve::transposed_copy) {
    s.transpose.refill(exec, s.factor);
    sptrsv_values_changed(s.upper);
  }
  plan.m_factored = outcome.ok();
  return outcome;
}

/// x = L^{-T} L^{-1} b for one right-hand side (rank-1 views) or several (rank-2). Asynchronous.
/// \throws InvalidState unless the last `ic_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class BView, class XView>
void ic_apply(const ExecSpace& exec, const IcPlan<Matrix>& plan, const BView& b, const XView& x) {
  static_assert(int(BView::rank) == int(XView::rank) && (BView::rank == 1 || BView::rank == 2),
                "ic_apply: b and x must both be vectors or both be multivectors");
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "ic_apply: no successful ic_factor for this plan");
  const auto& s = plan.m_storage;
  SYNCFREE_REQUIRE(b.extent(0) == std::size_t(s.n) && x.extent(0) == std::size_t(s.n) &&
                       b.extent(1) == x.extent(1),
                   DimensionMismatch, "ic_apply: the factor has ", s.n, " rows, b is ", b.extent(0),
                   "x", b.extent(1), ", x is ", x.extent(0), "x", x.extent(1));
  impl::ScopedRegion region("syncfree::ic::apply");
  const bool column_push = plan.options().upper_solve == IcUpperSolve::column_push;
  const auto solve = [&](const auto& b_column, const auto& x_column) {
    sptrsv_solve(exec, s.lower, s.factor, b_column, s.work);
    if (column_push) {
      const auto& lower = impl::sptrsv_plan_storage(s.lower);
      impl::ic_column_push_solve(exec, s.push, s.factor, lower.levels, lower.level_ptr_host,
                                 lower.order, s.work, x_column);
    } else {
      sptrsv_solve(exec, s.upper, s.transpose.matrix, s.work, x_column);
    }
  };
  if constexpr (BView::rank == 1) {
    solve(b, x);
  } else {
    for (std::size_t j = 0; j < b.extent(1); ++j)
      solve(Kokkos::subview(b, Kokkos::ALL(), j), Kokkos::subview(x, Kokkos::ALL(), j));
  }
}

/// IC(0) as an `Operator` (y = alpha (L L^T)^{-1} x + beta y): analyzes and factors on
/// construction, searching for a shift where the options ask. A failed factorization is not
/// thrown: check `outcome()`; `apply` then throws InvalidState.
///
/// With an ordering other than `natural` (a symmetric permutation keeps A symmetric), the
/// preconditioner factors B = P A P^T and applies P^T (L L^T)^{-1} P, gathering and scattering the
/// vectors in a pass each.
template <class Matrix>
class IcPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using base = typename Preconditioner<Matrix>::base;
  using ordering_type = Ordering<ordinal_type, typename Matrix::device_type>;

  IcPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                   const IcOptions& options = {}, const OrderingOptions& ordering = {})
      : m_plan(options),
        m_ordering(impl::compute_ordering_validated(exec, A, ordering,
                                                    [&] { impl::ic_validate(exec, A); })),
        m_work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ic::operator_work"),
               A.numRows()) {
    if (!m_ordering.is_natural()) {
      m_permuted = permute_matrix_kept(exec, A, m_ordering.permutation);
      m_permuted_in = decltype(m_permuted_in)(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ic::permuted_in"),
          A.numRows());
    }
    ic_analyze(exec, m_plan, factored(A));
    m_outcome = factor(exec, A);
  }

  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    if (!m_ordering.is_natural()) m_permuted.refill(exec, A);
    m_outcome = factor(exec, A);
    return m_outcome;
  }

  const IcPlan<Matrix>& plan() const { return m_plan; }
  const ordering_type& ordering() const { return m_ordering; }
  const Outcome& outcome() const override { return m_outcome; }
  /// The diagonal shift of the factor (IcOptions::shift, or what `auto_shift` found).
  double shift() const { return m_plan.shift(); }
  /// Factorizations the last (re)factorization ran: more than one where `auto_shift` searched.
  int shift_attempts() const { return m_shift_attempts; }
  std::size_t num_rows() const override { return std::size_t(m_plan.num_rows()); }
  std::size_t num_cols() const override { return std::size_t(m_plan.num_rows()); }
  std::string name() const override {
    std::string name = "ic(0)";
    if (!m_ordering.is_natural()) name += impl::concat(", ", to_string(m_ordering.options.method));
    if (m_ordering.num_colors > 0) name += impl::concat(" (", m_ordering.num_colors, " colors)");
    name += impl::concat(", solves ", to_string(m_plan.lower_solve_plan().effective_algorithm()));
    if (m_plan.options().upper_solve == IcUpperSolve::column_push)
      name += m_plan.column_push_by_levels() ? " and column push by levels"
                                             : " and sync-free column push";
    if (m_plan.shift() > 0) name += impl::concat(", shift ", m_plan.shift());
    return name;
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    this->check_sizes(x, y);
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState, "ic: factorization failed: ", m_outcome.reason);
    if (!m_ordering.is_natural()) {
      permute_vector(exec, m_ordering.permutation, x, m_permuted_in);
      ic_apply(exec, m_plan, m_permuted_in, m_work);
      impl::scatter_axpby(exec, m_ordering.permutation, alpha, m_work, beta, y);
      return;
    }
    if (alpha == scalar_type(1) && beta == scalar_type(0)) {
      ic_apply(exec, m_plan, x, y);
      return;
    }
    ic_apply(exec, m_plan, x, m_work);
    impl::axpby(exec, alpha, m_work, beta, y);
  }

 private:
  const Matrix& factored(const Matrix& A) const {
    return m_ordering.is_natural() ? A : m_permuted.matrix;
  }

  /// The factorization, with the shift the options ask for or found by the search; a failed row
  /// named as A numbers it.
  Outcome factor(const typename base::execution_space& exec, const Matrix& A) {
    const auto search =
        impl::search_shift(m_plan.options().shift, m_plan.options().auto_shift, [&](double shift) {
          m_plan.set_shift(shift);
          return ic_factor(exec, m_plan, factored(A));
        });
    m_shift_attempts = search.attempts;
    return impl::outcome_in_original_rows(search.outcome, m_ordering);
  }

  IcPlan<Matrix> m_plan;
  ordering_type m_ordering;
  RearrangedMatrix<Matrix> m_permuted;
  Outcome m_outcome;
  int m_shift_attempts = 0;
  Vector<scalar_type, typename Matrix::device_type> m_work;
  Vector<scalar_type, typename Matrix::device_type> m_permuted_in;
};

}  // namespace syncfree
