// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial oracles for approximate inverses on small dense matrices: patterns by boolean
/// products, SPAI by dense least squares (modified Gram-Schmidt with one reorthogonalization, an
/// algorithm other than the library's Householder QR), FSAI by Gaussian elimination.

#include <cmath>
#include <vector>

#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test::spai_reference {

using dense = std::vector<std::vector<double>>;
using mask = std::vector<std::vector<bool>>;

template <class Matrix>
dense to_dense(const Matrix& A) {
  const auto h = to_host(A);
  dense d(std::size_t(h.numRows()), std::vector<double>(std::size_t(h.numCols()), 0.0));
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      d[std::size_t(i)][std::size_t(h.graph.entries(k))] += h.values(k);
  return d;
}

/// Stored entries of A (explicit zeros included).
template <class Matrix>
mask stored(const Matrix& A) {
  const auto h = to_host(A);
  mask m(std::size_t(h.numRows()), std::vector<bool>(std::size_t(h.numCols()), false));
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      m[std::size_t(i)][std::size_t(h.graph.entries(k))] = true;
  return m;
}

inline dense transpose(const dense& a) {
  dense t(a[0].size(), std::vector<double>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) t[j][i] = a[i][j];
  return t;
}

inline mask transpose(const mask& a) {
  mask t(a[0].size(), std::vector<bool>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) t[j][i] = a[i][j];
  return t;
}

/// The diagonal and the stored a_ij with |a_ij| >= tau sqrt(|a_ii a_jj|), to the power p.
inline mask pattern(const dense& a, const mask& s, double tau, int power) {
  const std::size_t n = a.size();
  mask t(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      t[i][j] =
          i == j || (s[i][j] && std::abs(a[i][j]) >= tau * std::sqrt(std::abs(a[i][i] * a[j][j])));
  mask p = t;
  for (int q = 1; q < power; ++q) {
    mask next(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k)
        if (p[i][k])
          for (std::size_t j = 0; j < n; ++j) next[i][j] = next[i][j] || t[k][j];
    p = next;
  }
  return p;
}

/// Right SPAI: column k of M minimizes || A m - e_k || over the entries p(:, k); `residual(k)` the
/// minimum. Rows of A where the columns J store an entry form the problem (as the library's I).
inline dense right_spai(const dense& a, const mask& s, const mask& p,
                        std::vector<double>& residual) {
  const std::size_t n = a.size();
  dense m(n, std::vector<double>(n, 0.0));
  residual.assign(n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::size_t> J, I;
    for (std::size_t i = 0; i < n; ++i)
      if (p[i][k]) J.push_back(i);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t j : J)
        if (s[r][j]) {
          I.push_back(r);
          break;
        }
    // Q (|I| x |J|) and R by MGS, each column orthogonalized twice.
    const std::size_t ni = I.size(), nj = J.size();
    dense q(nj, std::vector<double>(ni));
    dense r(nj, std::vector<double>(nj, 0.0));
    for (std::size_t l = 0; l < nj; ++l) {
      for (std::size_t i = 0; i < ni; ++i) q[l][i] = a[I[i]][J[l]];
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t c = 0; c < l; ++c) {
          double d = 0;
          for (std::size_t i = 0; i < ni; ++i) d += q[c][i] * q[l][i];
          r[c][l] += d;
          for (std::size_t i = 0; i < ni; ++i) q[l][i] -= d * q[c][i];
        }
      double norm = 0;
      for (std::size_t i = 0; i < ni; ++i) norm += q[l][i] * q[l][i];
      r[l][l] = std::sqrt(norm);
      for (std::size_t i = 0; i < ni; ++i) q[l][i] /= r[l][l];
    }
    std::vector<double> e(ni, 0.0), x(nj, 0.0);
    for (std::size_t i = 0; i < ni; ++i) e[i] = I[i] == k ? 1.0 : 0.0;
    for (std::size_t l = 0; l < nj; ++l)
      for (std::size_t i = 0; i < ni; ++i) x[l] += q[l][i] * e[i];
    for (std::size_t l = nj; l-- > 0;) {
      for (std::size_t c = l + 1; c < nj; ++c) x[l] -= r[l][c] * x[c];
      x[l] /= r[l][l];
    }
    double sum = 0;
    for (std::size_t i = 0; i < ni; ++i) {
      double ax = 0;
      for (std::size_t l = 0; l < nj; ++l) ax += a[I[i]][J[l]] * x[l];
      sum += (ax - e[i]) * (ax - e[i]);
    }
    residual[k] = std::sqrt(sum);
    for (std::size_t l = 0; l < nj; ++l) m[J[l]][k] = x[l];
  }
  return m;
}

