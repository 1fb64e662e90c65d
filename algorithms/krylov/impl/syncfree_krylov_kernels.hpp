// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The Krylov solvers' own kernels: a fused pass over the vectors that also reduces N sums
/// into device memory, a single-thread kernel for the scalar recurrences, and the combination of
/// basis vectors. None blocks the host.

#include <cstddef>
#include <type_traits>

#include "core/impl/syncfree_kokkos_compat.hpp"

#include "algorithms/krylov/cuda/syncfree_krylov_reduce_cuda.hpp"

namespace syncfree::impl {

/// N sums reduced together.
template <class Scalar, int N>
struct Sums {
  Scalar value[N];
};

/// A reduction of N sums whose body is a (device) lambda `body(i, sum)`. A fixed-size value type
/// rather than Kokkos' runtime-length array reduction: on an H200 the array form ran a dot at
/// 2200 GB/s and this one at 2680 GB/s (n = 4.1M; a copy moves 3500 GB/s).
template <class Scalar, int N, class Body>
struct SumsReduction {
  using value_type = Sums<Scalar, N>;
  Body body;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sum) const {
    body(i, sum.value);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const {
    for (int q = 0; q < N; ++q) sum.value[q] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& into, const value_type& from) const {
    for (int q = 0; q < N; ++q) into.value[q] += from.value[q];
  }
#if KOKKOS_VERSION < 40000
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& into,
                                   const volatile value_type& from) const {
    for (int q = 0; q < N; ++q) into.value[q] += from.value[q];
  }
#endif
};

namespace reduce_detail {

template <class Body>
struct IgnoreGroup {
  Body body;
  template <class Scalar>
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, int, Scalar* sum) const {
    body(i, sum);
  }
};

template <class Body>
struct FixedGroup {
  Body body;
  int group;
  template <class Scalar>
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, Scalar* sum) const {
    body(i, group, sum);
  }
};

}  // namespace reduce_detail

/// For each group g < `groups`, runs `body(i, g, sum)` for i in [0, n) and writes its N sums into
/// result(g * N ...) (device memory). Asynchronous: the result stays on the device for the kernels
/// that follow. On CUDA SyncFree's own two kernels (cuda/syncfree_krylov_reduce_cuda.hpp) for all
/// groups at once, elsewhere one Kokkos parallel_reduce per group.
template <int N, class Exec, class ResultView, class Body>
void reduce_groups_into(const Exec& exec, const char* label, std::size_t n, int groups,
                        const ResultView& result, const Body& body) {
  using scalar_type = typename ResultView::non_const_value_type;
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    (void)label;
    cuda::reduce_groups_into<N>(exec.cuda_stream(), n, groups, result.data(), body);
  } else
#endif
  {
    using sums_type = Sums<scalar_type, N>;
    static_assert(sizeof(sums_type) == N * sizeof(scalar_type), "sums must be contiguous scalars");
    for (int g = 0; g < groups; ++g) {
      Kokkos::View<sums_type, typename ResultView::memory_space, Kokkos::MemoryUnmanaged> out(
          reinterpret_cast<sums_type*>(result.data() + std::size_t(g) * N));
      using group_body = reduce_detail::FixedGroup<Body>;
      Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Exec>(exec, 0, n),
                              SumsReduction<scalar_type, N, group_body>{group_body{body, g}}, out);
    }
  }
}

/// Runs `body(i, sum)` for i in [0, n) and writes the N sums into `result` (device memory, N
/// contiguous entries), asynchronously.
template <int N, class Exec, class ResultView, class Body>
void reduce_into(const Exec& exec, const char* label, std::size_t n, const ResultView& result,
                 const Body& body) {
  reduce_groups_into<N>(exec, label, n, 1, result, reduce_detail::IgnoreGroup<Body>{body});
}

/// Runs `body(0)` on one thread of `exec`: the scalar recurrences between two vector kernels.
template <class Exec, class Body>
void single_task(const Exec& exec, const char* label, const Body& body) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(exec, 0, 1), body);
}

/// y = alpha B c + beta y for the k columns of a basis B (n x k, LayoutLeft) and k coefficients c
/// in device memory (beta = 0: y is only written). One row per thread, its k terms summed in
/// column order, so a run gives the same bits every time: Kokkos Kernels' gemv ("N") made
/// GMRES's iterates differ in their last bits from one run to the next on CUDA (H200; the batched
/// state-read test of test_krylov_solve failed for GMRES and FGMRES), and CG, which has no gemv,
/// repeated exactly.
template <class Exec, class Basis, class Coefficients, class Y>
void combine_basis(const Exec& exec, typename Y::non_const_value_type alpha, const Basis& B,
                   const Coefficients& c, typename Y::non_const_value_type beta, const Y& y) {
  using Scalar = typename Y::non_const_value_type;
  const int k = int(B.extent(1));
  Kokkos::parallel_for(
      "syncfree::krylov::combine_basis", Kokkos::RangePolicy<Exec>(exec, 0, B.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        Scalar sum = 0;
        for (int l = 0; l < k; ++l) sum += B(i, l) * c(l);
        y(i) = beta == Scalar(0) ? alpha * sum : beta * y(i) + alpha * sum;
      });
}

/// The body of a dot product u'v, for `reduce_into<1>`.
template <class Scalar, class Device>
struct DotBody {
  Kokkos::View<const Scalar*, Kokkos::LayoutLeft, Device> u, v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, Scalar* sum) const {
    sum[0] += u(i) * v(i);
  }
};

}  // namespace syncfree::impl
