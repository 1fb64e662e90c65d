// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Serial SIP on the host: the oracle of the SIP tests. The Ferziger-Peric recurrences
/// (seed 002's report, section 1.4) with their names (S, N the fastest direction; W, E the
/// second; B, T the third), run point after point in the grid's natural order on a host copy of
/// the matrix; they share no code with the library's hyperplane sweeps.

#include <vector>

#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test::sip_reference {

using vec = std::vector<double>;

struct Factors {
  vec ls, lw, lb, bp, un, ue, ut;
};

struct Grid {
  long nx, ny, nz;
  long n() const { return nx * ny * nz; }
};

/// a(p, q), 0 where A stores no entry.
template <class HM>
double entry(const HM& A, long p, long q) {
  for (auto k = A.graph.row_map(p); k < A.graph.row_map(p + 1); ++k)
    if (long(A.graph.entries(k)) == q) return A.values(k);
  return 0;
}

template <class Matrix>
Factors factor(const Matrix& matrix, const Grid& g, double alpha) {
  const auto A = to_host(matrix);
  const long n = g.n(), nj = g.nx, nij = g.nx * g.ny;  // S/N: +-1, W/E: +-nx, B/T: +-nx ny
  Factors f{vec(n), vec(n), vec(n), vec(n), vec(n), vec(n), vec(n)};
  for (long p = 0; p < n; ++p) {
    const long i = p % g.nx, j = (p / g.nx) % g.ny, k = p / nij;
    const double as = i > 0 ? entry(A, p, p - 1) : 0, an = i + 1 < g.nx ? entry(A, p, p + 1) : 0;
    const double aw = j > 0 ? entry(A, p, p - nj) : 0, ae = j + 1 < g.ny ? entry(A, p, p + nj) : 0;
    const double ab = k > 0 ? entry(A, p, p - nij) : 0,
                 at = k + 1 < g.nz ? entry(A, p, p + nij) : 0;
    const auto u = [&](const vec& v, long q, bool inside) { return inside ? v[q] : 0.0; };
    const double un_b = u(f.un, p - nij, k > 0), ue_b = u(f.ue, p - nij, k > 0),
                 ut_b = u(f.ut, p - nij, k > 0);
    const double un_w = u(f.un, p - nj, j > 0), ue_w = u(f.ue, p - nj, j > 0),
                 ut_w = u(f.ut, p - nj, j > 0);
    const double un_s = u(f.un, p - 1, i > 0), ue_s = u(f.ue, p - 1, i > 0),
                 ut_s = u(f.ut, p - 1, i > 0);
    const double lb = ab / (1 + alpha * (un_b + ue_b));
    const double lw = aw / (1 + alpha * (un_w + ut_w));
    const double ls = as / (1 + alpha * (ue_s + ut_s));
    const double p1 = alpha * (lb * un_b + lw * un_w);
    const double p2 = alpha * (lb * ue_b + ls * ue_s);
    const double p3 = alpha * (lw * ut_w + ls * ut_s);
    const double bp = 1 / (entry(A, p, p) + p1 + p2 + p3 - lb * ut_b - lw * ue_w - ls * un_s);
    f.lb[p] = lb, f.lw[p] = lw, f.ls[p] = ls, f.bp[p] = bp;
    f.un[p] = i + 1 < g.nx ? (an - p1) * bp : 0;
    f.ue[p] = j + 1 < g.ny ? (ae - p2) * bp : 0;
    f.ut[p] = k + 1 < g.nz ? (at - p3) * bp : 0;
  }
  return f;
}

/// (LU)^{-1} r.
inline vec apply(const Factors& f, const Grid& g, const vec& r) {
  const long n = g.n(), nj = g.nx, nij = g.nx * g.ny;
  vec R(n), d(n);
  for (long p = 0; p < n; ++p) {
    const long i = p % g.nx, j = (p / g.nx) % g.ny, k = p / nij;
    double v = r[p];
    if (k > 0) v -= f.lb[p] * R[p - nij];
    if (j > 0) v -= f.lw[p] * R[p - nj];
    if (i > 0) v -= f.ls[p] * R[p - 1];
    R[p] = v * f.bp[p];
  }
  for (long p = n - 1; p >= 0; --p) {
    const long i = p % g.nx, j = (p / g.nx) % g.ny, k = p / nij;
    double v = R[p];
    if (k + 1 < g.nz) v -= f.ut[p] * d[p + nij];
    if (j + 1 < g.ny) v -= f.ue[p] * d[p + nj];
    if (i + 1 < g.nx) v -= f.un[p] * d[p + 1];
    d[p] = v;
  }
  return d;
}

}  // namespace syncfree::test::sip_reference
