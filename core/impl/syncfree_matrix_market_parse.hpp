// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The host-only half of Matrix Market I/O: a parser that turns a file into a sorted
/// coordinate list, and a line writer. No Kokkos here, so this is compiled once into the library;
/// the templates in core/syncfree_matrix_market.hpp convert to and from CrsMatrix and views.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace syncfree {

/// What the header of a Matrix Market file declared and what reading it found.
struct MatrixMarketInfo {
  std::string format;    ///< "coordinate" or "array" (lower case)
  std::string field;     ///< "real", "integer" or "pattern"
  std::string symmetry;  ///< "general", "symmetric" or "skew-symmetric"
  std::int64_t nrows = 0;
  std::int64_t ncols = 0;
  /// Entry lines (coordinate) or values (array) in the file.
  std::int64_t entries_in_file = 0;
  /// Entries of the result, after symmetric expansion and summing of duplicates.
  std::int64_t stored_entries = 0;
  /// File entries that were added to an earlier entry with the same (row, column).
  std::int64_t duplicates_summed = 0;
};

namespace impl {

/// What the target types can hold. The parser checks sizes against these before it allocates.
struct MatrixMarketLimits {
  std::int64_t max_dimension;  ///< largest number of rows or columns (the ordinal type)
  int ordinal_bits;
  std::int64_t max_entries;  ///< largest number of stored entries (the offset type)
  int offset_bits;
  double max_value;  ///< largest finite magnitude (the scalar type)
  int scalar_bits;
  bool vector;  ///< require an n x 1 file
};

/// A file's matrix as a coordinate list: 0-based, sorted by (row, column), duplicates summed,
/// symmetric and skew-symmetric files expanded to both triangles.
struct MatrixMarketCoordinates {
  MatrixMarketInfo info;
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> col;
  std::vector<double> value;
};

/// Reads a Matrix Market file. Throws FileFormatError "<path>:<line>: <what is wrong>" for every
/// malformed or unsupported file, and "<path>: cannot open: <reason>" when it cannot be opened.
MatrixMarketCoordinates parse_matrix_market(const std::string& path,
                                            const MatrixMarketLimits& limits);

/// The banner and size line of a Matrix Market file (`stored_entries` and `duplicates_summed` left
/// 0), with the errors of parse_matrix_market for them.
MatrixMarketInfo parse_matrix_market_header(const std::string& path,
                                            const MatrixMarketLimits& limits);

/// Writes a Matrix Market file line by line; values are printed with %.17g, which reads back to
/// the same double. Throws FileFormatError when the file cannot be opened or written.
class MatrixMarketWriter {
 public:
  explicit MatrixMarketWriter(const std::string& path);
  ~MatrixMarketWriter();
  MatrixMarketWriter(const MatrixMarketWriter&) = delete;
  MatrixMarketWriter& operator=(const MatrixMarketWriter&) = delete;

  /// Banner "coordinate real general" and the size line.
  void write_coordinate_header(std::int64_t nrows, std::int64_t ncols, std::int64_t entries);
  /// Banner "array real general" and the size line.
  void write_array_header(std::int64_t nrows, std::int64_t ncols);
  /// One coordinate entry; row and col are 0-based and written 1-based.
  void write_entry(std::int64_t row, std::int64_t col, double value);
  /// One array value.
  void write_value(double value);
  /// Flushes and closes; throws if any write failed.
  void close();

 private:
  std::string m_path;
  std::FILE* m_file;
};

}  // namespace impl
}  // namespace syncfree
