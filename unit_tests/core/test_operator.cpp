// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_operator.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

TEST(Operator, CrsOperatorComputesAlphaAxPlusBetaY) {
  auto A = matrix_from_dense({{2, 1, 0}, {0, 3, 0}, {1, 0, 4}});
  CrsOperator<TestMatrix<>> op(A);
  auto x = to_view<double>({1, 2, 3});
  auto y = to_view<double>({1, 1, 1});

  op.apply(ExecSpace(), x, y, 2.0, -1.0);

  // A x = (4, 6, 13); 2 A x - y = (7, 11, 25)
  expect_near_entrywise(to_std(y), std::vector<double>{7, 11, 25}, 1e-15);
}

TEST(Operator, IdentityCopiesScaledInput) {
  IdentityOperator<double, Device> op(3);
  auto x = to_view<double>({1, 2, 3});
  Vector<double, Device> y("y", 3);

  op.apply(ExecSpace(), x, y, 3.0);

  expect_near_entrywise(to_std(y), std::vector<double>{3, 6, 9}, 0);
}

TEST(Operator, RejectsVectorsOfWrongSize) {
  IdentityOperator<double, Device> op(3);
  Vector<double, Device> x("x", 2), y("y", 3);

  EXPECT_THROW(op.apply(ExecSpace(), x, y), DimensionMismatch);
}

}  // namespace
}  // namespace syncfree::test
