// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Kokkos Kernels' dense matrix-matrix product and scaling, spelled for Kokkos 3.4 and 4.6+
/// alike (3.4 has no execution-space-instance overloads). Apart from
/// `syncfree_kokkos_compat.hpp` because only dense kernels need them: every other translation unit
/// is spared the BLAS 3 headers.

#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas3_gemm.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// C = alpha * op(A) * op(B) + beta * C, with op given as "N" or "T" (cuBLAS underneath on CUDA
/// when Kokkos Kernels was built with it).
template <class Exec, class A, class B, class C>
void gemm(const Exec& exec, const char* trans_a, const char* trans_b,
          typename C::non_const_value_type alpha, const A& a, const B& b,
          typename C::non_const_value_type beta, const C& c) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosBlas::gemm(exec, trans_a, trans_b, alpha, a, b, beta, c);
#else
  (void)exec;
  KokkosBlas::gemm(trans_a, trans_b, alpha, a, b, beta, c);
#endif
}

/// x = a * x, for a vector or a matrix.
template <class Exec, class X>
void scal(const Exec& exec, typename X::non_const_value_type a, const X& x) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosBlas::scal(exec, x, a, x);
#else
  (void)exec;
  KokkosBlas::scal(x, a, x);
#endif
}

}  // namespace syncfree::impl
