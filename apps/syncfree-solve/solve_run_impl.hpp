// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `run_solve_as<Matrix>`, syncfree-solve's whole run for one matrix type (its offsets 32-
/// or 64-bit), instantiated in solve_run_narrow.cpp and solve_run_wide.cpp, which compile apart.

#include "apps/syncfree-solve/solve_run.hpp"

#include <cctype>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/krylov/syncfree_preconditioner_choice.hpp"
#include "algorithms/ordering/syncfree_ordering.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "apps/syncfree-solve/solve_explain.hpp"
#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_single_precision.hpp"
#include "core/syncfree_transversal.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::app {
namespace solve_detail {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Op = Operator<double, DefaultDevice>;
using VectorType = Vector<double, DefaultDevice>;

template <class Matrix>
struct LinearSystem {
  Matrix A;
  VectorType b;
  VectorType x;
  std::string name;
  std::int64_t permuted_rows = -1;  ///< --permute-diagonal: rows moved
  /// --renumber: row i of A, b and x here is row renumbering(i) of the system read; empty: none.
  Kokkos::View<int*, DefaultDevice> renumbering;
};

/// A vector of n entries from "ones", "zeros" or a Matrix Market array file.
inline VectorType load_vector(const std::string& source, std::size_t n, const char* option) {
  if (source == "ones" || source == "zeros") {
    VectorType v(std::string(option), n);
    Kokkos::deep_copy(v, source == "ones" ? 1.0 : 0.0);
    return v;
  }
  VectorType v = read_vector_market<double>(source);
  SYNCFREE_REQUIRE(v.extent(0) == n, DimensionMismatch, option, " ", source, ": has ", v.extent(0),
                   " entries, the matrix has ", n, " rows");
  return v;
}

/// P A x = P b for the row permutation P that gives A a zero-free diagonal: x is unchanged.
template <class Matrix>
void permute_to_zero_free_diagonal(const ExecSpace& exec, LinearSystem<Matrix>& s) {
  const auto perm = zero_free_diagonal_rows(exec, s.A);
  s.A = permute_rows(exec, s.A, perm);
  VectorType pb(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), s.b.extent(0));
  permute_vector(exec, perm, s.b, pb);
  s.b = pb;
  std::int64_t moved = 0;
  Kokkos::parallel_reduce(
      "syncfree::app::moved_rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, perm.extent(0)),
      KOKKOS_LAMBDA(const int i, std::int64_t& count) { count += perm(i) != i ? 1 : 0; }, moved);
  s.permuted_rows = moved;
}

template <class Matrix>
LinearSystem<Matrix> load_system(const ExecSpace& exec, const SolveOptions& o) {
  LinearSystem<Matrix> s;
  VectorType known_b;
  if (!o.matrix.empty()) {
    s.A = read_matrix_market<Matrix>(o.matrix);
    s.name = o.matrix;
  } else {
    auto problem = generate_problem<Matrix>(exec, parse_problem_spec(o.problem));
    s.A = problem.A;
    known_b = problem.b;
    s.name = problem.spec.to_string();
  }
  require_valid(exec, s.A, MatrixCheck::square | MatrixCheck::sorted_unique | MatrixCheck::finite,
                o.matrix.empty() ? o.problem : "--matrix " + o.matrix);
  const std::size_t n = std::size_t(s.A.numRows());
  s.b = o.rhs == "auto" ? (known_b.extent(0) == n ? known_b : load_vector("ones", n, "--rhs"))
                        : load_vector(o.rhs, n, "--rhs");
  s.x = load_vector(o.x0, n, "--x0");
  SYNCFREE_REQUIRE(impl::is_finite(double(impl::nrm2(exec, s.b))), InvalidArgument,
                   "--rhs: the right-hand side contains NaN or Inf");
  SYNCFREE_REQUIRE(impl::is_finite(double(impl::nrm2(exec, s.x))), InvalidArgument,
                   "--x0: the initial guess contains NaN or Inf");
  if (o.permute_diagonal) permute_to_zero_free_diagonal(exec, s);
  return s;
}

