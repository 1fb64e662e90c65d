// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/sptrsv/sptrsv_bench_matrix.hpp"

#include <algorithm>
#include <cmath>

#include "core/syncfree_reference.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"

namespace syncfree::bench {

std::shared_ptr<BenchMatrix> load_bench_matrix(const std::string& source) {
  const Kokkos::DefaultExecutionSpace exec;
  auto m = std::make_shared<BenchMatrix>();
  m->name = bench_matrix_name(source);
  const Matrix A = load_matrix(source);
  m->L = extract_triangle(exec, A, Triangle::lower, Diagonal::stored);
  const int n = m->L.numRows();

  std::vector<double> b(n);
  for (int i = 0; i < n; ++i) b[i] = 1.0 + 0.001 * (i % 1000);
  m->b = Vector<double>("b", n);
  auto bh = Kokkos::create_mirror_view(m->b);
  std::copy(b.begin(), b.end(), bh.data());
  Kokkos::deep_copy(m->b, bh);
  const auto Lh = copy_to<HostDevice>(m->L);  // for the oracle and the row features
  m->expected = reference::triangular_solve(Lh, Triangle::lower, Diagonal::stored, b);

  m->features = triangle_features(Lh, Triangle::lower);
  m->levels = int(m->features.levels);
  m->rows_per_level = double(n) / std::max(1, m->levels);
  m->longest_row = int(m->features.longest_row);
  m->mean_row = m->features.mean_row();
  m->near_dependencies = m->features.near_share;
  m->bytes = 12.0 * double(m->L.nnz()) + 4.0 * (n + 1) + 16.0 * n;
  return m;
}

double max_relative_error(const BenchMatrix& m, const Vector<double>& x) {
  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  double worst = 0;
  for (std::size_t i = 0; i < m.expected.size(); ++i) {
    const double e = std::abs(xh(i) - m.expected[i]) / std::max(1.0, std::abs(m.expected[i]));
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  }
  return worst;
}

}  // namespace syncfree::bench
