// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The graphs an ordering works on, built on the device: the adjacency of A + A^T without
/// the diagonal (two rows are neighbours when either depends on the other), and the quotient of
/// that graph by blocks of rows.

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// A graph as a CRS pattern: sorted, unique neighbours, no self loops. The values are unused (the
/// count of entries merged into each edge).
template <class Matrix>
using OrderingGraph = CrsMatrix<double, typename Matrix::non_const_ordinal_type,
                                typename Matrix::non_const_size_type, typename Matrix::device_type>;

/// G without its entries (i, i).
template <class ExecSpace, class Graph>
Graph without_self_loops(const ExecSpace& exec, const Graph& G) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  using offset_type = typename Graph::non_const_size_type;
  const auto map = G.graph.row_map;
  const auto cols = G.graph.entries;
  const auto vals = G.values;
  return build_crs<Graph>(
      exec, "syncfree::ordering::graph", G.numRows(), G.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 0;
        for (auto k = map(i); k < map(i + 1); ++k) count += cols(k) != i;
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Graph::index_type::non_const_type& entries,
                    const typename Graph::values_type::non_const_type& values) {
        for (auto k = map(i); k < map(i + 1); ++k)
          if (cols(k) != i) {
            entries(out) = cols(k);
            values(out) = vals(k);
            ++out;
          }
      });
}

/// The adjacency of A + A^T: row i lists every j != i with a_ij or a_ji stored.
template <class ExecSpace, class Matrix>
OrderingGraph<Matrix> symmetric_adjacency(const ExecSpace& exec, const Matrix& A) {
  using Graph = OrderingGraph<Matrix>;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const auto off_diagonal = KOKKOS_LAMBDA(ordinal_type i, ordinal_type j) { return i != j; };
  const Graph transposed = transpose_pattern(
      exec, "syncfree::ordering::transpose",
      make_crs<Graph>("syncfree::ordering::pattern", A.numRows(), A.numCols(), A.graph.row_map,
                      A.graph.entries,
                      Kokkos::View<double*, typename Matrix::device_type>(
                          "syncfree::ordering::no_values", A.nnz())),
      off_diagonal);
  const auto a_map = A.graph.row_map;
  const auto a_entries = A.graph.entries;
  const auto t_map = transposed.graph.row_map;
  const auto t_entries = transposed.graph.entries;
  const Graph both = build_crs<Graph>(
      exec, "syncfree::ordering::adjacency", A.numRows(), A.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        return (a_map(i + 1) - a_map(i)) + (t_map(i + 1) - t_map(i));
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Graph::index_type::non_const_type& entries,
                    const typename Graph::values_type::non_const_type& values) {
        // A row keeps its own diagonal slot here, as itself; the merge below removes it.
        for (auto k = a_map(i); k < a_map(i + 1); ++k, ++out) {
          entries(out) = a_entries(k);
          values(out) = 1;
        }
        for (auto k = t_map(i); k < t_map(i + 1); ++k, ++out) {
          entries(out) = t_entries(k);
          values(out) = 1;
        }
      });
  return without_self_loops(exec, sort_and_merge(exec, both));
}

/// The quotient of G by blocks: block b holds the rows `members(b * size .. (b + 1) * size - 1)`
/// (the last block may be short), `block_of(row)` names each row's block, and two blocks are
/// neighbours when rows of theirs are.
template <class ExecSpace, class Graph, class Members, class BlockOf>
Graph block_quotient(const ExecSpace& exec, const Graph& G, const Members& members,
                     const BlockOf& block_of, typename Graph::non_const_ordinal_type size) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  using offset_type = typename Graph::non_const_size_type;
  const ordinal_type n = G.numRows();
  const ordinal_type blocks = n == 0 ? 0 : (n + size - 1) / size;
  const auto map = G.graph.row_map;
  const auto cols = G.graph.entries;
  const Graph with_repeats = build_crs<Graph>(
      exec, "syncfree::ordering::block_quotient", blocks, blocks,
      KOKKOS_LAMBDA(const ordinal_type b) {
        offset_type count = 0;
        const ordinal_type end = b * size + size < n ? b * size + size : n;
        for (ordinal_type p = b * size; p < end; ++p)
          count += map(members(p) + 1) - map(members(p));
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type b, offset_type out,
                    const typename Graph::index_type::non_const_type& entries,
                    const typename Graph::values_type::non_const_type& values) {
        const ordinal_type end = b * size + size < n ? b * size + size : n;
        for (ordinal_type p = b * size; p < end; ++p)
          for (auto k = map(members(p)); k < map(members(p) + 1); ++k, ++out) {
            entries(out) = block_of(cols(k));
            values(out) = 1;
          }
      });
  return without_self_loops(exec, sort_and_merge(exec, with_repeats));
}

}  // namespace syncfree::impl
