// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The few Kokkos and Kokkos Kernels calls whose spelling differs between Kokkos 3.4
/// (Debian's Trilinos 13.2) and Kokkos 4.6+. Everything else in SyncFree calls Kokkos directly.
///
/// Kokkos 3.4 has no execution-space-instance overloads of the Kokkos Kernels BLAS and SpMV; there
/// the calls run on the default instance, which is the only one a Serial-only build has.

#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosSparse_spmv.hpp>
#include <string>
#include <thread>

#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#if KOKKOS_VERSION >= 40000
#define SYNCFREE_IMPL_KOKKOS_4 1
#include <KokkosSparse_SortCrs.hpp>
#else
#define SYNCFREE_IMPL_KOKKOS_4 0
#include <KokkosKernels_SparseUtils.hpp>
#endif

namespace syncfree::impl {

template <class T>
KOKKOS_INLINE_FUNCTION bool is_finite(T x) {
#if SYNCFREE_IMPL_KOKKOS_4
  return Kokkos::isfinite(x);
#else
  return Kokkos::Experimental::isfinite(x);
#endif
}

template <class T>
KOKKOS_INLINE_FUNCTION T abs(T x) {
#if SYNCFREE_IMPL_KOKKOS_4
  return Kokkos::abs(x);
#else
  return Kokkos::Experimental::fabs(x);
#endif
}

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
#if SYNCFREE_IMPL_KOKKOS_4
  return Kokkos::sqrt(x);
#else
  return Kokkos::Experimental::sqrt(x);
#endif
}

/// y = alpha * A * x + beta * y
template <class Exec, class Matrix, class X, class Y>
void spmv(const Exec& exec, typename Matrix::non_const_value_type alpha, const Matrix& A,
          const X& x, typename Matrix::non_const_value_type beta, const Y& y) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosSparse::spmv(exec, "N", alpha, A, x, beta, y);
#else
  (void)exec;
  KokkosSparse::spmv("N", alpha, A, x, beta, y);
#endif
}

template <class Exec, class X, class Y>
typename X::non_const_value_type dot(const Exec& exec, const X& x, const Y& y) {
#if SYNCFREE_IMPL_KOKKOS_4
  return KokkosBlas::dot(exec, x, y);
#else
  (void)exec;
  return KokkosBlas::dot(x, y);
#endif
}

template <class Exec, class X>
typename X::non_const_value_type nrm2(const Exec& exec, const X& x) {
#if SYNCFREE_IMPL_KOKKOS_4
  return KokkosBlas::nrm2(exec, x);
#else
  (void)exec;
  return KokkosBlas::nrm2(x);
#endif
}

/// y = a * x + b * y
template <class Exec, class X, class Y>
void axpby(const Exec& exec, typename Y::non_const_value_type a, const X& x,
           typename Y::non_const_value_type b, const Y& y) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosBlas::axpby(exec, a, x, b, y);
#else
  (void)exec;
  KokkosBlas::axpby(a, x, b, y);
#endif
}

/// Sorts the column indices (and values) of every row in place.
template <class Exec, class Matrix>
void sort_rows(const Exec& exec, const Matrix& A) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosSparse::sort_crs_matrix(exec, A);
#else
  (void)exec;
  KokkosKernels::Impl::sort_crs_matrix(A);
#endif
}

/// Sorts the column indices of every row of a pattern in place.
template <class Exec, class RowMap, class Entries>
void sort_graph_rows(const Exec& exec, const RowMap& row_map, const Entries& entries) {
#if SYNCFREE_IMPL_KOKKOS_4
  KokkosSparse::sort_crs_graph(exec, row_map, entries);
#else
  (void)exec;
  KokkosKernels::Impl::sort_crs_graph<Exec>(row_map, entries);
#endif
}

/// The bits of `from` as a `To` of the same size (std::bit_cast is C++20), on host and device.
template <class To, class From>
KOKKOS_FORCEINLINE_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of one size");
  union {
    From from;
    To to;
  } u{from};
  return u.to;
}

/// Relaxed atomic load and store, for values that are their own ready flag (sync-free kernels).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T atomic_load_relaxed(T* ptr) {
#if SYNCFREE_IMPL_KOKKOS_4
  return Kokkos::atomic_load(ptr);
#else
  return Kokkos::Impl::atomic_load(ptr, Kokkos::Impl::memory_order_relaxed);
#endif
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION void atomic_store_relaxed(T* ptr, T value) {
#if SYNCFREE_IMPL_KOKKOS_4
  Kokkos::atomic_store(ptr, value);
#else
  Kokkos::Impl::atomic_store(ptr, value, Kokkos::Impl::memory_order_relaxed);
#endif
}

/// One iteration of a busy-wait on a host thread, `spins` counting the wait's iterations (start
/// at 0): after a short spin the core goes to another thread at every iteration, so that the
/// thread being waited for runs even where threads outnumber cores (without it, each wait could
/// last a scheduler time slice). Yielding from the first iteration made the OpenMP SpTRSV tests
/// take 1.5 times as long with as many threads as cores. Nothing on a GPU.
KOKKOS_FORCEINLINE_FUNCTION void host_spin_pause(int& spins) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && !defined(__SYCL_DEVICE_ONLY__)
  if (spins < 128)
    ++spins;
  else
    std::this_thread::yield();
#else
  (void)spins;
#endif
}

/// One iteration of a busy-wait: on NVIDIA GPUs a short sleep, so that spinning warps leave the
/// memory system and the issue slots to the warps they wait for; on host threads as
/// host_spin_pause.
KOKKOS_FORCEINLINE_FUNCTION void spin_pause(int& spins) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(64);
#endif
  host_spin_pause(spins);
}

/// Acquire-release fence at device scope: before the relaxed store that publishes data, and after
/// the relaxed load that sees it. On NVIDIA GPUs the PTX `fence.acq_rel.gpu`, which is all such
/// message passing needs, and cheaper than the sequentially consistent fence that
/// Kokkos::memory_fence issues there.
KOKKOS_FORCEINLINE_FUNCTION void acq_rel_fence() {
#if defined(__CUDA_ARCH__)
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
  Kokkos::memory_fence();
#endif
}

}  // namespace syncfree::impl

namespace syncfree::impl {

/// Sorts each row and sums entries that share a column; returns the merged matrix.
template <class Exec, class Matrix>
Matrix sort_and_merge(const Exec& exec, const Matrix& A) {
#if SYNCFREE_IMPL_KOKKOS_4
  return KokkosSparse::sort_and_merge_matrix(exec, A);
#else
  (void)exec;
  return KokkosKernels::Impl::sort_and_merge_matrix(A);
#endif
}

}  // namespace syncfree::impl

namespace syncfree::impl {

/// A named region for Kokkos Tools (Kokkos::Profiling::ScopedRegion, which Kokkos 3.4 lacks).
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

}  // namespace syncfree::impl
