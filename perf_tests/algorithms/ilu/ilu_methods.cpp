// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/ilu/ilu_methods.hpp"

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "perf_tests/algorithms/ilu/ilu_kokkos_kernels.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/algorithms/ilu/ilu_cusparse.hpp"
#endif

namespace syncfree::bench {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
const std::string ilu0_prefix = "syncfree:";
const std::string ilu1_prefix = "syncfree-ilu1:";

class SyncFreeIlu final : public IluMethod {
 public:
  SyncFreeIlu(IluAlgorithm algorithm, int fill_level, const IluBenchMatrix& m) : m_matrix(m) {
    m_options.fill_level = fill_level;
    m_options.algorithm = algorithm;
  }
  void release() override { m_plan.reset(); }
  void analyze() override {
    m_plan = std::make_unique<IluPlan<BenchCrs>>(m_options);
    ilu_analyze(Exec(), *m_plan, m_matrix.A);
  }
  void factor() override {
    const Outcome outcome = ilu_factor(Exec(), *m_plan, m_matrix.A);
    SYNCFREE_REQUIRE(outcome.ok(), InvalidMatrix, "ilu_factor: ", outcome.reason);
  }
  void apply(const Vector<double>& b, const Vector<double>& x) override {
    ilu_apply(Exec(), *m_plan, b, x);
  }
  HostCrs host_factors() override { return copy_to<HostDevice>(m_plan->factors()); }
  int levels() const override { return m_plan ? int(m_plan->num_levels()) : -1; }
  std::string note() const override {
    return m_plan ? std::string("runs ") + to_string(m_plan->effective_algorithm()) : "";
  }

 private:
  const IluBenchMatrix& m_matrix;
  IluOptions m_options;
  std::unique_ptr<IluPlan<BenchCrs>> m_plan;
};

const IluAlgorithm variants[] = {
    IluAlgorithm::level_set, IluAlgorithm::shared, IluAlgorithm::vector,   IluAlgorithm::adaptive,
    IluAlgorithm::parallel,  IluAlgorithm::gather, IluAlgorithm::automatic};

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

std::vector<std::string> ilu_method_names() {
  std::vector<std::string> names;
  for (auto a : variants) names.push_back(ilu0_prefix + to_string(a));
  names.push_back("kokkos_kernels");
#if defined(KOKKOS_ENABLE_CUDA)
  names.push_back("cusparse:level");
  names.push_back("cusparse:no_level");
#endif
  for (auto a : variants) names.push_back(ilu1_prefix + to_string(a));
  return names;
}

int ilu_method_fill_level(const std::string& name) {
  return starts_with(name, ilu1_prefix) ? 1 : 0;
}

bool ilu_method_applies(const std::string& name) { return name != "kokkos_kernels"; }

std::unique_ptr<IluMethod> make_ilu_method(const std::string& name, const IluBenchMatrix& m) {
  if (starts_with(name, ilu0_prefix))
    return std::make_unique<SyncFreeIlu>(parse_ilu_algorithm(name.substr(ilu0_prefix.size())), 0,
                                         m);
  if (starts_with(name, ilu1_prefix))
    return std::make_unique<SyncFreeIlu>(parse_ilu_algorithm(name.substr(ilu1_prefix.size())), 1,
                                         m);
  if (name == "kokkos_kernels") return std::make_unique<KokkosKernelsIlu>(m);
#if defined(KOKKOS_ENABLE_CUDA)
  if (name == "cusparse:level")
    return std::make_unique<CusparseIluMethod>(m, CUSPARSE_SOLVE_POLICY_USE_LEVEL);
  if (name == "cusparse:no_level")
    return std::make_unique<CusparseIluMethod>(m, CUSPARSE_SOLVE_POLICY_NO_LEVEL);
#endif
  throw InvalidArgument("unknown ILU method '" + name + "'");
}

}  // namespace syncfree::bench
