// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "apps/syncfree-tpetra-solve/tpetra_solve_run.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include <BelosLinearProblem.hpp>
#include <BelosSolverFactory.hpp>
#include <BelosTpetraAdapter.hpp>
#include <MatrixMarket_Tpetra.hpp>
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>

#include "adapters/tpetra/impl/syncfree_tpetra_agreement.hpp"
#include "adapters/tpetra/syncfree_tpetra_distribute.hpp"
#include "adapters/tpetra/syncfree_tpetra_factory.hpp"
#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::app {
namespace {

using SC = double;
using LO = int;
using GO = Tpetra::Map<>::global_ordinal_type;
using NT = Tpetra::Map<>::node_type;
using map_type = Tpetra::Map<LO, GO, NT>;
using crs_type = Tpetra::CrsMatrix<SC, LO, GO, NT>;
using MV = Tpetra::MultiVector<SC, LO, GO, NT>;
using OP = Tpetra::Operator<SC, LO, GO, NT>;
using prec_type = Ifpack2::Preconditioner<SC, LO, GO, NT>;
using HostCsr = CrsMatrix<double, int, int, HostDevice>;
using reader_type = Tpetra::MatrixMarket::Reader<crs_type>;

struct DistributedSystem {
  Teuchos::RCP<crs_type> A;
  Teuchos::RCP<MV> b, x;
  std::string name;
};

/// Runs `step` on rank 0 only and throws its error, if any, on every rank.
template <class Step>
void on_root(const Teuchos::Comm<int>& comm, Step&& step) {
  tpetra::impl::run_on_every_rank(
      comm,
      [&] {
        if (comm.getRank() == 0) step();
      },
      [](const std::string& what, std::int64_t row) { return std::make_pair(what, row); });
}

/// A built-in problem with its rows spread evenly over the ranks; b = A x_true.
DistributedSystem build_problem(const std::string& spec,
                                const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  const auto problem =
      generate_problem<HostCsr>(Kokkos::DefaultHostExecutionSpace(), parse_problem_spec(spec));
  DistributedSystem s;
  s.A = tpetra::distribute_rows<SC, LO, GO, NT>(problem.A, comm);
  s.b = Teuchos::rcp(new MV(s.A->getRowMap(), 1));
  auto b = s.b->getLocalViewHost(Tpetra::Access::OverwriteAll);
  for (LO i = 0; i < LO(b.extent(0)); ++i)
    b(i, 0) = problem.b(s.A->getRowMap()->getGlobalElement(i));
  s.name = problem.spec.to_string();
  return s;
}

/// A Matrix Market file read by Tpetra's reader onto an even row map, after SyncFree's reader
/// checked it on rank 0 (its errors name the file's lines; Tpetra's would stop rank 0 alone).
DistributedSystem read_matrix(const std::string& file,
                              const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  on_root(*comm, [&] {
    const auto A = read_matrix_market<HostCsr>(file);
    require_valid(Kokkos::DefaultHostExecutionSpace(), A, MatrixCheck::square | MatrixCheck::finite,
                  "--matrix " + file);
  });
  DistributedSystem s;
  s.A = reader_type::readSparseFile(file, comm);
  s.name = file;
  return s;
}

/// "ones", "zeros", or a Matrix Market array file of n entries (checked on rank 0 first).
Teuchos::RCP<MV> load_vector(const std::string& source, const Teuchos::RCP<const map_type>& map,
                             const char* option) {
  auto v = Teuchos::rcp(new MV(map, 1));
  if (source == "ones" || source == "zeros") {
    v->putScalar(source == "ones" ? 1.0 : 0.0);
    return v;
  }
  const auto& comm = *map->getComm();
  on_root(comm, [&] {
    const auto entries = read_vector_market<double>(source).extent(0);
    SYNCFREE_REQUIRE(entries == map->getGlobalNumElements(), DimensionMismatch, option, " ", source,
                     ": has ", entries, " entries, the matrix has ", map->getGlobalNumElements(),
                     " rows");
  });
  Teuchos::RCP<const map_type> read_map = map;  // the reader takes the map by non-const reference
  return reader_type::readDenseFile(source, map->getComm(), read_map);
}

/// The SyncFree parameters the shared flags set.
Teuchos::ParameterList syncfree_parameters(const TpetraSolveOptions& t) {
  const SolveOptions& o = t.solve;
  Teuchos::ParameterList p;
  p.set("syncfree: fill level", o.precond == "syncfree-iluk" ? t.fill.value_or(1) : 0);
  p.set("syncfree: ilu algorithm", o.ilu_variant);
  p.set("syncfree: reproducible", o.reproducible);
  p.set("syncfree: auto shift", o.shift == "auto");
  p.set("syncfree: shift", o.shift == "auto" ? 0.0 : std::stod(o.shift));
  p.set("syncfree: ilu apply", o.ilu_apply);
  p.set("syncfree: isai power", o.isai_power);
  p.set("syncfree: ordering", o.ordering);
  p.set("syncfree: block size", o.block_size);
  p.set("syncfree: blocks from rcm", o.blocks_from_rcm);
  p.set("syncfree: coloring distance", o.coloring == "distance2" ? 2 : 1);
  p.set("syncfree: dilu variant", o.dilu_variant);
  p.set("syncfree: dilu sweeps", o.dilu_sweeps);
  p.set("syncfree: dilu omega", o.dilu_omega);
  p.set("syncfree: pattern power", o.spai_pattern == "A" ? 1 : o.spai_pattern == "A2" ? 2 : 3);
  p.set("syncfree: drop threshold", o.spai_threshold);
  p.set("syncfree: spai side", o.spai_side);
  p.set("syncfree: spai fallback", o.spai_fallback);
  p.set("syncfree: sip alpha", o.sip_alpha);
  p.set("syncfree: sip inner iterations", o.sip_inner);
  p.set("syncfree: sip variant", o.sip_variant);
  p.set("syncfree: symmetric positive definite", o.solver == "cg");
  return p;
}

/// Whether additive Schwarz adds the overlapping results (symmetric) rather than keeping each
/// rank's own (restricted, Ifpack2's default, which CG cannot take).
bool adds_overlap(const TpetraSolveOptions& t) {
  return t.combine == "add" || (t.combine == "auto" && t.solve.solver == "cg");
}

/// The preconditioner --precond names, with --overlap; null for "none".
Teuchos::RCP<prec_type> make_preconditioner(const TpetraSolveOptions& t,
                                            const Teuchos::RCP<const crs_type>& A,
                                            std::string& description) {
  const std::string& name = t.solve.precond;
  description =
      name + (t.overlap > 0 ? impl::concat(adds_overlap(t) ? " (additive Schwarz"
                                                           : " (restricted additive Schwarz",
                                           ", overlap ", t.overlap, ")")
                            : std::string(" (block Jacobi over ranks)"));
  if (name == "none") {
    description = "none";
    return Teuchos::null;
  }
  Teuchos::ParameterList params;
  std::string factory_name;
  const std::string syncfree_prefix = "syncfree-";
  if (name.rfind(syncfree_prefix, 0) == 0) {
    params = syncfree_parameters(t);
    const std::string method = name.substr(syncfree_prefix.size());
    factory_name = method == "ilu0" || method == "iluk" ? "SYNCFREE_ILU"
                   : method == "ic0"                    ? "SYNCFREE_IC"
                                                        : "SYNCFREE_" + method;
  } else if (name == "ifpack2-riluk") {
    factory_name = "RILUK";
    params.set("fact: iluk level-of-fill", t.fill.value_or(0));
  } else {
    factory_name = name == "ifpack2-ilut" ? "ILUT" : "RELAXATION";
  }
  if (t.overlap > 0) {
    params.set("schwarz: overlap level", t.overlap);
    params.set("schwarz: combine mode", std::string(adds_overlap(t) ? "ADD" : "ZERO"));
  }
  return tpetra::create_preconditioner<SC, LO, GO, NT>(factory_name, A, params);
}

/// The Belos name of --solver.
std::string belos_solver(const std::string& solver) {
  if (solver == "cg") return "PSEUDOBLOCK CG";
  if (solver == "gmres") return "PSEUDOBLOCK GMRES";
  return solver == "bicgstab" ? "BICGSTAB" : "TFQMR";
}

/// Opens `path` for writing on rank 0, so that a bad --out or --json stops every rank at once.
void check_writable(const Teuchos::Comm<int>& comm, const std::string& path, const char* option) {
  if (path.empty()) return;
  on_root(comm, [&] {
    std::ofstream file(path, std::ios::app);
    SYNCFREE_REQUIRE(file.good(), InvalidArgument, option, " ", path,
                     ": cannot open for writing: ", std::strerror(errno));
  });
}

/// The largest of each rank's seconds.
double slowest(const Teuchos::Comm<int>& comm, double seconds) {
  double max = 0;
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_MAX, seconds, Teuchos::outArg(max));
  return max;
}

}  // namespace

