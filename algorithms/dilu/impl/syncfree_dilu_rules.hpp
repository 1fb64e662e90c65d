// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What multicolor DILU computes for one row, in AmgX's form (src/solvers/
/// multicolor_dilu_solver.cu, 1x1 blocks). "Earlier" and "later" are by color, c(i) the color of
/// row i:
///  - factor:   E_i = 1 / (a_ii - sum over c(j) < c(i) of a_ij E_j a_ji)
///  - forward:  delta_i = E_i (b_i - sum over j of a_ij (x_j + [c(j) < c(i)] delta_j))
///  - backward: Delta_i = delta_i - E_i sum over c(j) > c(i) of a_ij Delta_j, then x_i += w Delta_i
/// so that a forward and a backward sweep give x + w M^{-1} (b - A x), M = (D + L) D^{-1} (D + U)
/// with D = diag(1 / E) and L, U the entries of earlier and later colors.
///
/// The rules run on B = P A P^T, the rows grouped by color: a row's color is a range of
/// positions [first, last), and since rows of one color are never neighbours, an entry's column
/// is earlier when it lies before `first` and later when it lies at or after `last`. E, delta and
/// Delta are in that order; b is read, and the preconditioner's output written, through the
/// permutation.
///
/// A rule gives the term of entry k of a row of color c, `term<Wait>(k, c)`, and what the row
/// does with their sum, `finish<Wait>(i, c, sum)`. With `Wait`, the values other rows compute are
/// their own ready flags (the NaN sentinel, core/impl/syncfree_sentinel.hpp): a term waits for
/// them and `finish` publishes. Without, an earlier launch computed them. The forward sweep arms
/// Delta_i and the backward sweep delta_i for the next sweep that waits on them (each sweep reads
/// only the other array at row i itself), so no launch resets flags.

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_sentinel.hpp"

