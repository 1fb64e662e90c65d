// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The sparsity patterns of approximate inverses: A thresholded, its powers, products of
/// patterns (which also give each least-squares problem its rows) and lower triangles.
///
/// Patterns are matrices of the caller's type whose values are not used.

#include <string>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// |a_ii| for each row, 0 where the row stores no diagonal.
template <class ExecSpace, class Matrix>
Kokkos::View<double*, typename Matrix::device_type> diagonal_magnitudes(const ExecSpace& exec,
                                                                        const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  Kokkos::View<double*, typename Matrix::device_type> d("syncfree::spai::diagonal", A.numRows());
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  Kokkos::parallel_for(
      "syncfree::spai::diagonal", Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          if (entries(k) == i) d(i) += double(impl::abs(values(k)));
      });
  return d;
}

/// The pattern approximate inverses start from: the diagonal (added where A stores none) and
/// every a_ij with |a_ij| >= tau sqrt(|a_ii| |a_jj|). tau = 0 keeps all of A. A's rows sorted.
template <class ExecSpace, class Matrix>
Matrix thresholded_pattern(const ExecSpace& exec, const Matrix& A, double tau) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto d = diagonal_magnitudes(exec, A);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  const auto kept = KOKKOS_LAMBDA(const ordinal_type i, const offset_type k) {
    const ordinal_type j = entries(k);
    return j != i && double(impl::abs(values(k))) >= tau * impl::sqrt(d(i) * d(j));
  };
  return build_crs<Matrix>(
      exec, "syncfree::spai::thresholded", A.numRows(), A.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 1;
        for (auto k = row_map(i); k < row_map(i + 1); ++k) count += kept(i, k);
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        bool diagonal_written = false;
        for (auto k = row_map(i); k <= row_map(i + 1); ++k) {
          const bool past_diagonal = k == row_map(i + 1) || entries(k) > i;
          if (past_diagonal && !diagonal_written) {
            out_entries(out) = i;
            out_values(out++) = 1;
            diagonal_written = true;
          }
          if (k < row_map(i + 1) && kept(i, k)) {
            out_entries(out) = entries(k);
            out_values(out++) = 1;
          }
        }
      });
}

/// The pattern of P B: row i is the union of the rows of B that row i of P names, sorted.
template <class ExecSpace, class Matrix>
Matrix pattern_product(const ExecSpace& exec, const Matrix& P, const Matrix& B) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto p_map = P.graph.row_map;
  const auto p_entries = P.graph.entries;
  const auto b_map = B.graph.row_map;
  const auto b_entries = B.graph.entries;
  const Matrix with_repeats = build_crs<Matrix>(
      exec, "syncfree::spai::product", P.numRows(), B.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 0;
        for (auto k = p_map(i); k < p_map(i + 1); ++k)
          count += b_map(p_entries(k) + 1) - b_map(p_entries(k));
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = p_map(i); k < p_map(i + 1); ++k)
          for (auto q = b_map(p_entries(k)); q < b_map(p_entries(k) + 1); ++q, ++out) {
            out_entries(out) = b_entries(q);
            out_values(out) = 1;
          }
      });
  return sort_and_merge(exec, with_repeats);
}

/// The pattern of T^power (power >= 1).
template <class ExecSpace, class Matrix>
Matrix pattern_power(const ExecSpace& exec, const Matrix& T, int power) {
  Matrix P = T;
  for (int p = 1; p < power; ++p) P = pattern_product(exec, P, T);
  return P;
}

/// The entries (i, j) of a pattern with j <= i.
template <class ExecSpace, class Matrix>
Matrix lower_pattern(const ExecSpace& exec, const Matrix& P) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto map = P.graph.row_map;
  const auto cols = P.graph.entries;
  return build_crs<Matrix>(
      exec, "syncfree::spai::lower", P.numRows(), P.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 0;
        for (auto k = map(i); k < map(i + 1); ++k) count += cols(k) <= i;
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = map(i); k < map(i + 1); ++k)
          if (cols(k) <= i) {
            out_entries(out) = cols(k);
            out_values(out++) = 1;
          }
      });
}

}  // namespace syncfree::impl
