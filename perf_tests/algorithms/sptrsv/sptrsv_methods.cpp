// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/sptrsv/sptrsv_methods.hpp"

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_sptrsv.hpp>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/algorithms/sptrsv/sptrsv_cusparse.hpp"
#endif

namespace syncfree::bench {
namespace {

// Kokkos Kernels moved sptrsv out of Experimental in 4.x.
#if KOKKOS_VERSION >= 40000
namespace kk_sptrsv = KokkosSparse;
#else
namespace kk_sptrsv = KokkosSparse::Experimental;
#endif

using Exec = Kokkos::DefaultExecutionSpace;
const char* const syncfree_prefix = "syncfree:";
/// `auto` with SptrsvOptions::tune: the analysis times the model's candidates.
const char* const tuned_name = "syncfree:auto_tuned";

class SyncFreeMethod final : public SptrsvMethod {
 public:
  SyncFreeMethod(SptrsvAlgorithm algorithm, const BenchMatrix& m, const Vector<double>& x,
                 bool tune = false)
      : m_algorithm(algorithm), m_tune(tune), m_matrix(m), m_x(x) {}
  void analyze() override {
    SptrsvOptions options{Triangle::lower, Diagonal::stored, m_algorithm};
    options.tune = m_tune;
    m_plan = std::make_unique<SptrsvPlan<Matrix>>(options);
    sptrsv_analyze(Exec(), *m_plan, m_matrix.L);
  }
  void release() override { m_plan.reset(); }
  void solve() override { sptrsv_solve(Exec(), *m_plan, m_matrix.L, m_matrix.b, m_x); }
  std::size_t packed_bytes() const override { return m_plan->packed_bytes(); }
  long chain_levels() const override { return long(m_plan->num_chain_levels()); }
  std::string chosen() const override { return to_string(m_plan->effective_algorithm()); }
  std::string reason() const override { return m_plan->choice(); }

 private:
  SptrsvAlgorithm m_algorithm;
  bool m_tune;
  const BenchMatrix& m_matrix;
  Vector<double> m_x;
  std::unique_ptr<SptrsvPlan<Matrix>> m_plan;
};

/// Kokkos Kernels' sptrsv with its level-scheduled team algorithm (SEQLVLSCHD_TP1). Its symbolic
/// phase runs on the host.
class KokkosKernelsMethod final : public SptrsvMethod {
 public:
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<
      int, int, double, Exec, typename Exec::memory_space, typename Exec::memory_space>;
  KokkosKernelsMethod(const BenchMatrix& m, const Vector<double>& x) : m_matrix(m), m_x(x) {}
  ~KokkosKernelsMethod() override { release(); }
  void analyze() override {
    m_handle.create_sptrsv_handle(KokkosSparse::Experimental::SPTRSVAlgorithm::SEQLVLSCHD_TP1,
                                  m_matrix.L.numRows(), true);
    kk_sptrsv::sptrsv_symbolic(&m_handle, m_matrix.L.graph.row_map, m_matrix.L.graph.entries,
                               m_matrix.L.values);
  }
  void release() override { m_handle.destroy_sptrsv_handle(); }
  void solve() override {
    kk_sptrsv::sptrsv_solve(&m_handle, m_matrix.L.graph.row_map, m_matrix.L.graph.entries,
                            m_matrix.L.values, m_matrix.b, m_x);
  }

 private:
  const BenchMatrix& m_matrix;
  Vector<double> m_x;
  Handle m_handle;
};

}  // namespace

std::vector<std::string> sptrsv_method_names() {
  std::vector<std::string> names;
  for (auto a : sptrsv_algorithms) names.push_back(std::string(syncfree_prefix) + to_string(a));
  names.push_back(tuned_name);
  names.push_back("kokkos_kernels");
#if defined(KOKKOS_ENABLE_CUDA)
  names.push_back("cusparse");
#endif
  return names;
}

std::unique_ptr<SptrsvMethod> make_sptrsv_method(const std::string& name, const BenchMatrix& m,
                                                 const Vector<double>& x) {
  if (name == tuned_name)
    return std::make_unique<SyncFreeMethod>(SptrsvAlgorithm::automatic, m, x, true);
  if (name.rfind(syncfree_prefix, 0) == 0)
    return std::make_unique<SyncFreeMethod>(
        parse_sptrsv_algorithm(name.substr(std::string(syncfree_prefix).size())), m, x);
  if (name == "kokkos_kernels") return std::make_unique<KokkosKernelsMethod>(m, x);
#if defined(KOKKOS_ENABLE_CUDA)
  if (name == "cusparse") return make_cusparse_spsv(m, x);
#endif
  throw InvalidArgument("unknown SpTRSV method '" + name + "'");
}

}  // namespace syncfree::bench
