// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Dense triangular solve with many right-hand sides (TRSM), blocked:
/// op(A) X = alpha B (left) or X op(A) = alpha B (right), B overwritten by X.
///
/// The diagonal blocks are solved by a team kernel (the block's right-hand sides in team scratch,
/// one barrier per row), everything else is a matrix product through Kokkos Kernels' `gemm`
/// (cuBLAS on CUDA): for a block size b, all but a share b / n of the m n^2 flops run as GEMM.
/// The variants order the same blocks differently: `right_looking` and `left_looking` are the
/// two blocked traversals of Ezzatti, Quintana-Orti and Remon (FLAME's eager and lazy updates,
/// the report's versions 1 and 2), `recursive` halves the triangle so that the products are as
/// square as possible. Splitting the right-hand sides into independent solves (the report's
/// versions 3 and 4) gives no GEMM at all on one device and is not offered.
///
/// All eight side / triangle / transpose cases are served by one code path: a right-side solve
/// X op(A) = B is the left-side solve op(A)^T X^T = B^T, its right-hand sides the rows of B.

#include <cstdint>
#include <string>

#include "algorithms/trsm/impl/syncfree_trsm_blocks.hpp"
#include "algorithms/trsm/impl/syncfree_trsm_variants.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// On which side of X the triangular matrix stands.
enum class TrsmSide {
  left,   ///< op(A) X = alpha B; B is n x m
  right,  ///< X op(A) = alpha B; B is m x n
};

/// How the diagonal blocks and the products are ordered (all give the same X up to rounding).
enum class TrsmVariant {
  automatic,      ///< `recursive`, whose products are the squarest
  right_looking,  ///< solve a diagonal block, then update every block after it (one GEMM)
  left_looking,   ///< update a block from every block solved before it (one GEMM), then solve it
  recursive,      ///< solve the first half, one GEMM for the second, solve the second half
};

inline const char* to_string(TrsmSide side) { return side == TrsmSide::left ? "left" : "right"; }

inline const char* to_string(TrsmVariant v) {
  switch (v) {
    case TrsmVariant::automatic:
      return "auto";
    case TrsmVariant::right_looking:
      return "right_looking";
    case TrsmVariant::left_looking:
      return "left_looking";
    case TrsmVariant::recursive:
      return "recursive";
  }
  return "unknown";
}

/// Which of the eight TRSM cases, and how to run it.
struct TrsmOptions {
  TrsmSide side = TrsmSide::left;
  Triangle triangle = Triangle::lower;   ///< the triangle of A that is read; the other is ignored
  bool transpose = false;                ///< op(A) = A^T
  Diagonal diagonal = Diagonal::stored;  ///< `unit`: A's diagonal is taken as 1, never read
  TrsmVariant variant = TrsmVariant::automatic;
  /// Rows of a diagonal block; 0: `default_trsm_block_size`.
  int block_size = 0;
  /// Look for a zero or non-finite diagonal entry before solving (one reduction over n entries
  /// and a wait for its result); without it such an entry fills X with Inf or NaN, as in BLAS.
  bool check_diagonal = true;
};

/// The diagonal block size used when `TrsmOptions::block_size` is 0: the largest block of
/// doubles whose solve fits CUDA's level-0 scratch. Larger blocks read their multipliers from
/// global memory, one latency per column; smaller ones double the launches and products.
inline constexpr int default_trsm_block_size = 64;

/// Solves op(A) X = alpha B or X op(A) = alpha B in place of B.
///
/// \param A n x n, rank-2 View; only the triangle named in `options` is read (and, with
///   `Diagonal::unit`, not its diagonal).
/// \param B n x m (left) or m x n (right), rank-2 View, overwritten by X. LayoutLeft views use
///   cuBLAS's GEMM on CUDA; other layouts run Kokkos Kernels' own.
/// \returns `zero_pivot` or `not_finite` with the first such diagonal entry's row (0-based) when
///   `check_diagonal` finds one, leaving B as it was; `success` otherwise. With alpha == 0, X = 0
///   and A is not read, as in BLAS.
/// \throws DimensionMismatch when A is not square or B does not conform to A on `side`;
///   InvalidArgument for a negative block size.
template <class ExecSpace, class AView, class BView>
Outcome trsm(const ExecSpace& exec, const TrsmOptions& options,
             typename BView::const_value_type alpha, const AView& A, const BView& B) {
  static_assert(Kokkos::is_view<AView>::value && AView::rank == 2, "trsm: A must be a rank-2 View");
  static_assert(Kokkos::is_view<BView>::value && BView::rank == 2, "trsm: B must be a rank-2 View");
  static_assert(!std::is_const_v<typename BView::value_type>, "trsm: B is overwritten by X");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename AView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename BView::memory_space>::accessible,
                "trsm: A and B must be accessible from the execution space");
  using scalar_type = typename BView::non_const_value_type;

  const std::int64_t n = A.extent(0);
  SYNCFREE_REQUIRE(std::int64_t(A.extent(1)) == n, DimensionMismatch, "trsm: A is ", n, " x ",
                   A.extent(1), ", not square");
  const bool left = options.side == TrsmSide::left;
  const std::int64_t solved_extent = left ? B.extent(0) : B.extent(1);
  SYNCFREE_REQUIRE(solved_extent == n, DimensionMismatch, "trsm: B is ", B.extent(0), " x ",
                   B.extent(1), " and A is ", n, " x ", n, ": a ", to_string(options.side),
                   "-side solve needs B with ", n, left ? " rows" : " columns");
  SYNCFREE_REQUIRE(options.block_size >= 0, InvalidArgument, "trsm: block size ",
                   options.block_size, " is negative");
  if (B.extent(0) == 0 || B.extent(1) == 0) return {};

  if (alpha == scalar_type(0)) {
    Kokkos::deep_copy(exec, B, scalar_type(0));
    return {};
  }
  const bool unit = options.diagonal == Diagonal::unit;
  if (options.check_diagonal && !unit) {
    Outcome outcome = impl::check_trsm_diagonal(exec, A);
    if (!outcome.ok()) return outcome;
  }
  if (alpha != scalar_type(1)) impl::scal(exec, scalar_type(alpha), B);

  const int block = options.block_size > 0 ? options.block_size : default_trsm_block_size;
  const impl::TrsmBlocks<ExecSpace, AView, BView> blocks(
      exec, A, B, !left, options.triangle == Triangle::lower, options.transpose, unit);
  switch (options.variant) {
    case TrsmVariant::right_looking:
      impl::trsm_right_looking(blocks, block);
      break;
    case TrsmVariant::left_looking:
      impl::trsm_left_looking(blocks, block);
      break;
    case TrsmVariant::automatic:
    case TrsmVariant::recursive:
      impl::trsm_recursive(blocks, 0, n, block);
      break;
  }
  return {};
}

}  // namespace syncfree
