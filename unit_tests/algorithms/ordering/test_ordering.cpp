// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <random>
#include <vector>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/ordering/syncfree_ordering.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference_ilu.hpp"
#include "unit_tests/utils/syncfree_dilu_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// Every method that permutes; nested dissection where SyncFree has SCOTCH.
const std::vector<OrderingMethod> permuting_methods = [] {
  std::vector<OrderingMethod> methods = {OrderingMethod::multicolor,
                                         OrderingMethod::block_multicolor, OrderingMethod::rcm,
                                         OrderingMethod::locality};
  if (SYNCFREE_HAVE_SCOTCH) methods.push_back(OrderingMethod::nested_dissection);
  return methods;
}();

/// For each position of the new order, the index of the color range holding it.
std::vector<int> color_of_position(const std::vector<int>& color_begin, int n) {
  std::vector<int> color(std::size_t(n), -1);
  for (std::size_t c = 0; c + 1 < color_begin.size(); ++c)
    for (int p = color_begin[c]; p < color_begin[c + 1]; ++p) color[std::size_t(p)] = int(c);
  return color;
}

/// The color of each row of A, from where the ordering put it.
std::vector<int> color_of_row(const Ordering<int, Device>& ordering, int n) {
  const auto perm = to_std(ordering.permutation);
  const auto color_at = color_of_position(ordering.color_begin, n);
  std::vector<int> color(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) color[std::size_t(perm[std::size_t(p)])] = color_at[std::size_t(p)];
  return color;
}

/// Every entry (i, j) of A that `coupled(i, j)` names joins rows of different colors.
template <class Coupled>
void expect_colors_differ(const M& A, const std::vector<int>& color, const Coupled& coupled) {
  const auto H = to_host(A);
  for (int i = 0; i < H.numRows(); ++i)
    for (int k = H.graph.row_map(i); k < H.graph.row_map(i + 1); ++k) {
      const int j = H.graph.entries(k);
      if (coupled(i, j)) {
        ASSERT_NE(color[std::size_t(i)], color[std::size_t(j)]) << i << " " << j;
      }
    }
}

TEST(Ordering, EveryMethodGivesAPermutation) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices())
    for (OrderingMethod method : permuting_methods)
      for (bool from_rcm : {false, true}) {
        SCOPED_TRACE(name + " " + to_string(method) + (from_rcm ? " rcm blocks" : ""));
        const auto ordering = compute_ordering(ExecSpace(), A, {method, 16, from_rcm});
        ASSERT_EQ(ordering.permutation.extent(0), std::size_t(A.numRows()));
        EXPECT_TRUE(is_permutation(ExecSpace(), ordering.permutation));
      }
}

TEST(Ordering, NaturalIsNoPermutation) {
  const auto ordering = compute_ordering(ExecSpace(), geometric_laplacian(500), {});
  EXPECT_TRUE(ordering.is_natural());
  EXPECT_EQ(ordering.num_colors, 0);
}

/// No two neighbours in A + A^T share a color, rows of a color keep their order, and the colors
/// cover the rows.
TEST(Ordering, MulticolorColorsAreValid) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices()) {
    SCOPED_TRACE(name);
    const auto ordering = compute_ordering(ExecSpace(), A, {OrderingMethod::multicolor});
    const int n = A.numRows();
    ASSERT_GT(ordering.num_colors, 1);
    ASSERT_EQ(ordering.color_begin.size(), std::size_t(ordering.num_colors) + 1);
    EXPECT_EQ(ordering.color_begin.back(), n);
    expect_colors_differ(A, color_of_row(ordering, n), [](int i, int j) { return i != j; });
    const auto perm = to_std(ordering.permutation);
    const auto color_at = color_of_position(ordering.color_begin, n);
    for (int p = 1; p < n; ++p) {
      if (color_at[std::size_t(p)] == color_at[std::size_t(p - 1)]) {
        EXPECT_LT(perm[std::size_t(p - 1)], perm[std::size_t(p)]);
      }
    }
  }
}

