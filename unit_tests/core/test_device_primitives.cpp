// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/impl/syncfree_device_scan.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/impl/syncfree_device_sort.hpp"
#include "core/impl/syncfree_reduce_into.hpp"
#include "core/syncfree_scratch_memory.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

template <class T>
std::vector<T> random_values(std::size_t n, T max, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<T> pick(0, max);
  std::vector<T> v(n);
  for (auto& x : v) x = pick(rng);
  return v;
}

template <class T>
void expect_inclusive_sum(const std::vector<T>& input) {
  auto v = to_view<T>(input);
  std::vector<T> expected(input.size());
  std::partial_sum(input.begin(), input.end(), expected.begin());

  const T total = impl::inclusive_sum_in_place_total(ExecSpace(), v);

  EXPECT_EQ(to_std(v), expected);
  EXPECT_EQ(total, expected.empty() ? T(0) : expected.back());
}

TEST(DevicePrimitives, InclusiveSumOfIntsInPlace) {
  expect_inclusive_sum<int>({});
  expect_inclusive_sum<int>({7});
  expect_inclusive_sum<int>({0, 3, 1, 4, 1, 5});
  // Several blocks of a device-wide scan.
  expect_inclusive_sum<int>(random_values<int>(300001, 9, 1));
}

TEST(DevicePrimitives, InclusiveSumOfWideOffsetsPastTwoToThe32) {
  expect_inclusive_sum<std::int64_t>(random_values<std::int64_t>(5000, std::int64_t(1) << 31, 2));
  expect_inclusive_sum<std::size_t>(random_values<std::size_t>(70000, 64, 3));
}

template <class T>
void expect_sorted(std::vector<T> input, T max_key) {
  auto keys = to_view<T>(input);
  std::sort(input.begin(), input.end());

  impl::sort_keys(ExecSpace(), keys, max_key);

  EXPECT_EQ(to_std(keys), input);
}

TEST(DevicePrimitives, SortsKeysOverTheBitsTheirBoundNeeds) {
  expect_sorted<std::int64_t>({}, 0);
  expect_sorted<std::int64_t>({5}, 5);
  expect_sorted<std::int64_t>({3, 0, 2, 2, 1}, 3);
  expect_sorted<std::int64_t>(random_values<std::int64_t>(100000, 7, 4), 7);  // 3 bits, repeats
  expect_sorted<std::int64_t>(random_values<std::int64_t>(100000, (std::int64_t(1) << 40) + 3, 5),
                              (std::int64_t(1) << 40) + 3);
  expect_sorted<int>(random_values<int>(65537, 1 << 30, 6), 1 << 30);
  // A bound at the top of the type: every bit.
  expect_sorted<std::int64_t>(random_values<std::int64_t>(1000, INT64_MAX, 7), INT64_MAX);
}

// On CUDA, freed scratch stays with SyncFree's pool, up to the bound, until released. Other
// backends have no pool (the functions do nothing), so there is nothing to check there.
/// Integers in [-500, 500], so that every sum below is exact in any order.
std::vector<double> small_integers(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double((i * 7919) % 1001) - 500.0;
  return v;
}

/// sum v, sum v^2 and the count into sums(0..2), by reduce_into<3>.
void three_sums(const Vector<double, Device>& v, const Vector<double, Device>& sums) {
  impl::reduce_into<3>(
      ExecSpace(), "test::sums", v.extent(0), sums,
      KOKKOS_LAMBDA(const std::size_t i, double* sum) {
        sum[0] += v(i);
        sum[1] += v(i) * v(i);
        sum[2] += 1;
      });
}

/// For each of `groups` groups g: sum (g + 1) v and sum g, into sums(2 g), sums(2 g + 1).
void group_sums(const Vector<double, Device>& v, int groups, const Vector<double, Device>& sums) {
  impl::reduce_groups_into<2>(
      ExecSpace(), "test::group_sums", v.extent(0), groups, sums,
      KOKKOS_LAMBDA(const std::size_t i, const int g, double* sum) {
        sum[0] += double(g + 1) * v(i);
        sum[1] += double(g);
      });
}

TEST(DevicePrimitives, ReduceIntoSumsAtEveryBlockBoundary) {
  const Vector<double, Device> sums("sums", 3);
  // Empty, one block and its edges, many blocks: on CUDA more than are resident at once.
  for (const std::size_t n : {0, 1, 255, 256, 257, 70000, 1000003}) {
    const auto values = small_integers(n);
    three_sums(to_view(values), sums);
    double sum = 0, squares = 0;
    for (const double x : values) {
      sum += x;
      squares += x * x;
    }
    const auto got = to_std(sums);
    EXPECT_EQ(got[0], sum) << n;
    EXPECT_EQ(got[1], squares) << n;
    EXPECT_EQ(got[2], double(n)) << n;
  }
}

TEST(DevicePrimitives, ReduceGroupsIntoSumsEachGroup) {
  const auto values = small_integers(300001);
  double sum = 0;
  for (const double x : values) sum += x;
  const int groups = 5;
  const Vector<double, Device> sums("sums", 2 * groups);
  group_sums(to_view(values), groups, sums);
  const auto got = to_std(sums);
  for (int g = 0; g < groups; ++g) {
    EXPECT_EQ(got[2 * g], double(g + 1) * sum) << g;
    EXPECT_EQ(got[2 * g + 1], double(g) * double(values.size())) << g;
  }
}

TEST(DevicePrimitives, ReduceIntoGivesTheSameBitsEveryRun) {
  std::vector<double> values(1000003);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> pick(-1, 1);
  for (auto& x : values) x = pick(rng);
  const auto v = to_view(values);
  std::vector<double> first;
  for (int run = 0; run < 3; ++run) {
    const Vector<double, Device> sums("sums", 3);
    three_sums(v, sums);
    const auto got = to_std(sums);
    if (run == 0) first = got;
    EXPECT_EQ(std::memcmp(got.data(), first.data(), 3 * sizeof(double)), 0) << "run " << run;
  }
}

TEST(ScratchMemory, KeepsFreedScratchUpToItsBoundUntilReleased) {
  using Exec = Kokkos::DefaultExecutionSpace;
  using Device = typename Exec::device_type;
  if (!impl::ScratchPool<Exec>::template serves<typename Device::memory_space>)
    GTEST_SKIP() << "no scratch pool on this backend";
  constexpr std::size_t n = std::size_t(1) << 21;  // 16 MiB of doubles
  const Exec exec;
  const auto use_scratch = [&] {
    {
      impl::DeviceScratch<Exec> scratch(exec);
      const auto a = scratch.zeros<double, Device>("a", n);
      EXPECT_EQ(a.extent(0), n);
    }
    exec.fence();
  };
  const std::size_t bound = scratch_memory_kept();
  EXPECT_GE(bound, n * sizeof(double));  // the default: 1 GiB

  use_scratch();
  EXPECT_GE(scratch_memory_held(), n * sizeof(double));
  release_scratch_memory();
  EXPECT_EQ(scratch_memory_held(), 0u);

  set_scratch_memory_kept(0);
  use_scratch();
  EXPECT_EQ(scratch_memory_held(), 0u);
  set_scratch_memory_kept(bound);
  EXPECT_EQ(scratch_memory_kept(), bound);
}

}  // namespace
}  // namespace syncfree::test
