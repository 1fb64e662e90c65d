// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief An SpMV analyzed once for a matrix, then applied many times (a Krylov solver's A).
///
/// The analysis looks for a stencil pattern (impl/syncfree_stencil_pattern.hpp): every entry on
/// one of at most 32 diagonals, sorted. The product then reads a mask per row in place of the
/// column indices. `SpmvFormat::automatic` picks it where the backend has a kernel for it that
/// measured faster (CUDA, rows short enough for a thread each), else CSR through `syncfree::spmv`.
///
/// The analysis also finds the longest row: `apply_dots` fuses the sums into the product only where
/// rows are short enough for a thread each (`impl::spmv_dots_fused_longest_row`); and under CSR,
/// what the backend's kernel takes from an analysis (`impl::Spmv::analyze`: on CUDA, the lanes
/// per row, wider where the columns are scattered, and the rows long enough for a block each).
///
/// The plan keeps a shallow copy of the matrix: its values may change between products, its
/// pattern must not. With `SpmvPrecision::single` the products read the values rounded to float
/// (8 bytes an entry with the column index instead of 12, for a preconditioner applied as SpMVs),
/// kept beside the matrix's: after the values change, `round_values` again.

#include <string>
#include <type_traits>

#include "core/impl/syncfree_stencil_spmv.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_single_precision_matrix.hpp"
#include "core/syncfree_spmv.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

enum class SpmvFormat {
  automatic,  ///< stencil where the backend prefers it and the matrix has the pattern, else CSR
  csr,        ///< the matrix's own CSR arrays
  stencil     ///< the stencil pattern; the matrix must have it (InvalidArgument otherwise)
};

/// "auto", "csr" or "stencil" (the names every option of SyncFree uses). \throws InvalidArgument
/// on another name.
inline SpmvFormat parse_spmv_format(const std::string& name) {
  if (name == "auto") return SpmvFormat::automatic;
  if (name == "csr") return SpmvFormat::csr;
  SYNCFREE_REQUIRE(name == "stencil", InvalidArgument, "unknown SpMV format '", name,
                   "' (auto, csr or stencil)");
  return SpmvFormat::stencil;
}

inline const char* to_string(SpmvFormat format) {
  switch (format) {
    case SpmvFormat::automatic:
      return "auto";
    case SpmvFormat::csr:
      return "csr";
    default:
      return "stencil";
  }
}

/// The values an SpmvPlan's products read: the matrix's own, or those rounded to float (for a
/// double matrix; the vectors and the sums stay in double).
enum class SpmvPrecision { matrix, single };

template <class Matrix>
class SpmvPlan {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  using execution_space = typename device_type::execution_space;

  /// Analyzes A on `exec` (waits for it) for `requested`.
  /// \throws InvalidArgument where `requested` is the stencil format and A has no such pattern;
  /// InvalidMatrix under SpmvPrecision::single where an entry is beyond float's range.
  SpmvPlan(const execution_space& exec, const Matrix& A,
           SpmvFormat requested = SpmvFormat::automatic,
           SpmvPrecision precision = SpmvPrecision::matrix)
      : m_A(A), m_longest_row(impl::longest_row(exec, A)) {
    using Preference =
        impl::StencilSpmv<execution_space, Matrix, Kokkos::View<std::uint8_t*>,
                          Vector<scalar_type, device_type>, Vector<scalar_type, device_type>>;
    const double mean_row = A.numRows() > 0 ? double(A.nnz()) / double(A.numRows()) : 0.0;
    const bool wanted = requested == SpmvFormat::stencil ||
                        (requested == SpmvFormat::automatic && Preference::preferred(mean_row));
    if (wanted) {
      m_pattern = impl::find_stencil_pattern(exec, A);
      SYNCFREE_REQUIRE(m_pattern.found() || requested != SpmvFormat::stencil, InvalidArgument,
                       "SpmvPlan: no stencil format: ", m_pattern.why_not);
      if (m_pattern.found()) m_format = SpmvFormat::stencil;
    }
    if (m_format == SpmvFormat::csr) m_hints = csr_spmv::analyze(exec, A, m_longest_row);
    if (precision == SpmvPrecision::single && !std::is_same_v<scalar_type, float>) {
      m_single = round_to_single(exec, A);
      m_single_precision = true;
    }
  }

  /// The values the products read (a float matrix's own under either precision).
  SpmvPrecision precision() const {
    return m_single_precision ? SpmvPrecision::single : SpmvPrecision::matrix;
  }