/// A failed approximate inverse as an error naming its column (a right SPAI) or row as the
/// library numbers it, and, for a column of a file's matrix, as the file does.
[[noreturn]] inline void throw_failed(const SolveOptions& o, const Outcome& outcome, bool column) {
  std::string what = "--precond " + o.precond + ": " + outcome.reason;
  if (!column) throw InvalidMatrix(what, outcome.index);
  if (outcome.index >= 0 && !o.matrix.empty())
    what +=
        impl::concat(" (column ", outcome.index + 1, " in ", o.matrix, ", which counts from 1)");
  throw InvalidMatrix(what);
}

/// The pattern of M from --spai-pattern's file, which must be as large as A (and, with
/// --permute-diagonal, cannot be: it would name the columns of A before its rows moved).
template <class PMatrix>
PMatrix read_spai_pattern(const SolveOptions& o, const PMatrix& A) {
  SYNCFREE_REQUIRE(!o.permute_diagonal, InvalidArgument, "--spai-pattern ", o.spai_pattern,
                   ": a pattern file cannot be combined with --permute-diagonal");
  const PMatrix pattern = read_matrix_market<PMatrix>(o.spai_pattern);
  SYNCFREE_REQUIRE(pattern.numRows() == A.numRows() && pattern.numCols() == A.numCols(),
                   InvalidArgument, "--spai-pattern ", o.spai_pattern, ": the pattern is ",
                   pattern.numRows(), " x ", pattern.numCols(), ", the matrix ", A.numRows(), " x ",
                   A.numCols());
  return pattern;
}

/// An approximate inverse in single precision keeps its values in float and applies them to the
/// double vectors: one or two SpMVs, which gain nothing from SinglePrecisionPreconditioner's
/// rounding of every input and output.
inline SpmvPrecision apply_precision(const SolveOptions& o) {
  return o.precond_precision == "single" ? SpmvPrecision::single : SpmvPrecision::matrix;
}

/// Whether --precond-precision single keeps `precond`'s values in float and its vectors in double
/// (make_approximate_inverse) rather than wrapping it in a SinglePrecisionPreconditioner.
inline bool keeps_single_values(const std::string& precond) {
  return precond == "spai" || precond == "fsai";
}

template <class PMatrix>
std::unique_ptr<Preconditioner<PMatrix>> make_approximate_inverse(const ExecSpace& exec,
                                                                  const SolveOptions& o,
                                                                  const PMatrix& A,
                                                                  SolveReport& report) {
  const bool pattern_file = spai_pattern_is_file(o);
  const int power = o.spai_pattern == "A" ? 1 : o.spai_pattern == "A2" ? 2 : 3;
  if (o.precond == "fsai") {
    SYNCFREE_REQUIRE(!pattern_file, InvalidArgument, "--spai-pattern ", o.spai_pattern,
                     ": a pattern file is for --precond spai; fsai takes A, A2 or A3");
    FsaiOptions options;
    options.pattern_power = power;
    options.threshold = o.spai_threshold;
    options.apply_precision = apply_precision(o);
    auto fsai = std::make_unique<FsaiPreconditioner<PMatrix>>(exec, A, options);
    if (!fsai->outcome().ok()) throw_failed(o, fsai->outcome(), false);
    report.precond_nnz = fsai->plan().factor().nnz();
    return fsai;
  }
  SpaiOptions options;
  options.side = parse_spai_side(o.spai_side);
  options.pattern_power = power;
  options.threshold = o.spai_threshold;
  options.fallback_to_diagonal = o.spai_fallback;
  options.apply_precision = apply_precision(o);
  auto spai = pattern_file ? std::make_unique<SpaiPreconditioner<PMatrix>>(
                                 exec, A, read_spai_pattern<PMatrix>(o, A), options)
                           : std::make_unique<SpaiPreconditioner<PMatrix>>(exec, A, options);
  if (!spai->outcome().ok()) throw_failed(o, spai->outcome(), options.side == SpaiSide::right);
  report.precond_nnz = spai->plan().inverse().nnz();
  const SpaiQuality quality = spai_quality(exec, spai->plan());
  report.spai_max_residual = quality.max_residual;
  report.spai_mean_residual = quality.mean_residual;
  report.spai_fallbacks = spai->plan().fallbacks();
  return spai;
}

