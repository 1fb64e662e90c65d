// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Every preconditioner's `refactor`: new values on the analyzed pattern give what a preconditioner
// built from scratch on them gives.

#include <functional>
#include <memory>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Factory = std::function<std::unique_ptr<Preconditioner<M>>(const M&)>;

/// A with every diagonal entry doubled and 1 added, and the entries off it scaled by 0.9: the
/// same pattern, other values, still an M-matrix (SIP, CG) on the Poisson grid.
M with_new_values(const M& A) {
  typename M::values_type::non_const_type values("new values", A.nnz());
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto old = A.values;
  Kokkos::parallel_for(
      "new_values", Kokkos::RangePolicy<ExecSpace>(0, A.numRows()), KOKKOS_LAMBDA(const int i) {
        for (int k = row_map(i); k < row_map(i + 1); ++k)
          values(k) = entries(k) == i ? 2 * old(k) + 1 : 0.9 * old(k);
      });
  return M("B", A.numRows(), A.numCols(), A.nnz(), values, A.graph.row_map, A.graph.entries);
}

void expect_refactor_matches_a_new_build(const Factory& make) {
  const ExecSpace exec;
  const M A = generate_matrix<M>(exec, parse_problem_spec("poisson3d:6"));
  const M B = with_new_values(A);
  auto refactored = make(A);
  const auto fresh = make(B);
  const std::size_t n = std::size_t(A.numRows());
  const auto x = to_view<double>(pattern_vector(n, 0.5));
  Vector<double, Device> y_refactored("y_refactored", n), y_fresh("y_fresh", n), y_old("y_old", n);
  refactored->apply(exec, x, y_old);

  ASSERT_TRUE(refactored->refactor(exec, B).ok()) << refactored->outcome().reason;
  refactored->apply(exec, x, y_refactored);
  fresh->apply(exec, x, y_fresh);

  expect_near_entrywise(to_std(y_refactored), to_std(y_fresh), 1e-12);
  EXPECT_GT(std::abs(to_std(y_old)[0] - to_std(y_fresh)[0]), 1e-3) << "the values did not change";
}

TEST(Preconditioner, JacobiRefactors) {
  expect_refactor_matches_a_new_build(
      [](const M& A) { return std::make_unique<JacobiPreconditioner<M>>(ExecSpace(), A); });
}

TEST(Preconditioner, IluRefactors) {
  expect_refactor_matches_a_new_build(
      [](const M& A) { return std::make_unique<IluPreconditioner<M>>(ExecSpace(), A); });
}

TEST(Preconditioner, IluUnderAnOrderingRefactors) {
  OrderingOptions ordering;
  ordering.method = OrderingMethod::multicolor;
  expect_refactor_matches_a_new_build([&](const M& A) {
    return std::make_unique<IluPreconditioner<M>>(ExecSpace(), A, IluOptions{}, ordering);
  });
}

TEST(Preconditioner, DiluRefactors) {
  expect_refactor_matches_a_new_build(
      [](const M& A) { return std::make_unique<DiluPreconditioner<M>>(ExecSpace(), A); });
}

TEST(Preconditioner, SpaiRefactors) {
  expect_refactor_matches_a_new_build(
      [](const M& A) { return std::make_unique<SpaiPreconditioner<M>>(ExecSpace(), A); });
}

TEST(Preconditioner, FsaiRefactors) {
  expect_refactor_matches_a_new_build(
      [](const M& A) { return std::make_unique<FsaiPreconditioner<M>>(ExecSpace(), A); });
}

TEST(Preconditioner, SipWithInnerIterationsRefactors) {
  SipOptions options;
  options.inner_iterations = 2;
  expect_refactor_matches_a_new_build(
      [&](const M& A) { return std::make_unique<SipPreconditioner<M>>(ExecSpace(), A, options); });
}

}  // namespace
}  // namespace syncfree::test
