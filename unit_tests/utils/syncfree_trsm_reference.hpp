// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial oracle for dense TRSM: op(A) X = alpha B or X op(A) = alpha B by plain
/// substitution in long double, and the infinity-norm condition number of op(A).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace syncfree::test::trsm_reference {

/// A dense matrix, column-major.
struct Dense {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> v;
  Dense(std::int64_t r, std::int64_t c, double fill = 0) : rows(r), cols(c), v(r * c, fill) {}
  double& operator()(std::int64_t i, std::int64_t j) { return v[j * rows + i]; }
  double operator()(std::int64_t i, std::int64_t j) const { return v[j * rows + i]; }
};

struct Case {
  bool right = false, lower = true, transpose = false, unit = false;
};

/// op(A)'s entry (i, j) as the solve reads it: the other triangle is zero, a unit diagonal is 1.
inline long double op_entry(const Dense& A, const Case& c, std::int64_t i, std::int64_t j) {
  const std::int64_t r = c.transpose ? j : i, s = c.transpose ? i : j;
  if (r == s) return c.unit ? 1.0L : A(r, s);
  const bool in_triangle = c.lower ? r > s : r < s;
  return in_triangle ? A(r, s) : 0.0L;
}

/// Solves T y = b for a dense triangular T given by `t(i, j)`, lower when `lower`.
template <class Entry>
std::vector<long double> substitute(std::int64_t n, bool lower, Entry t,
                                    std::vector<long double> y) {
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t i = lower ? s : n - 1 - s;
    long double sum = y[i];
    for (std::int64_t j = 0; j < n; ++j)
      if (j != i && (lower ? j < i : j > i)) sum -= t(i, j) * y[j];
    y[i] = sum / t(i, i);
  }
  return y;
}

/// X with op(A) X = alpha B (left) or X op(A) = alpha B (right).
inline Dense solve(const Dense& A, const Case& c, double alpha, const Dense& B) {
  const std::int64_t n = A.rows;
  // op(A) is lower when A's triangle is lower and it is not transposed, or the reverse.
  const bool op_lower = c.lower != c.transpose;
  Dense X = B;
  const std::int64_t rhs = c.right ? B.rows : B.cols;
  for (std::int64_t r = 0; r < rhs; ++r) {
    std::vector<long double> b(n);
    for (std::int64_t i = 0; i < n; ++i) b[i] = alpha * (c.right ? B(r, i) : B(i, r));
    // Right side: x op(A) = b is op(A)^T x^T = b^T, triangle reversed.
    const auto y =
        c.right ? substitute(
                      n, !op_lower,
                      [&](std::int64_t i, std::int64_t j) { return op_entry(A, c, j, i); }, b)
                : substitute(
                      n, op_lower,
                      [&](std::int64_t i, std::int64_t j) { return op_entry(A, c, i, j); }, b);
    for (std::int64_t i = 0; i < n; ++i) (c.right ? X(r, i) : X(i, r)) = double(y[i]);
  }
  return X;
}

/// ||op(A)||_inf ||op(A)^{-1}||_inf, the inverse by substitution in long double.
inline double condition_inf(const Dense& A, const Case& c) {
  const std::int64_t n = A.rows;
  const bool op_lower = c.lower != c.transpose;
  auto t = [&](std::int64_t i, std::int64_t j) { return op_entry(A, c, i, j); };
  std::vector<long double> inverse_row_sums(n, 0), row_sums(n, 0);
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<long double> e(n, 0);
    e[j] = 1;
    const auto column = substitute(n, op_lower, t, e);
    for (std::int64_t i = 0; i < n; ++i) {
      inverse_row_sums[i] += std::fabs(column[i]);
      row_sums[i] += std::fabs(t(i, j));
    }
  }
  return double(*std::max_element(row_sums.begin(), row_sums.end()) *
                *std::max_element(inverse_row_sums.begin(), inverse_row_sums.end()));
}

}  // namespace syncfree::test::trsm_reference
