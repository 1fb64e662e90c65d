// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <random>
#include <string>
#include <vector>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_transversal.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// The diagonal of B, each entry found in its row (0 where not stored).
std::vector<double> diagonal_of(const M& B) {
  const auto h = to_host(B);
  std::vector<double> d(std::size_t(h.numRows()), 0.0);
  for (int i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      if (h.graph.entries(k) == i) d[std::size_t(i)] = h.values(k);
  return d;
}

/// Rows of A shuffled: a matrix whose diagonal is mostly structurally zero.
M shuffled_rows(const M& A, unsigned seed) {
  std::vector<int> order(static_cast<std::size_t>(A.numRows()));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  return permute_rows(ExecSpace(), A, to_view(order));
}

class Transversal : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!has_maximum_transversal()) GTEST_SKIP() << "built without SuiteSparse BTF";
  }
};

TEST_F(Transversal, KeepsAZeroFreeDiagonalWhereItIs) {
  const auto A = geometric_convection(500);
  const auto perm = zero_free_diagonal_rows(ExecSpace(), A);
  std::vector<int> identity(500);
  for (int i = 0; i < 500; ++i) identity[std::size_t(i)] = i;
  EXPECT_EQ(to_std(perm), identity);
}

TEST_F(Transversal, MovesTheLargestEntriesBackToTheDiagonal) {
  // Every row of A is diagonally dominant: its largest entry is its diagonal, so the greedy
  // matching finds the rows' own places and B's diagonal is A's.
  const auto A = geometric_convection(2000);
  const auto shuffled = shuffled_rows(A, 3);
  ASSERT_THROW(require_valid(ExecSpace(), shuffled, MatrixCheck::diagonal_present, "test"),
               InvalidMatrix);

  const auto perm = zero_free_diagonal_rows(ExecSpace(), shuffled);
  const M B = permute_rows(ExecSpace(), shuffled, perm);

  EXPECT_TRUE(is_permutation(ExecSpace(), perm));
  EXPECT_EQ(diagonal_of(B), diagonal_of(A));
}

TEST_F(Transversal, LetsGmresWithIlu0SolveAMatrixWithZeroDiagonals) {
  const auto A = shuffled_rows(geometric_convection(3000, 5), 8);
  const int n = A.numRows();
  std::vector<double> b_host(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) b_host[std::size_t(i)] = 1.0 + 0.5 * std::sin(0.1 * i);
  const auto b = to_view(b_host);
  EXPECT_THROW(IluPreconditioner<M>(ExecSpace(), A), InvalidMatrix);

  const auto perm = zero_free_diagonal_rows(ExecSpace(), A);
  const M B = permute_rows(ExecSpace(), A, perm);
  Vector<double, Device> pb("pb", n), x("x", n), ax("ax", n);
  permute_vector(ExecSpace(), perm, b, pb);
  IluPreconditioner<M> ilu(ExecSpace(), B);
  ASSERT_TRUE(ilu.outcome().ok()) << ilu.outcome().reason;
  GmresOptions options;
  options.tolerance = 1e-10;
  const SolveResult r = gmres_solve(ExecSpace(), CrsOperator<M>(B), ilu, pb, x, options);
  ASSERT_TRUE(r.converged()) << r.reason;

  // x solves the unpermuted system.
  KokkosSparse::spmv("N", 1.0, A, x, 0.0, ax);
  const auto got = to_std(ax);
  double error = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    error += (got[std::size_t(i)] - b_host[std::size_t(i)]) *
             (got[std::size_t(i)] - b_host[std::size_t(i)]);
    norm += b_host[std::size_t(i)] * b_host[std::size_t(i)];
  }
  EXPECT_LE(std::sqrt(error / norm), 1e-9);
}

TEST_F(Transversal, DoesNotCountStoredZerosAsDiagonalEntries) {
  const auto A =
      matrix_from_triplets<M>(2, 2, {{0, 0, 0.0}, {0, 1, 2.0}, {1, 0, 3.0}, {1, 1, 0.0}});
  EXPECT_EQ(to_std(zero_free_diagonal_rows(ExecSpace(), A)), (std::vector<int>{1, 0}));
}

TEST_F(Transversal, NamesAStructurallySingularMatrix) {
  // Rows 0 and 1 both hold entries only in column 0.
  const auto A = matrix_from_dense<M>({{1, 0, 0}, {2, 0, 0}, {0, 3, 4}});
  try {
    zero_free_diagonal_rows(ExecSpace(), A);
    FAIL() << "a structurally singular matrix got a permutation";
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find("structurally singular"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2 of 3 columns"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace syncfree::test
