// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Nested dissection of a symmetric graph through SCOTCH (`SCOTCH_graphOrder` with its
/// default strategy: nested dissection by vertex separators, minimum degree on small parts), on
/// the host, in SCOTCH's deterministic mode with a random state reset for each ordering: a graph
/// gets the same ordering on every run.

#include <string>
#include <vector>

#include "core/syncfree_config.hpp"
#include "core/syncfree_error.hpp"

#if SYNCFREE_HAVE_SCOTCH
#include <cstdint>
#include <cstdio>  // scotch.h needs FILE and the fixed-width integers declared first

#include <scotch.h>
#endif

namespace syncfree::impl {

/// Nested dissection of a symmetric graph without self loops, as `perm(new) = old`.
/// \throws InvalidArgument where SyncFree was built without SCOTCH; InvalidState where SCOTCH
/// fails.
template <class Graph>
std::vector<typename Graph::non_const_ordinal_type> nested_dissection(const Graph& G) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  const ordinal_type n = G.numRows();
  std::vector<ordinal_type> perm(static_cast<std::size_t>(n));
#if SYNCFREE_HAVE_SCOTCH
  if (n == 0) return perm;
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G.graph.row_map);
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G.graph.entries);
  SYNCFREE_REQUIRE(double(row_map(n)) < 2147483647.0, InvalidArgument,
                   "nested dissection: SCOTCH takes at most 2^31 - 1 edges, the graph has ",
                   row_map(n));
  std::vector<SCOTCH_Num> vertices(std::size_t(n) + 1), edges(std::size_t(row_map(n)));
  for (ordinal_type i = 0; i <= n; ++i) vertices[std::size_t(i)] = SCOTCH_Num(row_map(i));
  for (std::size_t k = 0; k < edges.size(); ++k) edges[k] = SCOTCH_Num(entries(k));
  std::vector<SCOTCH_Num> labels(static_cast<std::size_t>(n)), inverse(labels.size());

  // A context of its own: deterministic mode and a random state reset for each ordering (the
  // library's own defaults may use threads and carry state from one call to the next).
  SCOTCH_Context context;
  SCOTCH_Graph graph, bound;
  SCOTCH_Strat strategy;
  SCOTCH_contextInit(&context);
  SCOTCH_graphInit(&graph);
  SCOTCH_graphInit(&bound);
  SCOTCH_stratInit(&strategy);
  int status = SCOTCH_contextRandomClone(&context);
  if (status == 0)
    status = SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
  SCOTCH_contextRandomReset(&context);
  if (status == 0)
    status = SCOTCH_graphBuild(&graph, 0, SCOTCH_Num(n), vertices.data(), nullptr, nullptr,
                               nullptr, SCOTCH_Num(edges.size()), edges.data(), nullptr);
  if (status == 0) status = SCOTCH_contextBindGraph(&context, &graph, &bound);
  if (status == 0)
    status = SCOTCH_graphOrder(&bound, &strategy, labels.data(), inverse.data(), nullptr,
                               nullptr, nullptr);
  SCOTCH_stratExit(&strategy);
  SCOTCH_graphExit(&bound);
  SCOTCH_graphExit(&graph);
  SCOTCH_contextExit(&context);
  SYNCFREE_REQUIRE(status == 0, InvalidState, "nested dissection: SCOTCH failed (status ", status,
                   ")");
  for (ordinal_type p = 0; p < n; ++p) perm[std::size_t(p)] = ordinal_type(inverse[std::size_t(p)]);
#else
  (void)G;
  throw InvalidArgument(
      "the nested-dissection ordering needs SyncFree built with SCOTCH (Debian: libscotch-dev; "
      "-DSYNCFREE_ENABLE_SCOTCH=ON)");
#endif
  return perm;
}

}  // namespace syncfree::impl
