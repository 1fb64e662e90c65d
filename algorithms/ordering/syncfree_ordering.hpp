// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Orderings that expose parallelism in triangular solves and factorizations: a symmetric
/// permutation P, applied as P A P^T, after which the solves of an incomplete factorization have
/// few, wide levels.
///
/// \code
///   auto ordering = syncfree::compute_ordering(exec, A, {syncfree::OrderingMethod::multicolor});
///   // row i of B is row perm(i) of A
///   Matrix B = syncfree::permute_matrix(exec, A, ordering.permutation);
/// \endcode
///
/// - `multicolor`: a distance-1 coloring of the graph of A + A^T (distance 2 with
///   `coloring_distance`; greedy first fit in row order, so every run and backend gives the same
///   colors; on CUDA mostly found on the device, see cuda/syncfree_ordering_coloring_cuda.hpp),
///   rows grouped by color (a sort on the device), in their own order inside a color. No two rows
///   of a color depend on each other, so a triangular factor has at most as many levels as colors;
///   ILU(0) in this order usually needs more iterations than in the natural order.
/// - `block_multicolor` (Iwashita, Nakashima and Takahashi, 2012): blocks of `block_size`
///   consecutive rows (of the matrix's own numbering, or of its reverse Cuthill-McKee numbering
///   with `blocks_from_rcm`), the quotient graph of the blocks colored, blocks grouped by color,
///   rows inside a block in their order. Blocks of a color are independent; inside a block the
///   dependencies of the natural order stay, so convergence stays nearer the natural order's.
/// - `rcm`: reverse Cuthill-McKee of A + A^T (Kokkos Kernels', on the host): small bandwidth,
///   long chains. For locality, not parallelism.
/// - `nested_dissection`: SCOTCH's nested dissection of A + A^T (where SyncFree was built with
///   SCOTCH): separators last, so the parts before them are independent subtrees. It reduces
///   fill (ILU(k)); the separators keep chains of dependent rows.
/// - `locality`: rows grouped into cells of about `cell_size` nearby rows grown from spread seeds,
///   each cell's rows by their distance from its seed (impl/syncfree_ordering_locality.hpp; on the
///   device, neighbours taken from A's own rows). For locality, like `rcm`, but found in parallel:
///   a randomly numbered matrix's products then gather x from nearby addresses.
///   `suggest_locality_ordering` says whether it pays for a matrix.

#include <cmath>
#include <string>
#include <vector>

#include "algorithms/ordering/impl/syncfree_ordering_graph.hpp"
#include "algorithms/ordering/impl/syncfree_ordering_kernels.hpp"
#include "algorithms/ordering/impl/syncfree_ordering_locality.hpp"
#include "algorithms/ordering/impl/syncfree_ordering_nested_dissection.hpp"
#include "core/impl/syncfree_far_entries.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

enum class OrderingMethod {
  natural,            ///< no permutation
  multicolor,         ///< rows grouped by color
  block_multicolor,   ///< blocks of consecutive rows grouped by the color of their block
  rcm,                ///< reverse Cuthill-McKee
  nested_dissection,  ///< SCOTCH's nested dissection
  locality            ///< cells of nearby rows, grown on the device
};

inline const char* to_string(OrderingMethod m) {
  switch (m) {
    case OrderingMethod::natural:
      return "natural";
    case OrderingMethod::multicolor:
      return "multicolor";
    case OrderingMethod::block_multicolor:
      return "block_multicolor";
    case OrderingMethod::rcm:
      return "rcm";
    case OrderingMethod::nested_dissection:
      return "nd";
    case OrderingMethod::locality:
      return "locality";
  }
  return "unknown";
}

/// The method named `name` ("natural", "multicolor", ..., "nd" for nested dissection).
/// \throws InvalidArgument otherwise.
inline OrderingMethod parse_ordering_method(const std::string& name) {
  for (auto m :
       {OrderingMethod::natural, OrderingMethod::multicolor, OrderingMethod::block_multicolor,
        OrderingMethod::rcm, OrderingMethod::nested_dissection, OrderingMethod::locality})
    if (name == to_string(m)) return m;
  throw InvalidArgument("unknown ordering '" + name +
                        "' (expected natural, multicolor, block_multicolor, rcm, nd or locality)");
}

