// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The one abstract interface that matrices, preconditioners and solvers share.

#include <cstddef>
#include <string>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_reduce_into.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// A linear operator y = alpha * Op(x) + beta * y on vectors of one device.
///
/// \tparam Scalar value type of the vectors
/// \tparam Device Kokkos device (execution space and memory space) the vectors live on
///
/// \note `apply` is const; implementations may keep work space, so one object must not be applied
/// from two execution-space instances at once unless it says otherwise.
template <class Scalar, class Device = DefaultDevice>
class Operator {
 public:
  using scalar_type = Scalar;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using vector_type = Vector<Scalar, Device>;
  using const_vector_type = Kokkos::View<const Scalar*, Kokkos::LayoutLeft, Device>;

  virtual ~Operator() = default;

  virtual std::size_t num_rows() const = 0;
  virtual std::size_t num_cols() const = 0;

  /// y = alpha * Op(x) + beta * y. With beta == 0, y is overwritten (NaN in y is not propagated).
  /// \pre x.extent(0) == num_cols(), y.extent(0) == num_rows(), x and y do not alias.
  virtual void apply(const execution_space& exec, const const_vector_type& x, const vector_type& y,
                     Scalar alpha = Scalar(1), Scalar beta = Scalar(0)) const = 0;

  /// y = Op(x), then sums(0) = u'y and sums(1) = y'y into device memory (two contiguous entries),
  /// on `exec` without waiting: the dot products a Krylov iteration takes of a new image. An
  /// operator that can form them in the pass that writes y overrides this (CrsOperator on CUDA);
  /// the default applies, then reduces.
  /// \pre as for apply; u.extent(0) == num_rows(), sums.extent(0) >= 2.
  virtual void apply_and_dots(const execution_space& exec, const const_vector_type& x,
                              const vector_type& y, const const_vector_type& u,
                              const vector_type& sums) const {
    apply(exec, x, y);
    impl::dots_into(exec, u, y, sums);
  }

  /// y = A (Op x), with `tmp` (num_rows() entries) free to hold Op x: right-preconditioned
  /// GMRES's A M. The default applies this operator into tmp, then A. A preconditioner whose
  /// result A can read where the preconditioner leaves it overrides it (SyncFree's ILU before a
  /// CrsOperator, on CUDA).
  /// \pre x.extent(0) == num_cols(), tmp.extent(0) == num_rows() == A.num_cols(),
  /// y.extent(0) == A.num_rows(); x, y and tmp do not alias.
  virtual void apply_then(const execution_space& exec, const Operator& A,
                          const const_vector_type& x, const vector_type& y,
                          const vector_type& tmp) const {
    apply(exec, x, tmp);
    A.apply(exec, tmp, y);
  }

  /// Where this operator is y = D x for a diagonal D (Jacobi), D's entries, so that a solver may
  /// apply it inside a pass of its own over the vectors; empty otherwise (and where the operator
  /// cannot be applied).
  virtual const_vector_type diagonal_entries() const { return {}; }

  /// Short description for reports, e.g. "jacobi" or "crs 1000x1000".
  virtual std::string name() const = 0;

 protected:
  void check_sizes(const const_vector_type& x, const vector_type& y) const {
    SYNCFREE_REQUIRE(x.extent(0) == num_cols() && y.extent(0) == num_rows(), DimensionMismatch,
                     name(), ": operator is ", num_rows(), "x", num_cols(), " but x has ",
                     x.extent(0), " and y has ", y.extent(0), " entries");
  }
  /// check_sizes, and what `apply_and_dots` needs of u and sums.
  void check_dots_sizes(const const_vector_type& x, const vector_type& y,
                        const const_vector_type& u, const vector_type& sums) const {
    check_sizes(x, y);
    SYNCFREE_REQUIRE(u.extent(0) == y.extent(0) && sums.extent(0) >= 2, DimensionMismatch, name(),
                     ": apply_and_dots needs u of ", y.extent(0), " entries and 2 sums");
  }
};

/// The identity: y = alpha * x + beta * y. The "none" preconditioner.
template <class Scalar, class Device = DefaultDevice>
class IdentityOperator final : public Operator<Scalar, Device> {
 public:
  using base = Operator<Scalar, Device>;
  explicit IdentityOperator(std::size_t n) : m_n(n) {}

  std::size_t num_rows() const override { return m_n; }
  std::size_t num_cols() const override { return m_n; }
  std::string name() const override { return "none"; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0)) const override {
    this->check_sizes(x, y);
    impl::axpby(exec, alpha, x, beta, y);
  }

 private:
  std::size_t m_n;
};

/// A sparse matrix as an operator: y = alpha * A * x + beta * y through an SpmvPlan, analyzed at
/// construction (on CUDA, the stencil format where A has it). Holds a shallow copy of the matrix
/// (Kokkos views are reference counted): its values may change between applications, its pattern
/// must not.
template <class Matrix>
class CrsOperator final
    : public Operator<typename Matrix::non_const_value_type, typename Matrix::device_type> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = Operator<scalar_type, typename Matrix::device_type>;

  explicit CrsOperator(const Matrix& A, SpmvFormat format = SpmvFormat::automatic)
      : CrsOperator(typename base::execution_space(), A, format) {}
  CrsOperator(const typename base::execution_space& exec, const Matrix& A,
              SpmvFormat format = SpmvFormat::automatic)
      : m_plan(exec, A, format) {}

  std::size_t num_rows() const override { return static_cast<std::size_t>(matrix().numRows()); }
  std::size_t num_cols() const override { return static_cast<std::size_t>(matrix().numCols()); }
  std::string name() const override { return "crs"; }
  const Matrix& matrix() const { return m_plan.matrix(); }
  const SpmvPlan<Matrix>& plan() const { return m_plan; }
  /// The format its products run in: csr or stencil.
  SpmvFormat format() const { return m_plan.format(); }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    this->check_sizes(x, y);
    m_plan.apply(exec, alpha, x, beta, y);
  }

  void apply_and_dots(const typename base::execution_space& exec,
                      const typename base::const_vector_type& x,
                      const typename base::vector_type& y,
                      const typename base::const_vector_type& u,
                      const typename base::vector_type& sums) const override {
    this->check_dots_sizes(x, y, u, sums);
    m_plan.apply_dots(exec, x, y, u, sums);
  }

 private:
  SpmvPlan<Matrix> m_plan;
};

}  // namespace syncfree
