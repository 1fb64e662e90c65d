// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What the model checks share: their command line, the held-back list, and the error
/// statistics of predicted against measured times (in log space).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_device_parameters.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::bench {

/// --device=CALIBRATION.json --held-back=FILE --out=OUT.json, then the reports.
struct Options {
  std::string device, held_back, out;
  std::vector<std::string> reports;
};

inline Options parse(int argc, char* argv[]) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    const auto value = [&](const char* name) {
      const std::string p = std::string("--") + name + "=";
      return a.rfind(p, 0) == 0 ? a.substr(p.size()) : std::string();
    };
    if (!value("device").empty())
      o.device = value("device");
    else if (!value("held-back").empty())
      o.held_back = value("held-back");
    else if (!value("out").empty())
      o.out = value("out");
    else
      o.reports.push_back(a);
  }
  return o;
}

/// The names in FILE, one a line ('#' starts a comment).
inline std::set<std::string> read_names(const std::string& path) {
  std::set<std::string> names;
  if (path.empty()) return names;
  std::ifstream in(path);
  if (!in) throw InvalidArgument("cannot read " + path);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (!line.empty()) names.insert(line);
  }
  return names;
}

/// The matrix's name without a ".mtx" ending.
inline std::string base_name(std::string name) {
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".mtx") == 0)
    name.resize(name.size() - 4);
  return name;
}

/// Predicted against measured times: the geometric-mean and largest error factor, the spread of
/// ln(predicted / measured), and the cases beyond 1.5x and 3x.
struct Errors {
  std::vector<double> log_ratios;
  void add(double predicted, double measured) {
    log_ratios.push_back(std::log(predicted / measured));
  }
  nlohmann::json summary() const {
    double sum_abs = 0, sum = 0, sum_sq = 0, worst = 0;
    for (const double r : log_ratios) {
      sum_abs += std::abs(r);
      sum += r;
      worst = std::max(worst, std::abs(r));
    }
    const double n = double(log_ratios.size());
    const double mean = n ? sum / n : 0;
    for (const double r : log_ratios) sum_sq += (r - mean) * (r - mean);
    return {{"cases", log_ratios.size()},
            {"geometric_mean_error", n ? std::exp(sum_abs / n) : 1.0},
            {"max_error", std::exp(worst)},
            {"std_log_ratio", n > 1 ? std::sqrt(sum_sq / (n - 1)) : 0.0},
            {"beyond_1_5x", std::count_if(log_ratios.begin(), log_ratios.end(),
                                          [](double r) { return std::abs(r) > std::log(1.5); })},
            {"beyond_3x", std::count_if(log_ratios.begin(), log_ratios.end(),
                                        [](double r) { return std::abs(r) > std::log(3.0); })}};
  }
};

/// One check: the device, the held-back names, every case (a candidate's prediction beside its
/// measurement) with its errors, the selections, and the JSON that holds them.
class ModelCheck {
 public:
  /// `candidate`: what the cases compare ("algorithm", "format").
  ModelCheck(const Options& o, const char* candidate)
      : device(read_device_parameters(o.device)),
        m_held_back(read_names(o.held_back)),
        m_candidate(candidate),
        m_out_path(o.out) {
    out = {{"device", device.device},
           {"device_source", device.source},
           {"held_back", m_held_back},
           {"cases", nlohmann::json::array()},
           {"selection", nlohmann::json::array()}};
    std::printf("%-24s %-17s %12s %12s %7s\n", "matrix", candidate, "predicted ms", "measured ms",
                "ratio");
  }

  /// Calls visit(name, matrix, held_back) for each matrix of the reports that recorded features,
  /// once per name (`name_key`: the field that names it).
  template <class Visit>
  void for_each_matrix(const std::vector<std::string>& reports, const char* name_key,
                       const Visit& visit) {
    std::set<std::string> seen;
    for (const auto& path : reports) {
      std::ifstream in(path);
      if (!in) throw InvalidArgument("cannot read " + path);
      const auto report = nlohmann::json::parse(in);
      for (const auto& m : report.at("matrices")) {
        const std::string name = base_name(m.at(name_key));
        if (m.contains("features") && seen.insert(name).second)
          visit(name, m, m_held_back.count(name) > 0);
      }
    }
  }

