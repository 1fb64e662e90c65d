// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Reading and writing Matrix Market files
/// (https://math.nist.gov/MatrixMarket/formats.html).
///
/// Supported on input: `matrix coordinate|array real|integer|pattern general|symmetric|
/// skew-symmetric` (pattern with coordinate only); the banner is case-insensitive, comment lines
/// (`%`) and blank lines after it are skipped. Not supported: complex fields, hermitian symmetry.
/// Output is always `coordinate real general` (matrices) or `array real general` (vectors),
/// 1-based, with values printed as `%.17g`, so a write followed by a read returns the same bits.
///
/// Input is validated completely. Every malformed or unsupported file throws FileFormatError with
/// the message "<path>:<line>: <what is wrong>" (the last line for problems at the end of the
/// file), and sizes are checked against the target types before anything of that size is allocated.
/// MatrixMarketInfo is declared in core/impl/syncfree_matrix_market_parse.hpp, the host-only
/// parser, and documented there.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "core/impl/syncfree_matrix_market_parse.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {
namespace impl {

/// Largest count an integer type can hold, clamped to int64.
template <class T>
constexpr std::int64_t matrix_market_max_count() {
  if constexpr (std::numeric_limits<T>::digits >= 63) {
    return std::numeric_limits<std::int64_t>::max();
  } else {
    return std::int64_t(std::numeric_limits<T>::max());
  }
}

template <class Scalar, class Ordinal, class Offset>
MatrixMarketLimits matrix_market_limits(bool vector) {
  static_assert(std::is_floating_point_v<Scalar>, "Matrix Market I/O supports real scalars only");
  // One less than the ordinal's maximum for 64-bit ordinals, so that nrows + 1 cannot overflow.
  return {
      std::min(matrix_market_max_count<Ordinal>(), std::numeric_limits<std::int64_t>::max() - 1),
      int(sizeof(Ordinal) * CHAR_BIT),
      matrix_market_max_count<Offset>(),
      int(sizeof(Offset) * CHAR_BIT),
      double(std::numeric_limits<Scalar>::max()),
      int(sizeof(Scalar) * CHAR_BIT),
      vector};
}

}  // namespace impl

/// \brief Reads a sparse matrix from a Matrix Market file.
///
/// Symmetric files hold the lower triangle and are expanded to both triangles; skew-symmetric
/// files likewise, with the mirrored values negated. Pattern entries get the value 1. Array
/// (dense) files keep every value, zeros included. Each row of the result has its column indices
/// sorted ascending, and duplicate (row, column) entries are summed, as the format prescribes.
///
/// \tparam Matrix a `syncfree::CrsMatrix<Scalar, Ordinal, Offset, Device>` with a floating-point
///   `Scalar`; the matrix is built on the host and returned on `Matrix`'s device.
/// \param[in] path file to read
/// \param[out] info if not null, receives the header and what reading found (entry counts,
///   duplicates summed)
/// \returns the matrix
/// \throws FileFormatError if the file cannot be opened or read ("<path>: cannot open: <reason>"),
///   or is malformed or unsupported ("<path>:<line>: <what is wrong>"): bad or missing banner or
///   size line, too few or too many entries, wrong token counts, non-numeric or out-of-range
///   indices, values that are not finite or not integers in an integer file, entries above the
///   diagonal of a symmetric file, diagonal entries of a skew-symmetric file, and sizes or entry
///   counts (after symmetric expansion) that do not fit `Ordinal`, `Offset` or `Scalar`.
/// \note Thread-safe: calls share no state.
template <class Matrix>
Matrix read_matrix_market(const std::string& path, MatrixMarketInfo* info = nullptr) {
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using Host = HostMatrix<Matrix>;

  const impl::MatrixMarketCoordinates coo = impl::parse_matrix_market(
      path, impl::matrix_market_limits<scalar_type, ordinal_type, offset_type>(false));
  const std::int64_t nrows = coo.info.nrows;
  const std::size_t nnz = coo.value.size();
  typename Host::row_map_type::non_const_type row_map("syncfree::row_map", nrows + 1);
  typename Host::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::entries"), nnz);
  typename Host::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::values"), nnz);
  for (std::size_t k = 0; k < nnz; ++k) {
    row_map(coo.row[k] + 1) += 1;
    entries(k) = static_cast<ordinal_type>(coo.col[k]);
    values(k) = static_cast<scalar_type>(coo.value[k]);
  }
  for (std::int64_t i = 0; i < nrows; ++i) row_map(i + 1) += row_map(i);

  Host host = make_crs<Host>(path, nrows, coo.info.ncols, row_map, entries, values);
  if (info) *info = coo.info;
  if constexpr (std::is_same_v<Host, Matrix>) {
    return host;
  } else {
    return copy_to<typename Matrix::device_type>(host);
  }
}

