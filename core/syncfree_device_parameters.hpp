// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What the performance model knows of a device: bandwidths, latencies and sizes, measured
/// by `syncfree-calibrate` and stored as JSON keyed by device and backend. Defaults for the H100
/// and H200 ship with the library; any other device gets conservative values, and `source` says so.
///
/// A calibration file is found through the environment variable `SYNCFREE_DEVICE_PARAMETERS`
/// (a path); it is used where its device and backend match the running ones.

#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

namespace syncfree {

/// Times in seconds, bandwidths in bytes per second. Bandwidths count every byte a kernel reads or
/// writes.
struct DeviceParameters {
  std::string device;         ///< as the backend names it ("NVIDIA H200"), or "host"
  std::string backend;        ///< Kokkos' name of the execution space ("Cuda", "Serial", "OpenMP")
  std::string source;         ///< where the values come from: a calibration, a default, an estimate
  double copy_bandwidth = 0;  ///< a large device-to-device copy
  double gather_bandwidth = 0;        ///< y_i = x_{p_i}, p random over an x larger than the L2
  double gather_bandwidth_l2 = 0;     ///< the same over an x that fits in the L2
  double launch_latency = 0;          ///< one kernel after another, no wait between them
  double dependent_load_latency = 0;  ///< one step of a pointer chase beyond the L2
  double dependency_hop = 0;          ///< a flag set in global memory by one team, seen by the next
  double block_barrier = 0;           ///< one barrier of a 256-thread team
  double host_sync = 0;               ///< a reduction whose result the host waits for
  double atomic_rate = 0;             ///< atomic adds a second to distinct addresses
  double l2_bytes = 0;
  int multiprocessors = 0;    ///< SMs, or host cores
  long resident_threads = 0;  ///< threads the device keeps resident at once
};

/// The parameters of the running device: a calibration file named by SYNCFREE_DEVICE_PARAMETERS
/// where it matches (device and backend), else a shipped default, else `conservative` ones.
template <class ExecSpace>
DeviceParameters device_parameters(const ExecSpace& exec);

/// The shipped values for `device` on `backend`, or conservative ones whose `source` says that the
/// device is unknown.
DeviceParameters default_device_parameters(const std::string& device, const std::string& backend);

/// Every device with shipped values (calibrated or estimated), for documentation and tests.
std::vector<DeviceParameters> shipped_device_parameters();

/// JSON, one object (the format `syncfree-calibrate` writes).
std::string to_json(const DeviceParameters& p);

/// Reads `to_json`'s format. Throws InvalidArgument naming the field where one is missing, not a
/// number, or not positive.
DeviceParameters device_parameters_from_json(const std::string& text);

/// The parameters in a calibration file; throws InvalidArgument naming the file when it cannot
/// be read or parsed.
DeviceParameters read_device_parameters(const std::string& path);

/// The running device's name ("NVIDIA H200" on CUDA; "host" on host backends).
template <class ExecSpace>
std::string device_name(const ExecSpace& exec);

namespace impl {
/// The device's SMs, resident threads and L2, as the backend reports them (0 where it does not).
struct DeviceProperties {
  std::string name;
  int multiprocessors = 0;
  long resident_threads = 0;
  double l2_bytes = 0;
};
DeviceProperties cuda_device_properties(int device_id);
DeviceProperties host_device_properties();
/// `default_device_parameters` with a calibration file, given its path (may be empty), checked
/// against the device and backend.
DeviceParameters device_parameters(const std::string& device, const std::string& backend,
                                   const char* calibration_file);
}  // namespace impl

template <class ExecSpace>
std::string device_name(const ExecSpace& exec) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
    return impl::cuda_device_properties(exec.cuda_device()).name;
#endif
  (void)exec;
  return impl::host_device_properties().name;
}

template <class ExecSpace>
DeviceParameters device_parameters(const ExecSpace& exec) {
  return impl::device_parameters(device_name(exec), ExecSpace::name(),
                                 std::getenv("SYNCFREE_DEVICE_PARAMETERS"));
}

}  // namespace syncfree
