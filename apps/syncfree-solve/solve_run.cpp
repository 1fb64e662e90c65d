// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cstdint>
#include <limits>

#include "apps/syncfree-solve/solve_run_impl.hpp"

namespace syncfree::app {
namespace {

/// Entries the system's matrix stores at most, known before it is read or generated: a file's
/// size line (its symmetric entries counted twice), a generator's exact count.
double entries_bound(const SolveOptions& o) {
  if (o.matrix.empty()) return double(parse_problem_spec(o.problem).num_entries());
  const MatrixMarketInfo info = read_matrix_market_header(o.matrix);
  if (info.format == "array") return double(info.nrows) * double(info.ncols);
  return double(info.entries_in_file) * (info.symmetry == "general" ? 1 : 2);
}

}  // namespace

template SolveReport run_solve_as<CrsMatrix<double, int, int>>(const SolveOptions&, std::ostream&);

SolveReport run_solve(const SolveOptions& o, std::ostream& out) {
  const bool wide = o.offsets == "64" ||
                    (o.offsets == "auto" && entries_bound(o) > std::numeric_limits<int>::max());
  if (wide) return run_solve_as<CrsMatrix<double, int, std::int64_t>>(o, out);
  return run_solve_as<CrsMatrix<double, int, int>>(o, out);
}

}  // namespace syncfree::app
