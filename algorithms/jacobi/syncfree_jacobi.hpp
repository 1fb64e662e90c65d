// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Jacobi (diagonal) preconditioner: M^{-1} = D^{-1}.
///
/// The simplest algorithm of the library, and the template for the others: a plan, the phases
/// `jacobi_analyze` (structure: where each diagonal entry is stored), `jacobi_factor` (values:
/// the inverted diagonal, returning a status) and `jacobi_apply`, and an `Operator` wrapper.

#include <string>

#include "core/impl/syncfree_diagonal_positions.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

/// What the Jacobi phases store for one matrix.
/// \tparam Matrix a `syncfree::CrsMatrix`
template <class Matrix>
class JacobiPlan {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return m_n; }
  /// 1 / A(i, i), valid after a successful `jacobi_factor`.
  const Vector<scalar_type, device_type>& inverse_diagonal() const { return m_inverse_diagonal; }

 private:
  template <class E, class M>
  friend void jacobi_analyze(const E&, JacobiPlan<M>&, const M&);
  template <class E, class M>
  friend Outcome jacobi_factor(const E&, JacobiPlan<M>&, const M&);

  std::size_t m_n = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  /// Position of A(i, i) in the entries of row i, or -1 when the row stores no diagonal.
  Kokkos::View<std::int64_t*, device_type> m_diagonal_position;
  Vector<scalar_type, device_type> m_inverse_diagonal;
};

/// Structure phase: finds where each row stores its diagonal. Depends only on the pattern of A.
/// \throws InvalidMatrix when A is not square, its row pointers are inconsistent or a column index
/// is out of range.
template <class ExecSpace, class Matrix>
void jacobi_analyze(const ExecSpace& exec, JacobiPlan<Matrix>& plan, const Matrix& A) {
  const auto report = require_valid(exec, A, MatrixCheck::square, "jacobi_analyze");
  plan.m_n = std::size_t(A.numRows());
  plan.m_diagonal_position = impl::diagonal_positions(
      exec, A, "syncfree::jacobi::diagonal_position", long(report.longest_off_diagonal) + 1);
  plan.m_analyzed = true;
  plan.m_factored = false;
}

/// Numeric phase: inverts the diagonal. Call again whenever the values of A change.
/// \returns `Status::zero_pivot` with the first row whose diagonal is zero or missing,
/// `Status::not_finite` with the first row whose diagonal is NaN or Inf, else success.
/// \throws InvalidState before `jacobi_analyze`; StructureMismatch when A has another size.
template <class ExecSpace, class Matrix>
Outcome jacobi_factor(const ExecSpace& exec, JacobiPlan<Matrix>& plan, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;
  SYNCFREE_REQUIRE(plan.m_analyzed, InvalidState, "jacobi_factor: call jacobi_analyze first");
  SYNCFREE_REQUIRE(std::size_t(A.numRows()) == plan.m_n, StructureMismatch,
                   "jacobi_factor: plan was analyzed for ", plan.m_n, " rows, matrix has ",
                   A.numRows());
  plan.m_inverse_diagonal = Vector<scalar_type, typename Matrix::device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::jacobi::inverse_diagonal"),
      plan.m_n);
  const auto inverse = plan.m_inverse_diagonal;
  const auto position = plan.m_diagonal_position;
  const auto values = A.values;
  // Smallest bad row, encoded as row * 2 + (0: zero or missing, 1: not finite).
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
  Kokkos::parallel_reduce(
      "syncfree::jacobi::factor", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& bad) {
        const scalar_type d = position(i) < 0 ? scalar_type(0) : values(position(i));
        inverse(i) = scalar_type(1) / d;
        std::int64_t key = -1;
        if (d == scalar_type(0))
          key = 2 * std::int64_t(i);
        else if (!impl::is_finite(d))
          key = 2 * std::int64_t(i) + 1;
        if (key >= 0 && key < bad) bad = key;
      },
      Kokkos::Min<std::int64_t>(first_bad));
  plan.m_factored = first_bad == std::numeric_limits<std::int64_t>::max();
  if (plan.m_factored) return {};
  const std::int64_t row = first_bad / 2;
  if (first_bad % 2 == 1)
    return {Status::not_finite, row, impl::concat("row ", row, ": diagonal entry is not finite")};
  return {
      Status::zero_pivot, row,
      impl::concat("row ", row, ": diagonal entry is zero or missing; Jacobi cannot invert it")};
}

/// y = alpha * D^{-1} x + beta * y.
/// \throws InvalidState unless the last `jacobi_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y>
void jacobi_apply(const ExecSpace& exec, const JacobiPlan<Matrix>& plan, const X& x, const Y& y,
                  typename Matrix::non_const_value_type alpha = 1,
                  typename Matrix::non_const_value_type beta = 0) {
  using scalar_type = typename Matrix::non_const_value_type;
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "jacobi_apply: no successful jacobi_factor for this plan");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows(),
                   DimensionMismatch, "jacobi_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0));
  const auto inverse = plan.inverse_diagonal();
  Kokkos::parallel_for(
      "syncfree::jacobi::apply", Kokkos::RangePolicy<ExecSpace>(exec, 0, plan.num_rows()),
      KOKKOS_LAMBDA(const std::size_t i) {
        const scalar_type ax = alpha * inverse(i) * x(i);
        y(i) = beta == scalar_type(0) ? ax : ax + beta * y(i);
      });
}

/// Jacobi as an `Operator`: analyzes and factors on construction.
template <class Matrix>
class JacobiPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = typename Preconditioner<Matrix>::base;

  /// \throws InvalidMatrix on a structurally invalid matrix. A zero or non-finite diagonal is not
  /// thrown: check `outcome()`; `apply` then throws InvalidState.
  JacobiPreconditioner(const typename base::execution_space& exec, const Matrix& A) {
    jacobi_analyze(exec, m_plan, A);
    m_outcome = jacobi_factor(exec, m_plan, A);
  }

  const Outcome& outcome() const override { return m_outcome; }
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    m_outcome = jacobi_factor(exec, m_plan, A);
    return m_outcome;
  }
  std::size_t num_rows() const override { return m_plan.num_rows(); }
  std::size_t num_cols() const override { return m_plan.num_rows(); }
  std::string name() const override { return "jacobi"; }
  typename base::const_vector_type diagonal_entries() const override {
    if (!m_outcome.ok()) return {};
    return m_plan.inverse_diagonal();
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState,
                     "jacobi: factorization failed: ", m_outcome.reason);
    jacobi_apply(exec, m_plan, x, y, alpha, beta);
  }

 private:
  JacobiPlan<Matrix> m_plan;
  Outcome m_outcome;
};

}  // namespace syncfree
