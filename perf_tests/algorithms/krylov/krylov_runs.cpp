// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/krylov/krylov_runs.hpp"

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_preconditioner_choice.hpp"
#include "algorithms/ordering/syncfree_ordering.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_single_precision.hpp"
#include "perf_tests/algorithms/krylov/krylov_syncfree_solvers.hpp"
#include "perf_tests/algorithms/krylov/krylov_traffic.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/spmv_features_json.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/algorithms/krylov/krylov_cusparse_run.hpp"
#endif

namespace syncfree::bench {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Op = Operator<double, DefaultDevice>;

/// The SpMV features of a plan's products and its format.
nlohmann::json product_features(const SpmvPlan<BenchCrs>& plan) {
  nlohmann::json j = to_json(spmv_features(plan));
  j["format"] = to_string(plan.format());
  return j;
}

/// SPAI(A^2)'s threshold ("spai2" cases): drops entries below 0.05 sqrt(|a_ii a_jj|) first.
constexpr double spai2_threshold = 0.05;

class SyncFreeKrylovRun final : public KrylovRun {
 public:
  SyncFreeKrylovRun(const KrylovCase& c, const BenchCrs& A, const KrylovSettings& settings)
      : m_case(c), m_A(A), m_settings(settings) {
    SYNCFREE_REQUIRE(c.preconditioner == "auto" || c.preconditioner == "ilu0" ||
                         c.preconditioner == "ilu0_isai" || c.preconditioner == "ic0" ||
                         c.preconditioner == "ic0_push" || c.preconditioner == "jacobi" ||
                         c.preconditioner == "spai" || c.preconditioner == "spai2" ||
                         c.preconditioner == "fsai" || c.preconditioner == "dilu" ||
                         c.preconditioner == "sip",
                     InvalidArgument, "unknown preconditioner '", c.preconditioner, "'");
    SYNCFREE_REQUIRE(c.precision.empty() || c.preconditioner != "sip", InvalidArgument, "case '",
                     c.name(), "': SIP runs in double precision only");
    SYNCFREE_REQUIRE(c.ordering.empty() || c.preconditioner == "ilu0" ||
                         c.preconditioner == "ic0" || c.preconditioner == "ic0_push",
                     InvalidArgument, "case '", c.name(),
                     "': an ordering goes with ilu0, ic0 or ic0_push");
  }

  void setup() override {
    m_M.reset();
    m_note.clear();
    m_renumber_note.clear();
    m_solved = m_A;
    m_renumbering = {};
    m_preconditioner = m_case.preconditioner;
    if (m_preconditioner == "auto") {
      // As syncfree-solve's --precond auto, then --renumber auto for the preconditioner chosen.
      const auto suggestion = suggest_preconditioner(Exec(), m_A, m_case.solver == "cg");
      m_preconditioner = to_string(suggestion.choice);
      m_note = "auto: " + suggestion.reason;
      if (m_preconditioner == "fsai" || m_preconditioner == "spai") {
        auto choice = suggest_locality_ordering(Exec(), m_A);
        m_renumber_note = "renumber: " + choice.reason;
        if (choice.renumbers()) {
          m_renumbering = choice.ordering.permutation;
          m_solved = permute_matrix(Exec(), m_A, m_renumbering);
        }
      }
    }
    const SpmvFormat format =
        m_case.spmv_format.empty() ? SpmvFormat::automatic : parse_spmv_format(m_case.spmv_format);
    m_op = std::make_unique<CrsOperator<BenchCrs>>(Exec(), m_solved, format);
    // SPAI and FSAI in single precision keep their values in float (as syncfree-solve does).
    if (m_case.precision == "single" && !keeps_single_values())
      m_M = std::make_unique<SinglePrecisionPreconditioner<BenchCrs>>(
          make_preconditioner(round_to_single(Exec(), m_solved)));
    else
      m_M = make_preconditioner(m_solved);
  }

  bool keeps_single_values() const {
    const std::string& p = m_case.preconditioner;
    return p == "spai" || p == "spai2" || p == "fsai";
  }
  SpmvPrecision apply_precision() const {
    return m_case.precision == "single" ? SpmvPrecision::single : SpmvPrecision::matrix;
  }

