// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What every benchmark result records about where it ran: device, backend, commit.

#include <string>

namespace syncfree::bench {

struct BenchmarkContext {
  std::string device;   ///< e.g. "NVIDIA H200"
  std::string backend;  ///< Kokkos' default execution space
  std::string commit;   ///< git commit the binary was built from
  std::string date;     ///< UTC date of the run, YYYY-MM-DD
};

BenchmarkContext benchmark_context();

/// "NVIDIA H200" -> "nvidia-h200", for file names.
std::string file_name_part(const std::string& text);

}  // namespace syncfree::bench
