// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A SyncFree matrix that every rank holds, as a Tpetra matrix distributed by rows.

#include <Teuchos_Array.hpp>
#include <Tpetra_CrsMatrix.hpp>

namespace syncfree::tpetra {

/// A (with host-accessible views, the same on every rank of `comm`) as a fill-complete Tpetra
/// CrsMatrix whose rows are spread evenly over the ranks, in order; each rank inserts its own.
template <class SC, class LO, class GO, class NT, class HostMatrix>
Teuchos::RCP<Tpetra::CrsMatrix<SC, LO, GO, NT>> distribute_rows(
    const HostMatrix& A, const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  using map_type = Tpetra::Map<LO, GO, NT>;
  const auto map = Teuchos::rcp(new map_type(Tpetra::global_size_t(A.numRows()), 0, comm));
  const LO owned = LO(map->getNodeNumElements());
  Teuchos::Array<std::size_t> counts(owned);
  for (LO i = 0; i < owned; ++i) {
    const GO row = map->getGlobalElement(i);
    counts[i] = std::size_t(A.graph.row_map(row + 1) - A.graph.row_map(row));
  }
  auto T = Teuchos::rcp(new Tpetra::CrsMatrix<SC, LO, GO, NT>(map, counts()));
  Teuchos::Array<GO> columns;
  Teuchos::Array<SC> values;
  for (LO i = 0; i < owned; ++i) {
    const GO row = map->getGlobalElement(i);
    const auto begin = A.graph.row_map(row);
    columns.resize(counts[i]);
    values.resize(counts[i]);
    for (std::size_t k = 0; k < counts[i]; ++k) {
      columns[k] = GO(A.graph.entries(begin + k));
      values[k] = SC(A.values(begin + k));
    }
    T->insertGlobalValues(row, columns(), values());
  }
  T->fillComplete();
  return T;
}

}  // namespace syncfree::tpetra