  /// The case's preconditioner of A (`auto` resolved by setup), in the precision of PMatrix's
  /// values.
  template <class PMatrix>
  std::unique_ptr<Preconditioner<PMatrix>> make_preconditioner(const PMatrix& A) {
    const std::string& name = m_preconditioner;
    if (name == "ilu0") {
      auto ilu = make_ordered<IluPreconditioner<PMatrix>>(A, IluOptions{});
      SYNCFREE_REQUIRE(ilu->outcome().ok(), InvalidMatrix, "ilu_factor: ", ilu->outcome().reason);
      m_note = impl::concat(ilu->name(), ", ", ilu->plan().memory_bytes() >> 20, " MiB");
      return ilu;
    }
    if (name == "ic0" || name == "ic0_push") {
      // With the automatic shift (reported in the note) where a pivot is not positive.
      IcOptions options;
      options.auto_shift = true;
      if (name == "ic0_push") options.upper_solve = IcUpperSolve::column_push;
      auto ic = make_ordered<IcPreconditioner<PMatrix>>(A, options);
      SYNCFREE_REQUIRE(ic->outcome().ok(), InvalidMatrix, "ic_factor: ", ic->outcome().reason);
      m_note = impl::concat(ic->name(), ", ", ic->plan().memory_bytes() >> 20, " MiB");
      return ic;
    }
    if (name == "ilu0_isai") {
      IluOptions options;
      options.apply = IluApply::isai;
      auto ilu = std::make_unique<IluPreconditioner<PMatrix>>(Exec(), A, options);
      SYNCFREE_REQUIRE(ilu->outcome().ok(), InvalidMatrix, "ilu_factor: ", ilu->outcome().reason);
      m_note = ilu->name();
      return ilu;
    }
    if (name == "spai" || name == "spai2") {
      SpaiOptions options;
      if (name == "spai2") {
        options.pattern_power = 2;
        options.threshold = spai2_threshold;
      }
      options.apply_precision = apply_precision();
      auto spai = std::make_unique<SpaiPreconditioner<PMatrix>>(Exec(), A, options);
      SYNCFREE_REQUIRE(spai->outcome().ok(), InvalidMatrix, "spai: ", spai->outcome().reason);
      m_note = "M " + std::to_string(spai->plan().inverse().nnz()) + " entries";
      return spai;
    }
    if (name == "dilu") {
      auto dilu = std::make_unique<DiluPreconditioner<PMatrix>>(Exec(), A);
      SYNCFREE_REQUIRE(dilu->outcome().ok(), InvalidMatrix, "dilu: ", dilu->outcome().reason);
      m_note = std::to_string(dilu->plan().num_colors()) + " colors";
      return dilu;
    }
    if constexpr (std::is_same_v<typename PMatrix::non_const_value_type, double>) {
      if (name == "sip") {
        auto sip = std::make_unique<SipPreconditioner<PMatrix>>(Exec(), A);
        SYNCFREE_REQUIRE(sip->outcome().ok(), InvalidMatrix, "sip: ", sip->outcome().reason);
        m_note = std::to_string(sip->plan().num_levels()) + " hyperplanes";
        return sip;
      }
    }
    if (name == "fsai") {
      FsaiOptions options;
      options.apply_precision = apply_precision();
      auto fsai = std::make_unique<FsaiPreconditioner<PMatrix>>(Exec(), A, options);
      SYNCFREE_REQUIRE(fsai->outcome().ok(), InvalidMatrix, "fsai: ", fsai->outcome().reason);
      return fsai;
    }
    SYNCFREE_REQUIRE(name == "jacobi", NotSupported, "case '", m_case.name(),
                     "': no such preconditioner in this precision");
    auto jacobi = std::make_unique<JacobiPreconditioner<PMatrix>>(Exec(), A);
    SYNCFREE_REQUIRE(jacobi->outcome().ok(), InvalidMatrix, "jacobi: ", jacobi->outcome().reason);
    return jacobi;
  }

  /// ILU(0) or IC(0) of A in the case's ordering: "auto" as syncfree-solve's --ordering auto (the
  /// natural order's lower solve judged, then a second preconditioner where it suggests another),
  /// "<method>_rcm" for block_multicolor's blocks of the RCM numbering, else the method named.
  template <class Factorization, class PMatrix, class Options>
  std::unique_ptr<Factorization> make_ordered(const PMatrix& A, const Options& options) {
    if (m_case.ordering.empty()) return std::make_unique<Factorization>(Exec(), A, options);
    OrderingOptions ordering;
    if (m_case.ordering == "auto") {
      auto natural = std::make_unique<Factorization>(Exec(), A, options);
      std::string reason;
      ordering.method =
          suggest_ordering_for_solves<Exec>(natural->plan().lower_solve_plan(), reason);
      if (ordering.method == OrderingMethod::natural) return natural;
    } else {
      const std::string rcm = "_rcm";
      std::string method = m_case.ordering;
      if (method.size() > rcm.size() &&
          method.compare(method.size() - rcm.size(), rcm.size(), rcm) == 0) {
        ordering.blocks_from_rcm = true;
        method.resize(method.size() - rcm.size());
      }
      ordering.method = parse_ordering_method(method);
    }
    return std::make_unique<Factorization>(Exec(), A, options, ordering);
  }

