// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "apps/syncfree-calibrate/calibration_kernels.hpp"

#include <numeric>
#include <random>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::app {
namespace {

using Memory = Exec::memory_space;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The median of `reps` fenced timings of `work`, after one untimed run.
template <class Work>
double median_seconds(int reps, const Work& work) {
  const Exec exec;
  work();
  exec.fence();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer timer;
    work();
    exec.fence();
    times.push_back(timer.seconds());
  }
  return median(times);
}

/// A multiplicative hash: a scattered index in [0, size) for each i.
KOKKOS_INLINE_FUNCTION std::uint32_t scatter(std::size_t i, std::size_t size) {
  return std::uint32_t((std::uint64_t(i) * 2654435761ull + 12345ull) % size);
}

/// `barriers` barriers of one team, back to back.
struct BarrierChain {
  int barriers;
  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<Exec>::member_type& team) const {
    for (int k = 0; k < barriers; ++k) team.team_barrier();
  }
};

}  // namespace

CalibrationSizes calibration_sizes(bool quick, double l2_bytes) {
  if (quick)
    return {1u << 20, 1u << 16, 1u << 12, 1u << 16, 100, 1u << 16, 1000, 1000, 100, 1u << 16, 3};
  // x beyond the L2: at least 8 times its size (and 64 Mi entries); within it: a quarter of it.
  const std::size_t l2 = l2_bytes > 0 ? std::size_t(l2_bytes) : std::size_t(1) << 20;
  const std::size_t far = std::max<std::size_t>(std::size_t(1) << 26, l2);
  const std::size_t near = std::max<std::size_t>(l2 / 32, 1024);
  return {std::size_t(1) << 30, far, near, std::size_t(1) << 26, 2000, far, 200000, 200000, 20000,
          std::size_t(1) << 26, 7};
}

double measure_copy_bandwidth(const CalibrationSizes& s) {
  const std::size_t n = s.copy_bytes / sizeof(double);
  Kokkos::View<double*, Memory> a("copy source", n), b("copy target", n);
  Kokkos::deep_copy(a, 1.0);
  const double t = median_seconds(s.reps, [&] { Kokkos::deep_copy(Exec(), b, a); });
  return 2.0 * double(n) * sizeof(double) / t;
}

double measure_gather_bandwidth(const CalibrationSizes& s, std::size_t x_entries) {
  Kokkos::View<double*, Memory> x("gather x", x_entries), y("gather y", s.gathers);
  Kokkos::View<std::uint32_t*, Memory> p("gather positions", s.gathers);
  Kokkos::deep_copy(x, 1.0);
  const std::size_t size = x_entries;
  Kokkos::parallel_for(
      "syncfree::calibrate::positions", Kokkos::RangePolicy<Exec>(0, s.gathers),
      KOKKOS_LAMBDA(const std::size_t i) { p(i) = scatter(i, size); });
  const double t = median_seconds(s.reps, [&] {
    Kokkos::parallel_for(
        "syncfree::calibrate::gather", Kokkos::RangePolicy<Exec>(0, s.gathers),
        KOKKOS_LAMBDA(const std::size_t i) { y(i) = x(p(i)); });
  });
  return 20.0 * double(s.gathers) / t;
}

double measure_launch_latency(const CalibrationSizes& s) {
  Kokkos::View<int*, Memory> a("launch target", 1);
  const int launches = s.launches;
  const double t = median_seconds(s.reps, [&] {
    for (int k = 0; k < launches; ++k)
      Kokkos::parallel_for(
          "syncfree::calibrate::launch", Kokkos::RangePolicy<Exec>(0, 1),
          KOKKOS_LAMBDA(const int) { a(0) = k; });
  });
  return t / launches;
}