/// Left SPAI: the transposed right SPAI of A^T.
inline dense left_spai(const dense& a, const mask& s, const mask& p,
                       std::vector<double>& residual) {
  return transpose(right_spai(transpose(a), transpose(s), transpose(p), residual));
}

/// FSAI's G: row i on the entries j <= i of p, A(J, J) g = e_i by Gaussian elimination, scaled by
/// 1 / sqrt(g_i).
inline dense fsai(const dense& a, const mask& p) {
  const std::size_t n = a.size();
  dense g(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> J;
    for (std::size_t j = 0; j <= i; ++j)
      if (p[i][j]) J.push_back(j);
    const std::size_t m = J.size();
    dense k(m, std::vector<double>(m + 1, 0.0));
    for (std::size_t r = 0; r < m; ++r) {
      for (std::size_t c = 0; c < m; ++c) k[r][c] = a[J[r]][J[c]];
      k[r][m] = J[r] == i ? 1.0 : 0.0;
    }
    for (std::size_t c = 0; c < m; ++c)
      for (std::size_t r = c + 1; r < m; ++r) {
        const double f = k[r][c] / k[c][c];
        for (std::size_t q = c; q <= m; ++q) k[r][q] -= f * k[c][q];
      }
    std::vector<double> x(m);
    for (std::size_t r = m; r-- > 0;) {
      double v = k[r][m];
      for (std::size_t c = r + 1; c < m; ++c) v -= k[r][c] * x[c];
      x[r] = v / k[r][r];
    }
    for (std::size_t r = 0; r < m; ++r) g[i][J[r]] = x[r] / std::sqrt(x[m - 1]);
  }
  return g;
}

/// ISAI's M for a triangular T (its `lower` or upper triangle, the diagonal 1 where `unit`): row i
/// on the entries of p, m^T T(J, J) = e_i^T by Gaussian elimination with partial pivoting.
inline dense isai(const dense& t_full, const mask& p, bool lower, bool unit) {
  const std::size_t n = t_full.size();
  dense t(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i == j)
        t[i][j] = unit ? 1.0 : t_full[i][j];
      else if (lower ? j < i : j > i)
        t[i][j] = t_full[i][j];
  dense m(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> J;
    for (std::size_t j = 0; j < n; ++j)
      if (p[i][j]) J.push_back(j);
    const std::size_t k = J.size();
    dense a(k, std::vector<double>(k + 1, 0.0));  // T(J, J)^T | e_i
    for (std::size_t r = 0; r < k; ++r) {
      for (std::size_t c = 0; c < k; ++c) a[r][c] = t[J[c]][J[r]];
      a[r][k] = J[r] == i ? 1.0 : 0.0;
    }
    for (std::size_t c = 0; c < k; ++c) {
      std::size_t pivot = c;
      for (std::size_t r = c + 1; r < k; ++r)
        if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
      std::swap(a[c], a[pivot]);
      for (std::size_t r = c + 1; r < k; ++r) {
        const double f = a[r][c] / a[c][c];
        for (std::size_t q = c; q <= k; ++q) a[r][q] -= f * a[c][q];
      }
    }
    for (std::size_t r = k; r-- > 0;) {
      double v = a[r][k];
      for (std::size_t c = r + 1; c < k; ++c) v -= a[r][c] * m[i][J[c]];
      m[i][J[r]] = v / a[r][r];
    }
  }
  return m;
}

/// The entries of a dense matrix at the stored entries of B, in B's order.
template <class Matrix>
std::vector<double> at_entries(const dense& d, const Matrix& B) {
  const auto h = to_host(B);
  std::vector<double> v;
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      v.push_back(d[std::size_t(i)][std::size_t(h.graph.entries(k))]);
  return v;
}

}  // namespace syncfree::test::spai_reference
