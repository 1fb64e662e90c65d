// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A preconditioner stored and applied in single precision inside a double-precision
/// solve: its factors or approximate inverse take half the bytes, which triangular solves, sweeps
/// and SpMV-type applies move on every application, while the Krylov solver, its vectors and A's
/// products stay in double.
///
/// \code
///   // ILU(0) of A's values rounded to float, as a preconditioner of the double matrix A:
///   auto M = syncfree::in_single_precision<syncfree::IluPreconditioner>(exec, A, ilu_options);
///   syncfree::cg_solve(exec, op, *M, b, x, options);
/// \endcode
///
/// The preconditioner is built (analysis and factorization) in float from A's values rounded
/// once, as AmgX's "dDFI" mode does. An application scales the residual by a power of two (exact)
/// so that its largest entry is near 1 before rounding it, and scales the float result back:
/// residuals far below float's smallest normal (1.2e-38) or above its largest (3.4e38) lose no
/// digits, as a linear operator commutes with the scale.
///
/// Rounding each input makes M differ slightly from one application to the next. CG and BiCGStab
/// may take a few more iterations for it, FGMRES (which keeps M's images) none; right-
/// preconditioned GMRES applies M once more to its combined update, so below ~1e-8 it can need
/// another restart cycle: prefer FGMRES.

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "core/impl/syncfree_scaled_cast.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_single_precision_matrix.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// A preconditioner of the double matrix `Matrix` that holds a `Preconditioner` of its values
/// rounded to float (`SinglePrecisionMatrix<Matrix>`) and applies it to residuals scaled by a
/// power of two (see the file's comment). `refactor` rounds the new values and refactors the
/// inner preconditioner on its analysis.
template <class Matrix>
class SinglePrecisionPreconditioner final : public Preconditioner<Matrix> {
 public:
  static_assert(std::is_same_v<typename Matrix::non_const_value_type, double>,
                "a single-precision preconditioner serves a double-precision solve");
  using base = typename Preconditioner<Matrix>::base;
  using single_matrix = SinglePrecisionMatrix<Matrix>;
  using inner_type = Preconditioner<single_matrix>;

  /// \pre `inner` was built on round_to_single(exec, A) of the A it preconditions.
  explicit SinglePrecisionPreconditioner(std::unique_ptr<inner_type> inner)
      : m_inner(std::move(inner)),
        m_in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::single::in"),
             m_inner->num_cols()),
        m_out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::single::out"),
              m_inner->num_rows()),
        m_scale("syncfree::single::scale") {}

  /// The preconditioner that runs in float, e.g. to read its plan.
  const inner_type& inner() const { return *m_inner; }
  const Outcome& outcome() const override { return m_inner->outcome(); }
  /// \throws InvalidMatrix where a new entry is beyond float's range (round_to_single).
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    return m_inner->refactor(exec, round_to_single(exec, A));
  }
  std::size_t num_rows() const override { return m_inner->num_rows(); }
  std::size_t num_cols() const override { return m_inner->num_cols(); }
  std::string name() const override { return m_inner->name() + ", single precision"; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, double alpha = 1.0,
             double beta = 0.0) const override {
    this->check_sizes(x, y);
    impl::scaled_to_single(exec, x, m_in, m_scale);
    m_inner->apply(exec, m_in, m_out);
    impl::scaled_from_single(exec, alpha, m_out, beta, y, m_scale);
  }

  /// The apply, with the dot products of its result formed in the pass that converts it back.
  void apply_and_dots(const typename base::execution_space& exec,
                      const typename base::const_vector_type& x,
                      const typename base::vector_type& y,
                      const typename base::const_vector_type& u,
                      const typename base::vector_type& sums) const override {
    this->check_dots_sizes(x, y, u, sums);
    impl::scaled_to_single(exec, x, m_in, m_scale);
    m_inner->apply(exec, m_in, m_out);
    impl::scaled_from_single_and_dots(exec, m_out, y, u, sums, m_scale);
  }

 private:
  std::unique_ptr<inner_type> m_inner;
  Vector<float, typename Matrix::device_type> m_in, m_out;
  Kokkos::View<double, typename Matrix::device_type> m_scale;  ///< max |x| of the last apply
};

/// `Precond<SinglePrecisionMatrix<Matrix>>(exec, round_to_single(exec, A), args...)` as a
/// preconditioner of A: `Precond` is any SyncFree preconditioner template, e.g.
/// IluPreconditioner, IcPreconditioner, DiluPreconditioner, SpaiPreconditioner.
template <template <class> class Precond, class ExecSpace, class Matrix, class... Args>
std::unique_ptr<SinglePrecisionPreconditioner<Matrix>> in_single_precision(const ExecSpace& exec,
                                                                           const Matrix& A,
                                                                           const Args&... args) {
  using Single = SinglePrecisionMatrix<Matrix>;
  return std::make_unique<SinglePrecisionPreconditioner<Matrix>>(
      std::make_unique<Precond<Single>>(exec, round_to_single(exec, A), args...));
}

}  // namespace syncfree
