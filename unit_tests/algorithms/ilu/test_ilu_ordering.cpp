// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_reference_ilu.hpp"
#include "unit_tests/algorithms/sptrsv/sptrsv_test_matrices.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// Every ordering; nested dissection where SyncFree has SCOTCH.
const std::vector<OrderingOptions> orderings = [] {
  std::vector<OrderingOptions> o = {{OrderingMethod::multicolor},
                                    {OrderingMethod::block_multicolor, 16},
                                    {OrderingMethod::block_multicolor, 8, true},
                                    {OrderingMethod::rcm}};
  if (SYNCFREE_HAVE_SCOTCH) o.push_back({OrderingMethod::nested_dissection});
  return o;
}();

std::string describe(const OrderingOptions& o) {
  return std::string(to_string(o.method)) + (o.blocks_from_rcm ? " (rcm blocks)" : "");
}

/// The oracle: P^T (LU)^{-1} P b with L U the serial ILU(k) of P A P^T.
std::vector<double> oracle_apply(const M& A, const Kokkos::View<int*, Device>& perm, int fill,
                                 const std::vector<double>& b) {
  const auto B = to_host(permute_matrix(ExecSpace(), A, perm));
  const auto LU = reference::iluk(B, fill);
  const auto p = to_std(perm);
  std::vector<double> pb(b.size()), x(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) pb[i] = b[std::size_t(p[i])];
  const auto y = reference::triangular_solve(LU, Triangle::lower, Diagonal::unit, pb);
  const auto z = reference::triangular_solve(LU, Triangle::upper, Diagonal::stored, y);
  for (std::size_t i = 0; i < b.size(); ++i) x[std::size_t(p[i])] = z[i];
  return x;
}

std::vector<double> test_rhs(int n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = std::cos(0.37 * i) + 1.5;
  return b;
}

TEST(IluOrdering, ApplyIsTheOracleInEveryOrdering) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices())
    for (const auto& ordering : orderings)
      for (int fill : {0, 1}) {
        // Dense rows ordered early fill L and U completely in ILU(1).
        if (fill > 0 && (name == "power_law" || name == "dense_last_row_and_column")) continue;
        SCOPED_TRACE(name + ", " + describe(ordering) + ", ILU(" + std::to_string(fill) + ")");
        IluOptions options;
        options.fill_level = fill;
        IluPreconditioner<M> ilu(ExecSpace(), A, options, ordering);
        ASSERT_TRUE(ilu.outcome().ok()) << ilu.outcome().reason;
        const auto b = test_rhs(A.numRows());
        Vector<double, Device> x("x", A.numRows());
        ilu.apply(ExecSpace(), to_view<double>(b), x);
        expect_near_entrywise(to_std(x), oracle_apply(A, ilu.ordering().permutation, fill, b),
                              1e-10);
      }
}

/// A failed factorization of P A P^T names the row as A numbers it. Row 3 holds only a zero
/// diagonal; the others a path 0-1-2, 4-5-...: in the multicolor order row 3 is at position 2.
TEST(IluOrdering, AFailedFactorizationNamesTheRowOfA) {
  const int n = 12;
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    t.push_back({i, i, i == 3 ? 0.0 : 4.0});
    if (i != 3 && i + 1 < n && i + 1 != 3) {
      t.push_back({i, i + 1, -1.0});
      t.push_back({i + 1, i, -1.0});
    }
  }
  sort_triplets(t);
  const M A = matrix_from_triplets(n, n, t);
  IluPreconditioner<M> ilu(ExecSpace(), A, {}, {OrderingMethod::multicolor});
  ASSERT_EQ(to_std(ilu.ordering().permutation)[2], 3);
  ASSERT_FALSE(ilu.outcome().ok());
  EXPECT_EQ(ilu.outcome().status, Status::zero_pivot);
  EXPECT_EQ(ilu.outcome().index, 3);
  EXPECT_EQ(ilu.outcome().reason.rfind("row 3 (row 2 in the multicolor order): pivot 0", 0), 0u)
      << ilu.outcome().reason;
}

/// The solves read and write the caller's numbering themselves where their layout allows, else
/// the vectors are permuted in passes of their own: both give the oracle's result. A band keeps
/// its band under RCM, so the band layout (where the backend has it) takes the second path.
TEST(IluOrdering, ApplyIsTheOracleWhetherTheSolvesRenumberOrNot) {
  const M A = generated("banded:2000:5");
  for (SptrsvAlgorithm solve : {SptrsvAlgorithm::band, SptrsvAlgorithm::sync_free_thread,
                                SptrsvAlgorithm::level_set, SptrsvAlgorithm::multirow}) {
    SCOPED_TRACE(to_string(solve));
    IluOptions options;
    options.solve_algorithm = solve;
    IluPreconditioner<M> ilu(ExecSpace(), A, options, {OrderingMethod::rcm});
    ASSERT_TRUE(ilu.outcome().ok());
    const auto b = test_rhs(A.numRows());
    Vector<double, Device> x("x", A.numRows());
    ilu.apply(ExecSpace(), to_view<double>(b), x);
    expect_near_entrywise(to_std(x), oracle_apply(A, ilu.ordering().permutation, 0, b), 1e-10);
  }
}

