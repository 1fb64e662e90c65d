// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Checks every algorithm's analysis runs before it trusts a matrix: consistent row
/// pointers, column indices in range, sorted and unique, diagonal present and nonzero, entries only
/// in the requested triangle, finite values, square shape.
///
/// One device pass finds the first defective row; the host then re-reads that single row to say
/// exactly what is wrong ("row 17: column 5 follows column 9").

#include <cstdint>
#include <limits>
#include <string>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// What `check_matrix` verifies; combine with `|`.
enum class MatrixCheck : unsigned {
  structure = 0,             ///< always checked: row pointers and column range
  square = 1u << 0,          ///< as many rows as columns
  sorted_unique = 1u << 1,   ///< column indices strictly increasing in every row
  diagonal = 1u << 2,        ///< every row stores its diagonal entry, and it is nonzero
  lower_triangle = 1u << 3,  ///< no entry above the diagonal
  upper_triangle = 1u << 4,  ///< no entry below the diagonal
  finite = 1u << 5,          ///< no NaN or Inf value
  diagonal_present = 1u << 6,  ///< every row stores its diagonal entry (of any value)
};

KOKKOS_INLINE_FUNCTION constexpr MatrixCheck operator|(MatrixCheck a, MatrixCheck b) {
  return MatrixCheck(unsigned(a) | unsigned(b));
}
KOKKOS_INLINE_FUNCTION constexpr bool has_check(MatrixCheck set, MatrixCheck c) {
  return (unsigned(set) & unsigned(c)) != 0;
}

/// The checks a triangular solve of the given triangle needs.
constexpr MatrixCheck triangular_checks(Triangle t, Diagonal d) {
  return MatrixCheck::square | MatrixCheck::sorted_unique | MatrixCheck::finite |
         (t == Triangle::lower ? MatrixCheck::lower_triangle : MatrixCheck::upper_triangle) |
         (d == Diagonal::stored ? MatrixCheck::diagonal : MatrixCheck::structure);
}

/// The first problem found, in row order.
enum class Defect {
  none,
  bad_row_pointers,  ///< row_map does not start at 0, decreases, or disagrees with nnz
  not_square,
  column_out_of_range,
  unsorted_columns,
  duplicate_column,
  outside_triangle,
  not_finite,
  missing_diagonal,
  zero_diagonal,
};

struct ValidationReport {
  Defect defect = Defect::none;
  std::int64_t row = -1;  ///< the first row with a defect
  std::string message;    ///< e.g. "row 3: column 1 follows column 2 (unsorted)"
  bool ok() const { return defect == Defect::none; }
};

namespace impl {

/// The first defect of one row, scanning its entries in storage order. Shared by the device pass
/// and the host re-read so the two always agree.
template <class Entries, class Values, class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION Defect row_defect(const Entries& entries, const Values& values, Offset begin,
                                         Offset end, Ordinal row, Ordinal ncols, MatrixCheck checks,
                                         Offset* where) {
  bool has_diagonal = false;
  for (Offset k = begin; k < end; ++k) {
    *where = k;
    const Ordinal j = entries(k);
    if (j < 0 || j >= ncols) return Defect::column_out_of_range;
    if (has_check(checks, MatrixCheck::sorted_unique) && k > begin) {
      if (j < entries(k - 1)) return Defect::unsorted_columns;
      if (j == entries(k - 1)) return Defect::duplicate_column;
    }
    if ((has_check(checks, MatrixCheck::lower_triangle) && j > row) ||
        (has_check(checks, MatrixCheck::upper_triangle) && j < row))
      return Defect::outside_triangle;
    if (has_check(checks, MatrixCheck::finite) && !is_finite(values(k))) return Defect::not_finite;
    if (j == row) {
      has_diagonal = true;
      if (has_check(checks, MatrixCheck::diagonal) && values(k) == 0) return Defect::zero_diagonal;
    }
  }
  if ((has_check(checks, MatrixCheck::diagonal) || has_check(checks, MatrixCheck::diagonal_present)) &&
      !has_diagonal)
    return Defect::missing_diagonal;
  return Defect::none;
}

std::string describe_defect(Defect defect, std::int64_t row, std::int64_t column,
                            std::int64_t previous_column, double value);

}  // namespace impl

