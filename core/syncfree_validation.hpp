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
#include <type_traits>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// What `check_matrix` verifies; combine with `|`.
enum class MatrixCheck : unsigned {
  structure = 0,               ///< always checked: row pointers and column range
  square = 1u << 0,            ///< as many rows as columns
  sorted_unique = 1u << 1,     ///< column indices strictly increasing in every row
  diagonal = 1u << 2,          ///< every row stores its diagonal entry, and it is nonzero
  lower_triangle = 1u << 3,    ///< no entry above the diagonal
  upper_triangle = 1u << 4,    ///< no entry below the diagonal
  finite = 1u << 5,            ///< no NaN or Inf value
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
  /// Off-diagonal entries of the longest row, when no defect was found: found in the same pass,
  /// for the analyses that size their work by it.
  std::int64_t longest_off_diagonal = 0;
  /// Largest |i - j| of an entry (i, j), when no defect was found: found in the same pass, for
  /// the analyses that choose a banded layout by it.
  std::int64_t bandwidth = 0;
  bool ok() const { return defect == Defect::none; }
};

namespace impl {

/// Whether `checks` require every row to store its diagonal.
KOKKOS_INLINE_FUNCTION bool requires_diagonal(MatrixCheck checks) {
  return has_check(checks, MatrixCheck::diagonal) ||
         has_check(checks, MatrixCheck::diagonal_present);
}

/// The defect of entry k (column j) of `row` alone, or none. `previous`: the column of the entry
/// before it in the row, when `has_previous`. Shared by the row scan below and CUDA's warp-wide
/// pass (cuda/syncfree_validation_cuda.hpp), so that both judge an entry alike.
template <class Values, class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION Defect entry_defect(const Values& values, Offset k, Ordinal j,
                                           bool has_previous, Ordinal previous, Ordinal row,
                                           Ordinal ncols, MatrixCheck checks) {
  if (j < 0 || j >= ncols) return Defect::column_out_of_range;
  if (has_check(checks, MatrixCheck::sorted_unique) && has_previous) {
    if (j < previous) return Defect::unsorted_columns;
    if (j == previous) return Defect::duplicate_column;
  }
  if ((has_check(checks, MatrixCheck::lower_triangle) && j > row) ||
      (has_check(checks, MatrixCheck::upper_triangle) && j < row))
    return Defect::outside_triangle;
  if (has_check(checks, MatrixCheck::finite) && !is_finite(values(k))) return Defect::not_finite;
  if (j == row && has_check(checks, MatrixCheck::diagonal) && values(k) == 0)
    return Defect::zero_diagonal;
  return Defect::none;
}

/// The first defect of one row, scanning its entries in storage order. Shared by the device pass
/// and the host re-read so the two always agree. `*diagonals` counts the entries on the diagonal
/// seen (all of them when there is no defect).
template <class Entries, class Values, class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION Defect row_defect(const Entries& entries, const Values& values, Offset begin,
                                         Offset end, Ordinal row, Ordinal ncols, MatrixCheck checks,
                                         Offset* where, Offset* diagonals) {
  *diagonals = 0;
  for (Offset k = begin; k < end; ++k) {
    *where = k;
    const Ordinal j = entries(k);
    const Defect d =
        entry_defect(values, k, j, k > begin, k > begin ? Ordinal(entries(k - 1)) : Ordinal(0), row,
                     ncols, checks);
    if (d != Defect::none) return d;
    if (j == row) ++*diagonals;
  }
  if (requires_diagonal(checks) && *diagonals == 0) return Defect::missing_diagonal;
  return Defect::none;
}

std::string describe_defect(Defect defect, std::int64_t row, std::int64_t column,
                            std::int64_t previous_column, double value);

/// A row's defect as one key, row * 16 + defect code: the least key is the first defective row.
inline constexpr std::int64_t no_defect_key = std::numeric_limits<std::int64_t>::max();

/// Whether a row's pointers cannot be trusted: they must lie within the entries, never decrease,
/// start at 0 and end at nnz. Checked before any of the row's entries is read: each row checks
/// its own begin too, since the row before it, which ends there, may be defective itself.
template <class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION bool row_pointers_broken(Offset begin, Offset end, Ordinal row, Ordinal n,
                                                Offset nnz) {
  bool negative = false;
  if constexpr (std::is_signed_v<Offset>) negative = begin < 0;
  return negative || end < begin || end > nnz || (row == 0 && begin != 0) ||
         (row == n - 1 && end != nnz);
}

/// What the pass over the rows finds.
struct RowsReport {
  std::int64_t first_key = no_defect_key;  ///< least key of a defective row
  std::int64_t longest_off_diagonal = 0;   ///< when no row is defective
  std::int64_t bandwidth = 0;              ///< likewise
};

/// The pass over the rows, one row per iteration, in one MinMax reduction: its min half takes the
/// least defect key, or for a sound row no_defect_key - (the row's largest |i - j|), a key above
/// every defect key (rows * 16 < 2^40), so that one reduction finds the first defect or else the
/// bandwidth; its max half the longest row. (Kokkos 3.4 cannot combine reducers.)
template <class ExecSpace, class Matrix>
RowsReport validate_rows_one_per_iteration(const ExecSpace& exec, const Matrix& A,
                                           MatrixCheck checks) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  constexpr std::int64_t sound_keys = no_defect_key - (std::int64_t(1) << 40);
  const ordinal_type n = A.numRows();
  const ordinal_type ncols = A.numCols();
  const offset_type nnz = offset_type(A.graph.entries.extent(0));
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  Kokkos::MinMaxScalar<std::int64_t> result{};
  Kokkos::parallel_reduce(
      "syncfree::validation::rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, Kokkos::MinMaxScalar<std::int64_t>& r) {
        const offset_type begin = row_map(i), end = row_map(i + 1);
        offset_type where = 0, diagonals = 0;
        const Defect d =
            row_pointers_broken(begin, end, i, n, nnz)
                ? Defect::bad_row_pointers
                : row_defect(entries, values, begin, end, i, ncols, checks, &where, &diagonals);
        if (d != Defect::none) {
          const std::int64_t k = std::int64_t(i) * 16 + std::int64_t(d);
          if (k < r.min_val) r.min_val = k;
          return;
        }
        const std::int64_t off_diagonal = std::int64_t(end - begin) - std::int64_t(diagonals);
        if (off_diagonal > r.max_val) r.max_val = off_diagonal;
        std::int64_t width = 0;
        for (offset_type k = begin; k < end; ++k) {
          const std::int64_t distance = std::int64_t(entries(k)) - std::int64_t(i);
          const std::int64_t magnitude = distance < 0 ? -distance : distance;
          if (magnitude > width) width = magnitude;
        }
        if (no_defect_key - width < r.min_val) r.min_val = no_defect_key - width;
      },
      Kokkos::MinMax<std::int64_t>(result));
  const bool sound = result.min_val >= sound_keys;
  return {sound ? no_defect_key : result.min_val, result.max_val > 0 ? result.max_val : 0,
          sound ? no_defect_key - result.min_val : 0};
}