/// An incomplete factorization (IluPreconditioner, IcPreconditioner) in --ordering's order (auto:
/// the natural order's lower solve judged first), its ordering and shift reported; a failed
/// factorization is thrown as an error naming the row, with `hint` where there is one.
template <class Factorization, class PMatrix, class Options>
std::unique_ptr<Factorization> make_incomplete_factorization(
    const ExecSpace& exec, const SolveOptions& o, const PMatrix& A, const Options& options,
    const char* hint, SolveReport& report) {
  OrderingOptions ordering;
  ordering.block_size = o.block_size;
  ordering.blocks_from_rcm = o.blocks_from_rcm;
  std::unique_ptr<Factorization> m;
  if (o.ordering == "auto") {
    m = std::make_unique<Factorization>(exec, A, options);
    ordering.method = suggest_ordering_for_solves<ExecSpace>(m->plan().lower_solve_plan(),
                                                             report.ordering_reason);
    if (ordering.method != OrderingMethod::natural)
      m = std::make_unique<Factorization>(exec, A, options, ordering);
  } else {
    ordering.method = parse_ordering_method(o.ordering);
    m = std::make_unique<Factorization>(exec, A, options, ordering);
  }
  if (!m->outcome().ok())
    throw InvalidMatrix(impl::concat("--precond ", o.precond, ": ", m->outcome().reason,
                                     options.auto_shift ? "" : hint),
                        m->outcome().index);
  report.ordering = to_string(m->ordering().options.method);
  report.colors = m->ordering().num_colors;
  report.shift = m->shift();
  report.shift_attempts = m->shift_attempts();
  report.precond_bytes = std::int64_t(m->plan().memory_bytes());
  return m;
}

/// Stone's SIP (double precision only).
template <class Matrix>
std::unique_ptr<Preconditioner<Matrix>> make_sip(const ExecSpace& exec, const SolveOptions& o,
                                                 const Matrix& A, SolveReport& report) {
  SipOptions options;
  options.alpha = o.sip_alpha;
  options.reproducible = o.reproducible;
  options.inner_iterations = o.sip_inner;
  options.variant = parse_sip_variant(o.sip_variant);
  auto sip = std::make_unique<SipPreconditioner<Matrix>>(exec, A, options);
  if (!sip->outcome().ok())
    throw InvalidMatrix(impl::concat("--precond sip: ", sip->outcome().reason),
                        sip->outcome().index);
  const SipGrid& g = sip->plan().grid();
  report.sip_grid = impl::concat(g.nx, "x", g.ny, "x", g.nz);
  return sip;
}

/// --precond's preconditioner of A (every one but none), on A's values in the precision of
/// PMatrix.
template <class PMatrix>
std::unique_ptr<Preconditioner<PMatrix>> make_preconditioner_of(const ExecSpace& exec,
                                                                const SolveOptions& o,
                                                                const PMatrix& A,
                                                                SolveReport& report) {
  const std::string& name = o.precond;
  if (name == "ilu0" || name == "iluk") {
    IluOptions options;
    options.fill_level = name == "ilu0" ? 0 : o.fill;
    options.algorithm = parse_ilu_algorithm(o.ilu_variant);
    options.reproducible = o.reproducible;
    options.tune_solves = o.tune_solves;
    options.apply = parse_ilu_apply(o.ilu_apply);
    options.isai_power = o.isai_power;
    options.auto_shift = o.shift == "auto";
    options.shift = options.auto_shift ? 0.0 : std::stod(o.shift);
    return make_incomplete_factorization<IluPreconditioner<PMatrix>>(exec, o, A, options, "",
                                                                     report);
  }
  if (name == "ic0") {
    IcOptions options;
    options.reproducible = o.reproducible;
    options.tune_solves = o.tune_solves;
    options.upper_solve = parse_ic_upper_solve(o.ic_upper_solve);
    options.auto_shift = o.shift == "auto";
    options.shift = options.auto_shift ? 0.0 : std::stod(o.shift);
    return make_incomplete_factorization<IcPreconditioner<PMatrix>>(
        exec, o, A, options, "; --shift auto finds one", report);
  }
  if (name == "spai" || name == "fsai") return make_approximate_inverse(exec, o, A, report);
  if (name == "dilu") {
    DiluOptions options;
    options.variant = parse_dilu_variant(o.dilu_variant);
    options.coloring_distance = o.coloring == "distance2" ? 2 : 1;
    options.sweeps = o.dilu_sweeps;
    options.omega = o.dilu_omega;
    auto dilu = std::make_unique<DiluPreconditioner<PMatrix>>(exec, A, options);
    if (!dilu->outcome().ok())
      throw InvalidMatrix(impl::concat("--precond dilu: ", dilu->outcome().reason),
                          dilu->outcome().index);
    report.colors = dilu->plan().num_colors();
    report.dilu_variant = to_string(dilu->plan().variant());
    report.dilu_negative_pivots = dilu->plan().negative_pivots();
    return dilu;
  }
  if constexpr (std::is_same_v<typename PMatrix::non_const_value_type, double>) {
    if (name == "sip") return make_sip(exec, o, A, report);
  }
  if (name == "jacobi") {
    auto jacobi = std::make_unique<JacobiPreconditioner<PMatrix>>(exec, A);
    if (!jacobi->outcome().ok())
      throw InvalidMatrix(impl::concat("--precond jacobi: ", jacobi->outcome().reason),
                          jacobi->outcome().index);
    return jacobi;
  }
  throw InvalidArgument(
      impl::concat("--precond: unknown preconditioner '", name, "'",
                   o.precond_precision == "single" ? " in single precision" : ""));
}

