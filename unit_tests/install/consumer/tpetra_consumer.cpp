// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// A Trilinos user of the installed package: SyncFree's ILU(0) through create_preconditioner on a
// one-rank Tpetra matrix (a 1-D Laplacian), applied once.

#include <iostream>

#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <adapters/tpetra/syncfree_tpetra_factory.hpp>

int main(int argc, char* argv[]) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  using crs_type = Tpetra::CrsMatrix<double>;
  using GO = crs_type::global_ordinal_type;
  const auto map = Teuchos::rcp(new crs_type::map_type(10, 0, Tpetra::getDefaultComm()));
  auto A = Teuchos::rcp(new crs_type(map, 3));
  for (GO i = 0; i < 10; ++i) {
    A->insertGlobalValues(i, Teuchos::tuple<GO>(i), Teuchos::tuple(2.0));
    if (i > 0) A->insertGlobalValues(i, Teuchos::tuple<GO>(i - 1), Teuchos::tuple(-1.0));
    if (i < 9) A->insertGlobalValues(i, Teuchos::tuple<GO>(i + 1), Teuchos::tuple(-1.0));
  }
  A->fillComplete();
  auto M = syncfree::tpetra::create_preconditioner<double, int, GO, crs_type::node_type>(
      "SYNCFREE_ILU", A);
  M->initialize();
  M->compute();
  Tpetra::MultiVector<double> x(map, 1), y(map, 1), r(map, 1);
  x.putScalar(1.0);
  M->apply(x, y);  // ILU(0) of a tridiagonal matrix is exact: A y = x
  A->apply(y, r);
  r.update(-1.0, x, 1.0);
  Teuchos::Array<double> norm(1);
  r.normInf(norm());
  const bool ok = norm[0] < 1e-12;
  std::cout << "SyncFree Tpetra adapter: " << (ok ? "success" : "FAILED") << '\n';
  return ok ? 0 : 1;
}
