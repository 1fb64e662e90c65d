// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_device_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "core/syncfree_error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace syncfree {
namespace {

/// The numeric fields, in the order of the JSON object.
struct Field {
  using Member = double DeviceParameters::*;
  const char* name;
  Member value;
};
constexpr Field fields[] = {
    {"copy_bandwidth", &DeviceParameters::copy_bandwidth},
    {"gather_bandwidth", &DeviceParameters::gather_bandwidth},
    {"gather_bandwidth_l2", &DeviceParameters::gather_bandwidth_l2},
    {"launch_latency", &DeviceParameters::launch_latency},
    {"dependent_load_latency", &DeviceParameters::dependent_load_latency},
    {"dependency_hop", &DeviceParameters::dependency_hop},
    {"block_barrier", &DeviceParameters::block_barrier},
    {"host_sync", &DeviceParameters::host_sync},
    {"atomic_rate", &DeviceParameters::atomic_rate},
    {"l2_bytes", &DeviceParameters::l2_bytes},
};

DeviceParameters make(const char* device, const char* backend, const char* source,
                      std::initializer_list<double> values, int multiprocessors,
                      long resident_threads) {
  DeviceParameters p{device, backend, source};
  auto v = values.begin();
  for (const auto& f : fields) p.*(f.value) = *v++;
  p.multiprocessors = multiprocessors;
  p.resident_threads = resident_threads;
  return p;
}

/// Shipped values, in the order of `fields`.
std::vector<DeviceParameters> shipped() {
  return {
      make("NVIDIA H200", "Cuda", "shipped: syncfree-calibrate on an H200, 2026-11-28",
           {4.16e12, 7.48e11, 2.59e12, 4.12e-6, 1.68e-7, 1.08e-6, 2.22e-8, 1.44e-5, 1.70e11,
            62914560},
           132, 270336),
      make("NVIDIA H100 80GB HBM3", "Cuda",
           "shipped estimate: the H200's calibration, memory bandwidths scaled by the H100's HBM3 "
           "(3.35 against 4.8 TB/s), its 50 MiB L2; not measured on an H100",
           {2.90e12, 5.22e11, 2.59e12, 4.12e-6, 1.68e-7, 1.08e-6, 2.22e-8, 1.44e-5, 1.70e11,
            52428800},
           132, 270336),
  };
}

DeviceParameters conservative(const std::string& device, const std::string& backend) {
  const bool cuda = backend == "Cuda";
  const auto host = impl::host_device_properties();
  const std::string source =
      "conservative defaults: no calibration of " + device + " on " + backend +
      " (run syncfree-calibrate and set SYNCFREE_DEVICE_PARAMETERS to its file)";
  // A GPU slower than any recent data-centre one (a quarter of an H200's bandwidth, 1.2 to 6
  // times its latencies); a host whose cores are slow.
  if (cuda)
    return make(device.c_str(), backend.c_str(), source.c_str(),
                {1.0e12, 5.0e10, 3.0e11, 5.0e-6, 1.0e-6, 2.0e-6, 1.0e-7, 2.0e-5, 1.0e11, 6.0e6}, 80,
                80 * 2048);
  const int cores = std::max(1, host.multiprocessors);
  return make(device.c_str(), backend.c_str(), source.c_str(),
              {1.0e10, 1.0e9, 5.0e9, 1.0e-7, 1.0e-7, 1.0e-7, 1.0e-8, 1.0e-7, 1.0e8,
               host.l2_bytes > 0 ? host.l2_bytes : 1.0e6},
              cores, cores);
}

}  // namespace

std::vector<DeviceParameters> shipped_device_parameters() { return shipped(); }

DeviceParameters default_device_parameters(const std::string& device, const std::string& backend) {
  for (const auto& p : shipped())
    if (p.device == device && p.backend == backend) return p;
  return conservative(device, backend);
}

std::string to_json(const DeviceParameters& p) {
  nlohmann::ordered_json j;
  j["device"] = p.device;
  j["backend"] = p.backend;
  j["source"] = p.source;
  for (const auto& f : fields) j[f.name] = p.*(f.value);
  j["multiprocessors"] = p.multiprocessors;
  j["resident_threads"] = p.resident_threads;
  return j.dump(2);
}

DeviceParameters device_parameters_from_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidArgument(impl::concat("device parameters: not JSON (", e.what(), ")"));
  }
  SYNCFREE_REQUIRE(j.is_object(), InvalidArgument, "device parameters: not a JSON object");
  const auto text_field = [&](const char* name) {
    SYNCFREE_REQUIRE(j.contains(name) && j[name].is_string(), InvalidArgument,
                     "device parameters: \"", name, "\" is missing or not a string");
    return j[name].get<std::string>();
  };
  const auto number = [&](const char* name) {
    SYNCFREE_REQUIRE(j.contains(name) && j[name].is_number(), InvalidArgument,
                     "device parameters: \"", name, "\" is missing or not a number");
    const double v = j[name].get<double>();
    SYNCFREE_REQUIRE(std::isfinite(v) && v > 0, InvalidArgument, "device parameters: \"", name,
                     "\" is ", v, "; it must be positive");
    return v;
  };
  DeviceParameters p{text_field("device"), text_field("backend"), text_field("source")};
  for (const auto& f : fields) p.*(f.value) = number(f.name);
  p.multiprocessors = int(number("multiprocessors"));
  p.resident_threads = long(number("resident_threads"));
  return p;
}

DeviceParameters read_device_parameters(const std::string& path) {
  std::ifstream in(path);
  SYNCFREE_REQUIRE(in.good(), InvalidArgument, "device parameters: cannot read ", path);
  std::stringstream text;
  text << in.rdbuf();
  try {
    return device_parameters_from_json(text.str());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(impl::concat(path, ": ", e.what()));
  }
}

namespace impl {

DeviceProperties cuda_device_properties([[maybe_unused]] int device_id) {
  // Asked at every ILU analysis on a GPU; cudaGetDeviceProperties is slow, and the answer does
  // not change: kept per device.
  static std::mutex mutex;
  static std::map<int, DeviceProperties> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = known.find(device_id); found != known.end()) return found->second;
  DeviceProperties d;
#ifdef KOKKOS_ENABLE_CUDA
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device_id) == cudaSuccess) {
    d.name = prop.name;
    d.multiprocessors = prop.multiProcessorCount;
    d.resident_threads = long(prop.multiProcessorCount) * prop.maxThreadsPerMultiProcessor;
    d.l2_bytes = double(prop.l2CacheSize);
  }
#endif
  if (d.name.empty()) d.name = "unknown CUDA device";
  return known[device_id] = d;
}

DeviceProperties host_device_properties() {
  DeviceProperties d;
  d.name = "host";
  d.multiprocessors = int(std::thread::hardware_concurrency());
  d.resident_threads = d.multiprocessors;
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  d.l2_bytes = l2 > 0 ? double(l2) : 0;
#endif
  return d;
}

DeviceParameters device_parameters(const std::string& device, const std::string& backend,
                                   const char* calibration_file) {
  if (calibration_file && *calibration_file) {
    auto p = read_device_parameters(calibration_file);
    if (p.device == device && p.backend == backend) return p;
  }
  return default_device_parameters(device, backend);
}

}  // namespace impl
}  // namespace syncfree