  bool held_back(const std::string& name) const { return m_held_back.count(name) > 0; }

  /// Records one candidate's prediction against its measured seconds.
  void add(const std::string& matrix, bool held_back, const std::string& candidate,
           const Prediction& p, double measured) {
    (held_back ? m_held : m_fitted).add(p.seconds, measured);
    m_all.add(p.seconds, measured);
    m_times[candidate] = {p.seconds, measured};
    out["cases"].push_back({{"matrix", matrix},
                            {"held_back", held_back},
                            {m_candidate, candidate},
                            {"predicted_ms", p.seconds * 1e3},
                            {"measured_ms", measured * 1e3},
                            {"bound", p.bound()}});
    std::printf("%-24s %-17s %12.4f %12.4f %7.2f%s\n", matrix.c_str(), candidate.c_str(),
                p.seconds * 1e3, measured * 1e3, p.seconds / measured,
                held_back ? "  held back" : "");
  }

  /// Candidate -> (predicted, measured) seconds.
  using Times = std::map<std::string, std::pair<double, double>>;

  /// The selection among the candidates added since the last call (at least two): the one
  /// predicted fastest, the fastest measured, and the first's time over the second's. Returns the
  /// best measured seconds (0 where fewer than two candidates ran).
  double select(const std::string& matrix, bool held_back, nlohmann::json extra = {}) {
    const Times times = std::move(m_times);
    m_times.clear();
    return select_among(matrix, held_back, times, std::move(extra));
  }

  /// The same selection among `times` given by the caller (e.g. whole solves, not the cases).
  double select_among(const std::string& matrix, bool held_back, const Times& times,
                      nlohmann::json extra = {}) {
    if (times.size() < 2) return 0;
    const auto chosen = std::min_element(times.begin(), times.end(), [](auto& a, auto& b) {
      return a.second.first < b.second.first;
    });
    const auto best = std::min_element(times.begin(), times.end(), [](auto& a, auto& b) {
      return a.second.second < b.second.second;
    });
    nlohmann::json s = {{"matrix", matrix},
                        {"held_back", held_back},
                        {"model_choice", chosen->first},
                        {"best_measured", best->first},
                        {"model_regret", chosen->second.second / best->second.second}};
    if (extra.is_object()) s.update(extra);
    out["selection"].push_back(s);
    return best->second.second;
  }

  /// The error statistics, printed and written (where --out names a file).
  void finish() {
    out["errors"] = {
        {"fitted", m_fitted.summary()}, {"held_back", m_held.summary()}, {"all", m_all.summary()}};
    std::cout << "\nerrors (predicted / measured): " << out["errors"].dump(1) << "\n\nselection:\n";
    for (const auto& s : out["selection"]) std::cout << s.dump() << '\n';
    if (!m_out_path.empty()) std::ofstream(m_out_path) << out.dump(1) << '\n';
  }

  DeviceParameters device;
  nlohmann::json out;

 private:
  std::set<std::string> m_held_back;
  std::string m_candidate, m_out_path;
  Errors m_fitted, m_held, m_all;
  Times m_times;
};

/// A check program's main: parses the options and runs `check(options)`, exit status 2 with a
/// message on bad usage or input.
template <class Check>
int model_check_main(int argc, char* argv[], const char* program, const Check& check) {
  const auto options = parse(argc, argv);
  if (options.device.empty() || options.reports.empty()) {
    std::cerr << "usage: " << program
              << " --device=CALIBRATION.json [--held-back=FILE] [--out=OUT.json] REPORT.json...\n";
    return 2;
  }
  try {
    check(options);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace syncfree::bench