double measure_host_sync(const CalibrationSizes& s) {
  const int rounds = std::max(1, s.launches / 10);
  const double t = median_seconds(s.reps, [&] {
    for (int k = 0; k < rounds; ++k) {
      double sum = 0;
      Kokkos::parallel_reduce(
          "syncfree::calibrate::host_sync", Kokkos::RangePolicy<Exec>(0, 1024),
          KOKKOS_LAMBDA(const int i, double& r) { r += i; }, sum);
    }
  });
  return t / rounds;
}

double measure_dependent_load_latency(const CalibrationSizes& s) {
  // One cycle through every entry in a random order (Sattolo's algorithm), walked by one thread.
  std::vector<std::uint32_t> next(s.chase_entries);
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937_64 random(2026);
  for (std::size_t i = next.size() - 1; i > 0; --i)
    std::swap(next[i], next[std::uniform_int_distribution<std::size_t>(0, i - 1)(random)]);
  Kokkos::View<std::uint32_t*, Memory> chase("chase", next.size());
  Kokkos::deep_copy(
      chase, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace,
                          Kokkos::MemoryTraits<Kokkos::Unmanaged>>(next.data(), next.size()));
  Kokkos::View<std::uint32_t, Memory> end("chase end");
  const int steps = s.chase_steps;
  const double t = median_seconds(s.reps, [&] {
    Kokkos::parallel_for(
        "syncfree::calibrate::chase", Kokkos::RangePolicy<Exec>(0, 1), KOKKOS_LAMBDA(const int) {
          std::uint32_t at = 0;
          for (int k = 0; k < steps; ++k) at = chase(at);
          end() = at;
        });
  });
  return t / steps;
}

double measure_dependency_hop(const CalibrationSizes& s, int teams) {
  // Resident teams take tickets k = 0, 1, ... in turn; the holder of k waits for k - 1's flag,
  // then sets its own: one hop through global memory per ticket, from team to team (a team waits
  // only on a ticket already taken, so on a team that runs). A team per ticket would time the
  // launch of blocks as well.
  using Team = Kokkos::TeamPolicy<Exec>::member_type;
  const int hops = s.hops;
  Kokkos::View<int*, Memory> flag("hop flags", hops);
  Kokkos::View<unsigned, Memory> ticket("hop ticket");
  const double t = median_seconds(s.reps, [&] {
    Kokkos::deep_copy(flag, 0);
    Kokkos::deep_copy(ticket, 0u);
    Kokkos::parallel_for(
        "syncfree::calibrate::hop", Kokkos::TeamPolicy<Exec>(teams, 1), KOKKOS_LAMBDA(const Team&) {
          for (;;) {
            const int k = int(Kokkos::atomic_fetch_add(&ticket(), 1u));
            if (k >= hops) return;
            if (k > 0) {
              int spins = 0;
              while (impl::atomic_load_relaxed(&flag(k - 1)) == 0) impl::host_spin_pause(spins);
              impl::acq_rel_fence();
            }
            impl::atomic_store_relaxed(&flag(k), 1);
          }
        });
  });
  return t / hops;
}

double measure_block_barrier(const CalibrationSizes& s) {
  const BarrierChain chain{s.barriers};
  const int team_size =
      std::min(256, Kokkos::TeamPolicy<Exec>(1, 1).team_size_max(chain, Kokkos::ParallelForTag()));
  const double t = median_seconds(s.reps, [&] {
    Kokkos::parallel_for("syncfree::calibrate::barrier", Kokkos::TeamPolicy<Exec>(1, team_size),
                         chain);
  });
  return t / s.barriers;
}

double measure_atomic_rate(const CalibrationSizes& s) {
  Kokkos::View<double*, Memory> a("atomic targets", s.atomics);
  const double t = median_seconds(s.reps, [&] {
    Kokkos::parallel_for(
        "syncfree::calibrate::atomic", Kokkos::RangePolicy<Exec>(0, a.extent(0)),
        KOKKOS_LAMBDA(const std::size_t i) { Kokkos::atomic_add(&a(i), 1.0); });
  });
  return double(s.atomics) / t;
}

}  // namespace syncfree::app