/// The coloring is greedy first fit in row order (the serial oracle's colors, at distances 1 and
/// 2) on graphs that take every path of it: long chains through warps and blocks (a band, a
/// natural-order grid), a longer and narrower band (the host pass on CUDA), stars whose hub comes
/// last (300 lower-numbered neighbours: the host pass on CUDA) or first (the hub's leaves each
/// wait on it), and a clique of 300 rows (300 colors).
TEST(Ordering, ColoringIsGreedyFirstFit) {
  std::vector<std::pair<std::string, M>> graphs;
  const auto problem = [](const std::string& spec) {
    return generate_problem<M>(ExecSpace(), parse_problem_spec(spec)).A;
  };
  graphs.push_back({"band", problem("banded:5000:3")});
  graphs.push_back({"chain", problem("banded:20000:1")});
  graphs.push_back({"grid", problem("poisson2d:60")});
  for (const bool hub_last : {true, false}) {
    const int leaves = 300, hub = hub_last ? leaves : 0;
    std::vector<Triplet> t;
    for (int i = 0; i <= leaves; ++i) t.push_back({i, i, 4.0});
    for (int i = 0; i <= leaves; ++i)
      if (i != hub) t.push_back({hub, i, -1.0}), t.push_back({i, hub, -1.0});
    // A path through the leaves too, so that colors beyond 1 occur.
    for (int i = 0; i + 1 <= leaves; ++i)
      if (i != hub && i + 1 != hub) t.push_back({i, i + 1, -1.0}), t.push_back({i + 1, i, -1.0});
    sort_triplets(t);
    graphs.push_back({hub_last ? "star, hub last" : "star, hub first",
                      matrix_from_triplets(leaves + 1, leaves + 1, t)});
  }
  std::vector<Triplet> clique;
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 300; ++j) clique.push_back({i, j, i == j ? 300.0 : -1.0});
  graphs.push_back({"clique", matrix_from_triplets(300, 300, clique)});
  for (const auto& [name, A] : graphs)
    for (const int distance : {1, 2}) {
      SCOPED_TRACE(name + " distance " + std::to_string(distance));
      const auto colors =
          impl::color_graph(ExecSpace(), impl::symmetric_adjacency(ExecSpace(), A), distance);
      EXPECT_EQ(to_std(colors),
                dilu_reference::greedy_colors(dilu_reference::rows_of(A), distance));
    }
}

/// Rows of different blocks of one color never depend on each other; each block's rows stay
/// together and in their order.
TEST(Ordering, BlockMulticolorBlocksOfAColorAreIndependent) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices()) {
    SCOPED_TRACE(name);
    const int size = 16;
    const auto ordering =
        compute_ordering(ExecSpace(), A, {OrderingMethod::block_multicolor, size});
    const int n = A.numRows();
    expect_colors_differ(A, color_of_row(ordering, n),
                         [&](int i, int j) { return i / size != j / size; });
    const auto perm = to_std(ordering.permutation);
    for (int p = 0; p < n; ++p) {
      if (perm[std::size_t(p)] % size != 0) {
        EXPECT_EQ(perm[std::size_t(p - 1)], perm[std::size_t(p)] - 1) << "position " << p;
      }
    }
    // Blocks of a local numbering have few neighbours; a random one's are scattered.
    if (name.find("renumbered") == std::string::npos) {
      EXPECT_LT(ordering.num_colors, (n + size - 1) / size / 4);
    }
  }
}

/// In a multicolor order the ILU(0) factor has at most as many levels as colors, and in a block
/// multicolor order at most colors times the block size; the first far fewer than in the mesh's
/// own order.
TEST(Ordering, ColoredOrdersHaveFewLevels) {
  const M A = geometric_laplacian(3000);
  IluPreconditioner<M> natural(ExecSpace(), A);
  IluPreconditioner<M> colored(ExecSpace(), A, {}, {OrderingMethod::multicolor});
  IluPreconditioner<M> blocks(ExecSpace(), A, {}, {OrderingMethod::block_multicolor, 8, true});
  EXPECT_LE(colored.plan().num_levels(), colored.ordering().num_colors);
  EXPECT_LE(blocks.plan().num_levels(), blocks.ordering().num_colors * 8);
  EXPECT_LT(colored.plan().num_levels() * 4, natural.plan().num_levels());
}

/// Reverse Cuthill-McKee shrinks the bandwidth of a randomly renumbered mesh.
TEST(Ordering, RcmShrinksTheBandwidth) {
  const int n = 3000;
  const M A = matrix_from_triplets(
      n, n, renumbered(geometric_triplets(n, 2.2 / std::sqrt(double(n)), 7, 0.05), n, 3));
  const auto bandwidth = [](const M& B) {
    const auto H = to_host(B);
    int width = 0;
    for (int i = 0; i < H.numRows(); ++i)
      for (int k = H.graph.row_map(i); k < H.graph.row_map(i + 1); ++k)
        width = std::max(width, std::abs(H.graph.entries(k) - i));
    return width;
  };
  const auto ordering = compute_ordering(ExecSpace(), A, {OrderingMethod::rcm});
  EXPECT_LT(bandwidth(permute_matrix(ExecSpace(), A, ordering.permutation)) * 10, bandwidth(A));
}