/// Checks `A` against `checks` (row pointers and column range always) and reports the first
/// defective row. Runs one reduction on `exec` and reads back at most one row.
template <class ExecSpace, class Matrix>
ValidationReport check_matrix(const ExecSpace& exec, const Matrix& A, MatrixCheck checks) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const ordinal_type n = A.numRows();
  const ordinal_type ncols = A.numCols();
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  ValidationReport report;

  if (has_check(checks, MatrixCheck::square) && n != ncols) {
    report.defect = Defect::not_square;
    report.message = impl::concat("matrix is ", n, "x", ncols, ", not square");
    return report;
  }

  // Row pointers first: the row scan below indexes entries through them.
  std::int64_t bad_pointer = n + 1;
  if (row_map.extent(0) != std::size_t(n) + 1) {
    bad_pointer = 0;
  } else {
    const offset_type nnz = offset_type(entries.extent(0));
    Kokkos::parallel_reduce(
        "syncfree::validation::row_pointers", Kokkos::RangePolicy<ExecSpace>(exec, 0, n + 1),
        KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& first) {
          const bool bad = (i == 0 && row_map(0) != 0) || (i > 0 && row_map(i) < row_map(i - 1)) ||
                           (i == n && row_map(n) != nnz);
          if (bad && i < first) first = i;
        },
        Kokkos::Min<std::int64_t>(bad_pointer));
  }
  if (bad_pointer <= n) {
    report.defect = Defect::bad_row_pointers;
    report.row = bad_pointer;
    report.message = impl::concat(
        "row pointers are inconsistent at row ", bad_pointer,
        " (they must start at 0, never decrease and end at nnz = ", entries.extent(0), ")");
    return report;
  }

  // Key = row * 16 + defect code; the minimum is the first defective row.
  constexpr std::int64_t none_key = std::numeric_limits<std::int64_t>::max();
  std::int64_t first_key = none_key;
  Kokkos::parallel_reduce(
      "syncfree::validation::rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, std::int64_t& key) {
        offset_type where = 0;
        const Defect d =
            impl::row_defect(entries, values, row_map(i), row_map(i + 1), i, ncols, checks, &where);
        if (d != Defect::none) {
          const std::int64_t k = std::int64_t(i) * 16 + std::int64_t(d);
          if (k < key) key = k;
        }
      },
      Kokkos::Min<std::int64_t>(first_key));
  if (first_key == none_key) return report;

  // Re-read the defective row on the host to describe it precisely.
  const ordinal_type row = ordinal_type(first_key / 16);
  auto host_ptr = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(row_map, std::make_pair(row, row + 2)));
  const auto range = std::make_pair(host_ptr(0), host_ptr(1));
  auto row_entries =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(entries, range));
  auto row_values =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(values, range));
  offset_type where = 0;
  report.defect = impl::row_defect(row_entries, row_values, offset_type(0),
                                   offset_type(row_entries.extent(0)), row, ncols, checks, &where);
  report.row = row;
  const bool has_entry = row_entries.extent(0) > 0;
  report.message =
      impl::describe_defect(report.defect, row, has_entry ? std::int64_t(row_entries(where)) : -1,
                            has_entry && where > 0 ? std::int64_t(row_entries(where - 1)) : -1,
                            has_entry ? double(row_values(where)) : 0.0);
  return report;
}

/// Throws `InvalidMatrix` with "<context>: <defect>" when `check_matrix` finds a problem.
template <class ExecSpace, class Matrix>
void require_valid(const ExecSpace& exec, const Matrix& A, MatrixCheck checks,
                   const std::string& context) {
  const ValidationReport report = check_matrix(exec, A, checks);
  SYNCFREE_REQUIRE(report.ok(), InvalidMatrix, context, ": ", report.message);
}

/// Throws `InvalidMatrix` when `count` `what` ("rows", "entries") of `context` do not fit `Index`,
/// the `role` ("ordinal", "offset") index type: "poisson3d:2000 has 8000000000 rows; that
/// overflows the 32-bit ordinal type". Call it before allocating.
template <class Index>
void require_fits(std::int64_t count, const std::string& context, const char* what,
                  const char* role) {
  SYNCFREE_REQUIRE(
      count >= 0 && std::uint64_t(count) <= std::uint64_t(std::numeric_limits<Index>::max()),
      InvalidMatrix, context, " has ", count, " ", what, "; that overflows the ", 8 * sizeof(Index),
      "-bit ", role, " type");
}

}  // namespace syncfree
