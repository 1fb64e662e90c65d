// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief y = alpha A x + beta y through A's stencil pattern (impl/syncfree_stencil_pattern.hpp):
/// the row's values in CSR order, its columns from the mask. Generic Kokkos; CUDA specializes
/// `StencilSpmv` (cuda/syncfree_spmv_stencil_cuda.hpp), where it is the default for short rows.

#include <type_traits>

#include "core/impl/syncfree_reduce_into.hpp"
#include "core/impl/syncfree_stencil_pattern.hpp"

namespace syncfree::impl {

template <class Matrix, class Offsets, class Masks, class X, class Y>
struct StencilProduct {
  using scalar_type = typename Y::non_const_value_type;
  typename Matrix::const_type::row_map_type row_map;
  typename Matrix::const_type::values_type values;
  Offsets offsets;
  Masks masks;
  X x;
  Y y;
  scalar_type alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    scalar_type sum = 0;
    auto k = row_map(i);
    // Bits in ascending order: the row's entries in CSR order.
    int d = 0;
    for (std::uint32_t m = masks(i); m != 0; m >>= 1, ++d)
      if (m & 1u) sum += scalar_type(values(k++)) * x(i + offsets(d));
    y(i) = beta == scalar_type(0) ? alpha * sum : alpha * sum + beta * y(i);
  }
};

/// Primary template: Kokkos parallel_for, then the sums in a second pass.
template <class Exec, class Matrix, class Masks, class X, class Y, class Enable = void>
struct StencilSpmv {
  /// Whether the automatic format picks the stencil product for rows of `mean_row_length`.
  static bool preferred(double) { return false; }

  template <class Device>
  static void apply(const Exec& exec, typename Y::non_const_value_type alpha, const Matrix& A,
                    const StencilPattern<Device>& pattern, const Masks& masks, const X& x,
                    typename Y::non_const_value_type beta, const Y& y) {
    using Offsets = decltype(pattern.offsets);
    Kokkos::parallel_for(
        "syncfree::stencil_spmv",
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, A.numRows()),
        StencilProduct<Matrix, Offsets, Masks, X, Y>{A.graph.row_map, A.values, pattern.offsets,
                                                     masks, x, y, alpha, beta});
  }

  template <class Device, class U, class Sums>
  static void apply_dots(const Exec& exec, const Matrix& A, const StencilPattern<Device>& pattern,
                         const Masks& masks, const X& x, const Y& y, const U& u, const Sums& sums) {
    using scalar_type = typename Y::non_const_value_type;
    apply(exec, scalar_type(1), A, pattern, masks, x, scalar_type(0), y);
    dots_into(exec, u, y, sums);
  }
};

}  // namespace syncfree::impl