/// The share of A's off-diagonal entries within `reach` of their row.
double near_share(const M& A, int reach) {
  const auto H = to_host(A);
  long near = 0, all = 0;
  for (int i = 0; i < H.numRows(); ++i)
    for (int k = H.graph.row_map(i); k < H.graph.row_map(i + 1); ++k) {
      const int j = H.graph.entries(k);
      if (j == i) continue;
      ++all;
      near += std::abs(j - i) <= reach ? 1 : 0;
    }
  return all > 0 ? double(near) / double(all) : 1.0;
}

/// The locality ordering brings a randomly renumbered mesh's neighbours near each other, as its
/// mesher's numbering had them; small cells bring them nearer.
TEST(Ordering, LocalityBringsNeighboursNear) {
  const int n = 3000;
  const auto t = geometric_triplets(n, 2.2 / std::sqrt(double(n)), 7, 0.05);
  const M A = matrix_from_triplets(n, n, renumbered(t, n, 3));
  ASSERT_LT(near_share(A, 64), 0.1);
  for (int cell_size : {16, 64}) {
    SCOPED_TRACE(cell_size);
    OrderingOptions options;
    options.method = OrderingMethod::locality;
    options.cell_size = cell_size;
    const auto ordering = compute_ordering(ExecSpace(), A, options);
    ASSERT_TRUE(is_permutation(ExecSpace(), ordering.permutation));
    EXPECT_GT(near_share(permute_matrix(ExecSpace(), A, ordering.permutation), 4 * cell_size), 0.5);
  }
}

/// A random graph's Laplacian: each row joined to `degree` rows drawn at random (and they to it).
M random_graph_laplacian(int n, int degree, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> row(0, n - 1);
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < degree; ++k) {
      const int j = row(rng);
      if (j == i) continue;
      neighbours[std::size_t(i)].push_back(j);
      neighbours[std::size_t(j)].push_back(i);
    }
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    auto& r = neighbours[std::size_t(i)];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    for (int j : r) t.push_back({i, j, -1.0});
    t.push_back({i, i, double(r.size()) + 1.0});
  }
  return matrix_from_triplets(n, n, t);
}

/// Renumbering is suggested for a randomly numbered mesh, not for the mesher's numbering (its
/// entries are near already), nor for a graph whose neighbours no numbering brings together (a
/// random graph: tried and refused; one with hubs: refused at once).
TEST(Ordering, SuggestsLocalityWhereItPays) {
  // Rows beyond 2 x 4096, where far_entry_fraction's reach leaves a random numbering's entries far.
  const int n = 20000;
  const auto t = geometric_triplets(n, 2.2 / std::sqrt(double(n)), 7, 0.05);
  const M mesher = matrix_from_triplets(n, n, t);
  const M random = matrix_from_triplets(n, n, renumbered(t, n, 3));

  const auto kept = suggest_locality_ordering(ExecSpace(), mesher);
  EXPECT_FALSE(kept.renumbers()) << kept.reason;
  EXPECT_LT(kept.far_entries, 0.5);
  EXPECT_EQ(kept.near_after, 0.0);

  const auto chosen = suggest_locality_ordering(ExecSpace(), random);
  ASSERT_TRUE(chosen.renumbers()) << chosen.reason;
  EXPECT_GT(chosen.far_entries, 0.5);
  EXPECT_GE(chosen.near_after, 0.5);
  EXPECT_NE(chosen.reason.find("renumbered"), std::string::npos) << chosen.reason;
  EXPECT_EQ(chosen.ordering.options.method, OrderingMethod::locality);
  const M renumbered_random = permute_matrix(ExecSpace(), random, chosen.ordering.permutation);
  EXPECT_NEAR(near_share(renumbered_random, 256), chosen.near_after, 1e-12);

  const auto refused = suggest_locality_ordering(ExecSpace(), random_graph_laplacian(n, 4, 9));
  EXPECT_FALSE(refused.renumbers()) << refused.reason;
  EXPECT_GT(refused.far_entries, 0.5);
  EXPECT_GT(refused.near_after, 0.0);
  EXPECT_LT(refused.near_after, 0.5);
  EXPECT_NE(refused.reason.find("would lie within 256 rows"), std::string::npos) << refused.reason;

  const auto hubs = suggest_locality_ordering(ExecSpace(), power_law_matrix(n, 3, 1));
  EXPECT_FALSE(hubs.renumbers()) << hubs.reason;
  EXPECT_EQ(hubs.near_after, 0.0);
  EXPECT_NE(hubs.reason.find("a hub"), std::string::npos) << hubs.reason;
}