struct OrderingOptions {
  OrderingMethod method = OrderingMethod::natural;
  /// `block_multicolor`: rows per block.
  int block_size = 32;
  /// `block_multicolor`: blocks of the reverse Cuthill-McKee numbering (for a matrix whose own
  /// numbering is not local, such as a random one) instead of the matrix's own.
  bool blocks_from_rcm = false;
  /// `multicolor` and `block_multicolor`: 1, neighbours in A + A^T get different colors; 2, rows
  /// with a common neighbour too (a coloring for smoothers that update neighbours of neighbours).
  int coloring_distance = 1;
  /// `locality`: rows per cell, on average.
  int cell_size = 64;
};

/// A symmetric permutation: row `new` of the permuted matrix is row `permutation(new)` of A.
template <class Ordinal, class Device>
struct Ordering {
  OrderingOptions options;
  /// perm(new) = old; empty for `natural`.
  Kokkos::View<Ordinal*, Device> permutation;
  /// Colors of the rows (`multicolor`) or of the blocks (`block_multicolor`); 0 otherwise.
  Ordinal num_colors = 0;
  /// Where each color starts in the new order, in rows (size num_colors + 1); empty when uncolored.
  std::vector<Ordinal> color_begin;

  bool is_natural() const { return permutation.extent(0) == 0; }
};

namespace impl {

/// The outcome of a factorization of P A P^T, its row named as A numbers it: row perm(i) for row
/// i, the reason's leading "row i:" saying both.
template <class Ordinal, class Device>
Outcome outcome_in_original_rows(Outcome outcome, const Ordering<Ordinal, Device>& ordering) {
  if (outcome.ok() || ordering.is_natural() || outcome.index < 0) return outcome;
  const auto i = outcome.index;
  const auto row = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(ordering.permutation, std::make_pair(i, i + 1)))(0);
  const std::string prefix = concat("row ", i, ":");
  if (outcome.reason.rfind(prefix, 0) == 0)
    outcome.reason =
        concat("row ", row, " (row ", i, " in the ", to_string(ordering.options.method),
               " order):", outcome.reason.substr(prefix.size()));
  outcome.index = row;
  return outcome;
}

/// Block multicolor: blocks of `size` consecutive rows of `members` (a numbering of the rows),
/// their quotient graph colored, blocks grouped by color. Fills `color_begin` (in rows).
template <class ExecSpace, class Graph, class Device>
std::vector<typename Graph::non_const_ordinal_type> block_multicolor_order(
    const ExecSpace& exec, const Graph& graph,
    const std::vector<typename Graph::non_const_ordinal_type>& members,
    typename Graph::non_const_ordinal_type size, int distance,
    std::vector<typename Graph::non_const_ordinal_type>& color_begin) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  const ordinal_type n = graph.numRows();
  std::vector<ordinal_type> block_of(static_cast<std::size_t>(n));
  for (ordinal_type p = 0; p < n; ++p) block_of[std::size_t(members[std::size_t(p)])] = p / size;
  const auto quotient = block_quotient(exec, graph, to_device_view<ordinal_type, Device>(members),
                                       to_device_view<ordinal_type, Device>(block_of), size);
  std::vector<ordinal_type> block_begin;
  const auto blocks =
      group_by_color(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                         color_graph(exec, quotient, distance)),
                     quotient.numRows(), block_begin);
  std::vector<ordinal_type> perm;
  perm.reserve(std::size_t(n));
  color_begin.assign(1, 0);
  for (std::size_t c = 0; c + 1 < block_begin.size(); ++c) {
    for (ordinal_type k = block_begin[c]; k < block_begin[c + 1]; ++k) {
      const ordinal_type b = blocks[std::size_t(k)];
      for (ordinal_type p = b * size; p < std::min(n, b * size + size); ++p)
        perm.push_back(members[std::size_t(p)]);
    }
    color_begin.push_back(ordinal_type(perm.size()));
  }
  return perm;
}

