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

/// The product and its two dot products, from the fused pass (CrsOperator: one thread a row on
/// CUDA for short rows, the default for longer ones) and from the default (the identity).
TEST(Operator, ApplyAndDotsGivesTheProductAndItsDots) {
  std::vector<std::vector<double>> short_rows = {{2, 1, 0}, {0, 3, 0}, {1, 0, 4}};
  std::vector<std::vector<double>> long_rows(12, std::vector<double>(12));
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) long_rows[i][j] = 1.0 + ((i + 2 * j) % 5);
  for (const auto& dense : {short_rows, long_rows}) {
    const int n = int(dense.size());
    CrsOperator<TestMatrix<>> op(matrix_from_dense(dense));
    std::vector<double> x(n), u(n);
    for (int i = 0; i < n; ++i) {
      x[i] = 1.0 + i;
      u[i] = 0.5 - i;
    }
    Vector<double, Device> y("y", n), sums("sums", 2);

    op.apply_and_dots(ExecSpace(), to_view<double>(x), y, to_view<double>(u), sums);

    std::vector<double> expected(n, 0.0);
    double uy = 0, yy = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) expected[i] += dense[i][j] * x[j];
      uy += u[i] * expected[i];
      yy += expected[i] * expected[i];
    }
    expect_near_entrywise(to_std(y), expected, 1e-13);
    expect_near_entrywise(to_std(sums), std::vector<double>{uy, yy}, 1e-12);
  }
  // u is x (CG's p'Ap): rows with and without a diagonal entry.
  for (const auto& dense : std::vector<std::vector<std::vector<double>>>{
           short_rows, {{0, 1, 0}, {1, 0, 2}, {0, 3, 0}}}) {
    CrsOperator<TestMatrix<>> op(matrix_from_dense(dense));
    const auto x = to_view<double>({1, -2, 3});
    Vector<double, Device> y("y", 3), sums("sums", 2);

    op.apply_and_dots(ExecSpace(), x, y, x, sums);

    const std::vector<double> xs{1, -2, 3};
    double xy = 0, yy = 0;
    for (int i = 0; i < 3; ++i) {
      double yi = 0;
      for (int j = 0; j < 3; ++j) yi += dense[i][j] * xs[j];
      xy += xs[i] * yi;
      yy += yi * yi;
    }
    expect_near_entrywise(to_std(sums), std::vector<double>{xy, yy}, 1e-13);
  }
  IdentityOperator<double, Device> identity(3);
  Vector<double, Device> y("y", 3), sums("sums", 2);
  identity.apply_and_dots(ExecSpace(), to_view<double>({1, 2, 3}), y, to_view<double>({1, 0, 1}),
                          sums);
  expect_near_entrywise(to_std(y), std::vector<double>{1, 2, 3}, 0);
  expect_near_entrywise(to_std(sums), std::vector<double>{4, 14}, 0);
}

TEST(Operator, IdentityCopiesScaledInput) {
  IdentityOperator<double, Device> op(3);
  auto x = to_view<double>({1, 2, 3});
  Vector<double, Device> y("y", 3);

  op.apply(ExecSpace(), x, y, 3.0);

  expect_near_entrywise(to_std(y), std::vector<double>{3, 6, 9}, 0);
}

/// The default apply_then: this operator into tmp, then A.
TEST(Operator, ApplyThenAppliesThisThenTheOther) {
  IdentityOperator<double, Device> identity(3);
  CrsOperator<TestMatrix<>> A(matrix_from_dense({{2, 1, 0}, {0, 3, 0}, {1, 0, 4}}));
  auto x = to_view<double>({1, 2, 3});
  Vector<double, Device> y("y", 3), tmp("tmp", 3);

  identity.apply_then(ExecSpace(), A, x, y, tmp);

  expect_near_entrywise(to_std(tmp), std::vector<double>{1, 2, 3}, 0);
  expect_near_entrywise(to_std(y), std::vector<double>{4, 6, 13}, 0);
}

TEST(Operator, RejectsVectorsOfWrongSize) {
  IdentityOperator<double, Device> op(3);
  Vector<double, Device> x("x", 2), y("y", 3);

  EXPECT_THROW(op.apply(ExecSpace(), x, y), DimensionMismatch);
}

}  // namespace
}  // namespace syncfree::test
