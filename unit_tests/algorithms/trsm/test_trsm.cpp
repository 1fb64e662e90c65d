// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "algorithms/trsm/syncfree_trsm.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_trsm_reference.hpp"

namespace syncfree::test {
namespace {

namespace ref = trsm_reference;
using DenseView = Kokkos::View<double**, Kokkos::LayoutLeft, Device>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

constexpr TrsmVariant variants[] = {TrsmVariant::automatic, TrsmVariant::right_looking,
                                    TrsmVariant::left_looking, TrsmVariant::recursive};

template <class Scalar = double, class Layout = Kokkos::LayoutLeft>
Kokkos::View<Scalar**, Layout, Device> to_device(const ref::Dense& d, const std::string& label) {
  Kokkos::View<Scalar**, Layout, Device> v(label, d.rows, d.cols);
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t j = 0; j < d.cols; ++j)
    for (std::int64_t i = 0; i < d.rows; ++i) h(i, j) = Scalar(d(i, j));
  Kokkos::deep_copy(v, h);
  return v;
}

template <class View>
ref::Dense to_dense(const View& v) {
  ref::Dense d(v.extent(0), v.extent(1));
  // v may be a strided subview: through a contiguous copy of its layout first.
  Kokkos::View<typename View::non_const_value_type**, typename View::array_layout, Device>
      contiguous("contiguous", v.extent(0), v.extent(1));
  Kokkos::deep_copy(contiguous, v);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), contiguous);
  for (std::int64_t j = 0; j < d.cols; ++j)
    for (std::int64_t i = 0; i < d.rows; ++i) d(i, j) = double(h(i, j));
  return d;
}

/// A well-conditioned triangle (diagonal in [1, 2], the rest in [-1, 1] / n) in the triangle the
/// case reads; NaN in the other triangle, and on the diagonal when it is taken as unit, so that
/// reading anything outside the case's triangle shows in the result.
ref::Dense triangle(std::int64_t n, const ref::Case& c, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ref::Dense A(n, n, nan);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      if (i == j)
        A(i, j) = c.unit ? nan : 1.5 + 0.5 * u(rng);
      else if (c.lower ? i > j : i < j)
        A(i, j) = u(rng) / double(n);
    }
  return A;
}

ref::Dense random_dense(std::int64_t rows, std::int64_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ref::Dense B(rows, cols);
  for (double& x : B.v) x = u(rng);
  return B;
}

/// max |x - y| / max |y|
double relative_error(const ref::Dense& x, const ref::Dense& y) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < y.v.size(); ++k) {
    diff = std::max(diff, std::isnan(x.v[k]) ? HUGE_VAL : std::fabs(x.v[k] - y.v[k]));
    scale = std::max(scale, std::fabs(y.v[k]));
  }
  return scale > 0 ? diff / scale : diff;
}

TrsmOptions options_for(const ref::Case& c, TrsmVariant variant, int block) {
  TrsmOptions o;
  o.side = c.right ? TrsmSide::right : TrsmSide::left;
  o.triangle = c.lower ? Triangle::lower : Triangle::upper;
  o.transpose = c.transpose;
  o.diagonal = c.unit ? Diagonal::unit : Diagonal::stored;
  o.variant = variant;
  o.block_size = block;
  return o;
}

std::string name(const ref::Case& c) {
  return std::string(c.right ? "R" : "L") + (c.lower ? "L" : "U") + (c.transpose ? "T" : "N") +
         (c.unit ? " unit" : "");
}

std::vector<ref::Case> all_cases() {
  std::vector<ref::Case> cases;
  for (const bool right : {false, true})
    for (const bool lower : {false, true})
      for (const bool transpose : {false, true})
        for (const bool unit : {false, true}) cases.push_back({right, lower, transpose, unit});
  return cases;
}

struct Shape {
  std::int64_t n, m;  ///< A is n x n; m right-hand sides
  int block;          ///< 0: the backend's default
};