/// Nested dissection reduces the fill of a complete LU factorization of a 2-D grid (bandwidth 24
/// in its own order) to well under that of the natural order; without SCOTCH it is refused with a
/// clear error.
TEST(Ordering, NestedDissectionReducesFill) {
  const M A = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson2d:24"));
  if (!SYNCFREE_HAVE_SCOTCH) {
    EXPECT_THROW(compute_ordering(ExecSpace(), A, {OrderingMethod::nested_dissection}),
                 InvalidArgument);
    return;
  }
  const auto ordering = compute_ordering(ExecSpace(), A, {OrderingMethod::nested_dissection});
  ASSERT_TRUE(is_permutation(ExecSpace(), ordering.permutation));
  const int complete = A.numRows();  // a fill level no path exceeds: the complete LU pattern
  const auto natural_fill = reference::iluk(to_host(A), complete).nnz();
  const auto nd_fill =
      reference::iluk(to_host(permute_matrix(ExecSpace(), A, ordering.permutation)), complete)
          .nnz();
  EXPECT_LT(nd_fill * 10, natural_fill * 7) << nd_fill << " against " << natural_fill;
}

/// Two runs give the same permutation; where the tests run on CUDA, the host backend gives the
/// same colors too.
TEST(Ordering, IsDeterministic) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices())
    for (OrderingMethod method : permuting_methods) {
      SCOPED_TRACE(name + " " + to_string(method));
      const auto first = compute_ordering(ExecSpace(), A, {method});
      const auto second = compute_ordering(ExecSpace(), A, {method});
      EXPECT_EQ(to_std(first.permutation), to_std(second.permutation));
      EXPECT_EQ(first.color_begin, second.color_begin);
#if defined(KOKKOS_ENABLE_SERIAL)
      if constexpr (!std::is_same_v<ExecSpace, Kokkos::Serial>) {
        using SerialMatrix =
            CrsMatrix<double, int, int, Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>>;
        const auto host =
            compute_ordering(Kokkos::Serial(), copy_to<SerialMatrix::device_type>(A), {method});
        EXPECT_EQ(to_std(first.permutation), to_std(host.permutation));
        EXPECT_EQ(first.color_begin, host.color_begin);
      }
#endif
    }
}

TEST(Ordering, HandlesEmptyRowsAndAnEmptyMatrix) {
  // Row 2 has no entry at all; rows 0 and 3 only their diagonal.
  const M A = matrix_from_triplets(
      5, 5, {{0, 0, 1}, {1, 1, 2}, {1, 4, -1}, {3, 3, 1}, {4, 1, -1}, {4, 4, 2}});
  for (OrderingMethod method : permuting_methods) {
    const auto ordering = compute_ordering(ExecSpace(), A, {method, 2});
    EXPECT_TRUE(is_permutation(ExecSpace(), ordering.permutation)) << to_string(method);
  }
  const M empty = matrix_from_triplets(0, 0, {});
  for (OrderingMethod method : permuting_methods)
    EXPECT_EQ(compute_ordering(ExecSpace(), empty, {method}).permutation.extent(0), 0u);
}

/// Distance-2 block colors: blocks that share a neighbouring block get different colors.
TEST(Ordering, BlockMulticolorAtDistanceTwo) {
  const M A = geometric_laplacian(3000);
  const auto d1 = compute_ordering(ExecSpace(), A, {OrderingMethod::block_multicolor, 16});
  const auto d2 =
      compute_ordering(ExecSpace(), A, {OrderingMethod::block_multicolor, 16, false, 2});
  ASSERT_TRUE(is_permutation(ExecSpace(), d2.permutation));
  EXPECT_GT(d2.num_colors, d1.num_colors);
}

TEST(Ordering, RejectsBadInput) {
  const M rectangular = matrix_from_triplets(2, 3, {{0, 0, 1}, {1, 1, 1}});
  EXPECT_THROW(compute_ordering(ExecSpace(), rectangular, {OrderingMethod::multicolor}),
               DimensionMismatch);
  EXPECT_THROW(compute_ordering(ExecSpace(), geometric_laplacian(100),
                                {OrderingMethod::block_multicolor, 0}),
               InvalidArgument);
  EXPECT_THROW(compute_ordering(ExecSpace(), geometric_laplacian(100),
                                {OrderingMethod::multicolor, 32, false, 3}),
               InvalidArgument);
  EXPECT_THROW(compute_ordering(ExecSpace(), geometric_laplacian(100),
                                {OrderingMethod::locality, 32, false, 1, 0}),
               InvalidArgument);
  EXPECT_THROW(suggest_locality_ordering(ExecSpace(), rectangular), DimensionMismatch);
  EXPECT_THROW(parse_ordering_method("metis"), InvalidArgument);
  for (OrderingMethod method :
       {OrderingMethod::natural, OrderingMethod::multicolor, OrderingMethod::block_multicolor,
        OrderingMethod::rcm, OrderingMethod::nested_dissection, OrderingMethod::locality})
    EXPECT_EQ(parse_ordering_method(to_string(method)), method);
}

}  // namespace
}  // namespace syncfree::test