/// compute_ordering of a matrix whose structure the caller has validated.
template <class ExecSpace, class Matrix>
Ordering<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
compute_ordering_of_valid(const ExecSpace& exec, const Matrix& A, const OrderingOptions& options) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using device_type = typename Matrix::device_type;
  impl::ScopedRegion region("syncfree::ordering");
  Ordering<ordinal_type, device_type> result;
  result.options = options;
  if (options.method == OrderingMethod::natural) return result;

  if (options.method == OrderingMethod::locality) {
    DeviceScratch<ExecSpace> scratch(exec);
    result.permutation =
        order_by_cells(exec, scratch, grow_locality_cells(exec, scratch, A, options.cell_size));
    return result;
  }
  const ordinal_type n = A.numRows();
  const auto graph = symmetric_adjacency(exec, A);
  std::vector<ordinal_type> perm;
  switch (options.method) {
    case OrderingMethod::rcm:
      perm = reverse_cuthill_mckee(graph);
      break;
    case OrderingMethod::nested_dissection:
      perm = nested_dissection(graph);
      break;
    case OrderingMethod::multicolor: {
      // Rows grouped by color as the level sets of the colors: sorted on the device.
      const auto by_color =
          level_sets_from_levels(exec, color_graph(exec, graph, options.coloring_distance));
      result.permutation = by_color.order;
      result.color_begin = to_std_vector(by_color.level_ptr);
      result.num_colors = by_color.num_levels;
      return result;
    }
    case OrderingMethod::block_multicolor: {
      std::vector<ordinal_type> members(static_cast<std::size_t>(n));
      if (options.blocks_from_rcm)
        members = reverse_cuthill_mckee(graph);
      else
        for (ordinal_type i = 0; i < n; ++i) members[std::size_t(i)] = i;
      perm = block_multicolor_order<ExecSpace, decltype(graph), device_type>(
          exec, graph, members, ordinal_type(options.block_size), options.coloring_distance,
          result.color_begin);
      break;
    }
    case OrderingMethod::natural:
    case OrderingMethod::locality:  // returned above
      break;
  }
  if (!result.color_begin.empty()) result.num_colors = ordinal_type(result.color_begin.size() - 1);
  result.permutation = to_device_view<ordinal_type, device_type>(perm);
  return result;
}

}  // namespace impl

/// Computes the ordering `options` names for the square matrix A (its pattern only).
/// \throws DimensionMismatch when A is not square; InvalidArgument when block_size or cell_size
/// is below 1 or the coloring distance is neither 1 nor 2;
/// InvalidMatrix when A's row pointers or column indices are out of range (naming the row).
template <class ExecSpace, class Matrix>
Ordering<typename Matrix::non_const_ordinal_type, typename Matrix::device_type> compute_ordering(
    const ExecSpace& exec, const Matrix& A, const OrderingOptions& options) {
  SYNCFREE_REQUIRE(A.numRows() == A.numCols(), DimensionMismatch,
                   "compute_ordering: the matrix is ", A.numRows(), "x", A.numCols(),
                   ", not square");
  SYNCFREE_REQUIRE(options.block_size >= 1, InvalidArgument,
                   "compute_ordering: block size must be >= 1, got ", options.block_size);
  SYNCFREE_REQUIRE(options.coloring_distance == 1 || options.coloring_distance == 2,
                   InvalidArgument, "compute_ordering: coloring distance must be 1 or 2, got ",
                   options.coloring_distance);
  SYNCFREE_REQUIRE(options.cell_size >= 1, InvalidArgument,
                   "compute_ordering: cell size must be >= 1, got ", options.cell_size);
  if (options.method != OrderingMethod::natural)
    require_valid(exec, A, MatrixCheck::structure, "compute_ordering");
  return impl::compute_ordering_of_valid(exec, A, options);
}

/// What `suggest_locality_ordering` found, and the ordering it suggests (`natural` for none).
template <class Ordinal, class Device>
struct LocalityChoice {
  Ordering<Ordinal, Device> ordering;
  /// Share of A's entries far from their rows (impl::far_entry_fraction).
  double far_entries = 0.0;
  /// Share of off-diagonal entries within `4 cell_size` rows of each other in the locality
  /// ordering; 0 where it was not computed.
  double near_after = 0.0;
  std::string reason;  ///< in words, for reports
  bool renumbers() const { return !ordering.is_natural(); }
};

