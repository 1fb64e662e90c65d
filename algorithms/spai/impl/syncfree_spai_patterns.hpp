// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The sparsity patterns of approximate inverses: A thresholded, its powers, products of
/// patterns (which also give each least-squares problem its rows), lower triangles, and rows cut
/// to their largest entries.
///
/// Patterns are matrices of the caller's type whose values are weights: |a_ij| in A thresholded,
/// the entries of |T|^k in its powers (what `capped_rows` keeps the largest of).

#include <string>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_spgemm.hpp"
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
/// every a_ij with |a_ij| >= tau sqrt(|a_ii| |a_jj|), weighted |a_ij|. tau = 0 keeps all of A.
/// A's rows sorted.
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
            out_values(out++) = d(i);
            diagonal_written = true;
          }
          if (k < row_map(i + 1) && kept(i, k)) {
            out_entries(out) = entries(k);
            out_values(out++) = impl::abs(values(k));
          }
        }
      });
}

/// The pattern of P B: row i is the union of the rows of B that row i of P names, sorted; the
/// weights multiply (Kokkos Kernels' SpGEMM).
template <class ExecSpace, class Matrix>
Matrix pattern_product(const ExecSpace& exec, const Matrix& P, const Matrix& B) {
  return spgemm(exec, P, B);
}

/// The pattern of T^power (power >= 1).
template <class ExecSpace, class Matrix>
Matrix pattern_power(const ExecSpace& exec, const Matrix& T, int power) {
  Matrix P = T;
  for (int p = 1; p < power; ++p) P = pattern_product(exec, P, T);
  return P;
}

/// The entries k of P (row i) that `keep(i, k)` accepts, with their weights.
template <class ExecSpace, class Matrix, class Keep>
Matrix kept_entries(const ExecSpace& exec, const std::string& label, const Matrix& P,
                    const Keep& keep) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto map = P.graph.row_map;
  const auto cols = P.graph.entries;
  const auto weights = P.values;
  return build_crs<Matrix>(
      exec, label, P.numRows(), P.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 0;
        for (auto k = map(i); k < map(i + 1); ++k) count += keep(i, k);
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        for (auto k = map(i); k < map(i + 1); ++k)
          if (keep(i, k)) {
            out_entries(out) = cols(k);
            out_values(out++) = weights(k);
          }
      });
}

/// The entries (i, j) of a pattern with j <= i.
template <class ExecSpace, class Matrix>
Matrix lower_pattern(const ExecSpace& exec, const Matrix& P) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto cols = P.graph.entries;
  return kept_entries(
      exec, "syncfree::spai::lower", P,
      KOKKOS_LAMBDA(const ordinal_type i, const offset_type k) { return cols(k) <= i; });
}

/// The weight above which at most `keep` of the off-diagonal entries of row i (in
/// [begin, end)) lie, found by bisection: where `keep` falls inside a run of equal weights, the
/// whole run is left out.
template <class Entries, class Weights, class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION double row_cut(const Entries& cols, const Weights& weights, Offset begin,
                                      Offset end, Ordinal i, long keep) {
  double high = 0;
  for (auto k = begin; k < end; ++k)
    if (cols(k) != i && double(weights(k)) > high) high = double(weights(k));
  double low = 0;  // count(weight > low) may exceed keep; count(weight > high) == 0
  for (int step = 0; step < 64 && high > low; ++step) {
    const double mid = low + (high - low) / 2;
    if (mid <= low || mid >= high) break;
    long count = 0;
    for (auto k = begin; k < end; ++k) count += cols(k) != i && double(weights(k)) > mid;
    if (count > keep)
      low = mid;
    else
      high = mid;
  }
  return high;
}

/// P with each row of more than `max_entries` entries cut to its diagonal and the largest
/// weights (at most max_entries in all, ties at the cut left out). max_entries = 0 keeps P.
template <class ExecSpace, class Matrix>
Matrix capped_rows(const ExecSpace& exec, const Matrix& P, long max_entries) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  if (max_entries <= 0 || longest_row(exec, P) <= max_entries) return P;
  const auto map = P.graph.row_map;
  const auto cols = P.graph.entries;
  const auto weights = P.values;
  Kokkos::View<double*, typename Matrix::device_type> cut(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::spai::row_cut"), P.numRows());
  Kokkos::parallel_for(
      "syncfree::spai::row_cuts", Kokkos::RangePolicy<ExecSpace>(exec, 0, P.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        const bool long_row = long(map(i + 1) - map(i)) > max_entries;
        cut(i) = long_row ? row_cut(cols, weights, map(i), map(i + 1), i, max_entries - 1) : -1.0;
      });
  return kept_entries(
      exec, "syncfree::spai::capped", P, KOKKOS_LAMBDA(const ordinal_type i, const offset_type k) {
        return cols(k) == i || double(weights(k)) > cut(i);
      });
}

}  // namespace syncfree::impl
