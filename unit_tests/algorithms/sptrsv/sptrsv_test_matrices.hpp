// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The matrices every SpTRSV test runs on: the stress shapes of a sync-free solver (long
/// chain, dense row, diagonal-only rows, sizes around the warp width, more rows than a GPU keeps
/// resident) plus stencils and random bands.

#include <string>
#include <vector>

#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {

struct NamedMatrix {
  std::string name;
  TestMatrix<> A;  ///< square, diagonal stored, both triangles present
};

/// Rescales A on the host so that every row's off-diagonal entries add up to 0.5 in magnitude and
/// the diagonal is 1 + (i % 7) / 7: both the stored- and the unit-diagonal solves then stay well
/// conditioned on any size (a unit-diagonal Poisson factor grows like binomial coefficients).
inline TestMatrix<> well_conditioned(const TestMatrix<>& A) {
  auto h = to_host(A);
  for (int i = 0; i < h.numRows(); ++i) {
    double off = 0;
    for (int k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      if (h.graph.entries(k) != i) off += std::abs(h.values(k));
    for (int k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      h.values(k) = h.graph.entries(k) == i ? 1.0 + (i % 7) / 7.0 : 0.5 * h.values(k) / off;
  }
  return copy_to<Device>(h);
}

inline TestMatrix<> generated(const std::string& spec) {
  return well_conditioned(generate_matrix<TestMatrix<>>(ExecSpace(), parse_problem_spec(spec)));
}

/// Tridiagonal: each triangle is a single chain, the longest possible dependency path.
inline TestMatrix<> chain(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    if (i > 0) t.push_back({i, i - 1, -1.0});
    t.push_back({i, i, 2.0});
    if (i + 1 < n) t.push_back({i, i + 1, -1.0});
  }
  return well_conditioned(matrix_from_triplets(n, n, t));
}

/// Diagonal plus a dense first and last row and column: the lower triangle's last row depends on
/// every other row, and so does the upper triangle's first row.
inline TestMatrix<> arrow(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i == j || i == 0 || j == 0 || i == n - 1 || j == n - 1) t.push_back({i, j, -1.0 - j % 3});
  return well_conditioned(matrix_from_triplets(n, n, t));
}

/// Most rows hold only their diagonal; every fifth row depends on the row before it.
inline TestMatrix<> mostly_diagonal(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    if (i % 5 == 0 && i > 0) t.push_back({i, i - 1, 1.0});
    t.push_back({i, i, 3.0});
    if (i % 5 == 4 && i + 1 < n) t.push_back({i, i + 1, 1.0});
  }
  return well_conditioned(matrix_from_triplets(n, n, t));
}

/// Built anew for each caller: device views must not outlive Kokkos::finalize.
inline std::vector<NamedMatrix> sptrsv_test_matrices() {
  return {
      {"chain_5000", chain(5000)},
      {"arrow_300", arrow(300)},
      {"mostly_diagonal_101", mostly_diagonal(101)},
      {"chain_7", chain(7)},                        // fewer rows than a warp
      {"poisson2d_10", generated("poisson2d:10")},  // 100 rows: not a multiple of 32
      {"poisson3d_12", generated("poisson3d:12")},
      {"poisson3d_40", generated("poisson3d:40")},  // lines of 2 segments: the wavefront
      {"poisson3d27_8", generated("poisson3d27:8")},
      {"convdiff2d_30", generated("convdiff2d:30")},
      {"banded_3000_40", generated("banded:3000:40:8")},
      {"banded_3000_6", generated("banded:3000:6")},         // several dependencies inside one warp
      {"banded_2000_900", generated("banded:2000:900:40")},  // rows longer than a warp
      // 360,000 rows: more threads than an H100/H200 keeps resident (132 SMs x 2048)
      {"poisson2d_600", generated("poisson2d:600")},
  };
}

}  // namespace syncfree::test
