// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The count / scan / fill pattern that builds a CrsMatrix on the device.

#include <string>
#include <utility>

#include "core/impl/syncfree_device_scan.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// Turns per-row counts (stored in row_map(1..n), row_map(0) == 0) into row offsets in place and
/// returns the total.
template <class ExecSpace, class RowMap>
typename RowMap::non_const_value_type counts_to_offsets(const ExecSpace& exec,
                                                        const RowMap& row_map) {
  return inclusive_sum_in_place_total(exec, row_map);
}

/// The largest per-row count held in row_map(1..n) (before `counts_to_offsets`), 0 when n == 0.
template <class ExecSpace, class RowMap>
typename RowMap::non_const_value_type longest_count(const ExecSpace& exec, const RowMap& row_map) {
  using count_type = typename RowMap::non_const_value_type;
  count_type longest = 0;
  Kokkos::parallel_reduce(
      "syncfree::crs_build::longest", Kokkos::RangePolicy<ExecSpace>(exec, 1, row_map.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, count_type& m) {
        if (row_map(i) > m) m = row_map(i);
      },
      Kokkos::Max<count_type>(longest));
  return row_map.extent(0) > 1 ? longest : count_type(0);
}

/// Entries of A's longest row (0 for no rows), on `exec`; waits for it.
template <class Exec, class Matrix>
long longest_row(const Exec& exec, const Matrix& A) {
  const auto row_map = A.graph.row_map;
  long longest = 0;
  Kokkos::parallel_reduce(
      "syncfree::longest_row", Kokkos::RangePolicy<Exec>(exec, 0, A.numRows()),
      KOKKOS_LAMBDA(const long i, long& l) {
        const long length = long(row_map(i + 1) - row_map(i));
        if (length > l) l = length;
      },
      Kokkos::Max<long>(longest));
  return longest;
}

/// The rows of A with more than `length` entries, in increasing order, on `exec`.
template <class Exec, class Matrix>
Kokkos::View<typename Matrix::non_const_ordinal_type*, typename Matrix::device_type>
rows_longer_than(const Exec& exec, const Matrix& A, long length) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const auto row_map = A.graph.row_map;
  const long n = long(A.numRows());
  long count = 0;
  Kokkos::parallel_reduce(
      "syncfree::count_long_rows", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(const long i, long& c) {
        if (long(row_map(i + 1) - row_map(i)) > length) ++c;
      },
      count);
  Kokkos::View<ordinal_type*, typename Matrix::device_type> rows(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::long_rows"), std::size_t(count));
  if (count == 0) return rows;
  Kokkos::parallel_scan(
      "syncfree::long_rows", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(const long i, long& position, const bool final) {
        if (long(row_map(i + 1) - row_map(i)) <= length) return;
        if (final) rows(position) = ordinal_type(i);
        ++position;
      });
  return rows;
}

/// Builds an n x ncols matrix in two passes over rows: `count(row)` returns how many entries the
/// row will hold, `fill(row, out_begin, entries, values)` writes them (sorted).
template <class Matrix, class ExecSpace, class Count, class Fill>
Matrix build_crs(const ExecSpace& exec, const std::string& label,
                 typename Matrix::non_const_ordinal_type nrows,
                 typename Matrix::non_const_ordinal_type ncols, const Count& count,
                 const Fill& fill) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  typename Matrix::row_map_type::non_const_type row_map(label + "::row_map", nrows + 1);
  Kokkos::parallel_for(
      "syncfree::crs_build::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, nrows),
      KOKKOS_LAMBDA(const ordinal_type i) { row_map(i + 1) = count(i); });
  const auto nnz = counts_to_offsets(exec, row_map);
  typename Matrix::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::entries"), nnz);
  typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), nnz);
  Kokkos::parallel_for(
      "syncfree::crs_build::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, nrows),
      KOKKOS_LAMBDA(const ordinal_type i) { fill(i, row_map(i), entries, values); });
  return make_crs<Matrix>(label, nrows, ncols, row_map, entries, values);
}

/// The transpose of A's pattern, restricted to the entries (i, j) that `keep(i, j)` accepts: row
/// j lists every such i, in no particular order, and `second(p)` is the index in A of the entry
/// that entry p of the transpose comes from. Pattern only: the values are left uninitialized.
template <class ExecSpace, class Matrix, class Keep>
std::pair<Matrix, Kokkos::View<typename Matrix::non_const_size_type*, typename Matrix::device_type>>
transpose_with_sources(const ExecSpace& exec, const std::string& label, const Matrix& A,
                       const Keep& keep) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const ordinal_type nrows = A.numRows(), ncols = A.numCols();
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  typename Matrix::row_map_type::non_const_type t_map(label + "::row_map", ncols + 1);
  Kokkos::parallel_for(
      "syncfree::crs_build::transpose_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, nrows),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          if (keep(i, entries(k))) Kokkos::atomic_add(&t_map(entries(k) + 1), offset_type(1));
      });
  const offset_type t_nnz = counts_to_offsets(exec, t_map);
  typename Matrix::index_type::non_const_type t_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::entries"), t_nnz);
  Kokkos::View<offset_type*, typename Matrix::device_type> sources(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::sources"), t_nnz);
  Kokkos::View<offset_type*, typename Matrix::device_type> cursor(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::cursor"), ncols);
  Kokkos::deep_copy(exec, cursor, Kokkos::subview(t_map, std::make_pair(ordinal_type(0), ncols)));
  Kokkos::parallel_for(
      "syncfree::crs_build::transpose_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, nrows),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k)
          if (keep(i, entries(k))) {
            const offset_type p = Kokkos::atomic_fetch_add(&cursor(entries(k)), offset_type(1));
            t_entries(p) = i;
            sources(p) = k;
          }
      });
  typename Matrix::values_type::non_const_type t_values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), t_nnz);
  return {make_crs<Matrix>(label, ncols, nrows, t_map, t_entries, t_values), sources};
}

/// `transpose_with_sources` without the sources.
template <class ExecSpace, class Matrix, class Keep>
Matrix transpose_pattern(const ExecSpace& exec, const std::string& label, const Matrix& A,
                         const Keep& keep) {
  return transpose_with_sources(exec, label, A, keep).first;
}

}  // namespace syncfree::impl
