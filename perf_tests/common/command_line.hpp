// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The benchmarks' own flags (`--syncfree_NAME=VALUE`), taken out of argv before Google
/// Benchmark reads the rest.

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/syncfree_error.hpp"

namespace syncfree::bench {

/// Removes every `--syncfree_NAME=VALUE` from argv and returns NAME -> VALUE.
/// \throws InvalidArgument for a `--syncfree_` flag whose NAME is not in `known`.
inline std::map<std::string, std::string> take_syncfree_options(
    int& argc, char** argv, const std::vector<std::string>& known) {
  std::map<std::string, std::string> options;
  const std::string prefix = "--syncfree_";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(prefix, 0) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    const auto eq = arg.find('=');
    const std::string name =
        arg.substr(prefix.size(), eq == std::string::npos ? std::string::npos : eq - prefix.size());
    bool ok = false;
    for (const auto& k : known) ok = ok || k == name;
    SYNCFREE_REQUIRE(ok && eq != std::string::npos, InvalidArgument, "unknown or malformed flag '",
                     arg, "' (expected --syncfree_NAME=VALUE)");
    options[name] = arg.substr(eq + 1);
  }
  argc = kept;
  return options;
}

/// The arguments of a benchmark that does not run Google Benchmark: its flags `--NAME=VALUE`
/// (NAME -> VALUE) and the rest, the matrices.
struct PlainArguments {
  std::map<std::string, std::string> flags;
  std::vector<std::string> sources;

  /// The value of flag `name`, or "" where it was not given.
  std::string flag(const std::string& name) const {
    const auto found = flags.find(name);
    return found == flags.end() ? std::string() : found->second;
  }
};

/// \throws InvalidArgument for a flag whose NAME is not in `known`, or without a value.
inline PlainArguments parse_plain_arguments(int argc, char** argv,
                                            const std::vector<std::string>& known) {
  PlainArguments parsed;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      parsed.sources.push_back(arg);
      continue;
    }
    const auto eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    bool ok = false;
    for (const auto& k : known) ok = ok || k == name;
    SYNCFREE_REQUIRE(ok && eq != std::string::npos, InvalidArgument, "unknown or malformed flag '",
                     arg, "' (expected --NAME=VALUE)");
    parsed.flags[name] = arg.substr(eq + 1);
  }
  return parsed;
}

/// "a,b,c" -> {a, b, c}; an empty text gives `fallback`.
inline std::vector<std::string> split_list(const std::string& text,
                                           const std::vector<std::string>& fallback) {
  if (text.empty()) return fallback;
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

}  // namespace syncfree::bench
