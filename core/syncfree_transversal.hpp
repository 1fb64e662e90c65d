// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A row permutation that gives a matrix a zero-free diagonal: a maximum transversal
/// (Duff's MC21 algorithm, as SuiteSparse's BTF implements it), for matrices whose diagonal has
/// structural zeros (circuit and chemical-process matrices), so that Jacobi and the incomplete
/// factorizations, which divide by the diagonal, apply to B = P A.
///
/// \code
///   auto perm = syncfree::zero_free_diagonal_rows(exec, A);  // perm(new) = old
///   Matrix B = syncfree::permute_rows(exec, A, perm);         // row i of B: row perm(i) of A
///   syncfree::permute_vector(exec, perm, b, pb);              // solve B x = P b: same x
/// \endcode

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_config.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// Whether this build has the maximum transversal (SuiteSparse's BTF was found).
constexpr bool has_maximum_transversal() { return SYNCFREE_HAVE_BTF != 0; }

namespace impl {
/// For the n x n pattern (row_map, entries), the row matched to each column so that every column
/// gets its own row holding an entry there, or throws InvalidMatrix naming the first column left
/// unmatched (the matrix is structurally singular). Host arrays; compiled with BTF.
/// \throws InvalidArgument in a build without BTF.
std::vector<std::int64_t> maximum_transversal(std::int64_t n,
                                              const std::vector<std::int64_t>& row_map,
                                              const std::vector<std::int64_t>& entries);
}  // namespace impl

/// perm(new) = old such that B = P A (row i of B is row perm(i) of A) has a nonzero on every
/// diagonal entry, stored zeros not counting; the identity where A's diagonal already is zero-free.
/// Rows take their largest entries to the diagonal where the search allows (greedily: not the
/// weighted matching of MC64). Computed on the host.
/// \throws DimensionMismatch when A is not square; InvalidMatrix when A is structurally singular
/// (no permutation exists); InvalidArgument in a build without BTF.
template <class ExecSpace, class Matrix>
Kokkos::View<typename Matrix::non_const_ordinal_type*, typename Matrix::device_type>
zero_free_diagonal_rows(const ExecSpace& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  SYNCFREE_REQUIRE(A.numRows() == A.numCols(), DimensionMismatch,
                   "zero_free_diagonal_rows: the matrix is ", A.numRows(), "x", A.numCols(),
                   ", not square");
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.row_map);
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
  const std::int64_t n = A.numRows();
  // BTF matches each row to the first free column it lists, and searches its columns in the
  // order listed: listed by decreasing magnitude, rows take their largest entries where they can
  // (a greedy stand-in for a weighted matching; any zero-free diagonal would do structurally, but
  // Jacobi and ILU divide by it).
  std::vector<std::int64_t> nonzero_row_map(std::size_t(n) + 1, 0), nonzero_entries;
  nonzero_entries.reserve(entries.extent(0));
  bool zero_free = true;
  std::vector<std::pair<double, std::int64_t>> row;  // (|a_ij|, j)
  for (std::int64_t i = 0; i < n; ++i) {
    row.clear();
    for (auto k = row_map(i); k < row_map(i + 1); ++k)
      if (values(k) != typename Matrix::non_const_value_type(0))
        row.emplace_back(std::abs(double(values(k))), std::int64_t(entries(k)));
    zero_free = zero_free && std::any_of(row.begin(), row.end(),
                                         [i](const auto& entry) { return entry.second == i; });
    std::stable_sort(row.begin(), row.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& entry : row) nonzero_entries.push_back(entry.second);
    nonzero_row_map[std::size_t(i) + 1] = std::int64_t(nonzero_entries.size());
  }
  Kokkos::View<ordinal_type*, typename Matrix::device_type> perm(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::transversal"), std::size_t(n));
  const auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), perm);
  const std::vector<std::int64_t> match =
      zero_free ? std::vector<std::int64_t>()
                : impl::maximum_transversal(n, nonzero_row_map, nonzero_entries);
  for (std::int64_t i = 0; i < n; ++i)
    host(i) = ordinal_type(zero_free ? i : match[std::size_t(i)]);
  Kokkos::deep_copy(exec, perm, host);
  exec.fence();  // the host mirror dies with this scope
  return perm;
}

/// B = P A: row i of B is row perm(i) of A, columns as in A (rows stay sorted).
/// \throws DimensionMismatch when perm does not have a row of A per entry.
template <class ExecSpace, class Matrix, class Perm>
Matrix permute_rows(const ExecSpace& exec, const Matrix& A, const Perm& perm) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  SYNCFREE_REQUIRE(perm.extent(0) == std::size_t(A.numRows()), DimensionMismatch,
                   "permute_rows: the matrix has ", A.numRows(), " rows, the permutation ",
                   perm.extent(0), " entries");
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  return impl::build_crs<Matrix>(
      exec, "syncfree::row_permuted", A.numRows(), A.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) { return row_map(perm(i) + 1) - row_map(perm(i)); },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = row_map(perm(i)); k < row_map(perm(i) + 1); ++k, ++out) {
          out_entries(out) = entries(k);
          out_values(out) = values(k);
        }
      });
}

}  // namespace syncfree
