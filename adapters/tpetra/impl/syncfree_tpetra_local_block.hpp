// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A rank's diagonal block of a Tpetra::RowMatrix as a SyncFree CRS matrix.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <Teuchos_OrdinalTraits.hpp>
#include <Tpetra_RowMatrix.hpp>

#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::tpetra::impl {

/// The rows a rank owns and, of their entries, those whose column is one of these rows: the
/// rank's diagonal block (block Jacobi with overlap 0; all of a matrix whose communicator has one
/// rank, such as the subdomain matrix Ifpack2::AdditiveSchwarz hands its inner preconditioner).
/// Rows in row-map order, columns sorted, duplicates summed. Read through `getLocalRowCopy`, so
/// any RowMatrix will do; `refresh_values` reads new values on the pattern `extract` read.
template <class Scalar, class LO, class GO, class Node>
class LocalBlock {
 public:
  using row_matrix_type = Tpetra::RowMatrix<Scalar, LO, GO, Node>;
  using matrix_type = CrsMatrix<Scalar, LO, int, typename Node::device_type>;

  /// \throws InvalidMatrix when the block has more entries than its int offsets hold.
  void extract(const row_matrix_type& A) {
    const auto& rows = *A.getRowMap();
    const auto& cols = *A.getColMap();
    const LO n = LO(rows.getNodeNumElements());
    std::vector<LO> row_of_column(cols.getNodeNumElements());
    for (std::size_t c = 0; c < row_of_column.size(); ++c) {
      const LO row = rows.getLocalElement(cols.getGlobalElement(LO(c)));
      row_of_column[c] = row == Teuchos::OrdinalTraits<LO>::invalid() ? LO(-1) : row;
    }

    m_raw_begin.assign(std::size_t(n) + 1, 0);
    m_raw_columns.clear();
    m_destination.clear();
    std::vector<int> row_map(std::size_t(n) + 1, 0);
    std::vector<LO> entries;
    std::vector<std::pair<LO, std::size_t>> row;  // (block column, raw entry)
    Buffers buffers(A);
    for (LO i = 0; i < n; ++i) {
      const std::size_t count = buffers.read(A, i);
      m_raw_begin[i + 1] = m_raw_begin[i] + count;
      row.clear();
      for (std::size_t k = 0; k < count; ++k) {
        const LO c = buffers.indices(k);
        m_raw_columns.push_back(c);
        m_destination.push_back(-1);
        if (row_of_column[std::size_t(c)] >= 0)
          row.emplace_back(row_of_column[std::size_t(c)], m_raw_begin[i] + k);
      }
      std::sort(row.begin(), row.end());
      for (std::size_t k = 0; k < row.size(); ++k) {
        if (k == 0 || row[k].first != row[k - 1].first) entries.push_back(row[k].first);
        SYNCFREE_REQUIRE(entries.size() <= std::size_t(std::numeric_limits<int>::max()),
                         InvalidMatrix, "tpetra: this rank's block has more than 2^31 - 1 entries");
        m_destination[row[k].second] = int(entries.size()) - 1;
      }
      row_map[i + 1] = int(entries.size());
    }

    using device_type = typename Node::device_type;
    Kokkos::View<int*, device_type> d_row_map("syncfree::tpetra::row_map", row_map.size());
    Kokkos::View<LO*, device_type> d_entries("syncfree::tpetra::entries", entries.size());
    Kokkos::deep_copy(d_row_map,
                      Kokkos::View<const int*, Kokkos::HostSpace>(row_map.data(), row_map.size()));
    Kokkos::deep_copy(d_entries,
                      Kokkos::View<const LO*, Kokkos::HostSpace>(entries.data(), entries.size()));
    typename matrix_type::values_type::non_const_type values("syncfree::tpetra::values",
                                                             entries.size());
    m_matrix = matrix_type("syncfree::tpetra::block", n, n, LO(entries.size()), values, d_row_map,
                           d_entries);
    // Copies even where the block lives on the host: `refresh_values` compares the two.
    m_host_values = Kokkos::create_mirror(values);
    m_read = Kokkos::create_mirror(values);
    copy_values(A, buffers, false);
  }

  /// Reads the values again. \returns whether any changed.
  /// \throws StructureMismatch when a row's entries are not those `extract` read.
  bool refresh_values(const row_matrix_type& A) {
    Buffers buffers(A);
    return copy_values(A, buffers, true);
  }

  const matrix_type& matrix() const { return m_matrix; }

 private:
  struct Buffers {
    typename row_matrix_type::nonconst_local_inds_host_view_type indices;
    typename row_matrix_type::nonconst_values_host_view_type values;

    explicit Buffers(const row_matrix_type& A)
        : indices("syncfree::tpetra::row_indices", A.getNodeMaxNumRowEntries()),
          values("syncfree::tpetra::row_values", A.getNodeMaxNumRowEntries()) {}
    std::size_t read(const row_matrix_type& A, LO i) {
      std::size_t count = 0;
      A.getLocalRowCopy(i, indices, values, count);
      return count;
    }
  };

  /// Reads the values into the block (summing duplicates); \returns whether any changed.
  bool copy_values(const row_matrix_type& A, Buffers& buffers, bool check) {
    Kokkos::deep_copy(m_read, Scalar(0));
    const LO n = LO(m_raw_begin.size()) - 1;
    SYNCFREE_REQUIRE(!check || std::size_t(n) == A.getNodeNumRows(), StructureMismatch,
                     "tpetra: the matrix has ", A.getNodeNumRows(), " rows here, ", n,
                     " when initialize() read it; call initialize() again");
    for (LO i = 0; i < n; ++i) {
      const std::size_t count = buffers.read(A, i);
      const std::size_t begin = m_raw_begin[i];
      bool same = count == m_raw_begin[i + 1] - begin;
      for (std::size_t k = 0; same && k < count; ++k)
        same = buffers.indices(k) == m_raw_columns[begin + k];
      SYNCFREE_REQUIRE(!check || same, StructureMismatch, "tpetra: local row ", i,
                       " has other columns than when initialize() read it; call initialize() "
                       "again after changing the pattern");
      for (std::size_t k = 0; k < count; ++k)
        if (m_destination[begin + k] >= 0) m_read(m_destination[begin + k]) += buffers.values(k);
    }
    bool changed = !check;
    for (std::size_t k = 0; !changed && k < m_read.extent(0); ++k)
      changed = m_read(k) != m_host_values(k);
    if (changed) {
      std::swap(m_read, m_host_values);
      Kokkos::deep_copy(m_matrix.values, m_host_values);
    }
    return changed;
  }

  std::vector<std::size_t> m_raw_begin;  ///< where each row's entries start, as A lists them
  std::vector<LO> m_raw_columns;         ///< their local columns
  std::vector<int> m_destination;        ///< their places in the block, -1 outside it
  matrix_type m_matrix;
  typename matrix_type::values_type::non_const_type::HostMirror m_host_values;  ///< the block's
  typename matrix_type::values_type::non_const_type::HostMirror m_read;         ///< those just read
};

}  // namespace syncfree::tpetra::impl
