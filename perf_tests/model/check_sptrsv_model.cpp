// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// check_sptrsv_model: the performance model's SpTRSV predictions against bench_sptrsv's
// measurements. For every matrix of the reports and every algorithm with a formula, the library's
// prediction (from the features and chain levels the report recorded, and the device parameters
// of a calibration file) beside the measured solve; then the error statistics, separately for the
// matrices the constants were fitted to and those held back, and the selection regret: the
// measured time of the algorithm the model predicts fastest over the fastest measured.
//
//   check_sptrsv_model --device=CALIBRATION.json --held-back=FILE --out=OUT.json REPORT.json...
//
// FILE lists the held-back matrices, one name a line ('#' starts a comment).

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

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "perf_tests/common/triangle_features_json.hpp"

namespace syncfree::bench {
namespace {

constexpr const char* prefix = "syncfree:";

struct Options {
  std::string device, held_back, out;
  std::vector<std::string> reports;
};

Options parse(int argc, char* argv[]) {
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

std::set<std::string> read_names(const std::string& path) {
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
std::string base_name(std::string name) {
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".mtx") == 0)
    name.resize(name.size() - 4);
  return name;
}

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

int run(const Options& o) {
  const auto device = read_device_parameters(o.device);
  const auto held_back = read_names(o.held_back);
  nlohmann::json out = {{"device", device.device},
                        {"device_source", device.source},
                        {"held_back", held_back},
                        {"cases", nlohmann::json::array()},
                        {"selection", nlohmann::json::array()}};
  Errors fitted, held, all;
  std::set<std::string> seen;
  std::printf("%-24s %-17s %12s %12s %7s\n", "matrix", "algorithm", "predicted ms", "measured ms",
              "ratio");
  for (const auto& path : o.reports) {
    std::ifstream in(path);
    if (!in) throw InvalidArgument("cannot read " + path);
    const auto report = nlohmann::json::parse(in);
    for (const auto& m : report.at("matrices")) {
      const std::string name = base_name(m.at("name"));
      if (!m.contains("features") || !seen.insert(name).second) continue;
      const bool is_held = held_back.count(name) > 0;
      const auto features = triangle_features_from_json(m.at("features"));
      const auto& methods = m.at("methods");
      std::map<SptrsvAlgorithm, double> predicted, measured;
      for (const auto algorithm : sptrsv_algorithms) {
        if (!impl::sptrsv_cost_modeled(algorithm)) continue;
        const auto key = std::string(prefix) + to_string(algorithm);
        if (!methods.contains(key) || !methods.at(key).contains("solve_ms")) continue;
        const auto& t = methods.at(key);
        const long chain_levels = t.value("chain_levels", 0L);
        const auto p = impl::predict_sptrsv_solve(device, features, algorithm, chain_levels);
        const double measured_s = double(t.at("solve_ms")) * 1e-3;
        predicted[algorithm] = p.seconds;
        measured[algorithm] = measured_s;
        (is_held ? held : fitted).add(p.seconds, measured_s);
        all.add(p.seconds, measured_s);
        out["cases"].push_back({{"matrix", name},
                                {"held_back", is_held},
                                {"algorithm", to_string(algorithm)},
                                {"predicted_ms", p.seconds * 1e3},
                                {"measured_ms", measured_s * 1e3},
                                {"bound", p.bound()}});
        std::printf("%-24s %-17s %12.4f %12.4f %7.2f%s\n", name.c_str(), to_string(algorithm),
                    p.seconds * 1e3, measured_s * 1e3, p.seconds / measured_s,
                    is_held ? "  held back" : "");
      }
      if (measured.empty()) continue;
      const auto by_value = [](const auto& a, const auto& b) { return a.second < b.second; };
      const auto chosen = std::min_element(predicted.begin(), predicted.end(), by_value)->first;
      const auto best = std::min_element(measured.begin(), measured.end(), by_value);
      nlohmann::json s = {{"matrix", name},
                          {"held_back", is_held},
                          {"model_choice", to_string(chosen)},
                          {"best_measured", to_string(best->first)},
                          {"model_regret", measured.at(chosen) / best->second}};
      const auto automatic = std::string(prefix) + "auto";
      if (methods.contains(automatic) && methods.at(automatic).contains("solve_ms")) {
        s["auto_choice"] = methods.at(automatic).value("chosen", "");
        s["auto_regret"] = double(methods.at(automatic).at("solve_ms")) * 1e-3 / best->second;
      }
      out["selection"].push_back(s);
    }
  }
  out["errors"] = {
      {"fitted", fitted.summary()}, {"held_back", held.summary()}, {"all", all.summary()}};
  std::cout << "\nerrors (predicted / measured): " << out["errors"].dump(1) << "\n\nselection:\n";
  for (const auto& s : out["selection"])
    std::printf("%-24s model %-17s regret %5.2f   auto %-17s regret %5.2f%s\n",
                std::string(s["matrix"]).c_str(), std::string(s["model_choice"]).c_str(),
                double(s["model_regret"]), std::string(s.value("auto_choice", "-")).c_str(),
                s.value("auto_regret", 0.0), s["held_back"] ? "  held back" : "");
  if (!o.out.empty()) std::ofstream(o.out) << out.dump(1) << '\n';
  return 0;
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char* argv[]) {
  const auto options = syncfree::bench::parse(argc, argv);
  if (options.device.empty() || options.reports.empty()) {
    std::cerr << "usage: check_sptrsv_model --device=CALIBRATION.json [--held-back=FILE] "
                 "[--out=OUT.json] REPORT.json...\n";
    return 2;
  }
  try {
    return syncfree::bench::run(options);
  } catch (const std::exception& e) {
    std::cerr << "check_sptrsv_model: " << e.what() << '\n';
    return 2;
  }
}
