// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/ilu/ilu_bench_matrix.hpp"

#include <algorithm>
#include <cmath>

#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_reference_ilu.hpp"

namespace syncfree::bench {

std::shared_ptr<IluBenchMatrix> load_ilu_bench_matrix(const std::string& source) {
  const Kokkos::DefaultExecutionSpace exec;
  auto m = std::make_shared<IluBenchMatrix>();
  m->name = bench_matrix_name(source);
  m->A = load_matrix(source);
  m->A_host = copy_to<HostDevice>(m->A);
  const int n = m->A.numRows();
  m->b = Vector<double>("b", n);
  auto bh = Kokkos::create_mirror_view(m->b);
  for (int i = 0; i < n; ++i) bh(i) = 1.0 + 0.001 * (i % 1000);
  Kokkos::deep_copy(m->b, bh);
  m->levels = compute_level_sets(exec, m->A, Triangle::lower).num_levels;
  return m;
}

const HostCrs& IluBenchMatrix::oracle_factors(int fill_level) {
  auto found = m_factors.find(fill_level);
  if (found == m_factors.end())
    found = m_factors.emplace(fill_level, reference::iluk(A_host, fill_level)).first;
  return found->second;
}

const std::vector<double>& IluBenchMatrix::oracle_apply(int fill_level) {
  auto found = m_apply.find(fill_level);
  if (found == m_apply.end()) {
    const HostCrs& lu = oracle_factors(fill_level);
    auto bh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
    const std::vector<double> rhs(bh.data(), bh.data() + bh.extent(0));
    const auto y = reference::triangular_solve(lu, Triangle::lower, Diagonal::unit, rhs);
    found = m_apply
                .emplace(fill_level,
                         reference::triangular_solve(lu, Triangle::upper, Diagonal::stored, y))
                .first;
  }
  return found->second;
}

double factor_error(const HostCrs& lu, const HostCrs& oracle) {
  if (lu.numRows() != oracle.numRows() || lu.nnz() != oracle.nnz()) return INFINITY;
  for (int i = 0; i <= lu.numRows(); ++i)
    if (lu.graph.row_map(i) != oracle.graph.row_map(i)) return INFINITY;
  double worst = 0, scale = 0;
  for (int k = 0; k < oracle.nnz(); ++k) {
    if (lu.graph.entries(k) != oracle.graph.entries(k)) return INFINITY;
    const double d = std::abs(lu.values(k) - oracle.values(k));
    if (std::isnan(d)) return INFINITY;
    worst = std::max(worst, d);
    scale = std::max(scale, std::abs(oracle.values(k)));
  }
  return scale > 0 ? worst / scale : worst;
}

double apply_error(const Vector<double>& x, const std::vector<double>& oracle) {
  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  if (xh.extent(0) != oracle.size()) return INFINITY;
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const double d = std::abs(xh(i) - oracle[i]);
    if (std::isnan(d)) return INFINITY;
    worst = std::max(worst, d);
    scale = std::max(scale, std::abs(oracle[i]));
  }
  return scale > 0 ? worst / scale : worst;
}

}  // namespace syncfree::bench
