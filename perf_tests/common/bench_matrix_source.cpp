// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/common/bench_matrix_source.hpp"

#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"

namespace syncfree::bench {
namespace {

BenchCrs bidiagonal_chain(int n) {
  using HM = HostMatrix<BenchCrs>;
  HM::row_map_type::non_const_type row_map("row_map", n + 1);
  HM::index_type::non_const_type entries("entries", 2 * n - 1);
  HM::values_type::non_const_type values("values", 2 * n - 1);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0) entries(k) = i - 1, values(k++) = -1.0;
    entries(k) = i, values(k++) = 2.0;
    row_map(i + 1) = k;
  }
  return copy_to<DefaultDevice>(make_crs<HM>("chain", n, n, row_map, entries, values));
}

}  // namespace

bool is_matrix_market_path(const std::string& source) {
  return source.size() > 4 && source.substr(source.size() - 4) == ".mtx";
}

std::string bench_matrix_name(const std::string& source) {
  if (!is_matrix_market_path(source)) return source;
  const auto slash = source.find_last_of('/');
  return slash == std::string::npos ? source : source.substr(slash + 1);
}

BenchCrs load_matrix(const std::string& source) {
  const std::string chain = "chain:";
  if (source.rfind(chain, 0) == 0) {
    const int n = std::stoi(source.substr(chain.size()));
    SYNCFREE_REQUIRE(n > 0, InvalidArgument, "'", source, "': the chain needs at least one row");
    return bidiagonal_chain(n);
  }
  if (is_matrix_market_path(source)) return read_matrix_market<BenchCrs>(source);
  return generate_matrix<BenchCrs>(Kokkos::DefaultExecutionSpace(), parse_problem_spec(source));
}

}  // namespace syncfree::bench
