// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "perf_tests/algorithms/krylov/krylov_syncfree_solvers.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/algorithms/krylov/krylov_cusparse_run.hpp"
#endif

namespace syncfree::bench {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Op = Operator<double, DefaultDevice>;

class SyncFreeKrylovRun final : public KrylovRun {
 public:
  SyncFreeKrylovRun(const KrylovCase& c, const BenchCrs& A, const KrylovSettings& settings)
      : m_case(c), m_A(A), m_settings(settings) {
    SYNCFREE_REQUIRE(c.preconditioner == "ilu0" || c.preconditioner == "jacobi", InvalidArgument,
                     "unknown preconditioner '", c.preconditioner, "'");
  }

  void setup() override {
    m_M.reset();
    m_op = std::make_unique<CrsOperator<BenchCrs>>(m_A);
    if (m_case.preconditioner == "ilu0") {
      auto ilu = std::make_unique<IluPreconditioner<BenchCrs>>(Exec(), m_A);
      SYNCFREE_REQUIRE(ilu->outcome().ok(), InvalidMatrix, "ilu_factor: ", ilu->outcome().reason);
      m_note = ilu->name();
      m_M = std::move(ilu);
    } else {
      auto jacobi = std::make_unique<JacobiPreconditioner<BenchCrs>>(Exec(), m_A);
      SYNCFREE_REQUIRE(jacobi->outcome().ok(), InvalidMatrix, "jacobi: ", jacobi->outcome().reason);
      m_M = std::move(jacobi);
    }
  }

  SolveResult solve(const Vector<double>& b, const Vector<double>& x) override {
    return syncfree_krylov_solve(m_case.solver, Exec(), *m_op, *m_M, b, x, m_settings);
  }

  std::string note() const override {
    const std::string solver_note = syncfree_krylov_note(m_case.solver, m_settings);
    if (m_note.empty()) return solver_note;
    return solver_note.empty() ? m_note : m_note + ", " + solver_note;
  }

 private:
  KrylovCase m_case;
  BenchCrs m_A;
  KrylovSettings m_settings;
  std::unique_ptr<Op> m_op, m_M;
  std::string m_note;
};

}  // namespace

KrylovCase parse_krylov_case(const std::string& name) {
  const auto colon = name.find(':'), plus = name.find('+');
  SYNCFREE_REQUIRE(colon != std::string::npos && plus != std::string::npos && colon < plus,
                   InvalidArgument, "case '", name,
                   "' is not <implementation>:<solver>+<preconditioner>");
  KrylovCase c{name.substr(0, colon), name.substr(colon + 1, plus - colon - 1),
               name.substr(plus + 1)};
  SYNCFREE_REQUIRE(c.implementation == "syncfree" || c.implementation == "cusparse",
                   InvalidArgument, "case '", name, "': unknown implementation");
  SYNCFREE_REQUIRE(c.solver == "cg" || c.solver == "bicgstab" || c.solver == "gmres",
                   InvalidArgument, "case '", name, "': unknown solver");
  return c;
}

std::vector<std::string> krylov_case_names(bool symmetric) {
  std::vector<std::string> names;
  const std::vector<std::string> solvers =
      symmetric ? std::vector<std::string>{"cg"} : std::vector<std::string>{"bicgstab", "gmres"};
  for (const auto& solver : solvers) {
    names.push_back("syncfree:" + solver + "+ilu0");
    names.push_back("syncfree:" + solver + "+jacobi");
  }
#if defined(KOKKOS_ENABLE_CUDA)
  for (const auto& solver : solvers) names.push_back("cusparse:" + solver + "+ilu0");
#endif
  return names;
}

std::unique_ptr<KrylovRun> make_krylov_run(const KrylovCase& c, const BenchCrs& A,
                                           const KrylovSettings& settings) {
  if (c.implementation == "syncfree") return std::make_unique<SyncFreeKrylovRun>(c, A, settings);
#if defined(KOKKOS_ENABLE_CUDA)
  if (c.implementation == "cusparse") return std::make_unique<CusparseKrylovRun>(c, A, settings);
#endif
  throw NotSupported("case " + c.name() + " is not available in this build");
}

}  // namespace syncfree::bench
