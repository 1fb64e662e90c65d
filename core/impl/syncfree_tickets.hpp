// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The atomic ticket through which the teams of a sync-free launch claim their work in
/// topological order, without a reset between launches: a launch of T tickets claims the counter
/// values [base, base + T), base counting every ticket claimed before (modulo 2^32, as the counter
/// wraps), so a team's ticket is `atomic_fetch_add - base`.

#include <string>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

template <class Device>
struct Tickets {
  Kokkos::View<unsigned, Device> counter;
  unsigned claimed = 0;

  /// Allocates the counter (zero).
  void allocate(const char* label) {
    counter = Kokkos::View<unsigned, Device>(std::string(label));
    claimed = 0;
  }

  /// The base of a launch of `count` tickets (every one of which the launch must claim).
  unsigned take(unsigned count) {
    const unsigned base = claimed;
    claimed += count;
    return base;
  }
};

}  // namespace syncfree::impl