TEST(Trsm, EveryCaseVariantAndBlockingMatchesTheOracle) {
  // Blocks of 64 rows and fewer stage in CUDA scratch, up to 256 hold a row per thread.
  const Shape shapes[] = {{1, 3, 16},   {7, 5, 4},   {20, 4, 1},   {20, 4, 100},
                          {70, 33, 16}, {150, 9, 0}, {400, 3, 300}};
  unsigned seed = 1;
  for (const auto& c : all_cases())
    for (const auto& [n, m, block] : shapes)
      for (const TrsmVariant variant : variants) {
        const double alpha = seed % 2 ? 1.0 : -0.5;
        SCOPED_TRACE(name(c) + " n " + std::to_string(n) + " m " + std::to_string(m) + " block " +
                     std::to_string(block) + " " + to_string(variant) + " alpha " +
                     std::to_string(alpha));
        const ref::Dense A = triangle(n, c, seed++);
        const ref::Dense B = c.right ? random_dense(m, n, seed++) : random_dense(n, m, seed++);
        const DenseView a = to_device(A, "A"), b = to_device(B, "B");
        const Outcome outcome = trsm(ExecSpace(), options_for(c, variant, block), alpha, a, b);
        ASSERT_TRUE(outcome.ok()) << outcome.reason;
        EXPECT_LT(relative_error(to_dense(b), ref::solve(A, c, alpha, B)), 1e-13);
      }
}

TEST(Trsm, SolvesInPlaceOfASubviewWithALeadingDimension) {
  // B is rows [3, 3 + rows) of a larger array, as a block of a bigger matrix would be.
  for (const auto& c : all_cases()) {
    SCOPED_TRACE(name(c));
    const std::int64_t n = 45, m = 6;
    const ref::Dense A = triangle(n, c, 7);
    const ref::Dense B = c.right ? random_dense(m, n, 8) : random_dense(n, m, 8);
    const ref::Dense padded(B.rows + 5, B.cols, 3.25);
    DenseView storage = to_device(padded, "storage");
    const auto rows = std::make_pair<std::int64_t, std::int64_t>(3, 3 + B.rows);
    const auto b = Kokkos::subview(storage, rows, Kokkos::ALL);
    Kokkos::deep_copy(b, to_device(B, "B"));
    const Outcome outcome =
        trsm(ExecSpace(), options_for(c, TrsmVariant::automatic, 16), 2.0, to_device(A, "A"), b);
    ASSERT_TRUE(outcome.ok()) << outcome.reason;
    EXPECT_LT(relative_error(to_dense(b), ref::solve(A, c, 2.0, B)), 1e-13);
    // The rows around B are untouched.
    const ref::Dense all = to_dense(storage);
    for (std::int64_t j = 0; j < all.cols; ++j)
      for (const std::int64_t i : {0, 1, 2, int(all.rows) - 2, int(all.rows) - 1})
        EXPECT_EQ(all(i, j), 3.25);
  }
}

TEST(Trsm, RowMajorViewsAndSinglePrecision) {
  // LayoutRight runs Kokkos Kernels' own gemm; float checks the scalar type is carried through.
  for (const auto& c : all_cases()) {
    SCOPED_TRACE(name(c));
    const std::int64_t n = 90, m = 5;
    const ref::Dense A = triangle(n, c, 41);
    const ref::Dense B = c.right ? random_dense(m, n, 42) : random_dense(n, m, 42);
    const ref::Dense expected = ref::solve(A, c, 0.75, B);
    const auto b_right = to_device<double, Kokkos::LayoutRight>(B, "B");
    ASSERT_TRUE(trsm(ExecSpace(), options_for(c, TrsmVariant::automatic, 32), 0.75,
                     to_device<double, Kokkos::LayoutRight>(A, "A"), b_right)
                    .ok());
    EXPECT_LT(relative_error(to_dense(b_right), expected), 1e-13);
    const auto b_float = to_device<float>(B, "B");
    ASSERT_TRUE(trsm(ExecSpace(), options_for(c, TrsmVariant::automatic, 32), 0.75f,
                     to_device<float>(A, "A"), b_float)
                    .ok());
    EXPECT_LT(relative_error(to_dense(b_float), expected), 1e-5);
  }
}

