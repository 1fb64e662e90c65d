// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Small helpers shared by the unit tests: matrices from triplets, host copies, entry-wise
/// comparison. Tests include a backend header first, which defines SYNCFREE_TEST_DEVICE.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "core/syncfree_types.hpp"

namespace syncfree::test {

using Device = SYNCFREE_TEST_DEVICE;
using ExecSpace = SYNCFREE_TEST_EXECSPACE;

template <class Scalar = double, class Offset = int>
using TestMatrix = CrsMatrix<Scalar, int, Offset, Device>;

struct Triplet {
  std::int64_t row;
  std::int64_t col;
  double value;
};

/// A matrix on `Device` (default: the test device) with the given entries, kept in the given order
/// within each row (so tests can build unsorted or duplicated rows on purpose).
template <class Matrix = TestMatrix<>>
Matrix matrix_from_triplets(std::int64_t nrows, std::int64_t ncols,
                            const std::vector<Triplet>& triplets) {
  using HM = HostMatrix<Matrix>;
  std::vector<Triplet> sorted = triplets;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Triplet& a, const Triplet& b) { return a.row < b.row; });
  typename HM::row_map_type::non_const_type row_map("row_map", nrows + 1);
  typename HM::index_type::non_const_type entries("entries", sorted.size());
  typename HM::values_type::non_const_type values("values", sorted.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    row_map(sorted[k].row + 1)++;
    entries(k) = static_cast<typename HM::non_const_ordinal_type>(sorted[k].col);
    values(k) = static_cast<typename HM::non_const_value_type>(sorted[k].value);
  }
  for (std::int64_t i = 0; i < nrows; ++i) row_map(i + 1) += row_map(i);
  HM host = make_crs<HM>("test", nrows, ncols, row_map, entries, values);
  return copy_to<typename Matrix::device_type>(host);
}

/// A dense row-major description of a small matrix; zeros are not stored.
template <class Matrix = TestMatrix<>>
Matrix matrix_from_dense(const std::vector<std::vector<double>>& dense) {
  std::vector<Triplet> triplets;
  for (std::size_t i = 0; i < dense.size(); ++i)
    for (std::size_t j = 0; j < dense[i].size(); ++j)
      if (dense[i][j] != 0.0)
        triplets.push_back({std::int64_t(i), std::int64_t(j), dense[i][j]});
  return matrix_from_triplets<Matrix>(std::int64_t(dense.size()),
                                      dense.empty() ? 0 : std::int64_t(dense[0].size()), triplets);
}

template <class Matrix>
HostMatrix<Matrix> to_host(const Matrix& A) {
  return copy_to<HostDevice>(A);
}

template <class View>
std::vector<typename View::non_const_value_type> to_std(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

/// n values shift + 0.25 (i mod 7) - (i mod 3): varied, of both signs (test vectors).
inline std::vector<double> pattern_vector(std::size_t n, double shift) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = shift + double(i % 7) * 0.25 - double(i % 3);
  return v;
}

template <class Scalar, class D = Device>
Vector<Scalar, D> to_view(const std::vector<Scalar>& v, const std::string& label = "v") {
  Vector<Scalar, D> out(label, v.size());
  auto h = Kokkos::create_mirror_view(out);
  std::copy(v.begin(), v.end(), h.data());
  Kokkos::deep_copy(out, h);
  return out;
}

/// Expects a and b equal entry-wise within rel_tol * max(1, |b_i|).
template <class A, class B>
void expect_near_entrywise(const A& a, const B& b, double rel_tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double scale = std::max(1.0, std::abs(double(b[i])));
    ASSERT_NEAR(double(a[i]), double(b[i]), rel_tol * scale) << "entry " << i;
  }
}

template <class Scalar>
double eps() {
  return double(std::numeric_limits<Scalar>::epsilon());
}

}  // namespace syncfree::test
