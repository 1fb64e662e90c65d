// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// syncfree-calibrate: measures the device parameters of SyncFree's performance model on the
// default execution space and writes them as JSON, the file SYNCFREE_DEVICE_PARAMETERS names.
// Exit status 0 on success, 2 for bad usage.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include "apps/syncfree-calibrate/calibration_kernels.hpp"
#include "core/syncfree_device_parameters.hpp"

namespace {

/// Runs every measurement, printing each as it finishes.
syncfree::DeviceParameters calibrate(bool quick) {
  using namespace syncfree::app;
  const Exec exec;
  syncfree::DeviceParameters p;
  p.device = syncfree::device_name(exec);
  p.backend = Exec::name();
  p.source =
      std::string("syncfree-calibrate") + (quick ? " --quick (sizes too small to trust)" : "");
  const auto props =
#ifdef KOKKOS_ENABLE_CUDA
      std::is_same_v<Exec, Kokkos::Cuda>
          ? syncfree::impl::cuda_device_properties(exec.cuda_device())
          :
#endif
          syncfree::impl::host_device_properties();
  p.multiprocessors = props.multiprocessors;
  p.resident_threads = props.resident_threads;
  p.l2_bytes = props.l2_bytes > 0 ? props.l2_bytes : 1.0e6;
  const auto sizes = calibration_sizes(quick, p.l2_bytes);

  const auto show = [](const char* what, double value, const char* unit, double scale) {
    std::printf("  %-24s %12.3f %s\n", what, value * scale, unit);
    std::fflush(stdout);
    return value;
  };
  std::printf("%s on %s, %d multiprocessors, %ld resident threads, L2 %.1f MB\n", p.device.c_str(),
              p.backend.c_str(), p.multiprocessors, p.resident_threads, p.l2_bytes * 1e-6);
  p.copy_bandwidth = show("copy bandwidth", measure_copy_bandwidth(sizes), "GB/s", 1e-9);
  p.gather_bandwidth =
      show("gather bandwidth", measure_gather_bandwidth(sizes, sizes.gather_far), "GB/s", 1e-9);
  p.gather_bandwidth_l2 = show("gather bandwidth (L2)",
                               measure_gather_bandwidth(sizes, sizes.gather_near), "GB/s", 1e-9);
  p.launch_latency = show("launch latency", measure_launch_latency(sizes), "us", 1e6);
  p.dependent_load_latency =
      show("dependent load latency", measure_dependent_load_latency(sizes), "us", 1e6);
  p.dependency_hop = show("dependency hop",
                          measure_dependency_hop(sizes, std::max(1, p.multiprocessors)), "us", 1e6);
  p.block_barrier = show("block barrier", measure_block_barrier(sizes), "us", 1e6);
  p.host_sync = show("host sync", measure_host_sync(sizes), "us", 1e6);
  p.atomic_rate = show("atomic rate", measure_atomic_rate(sizes), "G/s", 1e-9);
  return p;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App cli{
      "Measures the device parameters of SyncFree's performance model and writes them "
      "as JSON (set SYNCFREE_DEVICE_PARAMETERS to the file to use them)."};
  std::string output;
  bool quick = false;
  cli.add_option("-o,--output", output, "JSON file to write (default: print it)");
  cli.add_flag("--quick", quick, "small sizes: a smoke test, not a calibration");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const auto parameters = calibrate(quick);
  const std::string json = syncfree::to_json(parameters);
  if (output.empty()) {
    std::cout << json << '\n';
    return 0;
  }
  std::ofstream out(output);
  out << json << '\n';
  if (!out) {
    std::cerr << "syncfree-calibrate: cannot write " << output << '\n';
    return 2;
  }
  std::cout << "wrote " << output << '\n';
  return 0;
}