TEST(Trsm, IllConditionedErrorStaysWithinConditionTimesEpsilon) {
  // A = D (I + N): N strictly triangular, small; D from 1 down to 1e-10, so cond ~ 1e10.
  const std::int64_t n = 120, m = 7;
  for (const auto& c : all_cases()) {
    if (c.unit) continue;
    for (const TrsmVariant variant : variants) {
      SCOPED_TRACE(name(c) + " " + to_string(variant));
      ref::Dense A = triangle(n, c, 11);
      for (std::int64_t i = 0; i < n; ++i) {
        const double d = std::pow(10.0, -10.0 * double(i) / double(n - 1));
        for (std::int64_t j = 0; j < n; ++j)
          if (!std::isnan(A(i, j))) A(i, j) = (i == j ? 1.0 : A(i, j)) * d;
      }
      const double cond = ref::condition_inf(A, c);
      ASSERT_GT(cond, 1e9);
      const ref::Dense B = c.right ? random_dense(m, n, 12) : random_dense(n, m, 12);
      const DenseView b = to_device(B, "B");
      ASSERT_TRUE(trsm(ExecSpace(), options_for(c, variant, 16), 1.0, to_device(A, "A"), b).ok());
      EXPECT_LT(relative_error(to_dense(b), ref::solve(A, c, 1.0, B)),
                double(n) * cond * std::numeric_limits<double>::epsilon());
    }
  }
}

TEST(Trsm, ZeroOrNonFiniteDiagonalIsReportedAndLeavesBUnchanged) {
  const ref::Case c{false, true, false, false};
  const std::int64_t n = 60;
  ref::Dense A = triangle(n, c, 21);
  A(37, 37) = 0;
  const ref::Dense B = random_dense(n, 4, 22);
  DenseView b = to_device(B, "B");
  Outcome outcome =
      trsm(ExecSpace(), options_for(c, TrsmVariant::automatic, 0), 1.0, to_device(A, "A"), b);
  EXPECT_EQ(outcome.status, Status::zero_pivot);
  EXPECT_EQ(outcome.index, 37);
  EXPECT_NE(outcome.reason.find("A(37, 37) is zero"), std::string::npos) << outcome.reason;
  EXPECT_EQ(to_dense(b).v, B.v);

  A(12, 12) = std::numeric_limits<double>::infinity();
  outcome = trsm(ExecSpace(), options_for(c, TrsmVariant::automatic, 0), 1.0, to_device(A, "A"), b);
  EXPECT_EQ(outcome.status, Status::not_finite);
  EXPECT_EQ(outcome.index, 12);

  // A unit diagonal is never read; without the check, BLAS's behaviour: Inf or NaN in X.
  TrsmOptions unit = options_for({false, true, false, true}, TrsmVariant::automatic, 0);
  EXPECT_TRUE(trsm(ExecSpace(), unit, 1.0, to_device(A, "A"), b).ok());
  TrsmOptions unchecked = options_for(c, TrsmVariant::automatic, 0);
  unchecked.check_diagonal = false;
  b = to_device(B, "B");
  EXPECT_TRUE(trsm(ExecSpace(), unchecked, 1.0, to_device(A, "A"), b).ok());
  const ref::Dense x = to_dense(b);
  EXPECT_FALSE(std::isfinite(x(37, 0)));
}

TEST(Trsm, AlphaZeroGivesZeroWithoutReadingA) {
  const ref::Dense A(9, 9, nan);
  const DenseView b = to_device(random_dense(9, 3, 31), "B");
  ASSERT_TRUE(trsm(ExecSpace(), TrsmOptions{}, 0.0, to_device(A, "A"), b).ok());
  for (const double x : to_dense(b).v) EXPECT_EQ(x, 0.0);
}

TEST(Trsm, EmptyProblemsSucceed) {
  EXPECT_TRUE(
      trsm(ExecSpace(), TrsmOptions{}, 1.0, DenseView("A", 0, 0), DenseView("B", 0, 4)).ok());
  EXPECT_TRUE(
      trsm(ExecSpace(), TrsmOptions{}, 1.0, DenseView("A", 5, 5), DenseView("B", 5, 0)).ok());
}

TEST(Trsm, NonConformingSizesAreRejected) {
  const DenseView A("A", 6, 6), B("B", 6, 4);
  EXPECT_THROW(trsm(ExecSpace(), TrsmOptions{}, 1.0, DenseView("A", 6, 5), B), DimensionMismatch);
  TrsmOptions right;
  right.side = TrsmSide::right;
  try {
    trsm(ExecSpace(), right, 1.0, A, B);
    FAIL() << "a 6 x 4 B on the right of a 6 x 6 A was accepted";
  } catch (const DimensionMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("needs B with 6 columns"), std::string::npos) << e.what();
  }
  TrsmOptions negative;
  negative.block_size = -1;
  EXPECT_THROW(trsm(ExecSpace(), negative, 1.0, A, B), InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