TEST(IluOrdering, AppliesWithScalingAndRefactorsNewValues) {
  const M A = geometric_convection(2000);
  IluPreconditioner<M> ilu(ExecSpace(), A, {}, {OrderingMethod::multicolor});
  const int n = A.numRows();
  const auto b = test_rhs(n);
  const auto expected = oracle_apply(A, ilu.ordering().permutation, 0, b);
  std::vector<double> y0(std::size_t(n), 2.0);
  auto y = to_view<double>(y0);
  ilu.apply(ExecSpace(), to_view<double>(b), y, 3.0, -0.5);
  std::vector<double> want(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) want[std::size_t(i)] = 3.0 * expected[std::size_t(i)] - 1.0;
  expect_near_entrywise(to_std(y), want, 1e-10);

  // New values, same pattern: twice the matrix has half the inverse.
  M twice("twice", A);
  twice.values = decltype(A.values)("twice_values", A.nnz());
  Kokkos::deep_copy(twice.values, A.values);
  KokkosBlas::scal(twice.values, 2.0, twice.values);
  ASSERT_TRUE(ilu.refactor(ExecSpace(), twice).ok());
  Vector<double, Device> x("x", n);
  ilu.apply(ExecSpace(), to_view<double>(b), x);
  for (auto& v : want) v = 0;
  for (int i = 0; i < n; ++i) want[std::size_t(i)] = expected[std::size_t(i)] / 2;
  expect_near_entrywise(to_std(x), want, 1e-10);
}

/// CG (GMRES) with the ordered ILU on A takes the iterations of CG (GMRES) with the natural ILU on
/// P A P^T, and its solution is the permuted system's, numbered back.
TEST(IluOrdering, KrylovIteratesAreThoseOfThePermutedSystem) {
  for (const auto& [name, A, symmetric] : unstructured_test_matrices())
    for (const auto& ordering : orderings) {
      SCOPED_TRACE(name + ", " + describe(ordering));
      const int n = A.numRows();
      IluPreconditioner<M> ilu(ExecSpace(), A, {}, ordering);
      const auto& perm = ilu.ordering().permutation;
      const M B = permute_matrix(ExecSpace(), A, perm);
      IluPreconditioner<M> natural(ExecSpace(), B);
      const auto b = test_rhs(n);
      Vector<double, Device> pb("pb", n), x("x", n), xb("xb", n);
      permute_vector(ExecSpace(), perm, to_view<double>(b), pb);
      GmresOptions options;
      options.tolerance = 1e-9;
      options.max_iterations = 500;
      const KrylovSolver solver = symmetric ? KrylovSolver::cg : KrylovSolver::gmres;
      const auto r = krylov_solve<double, Device>(solver, ExecSpace(), CrsOperator<M>(A), ilu,
                                                  to_view<double>(b), x, options);
      const auto rb = krylov_solve<double, Device>(solver, ExecSpace(), CrsOperator<M>(B), natural,
                                                   pb, xb, options);
      ASSERT_EQ(r.status, Status::success);
      EXPECT_NEAR(r.iterations, rb.iterations, 1);
      Vector<double, Device> x_back("x_back", n);
      permute_vector(ExecSpace(), perm, x, x_back);
      expect_near_entrywise(to_std(x_back), to_std(xb), 1e-6);
    }
}

TEST(IluOrdering, ErrorsNameTheRowsOfTheUsersMatrix) {
  // Row 3 of A lacks its diagonal; after any permutation it is another row of P A P^T.
  std::vector<Triplet> t;
  for (int i = 0; i < 6; ++i) {
    if (i > 0) t.push_back({i, i - 1, -1});
    if (i != 3) t.push_back({i, i, 4});
    if (i + 1 < 6) t.push_back({i, i + 1, -1});
  }
  const M A = matrix_from_triplets(6, 6, t);
  for (const auto& ordering : orderings) {
    SCOPED_TRACE(describe(ordering));
    try {
      IluPreconditioner<M> ilu(ExecSpace(), A, {}, ordering);
      FAIL() << "no error";
    } catch (const InvalidMatrix& e) {
      EXPECT_NE(std::string(e.what()).find("row 3"), std::string::npos) << e.what();
      EXPECT_EQ(e.row(), 3);
    }
  }
}

TEST(IluOrdering, NamesTheOrderingAndItsColors) {
  const M A = geometric_laplacian(1000);
  IluPreconditioner<M> ilu(ExecSpace(), A, {}, {OrderingMethod::multicolor});
  EXPECT_NE(ilu.name().find("multicolor ("), std::string::npos) << ilu.name();
  EXPECT_EQ(IluPreconditioner<M>(ExecSpace(), A).name().find("color"), std::string::npos);
}

}  // namespace
}  // namespace syncfree::test