  /// In the renumbered system where setup renumbered: b and x moved in, the solution moved back.
  SolveResult solve(const Vector<double>& b, const Vector<double>& x) override {
    if (m_renumbering.extent(0) == 0)
      return syncfree_krylov_solve(m_case.solver, Exec(), *m_op, *m_M, b, x, m_settings);
    const std::size_t n = x.extent(0);
    Vector<double> pb(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
    Vector<double> px(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n);
    permute_vector(Exec(), m_renumbering, b, pb);
    permute_vector(Exec(), m_renumbering, x, px);
    const SolveResult result =
        syncfree_krylov_solve(m_case.solver, Exec(), *m_op, *m_M, pb, px, m_settings);
    const auto perm = m_renumbering;
    Kokkos::parallel_for(
        "bench::renumbered_solution", Kokkos::RangePolicy<Exec>(Exec(), 0, n),
        KOKKOS_LAMBDA(const std::size_t i) { x(perm(i)) = px(i); });
    return result;
  }

  std::string note() const override {
    std::string note = m_note.empty() ? "" : m_note + ", ";
    if (!m_renumber_note.empty()) note += m_renumber_note + ", ";
    note += "A " + std::string(to_string(m_op->format())) + ", ";
    return note + syncfree_krylov_note(m_case.solver, m_settings);
  }

  double apply_seconds(const Vector<double>& r) override {
    Vector<double> z(Kokkos::view_alloc(Kokkos::WithoutInitializing, "z"), r.extent(0));
    return median_seconds([&] { m_M->apply(Exec(), r, z); });
  }

  nlohmann::json model_features() const override {
    nlohmann::json f = {{"A", product_features(m_op->plan())}};
    if (const auto* fsai = dynamic_cast<const FsaiPreconditioner<BenchCrs>*>(m_M.get()))
      f["M"] = {{"kind", "fsai"},
                {"G", product_features(fsai->plan().factor_spmv())},
                {"Gt", product_features(fsai->plan().factor_transpose_spmv())}};
    else if (const auto* spai = dynamic_cast<const SpaiPreconditioner<BenchCrs>*>(m_M.get()))
      f["M"] = {{"kind", "spai"}, {"M", product_features(spai->plan().spmv_plan())}};
    else if (dynamic_cast<const JacobiPreconditioner<BenchCrs>*>(m_M.get()))
      f["M"] = {{"kind", "jacobi"}};
    return f;
  }

  double spmv_bytes() const override {
    const double n = m_A.numRows(), nnz = m_A.nnz();
    if (m_op->format() == SpmvFormat::csr) return csr_spmv_bytes(n, nnz);
    const double mask = m_op->plan().stencil_diagonals() <= impl::stencil_byte_offsets ? 1 : 4;
    return stencil_spmv_bytes(n, nnz, mask);
  }

 private:
  KrylovCase m_case;
  BenchCrs m_A;
  KrylovSettings m_settings;
  BenchCrs m_solved;  ///< A, or A renumbered for locality (the `auto` case)
  Kokkos::View<int*, DefaultDevice> m_renumbering;  ///< row i of m_solved is row perm(i) of A
  std::string m_renumber_note;
  std::string m_preconditioner;  ///< the case's, `auto` resolved
  std::unique_ptr<CrsOperator<BenchCrs>> m_op;
  std::unique_ptr<Op> m_M;
  std::string m_note;
};

}  // namespace

KrylovCase parse_krylov_case(const std::string& name) {
  const auto colon = name.find(':'), plus = name.find('+');
  SYNCFREE_REQUIRE(colon != std::string::npos && plus != std::string::npos && colon < plus,
                   InvalidArgument, "case '", name,
                   "' is not <implementation>:<solver>+<preconditioner>");
  const auto at = name.find('@', plus);
  std::string preconditioner =
      name.substr(plus + 1, at == std::string::npos ? std::string::npos : at - plus - 1);
  const auto hash = preconditioner.find('#');
  const std::string ordering = hash == std::string::npos ? "" : preconditioner.substr(hash + 1);
  if (hash != std::string::npos) preconditioner.resize(hash);
  const std::string single = "_single";
  std::string precision;
  if (preconditioner.size() > single.size() &&
      preconditioner.compare(preconditioner.size() - single.size(), single.size(), single) == 0) {
    preconditioner.resize(preconditioner.size() - single.size());
    precision = "single";
  }
  KrylovCase c{name.substr(0, colon),
               name.substr(colon + 1, plus - colon - 1),
               preconditioner,
               at == std::string::npos ? "" : name.substr(at + 1),
               ordering,
               precision};
  SYNCFREE_REQUIRE(c.implementation == "syncfree" || c.implementation == "cusparse",
                   InvalidArgument, "case '", name, "': unknown implementation");
  SYNCFREE_REQUIRE(c.solver == "cg" || c.solver == "bicgstab" || c.solver == "gmres" ||
                       (c.solver == "fgmres" && c.implementation == "syncfree"),
                   InvalidArgument, "case '", name, "': unknown solver");
  SYNCFREE_REQUIRE(c.ordering.empty() || c.implementation == "syncfree", InvalidArgument, "case '",
                   name, "': an ordering after '#' is for syncfree cases");
  SYNCFREE_REQUIRE(c.precision.empty() || c.implementation == "syncfree", InvalidArgument, "case '",
                   name, "': a preconditioner in single precision is a syncfree case");
  SYNCFREE_REQUIRE(
      c.spmv_format.empty() || ((c.spmv_format == "csr" || c.spmv_format == "stencil") &&
                                c.implementation == "syncfree"),
      InvalidArgument, "case '", name,
      "': the SpMV format after '@' is csr or stencil, for syncfree cases");
  return c;
}

std::vector<std::string> krylov_case_names(bool symmetric) {
  std::vector<std::string> names;
  const std::vector<std::string> solvers =
      symmetric ? std::vector<std::string>{"cg"} : std::vector<std::string>{"bicgstab", "gmres"};
  for (const auto& solver : solvers) {
    names.push_back("syncfree:" + solver + "+auto");
    names.push_back("syncfree:" + solver + "+ilu0");
    names.push_back("syncfree:" + solver + "+jacobi");
    names.push_back("syncfree:" + solver + "+ilu0_isai");
    names.push_back("syncfree:" + solver + "+dilu");
    names.push_back("syncfree:" + solver + "+sip");  // grid matrices: refused elsewhere
    if (symmetric) {
      names.push_back("syncfree:" + solver + "+ic0");
      names.push_back("syncfree:" + solver + "+ic0_push");
      names.push_back("syncfree:" + solver + "+fsai");
    } else {
      names.push_back("syncfree:" + solver + "+spai");
      names.push_back("syncfree:" + solver + "+spai2");
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  for (const auto& solver : solvers) {
    names.push_back("syncfree:" + solver + "+ilu0#multicolor");
    names.push_back("syncfree:" + solver + "+ilu0#auto");
    if (symmetric) {
      names.push_back("syncfree:" + solver + "+ic0#auto");
      names.push_back("syncfree:" + solver + "+ic0_push#auto");
    }
  }
  // Preconditioners stored in single precision; FGMRES, which allows for M rounding its input.
  const std::vector<std::string> single =
      symmetric ? std::vector<std::string>{"ilu0", "ilu0#auto", "ic0", "ic0#auto", "dilu", "fsai"}
                : std::vector<std::string>{"ilu0", "ilu0#auto", "dilu", "spai"};
  for (const auto& solver : solvers) {
    for (const auto& precond : single) {
      const auto hash = precond.find('#');
      names.push_back("syncfree:" + solver + "+" + precond.substr(0, hash) + "_single" +
                      (hash == std::string::npos ? "" : precond.substr(hash)));
    }
  }
  if (!symmetric) {
    for (const char* precond : {"ilu0", "ilu0#auto", "ilu0_single", "ilu0_single#auto"})
      names.push_back(std::string("syncfree:fgmres+") + precond);
  }
  for (const auto& solver : solvers) names.push_back("syncfree:" + solver + "+ilu0@csr");
  for (const auto& solver : solvers) {
    names.push_back("cusparse:" + solver + "+ilu0");
    names.push_back("cusparse:" + solver + "+jacobi");
  }
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
