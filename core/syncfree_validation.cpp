// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

std::string describe_defect(Defect defect, std::int64_t row, std::int64_t column,
                            std::int64_t previous_column, double value) {
  const std::string at = concat("row ", row, ": ");
  switch (defect) {
    case Defect::none: return {};
    case Defect::bad_row_pointers: return at + "inconsistent row pointers";
    case Defect::not_square: return "matrix is not square";
    case Defect::column_out_of_range: return concat(at, "column index ", column, " is out of range");
    case Defect::unsorted_columns:
      return concat(at, "column ", column, " follows column ", previous_column,
                    " (column indices must be sorted)");
    case Defect::duplicate_column: return concat(at, "column ", column, " is stored twice");
    case Defect::outside_triangle:
      return concat(at, "entry in column ", column, " lies outside the requested triangle");
    case Defect::not_finite: return concat(at, "value ", value, " in column ", column, " is not finite");
    case Defect::missing_diagonal: return at + "diagonal entry is missing";
    case Defect::zero_diagonal: return at + "diagonal entry is zero";
  }
  return at + "unknown defect";
}

}  // namespace syncfree::impl
