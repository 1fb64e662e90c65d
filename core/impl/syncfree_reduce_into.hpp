// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A fused pass over vectors that also reduces N sums into device memory, without a host
/// round trip: the dot products of the Krylov solvers and of the operators that fuse them into
/// their own pass.

#include <cstddef>
#include <type_traits>

#include "core/impl/syncfree_kokkos_compat.hpp"

#include "core/cuda/syncfree_reduce_into_cuda.hpp"

namespace syncfree::impl {

/// N sums reduced together.
template <class Scalar, int N>
struct Sums {
  Scalar value[N];
};

/// A reduction of N sums whose body is a (device) lambda `body(i, sum)`, for Kokkos'
/// parallel_reduce (every backend but CUDA). A fixed-size value type rather than Kokkos'
/// runtime-length array reduction, which ran a dot more slowly.
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
/// that follow. On CUDA SyncFree's own two kernels (core/cuda/syncfree_reduce_into_cuda.hpp; Kokkos
/// Tools do not see them under `label`) for all groups at once, elsewhere one Kokkos
/// parallel_reduce per group.
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

/// sums(0) = u'y and sums(1) = y'y (device memory, two contiguous entries), asynchronously.
template <class Exec, class U, class Y, class Sums>
void dots_into(const Exec& exec, const U& u, const Y& y, const Sums& sums) {
  using Scalar = typename Sums::non_const_value_type;
  reduce_into<2>(
      exec, "syncfree::dots", y.extent(0), sums, KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
        const Scalar yi = y(i);
        sum[0] += u(i) * yi;
        sum[1] += yi * yi;
      });
}

}  // namespace syncfree::impl