SolveReport run_tpetra_solve(const TpetraSolveOptions& t, const Teuchos::Comm<int>& comm_ref,
                             std::ostream& out) {
  const SolveOptions& o = t.solve;
  const auto comm = Teuchos::rcpFromRef(comm_ref);
  check_writable(comm_ref, o.out, "--out");
  check_writable(comm_ref, o.json, "--json");

  DistributedSystem s =
      o.matrix.empty() ? build_problem(o.problem, comm) : read_matrix(o.matrix, comm);
  const auto map = s.A->getRowMap();
  if (o.rhs != "auto" || s.b.is_null())
    s.b = load_vector(o.rhs == "auto" ? "ones" : o.rhs, map, "--rhs");
  s.x = load_vector(o.x0, map, "--x0");

  SolveReport report = report_settings(o);
  if (o.solver == "gmres") report.orthogonalization = "dgks";  // Belos' default
  report.backend = impl::concat(NT::execution_space::name(), " under Tpetra");
  report.ranks = comm->getSize();
  report.overlap = t.overlap;
  report.problem = s.name;
  report.n = std::int64_t(s.A->getGlobalNumRows());
  report.nnz = std::int64_t(s.A->getGlobalNumEntries());
  report.spmv_format = "tpetra";
  report.renumber = "none";
  report.renumber_reason = "a distributed solve keeps its rows' numbering";

  Teuchos::Time timer("setup", true);
  Teuchos::RCP<prec_type> M;
  tpetra::impl::run_on_every_rank(
      comm_ref,
      [&] {
        M = make_preconditioner(t, s.A, report.preconditioner);
        if (!M.is_null()) {
          M->initialize();
          M->compute();
        }
        // Inside additive Schwarz (--overlap) the choice stays with Ifpack2's inner solver.
        if (const auto* ours = dynamic_cast<const tpetra::Preconditioner<SC, LO, GO, NT>*>(M.get()))
          if (!ours->choice_reason().empty())
            report.precond_reason = ours->choice_reason() + " (rank 0's block)";
      },
      [](const std::string& what, std::int64_t row) {
        return std::make_pair("--precond: " + what, row);
      });
  report.setup_seconds = slowest(comm_ref, timer.stop());

  auto problem = Teuchos::rcp(new Belos::LinearProblem<SC, MV, OP>(s.A, s.x, s.b));
  if (!M.is_null()) {
    if (o.precond_side == "left")
      problem->setLeftPrec(M);
    else
      problem->setRightPrec(M);
  }
  problem->setProblem();
  auto params = Teuchos::parameterList();
  params->set("Convergence Tolerance", o.tolerance);
  params->set("Maximum Iterations", o.max_iterations);
  if (o.solver == "gmres") {
    params->set("Num Blocks", o.restart);
    params->set("Maximum Restarts", o.max_iterations / std::max(1, o.restart) + 1);
  }
  if (o.monitor == "residual") {
    params->set("Verbosity", Belos::Errors + Belos::Warnings + Belos::StatusTestDetails);
    params->set("Output Frequency", 1);
    params->set("Output Style", int(Belos::Brief));
    params->set("Output Stream", Teuchos::rcpFromRef(out));
  }
  Belos::SolverFactory<SC, MV, OP> factory;
  auto solver = factory.create(belos_solver(o.solver), params);
  solver->setProblem(problem);

  timer.reset();
  timer.start();
  const Belos::ReturnType outcome = solver->solve();
  report.solve_seconds = slowest(comm_ref, timer.stop());

  MV r(map, 1);
  s.A->apply(*s.x, r);
  r.update(1.0, *s.b, -1.0);
  Teuchos::Array<double> r_norm(1), b_norm(1);
  r.norm2(r_norm());
  s.b->norm2(b_norm());
  report.result.iterations = solver->getNumIters();
  report.result.relative_residual = b_norm[0] > 0 ? r_norm[0] / b_norm[0] : r_norm[0];
  report.result.status = outcome == Belos::Converged ? Status::success : Status::not_converged;
  if (outcome != Belos::Converged)
    report.result.reason = impl::concat("Belos stopped after ", report.result.iterations,
                                        " iterations without reaching the tolerance");
  if (!o.out.empty()) Tpetra::MatrixMarket::Writer<crs_type>::writeDenseFile(o.out, s.x);
  return report;
}

}  // namespace syncfree::app