/// The pass over the rows: the generic one above; CUDA specializes it for rows of 8 or more
/// entries on average or some of more than 512 (cuda/syncfree_validation_cuda.hpp).
template <class ExecSpace, class Matrix, class Enable = void>
struct ValidateRows {
  static RowsReport run(const ExecSpace& exec, const Matrix& A, MatrixCheck checks) {
    return validate_rows_one_per_iteration(exec, A, checks);
  }
};

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

  if (row_map.extent(0) != std::size_t(n) + 1) {
    report.defect = Defect::bad_row_pointers;
    report.row = 0;
    report.message = impl::concat("row_map has ", row_map.extent(0), " entries for ", n,
                                  " rows; it needs ", std::int64_t(n) + 1);
    return report;
  }
  const offset_type nnz = offset_type(entries.extent(0));
  if (n == 0) {
    offset_type only = 0;
    Kokkos::deep_copy(exec, Kokkos::View<offset_type, Kokkos::HostSpace>(&only),
                      Kokkos::subview(row_map, 0));
    exec.fence();
    if (only == 0 && nnz == 0) return report;
    report.defect = Defect::bad_row_pointers;
    report.row = 0;
    report.message = impl::concat("row pointers of an empty matrix must be {0}, with nnz = 0; ",
                                  "they are {", only, "} with nnz = ", nnz);
    return report;
  }

  const auto result = impl::ValidateRows<ExecSpace, Matrix>::run(exec, A, checks);
  const std::int64_t first_key = result.first_key;
  if (first_key == impl::no_defect_key) {
    report.longest_off_diagonal = result.longest_off_diagonal;
    report.bandwidth = result.bandwidth;
    return report;
  }

  // Re-read the defective row on the host to describe it precisely: its pointers, then (when
  // they are sound) its entries.
  const ordinal_type row = ordinal_type(first_key / 16);
  report.row = row;
  auto host_ptr = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(row_map, std::make_pair(row, row + 2)));
  if (Defect(first_key % 16) == Defect::bad_row_pointers) {
    report.defect = Defect::bad_row_pointers;
    report.message = impl::concat("row pointers of row ", row, " are inconsistent (", host_ptr(0),
                                  " to ", host_ptr(1), "; they must start at 0, never decrease",
                                  " and end at nnz = ", nnz, ")");
    return report;
  }
  const auto range = std::make_pair(host_ptr(0), host_ptr(1));
  auto row_entries =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(entries, range));
  auto row_values =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(values, range));
  offset_type where = 0, diagonals = 0;
  report.defect =
      impl::row_defect(row_entries, row_values, offset_type(0), offset_type(row_entries.extent(0)),
                       row, ncols, checks, &where, &diagonals);
  const bool has_entry = row_entries.extent(0) > 0;
  report.message =
      impl::describe_defect(report.defect, row, has_entry ? std::int64_t(row_entries(where)) : -1,
                            has_entry && where > 0 ? std::int64_t(row_entries(where - 1)) : -1,
                            has_entry ? double(row_values(where)) : 0.0);
  return report;
}

/// Throws `InvalidMatrix` with "<context>: <defect>" (and the row, where one is at fault) when
/// `check_matrix` finds a problem, and returns the report otherwise.
template <class ExecSpace, class Matrix>
ValidationReport require_valid(const ExecSpace& exec, const Matrix& A, MatrixCheck checks,
                               const std::string& context) {
  ValidationReport report = check_matrix(exec, A, checks);
  if (!report.ok()) throw InvalidMatrix(impl::concat(context, ": ", report.message), report.row);
  return report;
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

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_validation_cuda.hpp"
#endif