  /// Under SpmvPrecision::single, rounds the matrix's values again (after they changed), on
  /// `exec` (waits for it); nothing otherwise.
  /// \throws InvalidMatrix where an entry is beyond float's range.
  void round_values(const execution_space& exec) {
    if (m_single_precision) round_values_to_single(exec, m_A, m_single.values);
  }

  /// The format the analysis chose: csr or stencil.
  SpmvFormat format() const { return m_format; }
  const Matrix& matrix() const { return m_A; }
  /// Entries of the longest row.
  long longest_row() const { return m_longest_row; }
  /// Under CSR, the lanes per row of the backend's kernel; 0 where it has no such choice or under
  /// the stencil format.
  int csr_lanes() const { return m_hints.lanes; }
  /// Under CSR, the rows the backend's kernel gives a team (a CUDA block) each.
  long csr_team_rows() const { return long(m_hints.long_rows.extent(0)); }
  /// The number of diagonals of the stencil format; 0 under CSR.
  int stencil_diagonals() const { return m_pattern.count(); }
  /// The stencil pattern (offsets and masks) under the stencil format.
  const impl::StencilPattern<device_type>& stencil() const { return m_pattern; }

  /// Calls f(masks) with the stencil's masks (byte or word per row).
  template <class F>
  void with_masks(const F& f) const {
    if (m_pattern.count() <= impl::stencil_byte_offsets)
      f(m_pattern.masks8);
    else
      f(m_pattern.masks32);
  }

  /// y = alpha A x + beta y, on `exec` without waiting. With beta == 0, y is overwritten.
  template <class X, class Y>
  void apply(const execution_space& exec, scalar_type alpha, const X& x, scalar_type beta,
             const Y& y) const {
    if (m_single_precision) {
      // The analysis's hints, for the float matrix on the same graph.
      const impl::CsrSpmvHints<single_matrix> hints{m_hints.lanes, m_hints.long_row_length,
                                                    m_hints.long_rows};
      return apply_of(exec, m_single, hints, alpha, x, beta, y);
    }
    apply_of(exec, m_A, m_hints, alpha, x, beta, y);
  }

  /// y = A x, then sums(0) = u'y and sums(1) = y'y into device memory, as `syncfree::spmv_dots`.
  template <class X, class Y, class U, class Sums>
  void apply_dots(const execution_space& exec, const X& x, const Y& y, const U& u,
                  const Sums& sums) const {
    if (m_single_precision) {
      apply(exec, scalar_type(1), x, scalar_type(0), y);
      return impl::dots_into(exec, u, y, sums);
    }
    if (m_format == SpmvFormat::csr) {
      if (m_longest_row > impl::spmv_dots_fused_longest_row)
        return impl::spmv_then_dots(exec, m_A, x, y, u, sums, m_hints);
      return impl::SpmvDots<execution_space, Matrix, X, Y, U, Sums>::apply(exec, m_A, x, y, u, sums,
                                                                           m_hints);
    }
    with_masks([&](const auto& masks) {
      impl::StencilSpmv<execution_space, Matrix, std::decay_t<decltype(masks)>, X, Y>::apply_dots(
          exec, m_A, m_pattern, masks, x, y, u, sums);
    });
  }

 private:
  using csr_spmv = impl::Spmv<execution_space, Matrix, Vector<scalar_type, device_type>,
                              Vector<scalar_type, device_type>>;
  using single_matrix = SinglePrecisionMatrix<Matrix>;

  /// y = alpha B x + beta y in the analyzed format, B being A or its values in float.
  template <class B, class X, class Y>
  void apply_of(const execution_space& exec, const B& matrix, const impl::CsrSpmvHints<B>& hints,
                scalar_type alpha, const X& x, scalar_type beta, const Y& y) const {
    if (m_format == SpmvFormat::csr)
      return impl::Spmv<execution_space, B, X, Y>::apply(exec, alpha, matrix, x, beta, y, hints);
    with_masks([&](const auto& masks) {
      impl::StencilSpmv<execution_space, B, std::decay_t<decltype(masks)>, X, Y>::apply(
          exec, alpha, matrix, m_pattern, masks, x, beta, y);
    });
  }

  Matrix m_A;
  long m_longest_row = 0;
  impl::CsrSpmvHints<Matrix> m_hints;
  impl::StencilPattern<device_type> m_pattern;
  SpmvFormat m_format = SpmvFormat::csr;
  bool m_single_precision = false;
  single_matrix m_single;  ///< A's values in float under SpmvPrecision::single
};

}  // namespace syncfree

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_spmv_stencil_cuda.hpp"
#endif
