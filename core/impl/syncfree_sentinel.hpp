// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The NaN sentinel: a solution entry is "not yet computed" while it holds this bit pattern,
/// so the value is its own ready flag and no flag array or fence is needed.
///
/// The sentinel is the all-ones pattern, a negative quiet NaN with a full payload. Arithmetic can
/// produce it only by propagating an input NaN that already carries this payload (NVIDIA GPUs
/// return the canonical NaN instead; x86 propagates payloads). `publish` therefore replaces that
/// one pattern by the canonical quiet NaN before storing, so a waiter can never mistake a computed
/// value for the sentinel, and NaN in the data flows through the solve instead of hanging it.
/// Readers compare bits exactly: an `isnan` test would also stop at legitimate NaN results.

#include <cstdint>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

template <class Scalar>
struct Sentinel {
  static_assert(std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>,
                "the NaN sentinel is defined for float and double");
  using bits_type = std::conditional_t<sizeof(Scalar) == 8, std::uint64_t, std::uint32_t>;
  static constexpr bits_type pattern = ~bits_type(0);
  static constexpr bits_type canonical_nan =
      sizeof(Scalar) == 8 ? bits_type(0x7FF8000000000000ull) : bits_type(0x7FC00000u);

  KOKKOS_FORCEINLINE_FUNCTION static bits_type to_bits(Scalar v) { return bit_cast<bits_type>(v); }
  KOKKOS_FORCEINLINE_FUNCTION static Scalar from_bits(bits_type b) { return bit_cast<Scalar>(b); }

  /// Non-blocking read: true and the value once entry `p` holds a computed value.
  KOKKOS_FORCEINLINE_FUNCTION static bool try_read(const Scalar* p, Scalar& value) {
    const bits_type b = atomic_load_relaxed(reinterpret_cast<bits_type*>(const_cast<Scalar*>(p)));
    value = from_bits(b);
    return b != pattern;
  }

  /// Spins until entry `p` holds a computed value. Only called on entries that analysis proved
  /// are computed by work claimed earlier (see the forward-progress notes of each kernel).
  KOKKOS_FORCEINLINE_FUNCTION static Scalar wait(const Scalar* p) {
    Scalar value;
    for (int spins = 0; !try_read(p, value);) host_spin_pause(spins);
    return value;
  }

  /// `wait` for kernels in which many threads wait at once (a thread per row or point, most of
  /// them on values still far away): on NVIDIA GPUs each poll after the first sleeps briefly
  /// (core/impl/syncfree_kokkos_compat.hpp's spin_pause), so that the waiters leave the memory
  /// system to the threads they wait for.
  KOKKOS_FORCEINLINE_FUNCTION static Scalar wait_with_backoff(const Scalar* p) {
    Scalar value;
    for (int spins = 0; !try_read(p, value);) spin_pause(spins);
    return value;
  }

  KOKKOS_FORCEINLINE_FUNCTION static void publish(Scalar* p, Scalar value) {
    bits_type b = to_bits(value);
    if (b == pattern) b = canonical_nan;
    atomic_store_relaxed(reinterpret_cast<bits_type*>(p), b);
  }

  /// Marks entry `p` "not yet computed" (for a later kernel: the store is relaxed).
  KOKKOS_FORCEINLINE_FUNCTION static void arm(Scalar* p) {
    atomic_store_relaxed(reinterpret_cast<bits_type*>(p), pattern);
  }

  static Scalar value() { return from_bits(pattern); }
};

}  // namespace syncfree::impl
