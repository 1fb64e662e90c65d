// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What every benchmark report shares: the JSON header (device, backend, commit, date),
/// the default result file name, Markdown tables, and writing it all out.

#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf_tests/common/benchmark_context.hpp"

namespace syncfree::bench {

inline double ms(double seconds) { return seconds * 1e3; }

/// {"benchmark": name, "device", "backend", "commit", "date", "scalar": "double"}.
inline nlohmann::json report_header(const std::string& name, const BenchmarkContext& context) {
  return {{"benchmark", name},        {"device", context.device}, {"backend", context.backend},
          {"commit", context.commit}, {"date", context.date},     {"scalar", "double"}};
}

/// `flag` when given, else "<date>-<device>-<name>.json" (the perf_tests/results/ convention).
inline std::string result_path(const std::string& flag, const BenchmarkContext& context,
                               const std::string& name) {
  if (!flag.empty()) return flag;
  return context.date + "-" + file_name_part(context.device) + "-" + name + ".json";
}

/// `path` with its ".json" ending replaced by `ending` (or `ending` appended).
inline std::string sibling_path(const std::string& path, const std::string& ending) {
  const std::string json = ".json";
  if (path.size() > json.size() && path.compare(path.size() - json.size(), json.size(), json) == 0)
    return path.substr(0, path.size() - json.size()) + ending;
  return path + ending;
}

/// printf-style number, for table cells.
inline std::string cell(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// A Markdown table built row by row.
class MarkdownTable {
 public:
  explicit MarkdownTable(std::vector<std::string> header) : m_header(std::move(header)) {}
  void add_row(std::vector<std::string> row) {
    row.resize(m_header.size());
    m_rows.push_back(std::move(row));
  }
  std::string str() const {
    std::string out = line(m_header);
    out += "|";
    for (std::size_t i = 0; i < m_header.size(); ++i) out += i == 0 ? "---|" : "---:|";
    out += "\n";
    for (const auto& row : m_rows) out += line(row);
    return out;
  }

 private:
  static std::string line(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) out += " " + c + " |";
    return out + "\n";
  }
  std::vector<std::string> m_header;
  std::vector<std::vector<std::string>> m_rows;
};

/// Writes the JSON to `json_path` and the Markdown beside it (".md"), and prints the Markdown.
inline void write_report(std::ostream& out, const std::string& json_path, const nlohmann::json& j,
                         const std::string& markdown) {
  std::ofstream(json_path) << j.dump(2) << '\n';
  const std::string md_path = sibling_path(json_path, ".md");
  std::ofstream(md_path) << markdown;
  out << '\n' << markdown << "\nwrote " << json_path << " and " << md_path << '\n';
}

}  // namespace syncfree::bench