template <class Matrix>
std::unique_ptr<Op> make_preconditioner(const ExecSpace& exec, const SolveOptions& o,
                                        const Matrix& A, SolveReport& report) {
  if (o.precond == "none")
    return std::make_unique<IdentityOperator<double, DefaultDevice>>(std::size_t(A.numRows()));
  if (o.precond_precision == "single" && !keeps_single_values(o.precond))
    return std::make_unique<SinglePrecisionPreconditioner<Matrix>>(
        make_preconditioner_of(exec, o, round_to_single(exec, A), report));
  return make_preconditioner_of(exec, o, A, report);
}

/// Whether --renumber auto may renumber for this preconditioner (`auto` already resolved): the
/// approximate inverses, whose applications are products that gather like A's (an iteration
/// gathers three times); not with a pattern file, which numbers M's columns as the file does.
/// With Jacobi an iteration gains too little to repay the renumbering in the iterations measured.
inline bool renumbers_automatically(const SolveOptions& o) {
  return !spai_pattern_is_file(o) && (o.precond == "fsai" || o.precond == "spai");
}

/// --renumber: the system P A P^T (P x) = P b in the locality ordering, where asked for or where
/// `suggest_locality_ordering` says it pays (auto); the permutation kept in s.renumbering.
template <class Matrix>
void renumber_system(const ExecSpace& exec, const SolveOptions& o, LinearSystem<Matrix>& s,
                     SolveReport& report) {
  report.renumber = "none";
  if (o.renumber == "none") return;
  if (o.renumber == "auto" && !renumbers_automatically(o)) {
    report.renumber_reason = "kept for --precond " + o.precond +
                             (o.precond == "spai" ? " with a pattern file" : "") +
                             " (--renumber locality renumbers whatever the preconditioner)";
    return;
  }
  Ordering<int, DefaultDevice> ordering;
  if (o.renumber == "auto") {
    auto choice = suggest_locality_ordering(exec, s.A);
    report.renumber_reason = choice.reason;
    ordering = std::move(choice.ordering);
  } else {
    ordering = compute_ordering(exec, s.A, {OrderingMethod::locality});
  }
  report.renumber = ordering.is_natural() ? "none" : "locality";
  if (ordering.is_natural()) return;
  s.renumbering = ordering.permutation;
  s.A = permute_matrix(exec, s.A, s.renumbering);
  for (VectorType* v : {&s.b, &s.x}) {
    VectorType moved(Kokkos::view_alloc(Kokkos::WithoutInitializing, v->label()), v->extent(0));
    permute_vector(exec, s.renumbering, *v, moved);
    *v = moved;
  }
}

/// A preconditioner's error about row i of the renumbered system, naming the row as read.
template <class Matrix>
InvalidMatrix in_rows_as_read(const InvalidMatrix& e, const LinearSystem<Matrix>& s) {
  const std::int64_t i = e.row();
  if (i < 0 || s.renumbering.extent(0) == 0) return e;
  const auto row = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(s.renumbering, std::make_pair(i, i + 1)))(0);
  std::string what = e.what();
  const std::string named = impl::concat("row ", i);
  const auto at = what.find(named);
  const auto after = at == std::string::npos ? at : at + named.size();
  if (at != std::string::npos && (after == what.size() || !std::isdigit(what[after])))
    what.replace(at, named.size(), impl::concat("row ", row, " (row ", i, " renumbered)"));
  else
    what += impl::concat(" (row ", i, " renumbered)");
  return InvalidMatrix(what, row);
}

