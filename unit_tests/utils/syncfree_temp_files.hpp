// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace syncfree::test {

/// A path in the test temporary directory, unique to this process (the backends' test programs
/// may run at the same time), for a file that is removed when the program exits.
inline std::string temporary_file(const std::string& name) {
  struct Removed {
    std::vector<std::string> paths;
    ~Removed() {
      for (const auto& path : paths) std::remove(path.c_str());
    }
  };
  static Removed removed;
  std::string path = ::testing::TempDir() + "syncfree_" + std::to_string(::getpid()) + "_" + name;
  removed.paths.push_back(path);
  return path;
}

/// A temporary file (see temporary_file) holding `contents`.
inline std::string temporary_file_with(const std::string& name, const std::string& contents) {
  const std::string path = temporary_file(name);
  std::ofstream(path) << contents;
  return path;
}

}  // namespace syncfree::test
