// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SyncFree operators as Tpetra operators, for Belos solvers and Ifpack2-style use.
///
/// Each rank applies a SyncFree operator to its own rows (a block-diagonal, MPI-free apply: the
/// `localApply` rule of Ifpack2). All MPI stays in Tpetra.

#include <memory>

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Operator.hpp>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_submatrix.hpp"

namespace syncfree::tpetra {

/// A SyncFree `Operator` on the rows this rank owns, seen by Tpetra as an operator on `map`.
template <class Scalar, class LocalOrdinal, class GlobalOrdinal, class Node>
class LocalOperator final : public Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal, Node> {
 public:
  using map_type = Tpetra::Map<LocalOrdinal, GlobalOrdinal, Node>;
  using multivector_type = Tpetra::MultiVector<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
  using device_type = typename Node::device_type;
  using local_operator_type = syncfree::Operator<Scalar, device_type>;

  /// \throws DimensionMismatch when the operator's size differs from the rows `map` owns here.
  LocalOperator(Teuchos::RCP<const map_type> map, std::shared_ptr<const local_operator_type> op)
      : m_map(std::move(map)), m_op(std::move(op)) {
    SYNCFREE_REQUIRE(
        m_op->num_rows() == m_map->getNodeNumElements() && m_op->num_cols() == m_op->num_rows(),
        DimensionMismatch, "tpetra::LocalOperator: local operator is ", m_op->num_rows(), "x",
        m_op->num_cols(), " but this rank owns ", m_map->getNodeNumElements(), " rows");
  }

  Teuchos::RCP<const map_type> getDomainMap() const override { return m_map; }
  Teuchos::RCP<const map_type> getRangeMap() const override { return m_map; }
  bool hasTransposeApply() const override { return false; }

  /// Y = alpha * Op(X) + beta * Y, one column at a time.
  void apply(const multivector_type& X, multivector_type& Y,
             Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override {
    SYNCFREE_REQUIRE(mode == Teuchos::NO_TRANS, InvalidArgument, "tpetra::LocalOperator (",
                     m_op->name(), "): only the non-transposed apply is available");
    SYNCFREE_REQUIRE(X.getNumVectors() == Y.getNumVectors(), DimensionMismatch,
                     "tpetra::LocalOperator: X has ", X.getNumVectors(), " columns, Y ",
                     Y.getNumVectors());
    const auto x = X.getLocalViewDevice(Tpetra::Access::ReadOnly);
    const auto y = Y.getLocalViewDevice(Tpetra::Access::ReadWrite);
    const typename device_type::execution_space exec;
    for (std::size_t j = 0; j < X.getNumVectors(); ++j) {
      m_op->apply(exec, Kokkos::subview(x, Kokkos::ALL(), j), Kokkos::subview(y, Kokkos::ALL(), j),
                  alpha, beta);
    }
  }

 private:
  Teuchos::RCP<const map_type> m_map;
  std::shared_ptr<const local_operator_type> m_op;
};

/// SyncFree's Jacobi preconditioner on the local rows of a fill-complete Tpetra matrix.
/// \throws InvalidMatrix when a diagonal is zero or missing, or when the column map does not list
/// the owned rows first in row-map order (Tpetra's own column maps always do).
template <class Scalar, class LocalOrdinal, class GlobalOrdinal, class Node>
Teuchos::RCP<LocalOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>> make_jacobi(
    const Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>& A) {
  using local_matrix_type = typename Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal,
                                                       Node>::local_matrix_device_type;
  SYNCFREE_REQUIRE(A.isFillComplete(), InvalidState,
                   "tpetra::make_jacobi: call fillComplete first");
  const auto& rows = *A.getRowMap();
  const auto& cols = *A.getColMap();
  for (LocalOrdinal i = 0; i < LocalOrdinal(rows.getNodeNumElements()); ++i) {
    SYNCFREE_REQUIRE(cols.getGlobalElement(i) == rows.getGlobalElement(i), InvalidMatrix,
                     "tpetra::make_jacobi: the column map does not start with the owned rows");
  }
  const typename Node::device_type::execution_space exec;
  const LocalOrdinal owned = LocalOrdinal(rows.getNodeNumElements());
  auto jacobi = std::make_shared<JacobiPreconditioner<local_matrix_type>>(
      exec, extract_leading_block(exec, A.getLocalMatrixDevice(), owned));
  SYNCFREE_REQUIRE(jacobi->outcome().ok(), InvalidMatrix, "tpetra::make_jacobi: global row ",
                   rows.getGlobalElement(LocalOrdinal(jacobi->outcome().index)), ": ",
                   jacobi->outcome().reason);
  return Teuchos::rcp(
      new LocalOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>(A.getRowMap(), jacobi));
}

}  // namespace syncfree::tpetra