/// Levels of the lower factor as solved, for an ILU or IC preconditioner (in either precision).
template <class PMatrix>
std::int64_t lower_levels(
    const Operator<typename PMatrix::non_const_value_type, typename PMatrix::device_type>& M) {
  if (const auto* ilu = dynamic_cast<const IluPreconditioner<PMatrix>*>(&M))
    return ilu->plan().num_levels();
  if (const auto* ic = dynamic_cast<const IcPreconditioner<PMatrix>*>(&M))
    return ic->plan().lower_solve_plan().num_levels();
  if constexpr (std::is_same_v<typename PMatrix::non_const_value_type, double>) {
    if (const auto* single = dynamic_cast<const SinglePrecisionPreconditioner<PMatrix>*>(&M))
      return lower_levels<SinglePrecisionMatrix<PMatrix>>(single->inner());
  }
  return 0;
}

}  // namespace solve_detail

template <class Matrix>
SolveReport run_solve_as(const SolveOptions& o, std::ostream& out) {
  using namespace solve_detail;
  const ExecSpace exec;
  LinearSystem<Matrix> system = load_system<Matrix>(exec, o);

  SolveReport report = report_settings(o);
  report.backend = ExecSpace::name();
  report.problem = system.name;
  report.n = system.A.numRows();
  report.nnz = system.A.nnz();
  report.permuted_rows = system.permuted_rows;
  report.offset_bits = int(8 * sizeof(typename Matrix::non_const_size_type));

  Kokkos::Timer timer;
  // --precond auto decides on A as read (its counts do not depend on the numbering), so that
  // --renumber auto knows which preconditioner it renumbers for.
  SolveOptions resolved = o;
  if (o.precond == "auto") {
    const auto suggestion = suggest_preconditioner(exec, system.A, o.solver == "cg");
    report.precond_reason = suggestion.reason;
    resolved.precond = to_string(suggestion.choice);
  }
  renumber_system(exec, resolved, system, report);
  const CrsOperator<Matrix> A(exec, system.A, parse_spmv_format(o.spmv_format));
  report.spmv_format = to_string(A.format());
  std::unique_ptr<Op> M;
  try {
    M = make_preconditioner(exec, resolved, system.A, report);
  } catch (const InvalidMatrix& e) {
    throw in_rows_as_read(e, system);
  }
  exec.fence();
  report.preconditioner = M->name();
  report.setup_seconds = timer.seconds();
  if (!o.explain.empty()) {
    explain_iteration(exec, o, A, *M, report);
    explain_preconditioner<Matrix>(exec, *M, o.explain == "measure", report);
  }

  GmresOptions krylov;
  krylov.tolerance = o.tolerance;
  krylov.max_iterations = o.max_iterations;
  krylov.restart = o.restart;
  krylov.orthogonalization =
      o.orthogonalization == "cgs2" ? Orthogonalization::cgs2 : Orthogonalization::mgs;
  krylov.side = o.precond_side == "left" ? Preconditioning::left : Preconditioning::right;
  krylov.check_every = o.check_every;
  krylov.stagnation_window = o.stagnation_window;
  krylov.stagnation_factor = o.stagnation_factor;
  krylov.residual_replacement = o.residual_replacement;
  if (o.monitor == "residual") {
    krylov.keep_history = true;
    krylov.monitor = [&out](int iteration, double relative) {
      out << "iteration " << iteration << "  relative residual " << relative << '\n';
    };
  }
  timer.reset();
  report.result =
      krylov_solve(parse_krylov_solver(o.solver), exec, A, *M, system.b, system.x, krylov);
  exec.fence();
  report.solve_seconds = timer.seconds();

  // Read after the timed phases: a solve layout without levels finds them with a pass of its own.
  report.levels = lower_levels<Matrix>(*M);
  if (!o.out.empty()) {
    VectorType x = system.x;
    if (system.renumbering.extent(0) > 0) {
      x = VectorType(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), system.x.extent(0));
      permute_vector(exec, invert_permutation(exec, system.renumbering), system.x, x);
    }
    write_vector_market(o.out, x);
  }
  return report;
}

}  // namespace syncfree::app
