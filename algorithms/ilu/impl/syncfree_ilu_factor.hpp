// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The numeric phase around the kernels: A's values into the factors' pattern, the pivot
/// thresholds, and the report read back into an `Outcome`.

#include <cstdint>
#include <limits>

#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"

namespace syncfree::impl {

struct IluFactorResult {
  Outcome outcome;
  std::int64_t replacements = 0;
};

/// Copies A's values into `values`, on the factors' pattern (zero on fill entries), the diagonal
/// times 1 + `options.shift`, sets each row's tiny-pivot threshold from that |a_ii|, and records
/// the first row holding a NaN or Inf.
template <class ExecSpace, class Matrix, class Values>
void ilu_load_values(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, const Matrix& A,
                     const Values& values, const IluOptions& options) {
  using Storage = IluPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using magnitude_type = typename Storage::magnitude_type;
  const auto a_row_map = A.graph.row_map;
  const auto a_values = A.values;
  const auto a_to_lu = s.a_to_lu;
  const auto diagonal = s.diagonal;
  const auto threshold = s.threshold;
  const auto report = s.report;
  const bool same_pattern = a_to_lu.extent(0) == 0;
  if (!same_pattern) Kokkos::deep_copy(exec, values, 0);
  const magnitude_type absolute = magnitude_type(options.absolute_threshold);
  const magnitude_type relative = magnitude_type(options.relative_threshold);
  const auto scale = typename Storage::scalar_type(1 + options.shift);
  Kokkos::parallel_for(
      "syncfree::ilu::load_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        bool finite = true;
        for (auto k = a_row_map(i); k < a_row_map(i + 1); ++k) {
          finite = finite && is_finite(a_values(k));
          values(same_pattern ? k : a_to_lu(k)) = a_values(k);
        }
        if (!finite)
          Kokkos::atomic_fetch_min(&report(0), std::int64_t(i) * 4 + ilu_input_not_finite);
        values(diagonal(i)) *= scale;
        threshold(i) = ilu_pivot_threshold(absolute, relative, values(diagonal(i)));
      });
}

/// Reads the report of the last factorization back into an outcome (one small copy).
template <class ExecSpace, class Matrix>
IluFactorResult ilu_read_report(const ExecSpace& exec, const IluPlanStorage<Matrix>& s) {
  auto report = Kokkos::create_mirror_view(Kokkos::HostSpace(), s.report);
  Kokkos::deep_copy(exec, report, s.report);
  exec.fence();
  IluFactorResult result;
  result.replacements = report(1);
  if (report(0) == std::numeric_limits<std::int64_t>::max()) return result;
  const std::int64_t row = report(0) / 4;
  auto& o = result.outcome;
  o.index = row;
  switch (report(0) % 4) {
    case ilu_input_not_finite:
      o.status = Status::not_finite;
      o.reason = concat("row ", row, ": the matrix holds a NaN or Inf value");
      break;
    case ilu_pivot_not_finite:
      o.status = Status::not_finite;
      o.reason = concat("row ", row,
                        ": the pivot became NaN or Inf (overflow or an earlier "
                        "tiny pivot)");
      break;
    default: {
      const auto where = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(), Kokkos::subview(s.diagonal, std::make_pair(row, row + 1)));
      const auto value = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(),
          Kokkos::subview(s.lu.values, std::make_pair(where(0), where(0) + 1)));
      const auto limit = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(), Kokkos::subview(s.threshold, std::make_pair(row, row + 1)));
      o.status = Status::zero_pivot;
      o.reason = concat("row ", row, ": pivot ", double(value(0)),
                        limit(0) > 0 ? concat(" is at or below the threshold ", double(limit(0)))
                                     : std::string(" is zero"),
                        " (IluOptions::replace_tiny_pivots replaces such pivots)");
    }
  }
  return result;
}

/// Where the factors of A have a pivot u_ii whose sign is not that of a_ii: the first such row as
/// a `not_positive_definite` outcome (for an SPD matrix, a negative pivot), else success. One pass
/// and one small read back.
template <class ExecSpace, class Matrix>
Outcome ilu_check_pivot_signs(const ExecSpace& exec, const IluPlanStorage<Matrix>& s,
                              const Matrix& A) {
  using ordinal_type = typename IluPlanStorage<Matrix>::ordinal_type;
  const auto a_row_map = A.graph.row_map;
  const auto a_entries = A.graph.entries;
  const auto a_values = A.values;
  const auto diagonal = s.diagonal;
  const auto lu_values = s.lu.values;
  ordinal_type first = 0;  // Min starts from the largest ordinal: no such row
  Kokkos::parallel_reduce(
      "syncfree::ilu::pivot_signs", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& smallest) {
        const auto u = lu_values(diagonal(i));
        const auto a = a_values(
            find_sorted(i, a_row_map(i), a_row_map(i + 1), [&](auto k) { return a_entries(k); }));
        if ((a > 0 && !(u > 0)) || (a < 0 && !(u < 0))) smallest = i < smallest ? i : smallest;
      },
      Kokkos::Min<ordinal_type>(first));
  Outcome outcome;
  if (first == Kokkos::reduction_identity<ordinal_type>::min()) return outcome;
  const auto host_row_map = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(a_row_map, std::make_pair(first, first + 2)));
  const auto host_entries = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(),
      Kokkos::subview(a_entries, std::make_pair(host_row_map(0), host_row_map(1))));
  const auto host_values = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(),
      Kokkos::subview(a_values, std::make_pair(host_row_map(0), host_row_map(1))));
  double a = 0;
  for (std::size_t k = 0; k < host_entries.extent(0); ++k)
    if (host_entries(k) == first) a = double(host_values(k));
  const auto where = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(diagonal, std::make_pair(first, first + 1)));
  const auto u = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(lu_values, std::make_pair(where(0), where(0) + 1)));
  outcome.status = Status::not_positive_definite;
  outcome.index = first;
  outcome.reason = concat("row ", first, ": pivot ", double(u(0)),
                          " does not have the sign of the diagonal entry ", a);
  return outcome;
}

}  // namespace syncfree::impl
