// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The options of multicolor DILU (syncfree_dilu.hpp): its sweep variants, coloring and
/// relaxation.

#include <string>

#include "core/syncfree_error.hpp"

namespace syncfree {

/// How the sweeps (and the factorization, which has the same dependencies) run.
enum class DiluVariant {
  automatic,     ///< `sync_free_1d`, the fastest
  per_color,     ///< one launch per color, 8 lanes per row (AmgX 2.5's multicolor DILU)
  sync_free_2d,  ///< one launch, a grid row of teams per color, 8 lanes per row; each row waits
                 ///< only on the rows it reads
  sync_free_1d,  ///< one launch; the rows of each color grouped by length, 1-32 lanes per row
};

inline const char* to_string(DiluVariant v) {
  switch (v) {
    case DiluVariant::automatic:
      return "auto";
    case DiluVariant::per_color:
      return "per_color";
    case DiluVariant::sync_free_2d:
      return "sync_free_2d";
    case DiluVariant::sync_free_1d:
      return "sync_free_1d";
  }
  return "unknown";
}

/// The variant named `name` ("auto", "per_color", "sync_free_2d" or "sync_free_1d").
/// \throws InvalidArgument otherwise.
inline DiluVariant parse_dilu_variant(const std::string& name) {
  for (auto v : {DiluVariant::automatic, DiluVariant::per_color, DiluVariant::sync_free_2d,
                 DiluVariant::sync_free_1d})
    if (name == to_string(v)) return v;
  throw InvalidArgument("unknown DILU variant '" + name +
                        "' (expected auto, per_color, sync_free_2d or sync_free_1d)");
}

struct DiluOptions {
  DiluVariant variant = DiluVariant::automatic;
  /// 1: rows that are neighbours in A + A^T get different colors (all DILU needs); 2: rows with a
  /// common neighbour too.
  int coloring_distance = 1;
  /// The relaxation of each sweep, x += omega * Delta; the preconditioner applies omega M^{-1}.
  double omega = 1;
  /// `DiluPreconditioner`: sweeps of the smoother from x = 0 per application.
  int sweeps = 1;
  /// `sync_free_1d`: a row gets the fewest lanes (a power of two, at most 32) that leave each at
  /// most this many of its entries.
  int entries_per_lane = 4;
};

}  // namespace syncfree