/// \brief Reads the banner and the size line of a Matrix Market file, not its entries: what a
/// caller needs to choose the index types (`info.entries_in_file`; a symmetric file stores up to
/// twice as many). `stored_entries` and `duplicates_summed` are left 0.
/// \throws FileFormatError as read_matrix_market does for the banner and the size line.
inline MatrixMarketInfo read_matrix_market_header(const std::string& path) {
  return impl::parse_matrix_market_header(
      path, impl::matrix_market_limits<double, std::int64_t, std::int64_t>(false));
}

/// \brief Writes a sparse matrix as `coordinate real general`, 1-based, values as `%.17g`.
///
/// Entries are written in storage order, so unsorted rows and duplicates are written as they are
/// (and reading the file back sorts and sums them). Non-finite values are written as `nan` or
/// `inf`, which read_matrix_market rejects.
///
/// \tparam Matrix a `syncfree::CrsMatrix` on any device; it is copied to the host first
/// \param[in] path file to create or overwrite
/// \param[in] A the matrix
/// \throws FileFormatError if the file cannot be opened or written
template <class Matrix>
void write_matrix_market(const std::string& path, const Matrix& A) {
  static_assert(std::is_floating_point_v<typename Matrix::non_const_value_type>,
                "Matrix Market I/O supports real scalars only");
  const auto host = copy_to<HostDevice>(A);
  const std::int64_t nrows = host.numRows();
  const auto& row_map = host.graph.row_map;
  const std::int64_t nnz = row_map.extent(0) > 0 ? std::int64_t(row_map(nrows)) : 0;

  impl::MatrixMarketWriter out(path);
  out.write_coordinate_header(nrows, host.numCols(), nnz);
  for (std::int64_t i = 0; i < nrows; ++i)
    for (auto k = row_map(i); k < row_map(i + 1); ++k)
      out.write_entry(i, std::int64_t(host.graph.entries(k)), double(host.values(k)));
  out.close();
}

/// \brief Reads a vector from a Matrix Market file: `array real|integer general` with n rows and
/// 1 column, or `coordinate` n x 1 (entries not listed are zero, duplicates are summed).
///
/// \tparam Scalar floating-point value type of the result
/// \tparam Device where the result lives
/// \param[in] path file to read
/// \returns the vector, of length n
/// \throws FileFormatError as read_matrix_market does, and when the file does not have exactly
///   1 column or holds fewer or more values than its size line declares
/// \note Thread-safe: calls share no state.
template <class Scalar, class Device = DefaultDevice>
Vector<Scalar, Device> read_vector_market(const std::string& path) {
  const impl::MatrixMarketCoordinates coo = impl::parse_matrix_market(
      path, impl::matrix_market_limits<Scalar, std::int64_t, std::int64_t>(true));
  Vector<Scalar, HostDevice> host(path, coo.info.nrows);
  for (std::size_t k = 0; k < coo.value.size(); ++k)
    host(coo.row[k]) = static_cast<Scalar>(coo.value[k]);
  if constexpr (std::is_same_v<Vector<Scalar, HostDevice>, Vector<Scalar, Device>>) {
    return host;
  } else {
    return copy_vector_to<Device>(host);
  }
}

/// \brief Writes a vector as `array real general` with n rows and 1 column, values as `%.17g`.
///
/// \tparam View a rank-1 Kokkos::View of a floating-point type on any device; it is copied to the
///   host first
/// \param[in] path file to create or overwrite
/// \param[in] x the vector
/// \throws FileFormatError if the file cannot be opened or written
template <class View>
void write_vector_market(const std::string& path, const View& x) {
  static_assert(View::rank == 1, "write_vector_market writes rank-1 views");
  static_assert(std::is_floating_point_v<typename View::non_const_value_type>,
                "Matrix Market I/O supports real scalars only");
  const auto host = copy_vector_to<HostDevice>(x);

  impl::MatrixMarketWriter out(path);
  out.write_array_header(std::int64_t(host.extent(0)), 1);
  for (std::size_t i = 0; i < host.extent(0); ++i) out.write_value(double(host(i)));
  out.close();
}

}  // namespace syncfree