namespace syncfree::impl {

template <bool Wait, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar dilu_read(const Scalar* p) {
  if constexpr (Wait)
    return Sentinel<Scalar>::wait_with_backoff(p);
  else
    return *p;
}

template <bool Wait, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void dilu_write(Scalar* p, Scalar value) {
  if constexpr (Wait)
    Sentinel<Scalar>::publish(p, value);
  else
    *p = value;
}

/// A color: its index and its rows' positions [first, last).
template <class Ordinal>
struct DiluColor {
  int index;
  Ordinal first, last;
};

/// B's pattern and values, which every rule reads.
template <class Matrix>
struct DiluRows {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  using color_type = DiluColor<ordinal_type>;
  typename Matrix::row_map_type row_map;
  typename Matrix::index_type entries;
  typename Matrix::values_type values;
};

/// A factorization failure as one ordered key, so that the smallest is the cause: earliest color
/// first (a failed row spoils only rows of later colors), then the kind, then the row.
KOKKOS_INLINE_FUNCTION std::int64_t dilu_failure_key(int color, int kind, std::int64_t row) {
  return (std::int64_t(color) << 34) | (std::int64_t(kind) << 32) | row;
}
inline constexpr int dilu_missing_diagonal = 0;
inline constexpr int dilu_zero_pivot = 1;
inline constexpr int dilu_not_finite = 2;

template <class Matrix>
struct DiluFactorRule : DiluRows<Matrix> {
  using typename DiluRows<Matrix>::ordinal_type;
  using typename DiluRows<Matrix>::offset_type;
  using typename DiluRows<Matrix>::scalar_type;
  using typename DiluRows<Matrix>::device_type;
  Kokkos::View<const std::int64_t*, device_type> diagonal;    ///< position of a_ii or -1
  Kokkos::View<const std::int64_t*, device_type> transposed;  ///< position of a_ji or -1
  Kokkos::View<scalar_type*, device_type> inverse;            ///< E
  Kokkos::View<std::int64_t, device_type> failure;            ///< smallest dilu_failure_key
  Kokkos::View<std::int64_t, device_type> negative;           ///< pivots below zero

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION scalar_type term(offset_type k,
                                               const DiluColor<ordinal_type>&) const {
    const std::int64_t t = transposed(k);  // -1 unless c(j) < c(i) and a_ji is stored
    if (t < 0) return scalar_type(0);
    return this->values(k) * dilu_read<Wait>(&inverse(this->entries(k))) * this->values(t);
  }

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void finish(ordinal_type i, const DiluColor<ordinal_type>& c,
                                          scalar_type sum) const {
    const std::int64_t d = diagonal(i);
    const scalar_type pivot = (d < 0 ? scalar_type(0) : this->values(d)) - sum;
    const scalar_type e = scalar_type(1) / pivot;
    dilu_write<Wait>(&inverse(i), e);
    int kind = -1;
    if (d < 0)
      kind = dilu_missing_diagonal;
    else if (pivot == scalar_type(0))
      kind = dilu_zero_pivot;
    else if (!is_finite(pivot) || !is_finite(e))
      kind = dilu_not_finite;
    if (kind >= 0) Kokkos::atomic_fetch_min(&failure(), dilu_failure_key(c.index, kind, i));
    if (pivot < scalar_type(0)) Kokkos::atomic_add(&negative(), std::int64_t(1));
  }
};

/// The forward sweep; without `WithX`, x = 0 (the preconditioner's first sweep), which reads
/// neither x nor the entries of later colors. x is in B's order, b in A's (read through `perm`).
template <class Matrix, class B, bool WithX>
struct DiluForwardRule : DiluRows<Matrix> {
  using typename DiluRows<Matrix>::ordinal_type;
  using typename DiluRows<Matrix>::offset_type;
  using typename DiluRows<Matrix>::scalar_type;
  using typename DiluRows<Matrix>::device_type;
  Kokkos::View<const ordinal_type*, device_type> perm;
  Kokkos::View<const scalar_type*, device_type> inverse;
  B b;
  Kokkos::View<const scalar_type*, device_type> x;
  Kokkos::View<scalar_type*, device_type> delta, Delta;

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION scalar_type term(offset_type k,
                                               const DiluColor<ordinal_type>& c) const {
    const ordinal_type j = this->entries(k);
    const bool earlier = j < c.first;
    if constexpr (WithX) {
      scalar_type v = x(j);
      if (earlier) v += dilu_read<Wait>(&delta(j));
      return this->values(k) * v;
    } else {
      return earlier ? this->values(k) * dilu_read<Wait>(&delta(j)) : scalar_type(0);
    }
  }

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void finish(ordinal_type i, const DiluColor<ordinal_type>&,
                                          scalar_type sum) const {
    dilu_write<Wait>(&delta(i), inverse(i) * (scalar_type(b(perm(i))) - sum));
    if constexpr (Wait) Sentinel<scalar_type>::arm(&Delta(i));
  }
};

/// The backward sweep, writing out_i = scale Delta_i + keep out_i (out_i = scale Delta_i when keep
/// is 0: NaN in out is not propagated); out in A's order (through `perm`) with `Scatter`, else in
/// B's.
template <class Matrix, class Out, bool Scatter>
struct DiluBackwardRule : DiluRows<Matrix> {
  using typename DiluRows<Matrix>::ordinal_type;
  using typename DiluRows<Matrix>::offset_type;
  using typename DiluRows<Matrix>::scalar_type;
  using typename DiluRows<Matrix>::device_type;
  Kokkos::View<const ordinal_type*, device_type> perm;
  Kokkos::View<const scalar_type*, device_type> inverse;
  Kokkos::View<scalar_type*, device_type> delta, Delta;
  Out out;
  scalar_type scale, keep;

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION scalar_type term(offset_type k,
                                               const DiluColor<ordinal_type>& c) const {
    const ordinal_type j = this->entries(k);
    return j >= c.last ? this->values(k) * dilu_read<Wait>(&Delta(j)) : scalar_type(0);
  }

  template <bool Wait>
  KOKKOS_FORCEINLINE_FUNCTION void finish(ordinal_type i, const DiluColor<ordinal_type>&,
                                          scalar_type sum) const {
    const scalar_type value = delta(i) - inverse(i) * sum;
    dilu_write<Wait>(&Delta(i), value);
    if constexpr (Wait) Sentinel<scalar_type>::arm(&delta(i));
    const ordinal_type o = Scatter ? perm(i) : i;
    out(o) = keep == scalar_type(0) ? scale * value : scale * value + keep * out(o);
  }
};

}  // namespace syncfree::impl
