// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/common/benchmark_context.hpp"

#include <cctype>
#include <ctime>

#include <Kokkos_Core.hpp>

#include "perf_tests/common/syncfree_git_commit.hpp"

namespace syncfree::bench {

BenchmarkContext benchmark_context() {
  BenchmarkContext c;
  c.backend = Kokkos::DefaultExecutionSpace::name();
  c.commit = SYNCFREE_GIT_COMMIT;
#if defined(KOKKOS_ENABLE_CUDA)
  cudaDeviceProp properties;
  int device = 0;
  cudaGetDevice(&device);
  cudaGetDeviceProperties(&properties, device);
  c.device = properties.name;
#else
  c.device = "host";
#endif
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  c.date = date;
  return c;
}

std::string file_name_part(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch)))
      out += char(std::tolower(static_cast<unsigned char>(ch)));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace syncfree::bench