/// Whether numbering A's rows and columns in the `locality` ordering pays, and that ordering where
/// it does: where most entries lie far from their rows (more than half, as in a random
/// numbering: impl::far_entry_fraction) and at least half of the off-diagonal entries lie within
/// 4 `cell_size` rows of each other in the new numbering (a mesh or a geometric graph; no
/// numbering brings a small-world graph's neighbours together). A hub (a row of more than 32
/// times the mean entries) keeps the numbering at once; the ordering is computed only where the
/// far entries are most: otherwise a validation and one pass over A decide.
/// \throws as `compute_ordering`.
template <class ExecSpace, class Matrix>
LocalityChoice<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
suggest_locality_ordering(const ExecSpace& exec, const Matrix& A, int cell_size = 64) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  OrderingOptions options;
  options.method = OrderingMethod::locality;
  options.cell_size = cell_size;
  LocalityChoice<ordinal_type, typename Matrix::device_type> choice;
  SYNCFREE_REQUIRE(A.numRows() == A.numCols(), DimensionMismatch,
                   "suggest_locality_ordering: the matrix is ", A.numRows(), "x", A.numCols(),
                   ", not square");
  SYNCFREE_REQUIRE(cell_size >= 1, InvalidArgument,
                   "suggest_locality_ordering: cell size must be >= 1, got ", cell_size);
  const auto report = require_valid(exec, A, MatrixCheck::structure, "suggest_locality_ordering");
  constexpr double hub = 32;  // a row this many times the mean
  const double mean = A.numRows() > 0 ? double(A.nnz()) / double(A.numRows()) : 0.0;
  if (double(report.longest_off_diagonal) > hub * mean) {
    choice.reason = impl::concat("a row of ", report.longest_off_diagonal,
                                 " entries, a hub whose neighbours no numbering brings together: "
                                 "kept");
    return choice;
  }
  constexpr double most = 0.5;
  choice.far_entries = impl::far_entry_fraction(exec, A, long(report.longest_off_diagonal));
  const long far_percent = std::lround(100 * choice.far_entries);
  if (!(choice.far_entries > most)) {
    choice.reason = impl::concat(far_percent, " % of the entries lie far from their rows: kept");
    return choice;
  }
  const auto ordering = impl::compute_ordering_of_valid(exec, A, options);
  impl::DeviceScratch<ExecSpace> scratch(exec);
  const auto position = scratch.template uninitialized<ordinal_type, typename Matrix::device_type>(
      "position", std::size_t(A.numRows()));
  impl::invert_permutation_into(exec, ordering.permutation, position);
  choice.near_after = impl::near_entry_share(exec, A, position, 4L * cell_size);
  const long near_percent = std::lround(100 * choice.near_after);
  if (!(choice.near_after >= most)) {
    choice.reason =
        impl::concat(far_percent, " % of the entries lie far from their rows, and ", near_percent,
                     " % would lie within ", 4 * cell_size, " rows in the locality order: kept");
    return choice;
  }
  choice.ordering = ordering;
  choice.reason =
      impl::concat(far_percent, " % of the entries lie far from their rows; ", near_percent,
                   " % lie within ", 4 * cell_size, " rows in the locality order: renumbered");
  return choice;
}

namespace impl {
/// compute_ordering for a factorization of P A P^T: a permuted A is first passed to `validate`
/// (the factorization's own checks of A), so that its errors name A's rows rather than the
/// permuted matrix's, which the factorization's analysis would name.
template <class ExecSpace, class Matrix, class Validate>
Ordering<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
compute_ordering_validated(const ExecSpace& exec, const Matrix& A, const OrderingOptions& options,
                           const Validate& validate) {
  if (options.method != OrderingMethod::natural) validate();
  return compute_ordering(exec, A, options);
}
}  // namespace impl

}  // namespace syncfree
