// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Incomplete LU factorization, ILU(0) and ILU(k), with synchronization-free numeric
/// factorization and triangular solves that reuse the factorization's analysis.
///
/// \code
///   syncfree::IluPlan<Matrix> plan({/*fill_level=*/0});
///   syncfree::ilu_analyze(exec, plan, A);            // pattern (+ fill), levels, row order
///   auto outcome = syncfree::ilu_factor(exec, plan, A);  // values; again whenever they change
///   syncfree::ilu_apply(exec, plan, r, z);           // z = U^{-1} L^{-1} r
/// \endcode
///
/// The plan owns the factors: one CRS matrix on the pattern of A (ILU(0)) or of A plus its fill
/// (ILU(k)), holding L strictly below the diagonal (unit diagonal, not stored) and U on and above
/// it, exactly as the serial in-place IKJ algorithm leaves them.
///
/// Numeric variants (the thesis of Freire Picón, 2025, chapter 5): `level_set` (one launch per
/// level) and the sync-free `shared`, `vector`, `adaptive` and `parallel` (a team per row, its
/// vectors on different L entries), where rows are claimed by an atomic ticket in level order and
/// each waits only on the rows its L part names. On CUDA, `vector` and
/// `adaptive` run a kernel in which every value of the factors is its own ready flag (no flag
/// array, no fence; rows of up to 8 entries per lane), and so does `gather`, SyncFree's own: a
/// warp per row held in shared memory, the pivot rows of several L entries gathered and polled
/// at once. `automatic` runs `gather` there where rows average 14 entries or more (meshes of
/// tetrahedra, elasticity) or some rows are longer than registers hold (power-law hubs, circuits'
/// rails), `adaptive` on the rest. On other backends `automatic` runs the level-set launches when
/// levels hold a few hundred rows or more (they measured fastest there) and the sync-free warp per
/// row on narrower levels.

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "algorithms/ordering/syncfree_ordering.hpp"
#include "algorithms/spai/syncfree_isai.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_spmv.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

enum class IluAlgorithm {
  automatic,  ///< chosen by the analysis; see `IluPlan::effective_algorithm()`
  level_set,  ///< one kernel launch per level, a vector of lanes per row
  shared,     ///< sync-free; a vector per row intersects patterns window by window (ILU_shared)
  vector,     ///< sync-free; a warp-wide vector per row, each lane binary-searches (ILU_vect)
  adaptive,   ///< sync-free; vector width 2^p from the mean row length and level width (ILU_adapt)
  parallel,   ///< sync-free; a team per row, its vectors on different L entries (ILU_parallel);
              ///< on GPUs its atomic updates make the factors' last bits vary run to run
  gather,     ///< sync-free; a warp per row held in shared memory, the pivot rows of several L
              ///< entries gathered and polled at once, rows of more than 512 entries a block
              ///< each (CUDA; elsewhere, and for rows of more than 4096 entries, `vector`)
};

inline const char* to_string(IluAlgorithm a) {
  switch (a) {
    case IluAlgorithm::automatic:
      return "auto";
    case IluAlgorithm::level_set:
      return "level_set";
    case IluAlgorithm::shared:
      return "shared";
    case IluAlgorithm::vector:
      return "vector";
    case IluAlgorithm::adaptive:
      return "adaptive";
    case IluAlgorithm::parallel:
      return "parallel";
    case IluAlgorithm::gather:
      return "gather";
  }
  return "unknown";
}

/// The variant named `name` ("auto", "level_set", ...). \throws InvalidArgument otherwise.
inline IluAlgorithm parse_ilu_algorithm(const std::string& name) {
  for (auto a :
       {IluAlgorithm::automatic, IluAlgorithm::level_set, IluAlgorithm::shared,
        IluAlgorithm::vector, IluAlgorithm::adaptive, IluAlgorithm::parallel, IluAlgorithm::gather})
    if (name == to_string(a)) return a;
  throw InvalidArgument(
      "unknown ILU variant '" + name +
      "' (expected auto, level_set, shared, vector, adaptive, parallel or gather)");
}

/// How `IluPreconditioner` applies the factors (`ilu_apply` always solves).
enum class IluApply {
  triangular,  ///< two triangular solves: (LU)^{-1} exactly
  isai,        ///< two SpMVs with incomplete sparse approximate inverses of L and U (ISAI)
};

inline const char* to_string(IluApply a) { return a == IluApply::isai ? "isai" : "triangular"; }

/// "triangular" or "isai". \throws InvalidArgument otherwise.
inline IluApply parse_ilu_apply(const std::string& name) {
  if (name == "triangular") return IluApply::triangular;
  SYNCFREE_REQUIRE(name == "isai", InvalidArgument, "unknown ILU apply '", name,
                   "' (triangular or isai)");
  return IluApply::isai;
}

struct IluOptions {
  /// k of ILU(k): 0 keeps the pattern of A; k > 0 admits fill of level <= k.
  int fill_level = 0;
  IluAlgorithm algorithm = IluAlgorithm::automatic;
  /// Algorithm of the two triangular solves of `ilu_apply`. `automatic`: SpTRSV's choice for L,
  /// except on a GPU where the performance model predicts one launch per level (`level_set`)
  /// clearly faster than the `sync_free_thread` it chose (a few wide levels of short rows: a
  /// multicolor order); then both solves run `level_set`.
  SptrsvAlgorithm solve_algorithm = SptrsvAlgorithm::automatic;
  /// With `solve_algorithm` automatic: tune both solves' plans (SptrsvOptions::tune), timing the
  /// candidates at analysis on the factors' pattern with identity values (the factors' own are
  /// not known before `ilu_factor`; a temporary array of the factors' size holds them).
  bool tune_solves = false;
  /// Bitwise the same factors and applications on every run on the same device and build: every
  /// variant but `IluAlgorithm::parallel` gives that (its atomic additions land in varying order on
  /// GPUs), so it is refused, and so is `tune_solves` (a choice from timings).
  bool reproducible = false;
  /// Tiny pivots. Off (the default): a pivot u_ii with |u_ii| <= threshold(i) (zero included)
  /// stops the factorization with `Status::zero_pivot` naming the first such row. On: the pivot
  /// is replaced by sign(u_ii) * threshold(i) (+threshold(i) for zero) and counted, where
  /// threshold(i) = absolute_threshold + relative_threshold * |a_ii|, after Ifpack2 RILUK's
  /// "fact: absolute threshold" and "fact: relative threshold".
  bool replace_tiny_pivots = false;
  double absolute_threshold = 0;
  double relative_threshold = 0;
  /// Diagonal shift alpha >= 0: the factors are those of A + alpha diag(A) (Manteuffel's shifted
  /// incomplete factorization), less accurate but with pivots kept away from zero.
  double shift = 0;
  /// `IluPreconditioner` only: where the factorization fails, or leaves a pivot whose sign is not
  /// that of its diagonal entry in A, factor again with a larger shift (see impl::search_shift);
  /// the preconditioner reports the shift it kept.
  bool auto_shift = false;
  /// `IluPreconditioner` only: solves, or ISAI's products with approximate inverses of L and U on
  /// the patterns of L^isai_power and U^isai_power.
  IluApply apply = IluApply::triangular;
  int isai_power = 1;
};

}  // namespace syncfree

#include "algorithms/ilu/impl/syncfree_ilu_analyze.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_dispatch.hpp"
#include "algorithms/ilu/impl/syncfree_shift_search.hpp"

namespace syncfree {

template <class Matrix>
class IluPlan;

namespace impl {
/// Makes `ilu_apply` of a plan analyzed for P A P^T read b and write x numbered as A (row r of
/// the factors at row perm(r) of the vectors), inside the two triangular solves: no pass of its
/// own. Returns false, changing nothing, where a solve's layout indexes the vectors by tables of
/// its own (see sptrsv_renumber_rows). Undone by the next `ilu_analyze`.
template <class ExecSpace, class Matrix, class Perm>
bool ilu_renumber_rows(const ExecSpace& exec, IluPlan<Matrix>& plan, const Perm& perm);
/// Whether every pivot of the plan's factors of A has the sign of its diagonal entry in A: the
/// first row where not, as a `not_positive_definite` outcome (the automatic shift's test).
template <class ExecSpace, class Matrix>
Outcome ilu_pivot_signs(const ExecSpace& exec, const IluPlan<Matrix>& plan, const Matrix& A);
}  // namespace impl

/// Plan for an incomplete LU factorization of one sparsity pattern. Owns the factors and every
/// work array. Copies of a plan share that storage.
/// \tparam Matrix a `syncfree::CrsMatrix` (scalar float or double)
template <class Matrix>
class IluPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using scalar_type = typename Matrix::non_const_value_type;

  /// \throws InvalidArgument when the fill level, a threshold or the shift is negative.
  explicit IluPlan(const IluOptions& options = {}) : m_options(options) {
    SYNCFREE_REQUIRE(options.fill_level >= 0, InvalidArgument,
                     "IluPlan: fill level must be >= 0, got ", options.fill_level);
    SYNCFREE_REQUIRE(options.absolute_threshold >= 0 && options.relative_threshold >= 0,
                     InvalidArgument, "IluPlan: pivot thresholds must be >= 0");
    set_shift(options.shift);
  }

  const IluOptions& options() const { return m_options; }
  bool analyzed() const { return m_analyzed; }
  /// Whether the last `ilu_factor` succeeded (so `ilu_apply` may run).
  bool factored() const { return m_factored; }
  /// The variant `ilu_factor` runs: the requested one, or what `automatic` chose at analysis.
  IluAlgorithm effective_algorithm() const { return m_effective; }
  ordinal_type num_rows() const { return m_storage.n; }
  /// Entries of L + U (the diagonal once), fill included.
  std::size_t num_factor_entries() const { return std::size_t(m_storage.lu.nnz()); }
  /// Levels of the L dependency graph: the critical path of the factorization and the L solve.
  ordinal_type num_levels() const { return m_storage.lower.num_levels(); }
  /// The diagonal shift of the next `ilu_factor` (IluOptions::shift until `set_shift`).
  double shift() const { return m_shift; }
  /// \throws InvalidArgument unless `shift` is finite and >= 0.
  void set_shift(double shift) {
    SYNCFREE_REQUIRE(shift >= 0 && std::isfinite(shift), InvalidArgument,
                     "IluPlan: the diagonal shift must be finite and >= 0, got ", shift);
    m_shift = shift;
  }
  /// Pivots replaced by the last `ilu_factor` (only with `replace_tiny_pivots`).
  std::int64_t pivot_replacements() const { return m_pivot_replacements; }
  /// L (strictly lower, unit diagonal not stored) and U (upper, diagonal included) in one CRS
  /// matrix; its values are the factors after a successful `ilu_factor`.
  const Matrix& factors() const { return m_storage.lu; }
  /// The two triangular solve plans of `ilu_apply`, built from the ILU analysis.
  const SptrsvPlan<Matrix>& lower_solve_plan() const { return m_storage.lower; }
  const SptrsvPlan<Matrix>& upper_solve_plan() const { return m_storage.upper; }
  /// Device memory the plan holds.
  std::size_t memory_bytes() const { return m_storage.bytes(); }

 private:
  template <class E, class M>
  friend void ilu_analyze(const E&, IluPlan<M>&, const M&);
  template <class E, class M>
  friend Outcome ilu_factor(const E&, IluPlan<M>&, const M&);
  template <class E, class M, class B, class X>
  friend void ilu_apply(const E&, const IluPlan<M>&, const B&, const X&);
  template <class E, class M, class B, class X, class U, class S>
  friend void ilu_apply_and_dots(const E&, const IluPlan<M>&, const B&, const X&, const U&,
                                 const S&);
  template <class E, class M, class B, class Y, class T>
  friend void ilu_apply_then_spmv(const E&, const IluPlan<M>&, const B&, const SpmvPlan<M>&,
                                  const Y&, const T&);
  template <class E, class M, class P>
  friend bool impl::ilu_renumber_rows(const E&, IluPlan<M>&, const P&);
  template <class E, class M>
  friend Outcome impl::ilu_pivot_signs(const E&, const IluPlan<M>&, const M&);

  IluOptions m_options;
  double m_shift = 0;
  IluAlgorithm m_effective = IluAlgorithm::automatic;
  bool m_analyzed = false;
  bool m_factored = false;
  std::int64_t m_pivot_replacements = 0;
  impl::IluPlanStorage<Matrix> m_storage;
};

/// Symbolic phase: validates A, computes the pattern of the factors (with fill of level <= k for
/// ILU(k)), the levels and row order of the factorization and of both triangular solves. Reusable
/// while the pattern of A stays the same.
/// \throws InvalidMatrix when A is not square, has unsorted or duplicate column indices, a missing
/// diagonal entry, a NaN or Inf value, or inconsistent row pointers; InvalidMatrix also when the
/// factors' entries would overflow the offset type.
template <class ExecSpace, class Matrix>
void ilu_analyze(const ExecSpace& exec, IluPlan<Matrix>& plan, const Matrix& A) {
  impl::ScopedRegion region("syncfree::ilu::analyze");
  plan.m_analyzed = plan.m_factored = false;
  SYNCFREE_REQUIRE(
      !(plan.m_options.reproducible && plan.m_options.algorithm == IluAlgorithm::parallel),
      InvalidArgument,
      "ilu_analyze: the parallel variant adds into shared entries with atomics, in an "
      "order that varies on GPUs, so it cannot be reproducible: take vector, "
      "adaptive, gather, shared or level_set");
  impl::require_tuning_not_reproducible(plan.m_options.tune_solves, plan.m_options.reproducible,
                                        "ilu_analyze");
  impl::ilu_analyze_structure(exec, plan.m_storage, A, plan.m_options.fill_level,
                              plan.m_options.solve_algorithm, plan.m_options.reproducible,
                              plan.m_options.tune_solves);
  plan.m_effective = plan.m_options.algorithm == IluAlgorithm::automatic
                         ? impl::choose_ilu_algorithm<ExecSpace>(plan.m_storage)
                         : plan.m_options.algorithm;
  plan.m_analyzed = true;
}

/// Numeric phase: computes L and U from the values of A. Call again whenever they change.
/// \returns success, or the problem of the first row (in row order) that has one:
/// `Status::not_finite` when its values in A hold a NaN or Inf or its pivot became one,
/// `Status::zero_pivot` when its pivot is zero or at or below the threshold (unless
/// `replace_tiny_pivots`). One small read back to the host per call.
/// \throws InvalidState before `ilu_analyze`; StructureMismatch when A does not have the pattern
/// the plan analyzed.
template <class ExecSpace, class Matrix>
Outcome ilu_factor(const ExecSpace& exec, IluPlan<Matrix>& plan, const Matrix& A) {
  SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "ilu_factor: call ilu_analyze first");
  impl::ScopedRegion region("syncfree::ilu::factor");
  plan.m_factored = false;
  IluOptions options = plan.m_options;
  options.shift = plan.m_shift;
  const impl::IluFactorResult r =
      impl::ilu_factor_values(exec, plan.m_effective, plan.m_storage, A, options);
  plan.m_pivot_replacements = r.replacements;
  // The factors were rewritten in place: a packed solve layout must copy them again.
  sptrsv_values_changed(plan.m_storage.lower);
  sptrsv_values_changed(plan.m_storage.upper);
  plan.m_factored = r.outcome.ok();
  return r.outcome;
}

/// x = U^{-1} L^{-1} b for one right-hand side (rank-1 views) or several (rank-2). Asynchronous.
/// \throws InvalidState unless the last `ilu_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class BView, class XView>
void ilu_apply(const ExecSpace& exec, const IluPlan<Matrix>& plan, const BView& b, const XView& x) {
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "ilu_apply: no successful ilu_factor for this plan");
  impl::ScopedRegion region("syncfree::ilu::apply");
  impl::ilu_apply_solves(exec, plan.m_storage, b, x);
}

/// `ilu_apply` for one right-hand side, then sums(0) = u'x and sums(1) = x'x into device memory
/// (two contiguous entries): the dot products a Krylov iteration takes of the preconditioned
/// vector, reduced in the pass that writes x where the upper solve has one (wavefront on CUDA).
/// Asynchronous. \throws as `ilu_apply`.
template <class ExecSpace, class Matrix, class BView, class XView, class UView, class SumsView>
void ilu_apply_and_dots(const ExecSpace& exec, const IluPlan<Matrix>& plan, const BView& b,
                        const XView& x, const UView& u, const SumsView& sums) {
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "ilu_apply: no successful ilu_factor for this plan");
  impl::ScopedRegion region("syncfree::ilu::apply");
  impl::ilu_apply_solves_and_dots(exec, plan.m_storage, b, x, u, sums);
}

namespace impl {
template <class ExecSpace, class Matrix, class Perm>
bool ilu_renumber_rows(const ExecSpace& exec, IluPlan<Matrix>& plan, const Perm& perm) {
  SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "ilu: call ilu_analyze first");
  auto& s = plan.m_storage;
  if (!reads_io_order(s.lower.effective_algorithm()) ||
      !reads_io_order(s.upper.effective_algorithm()))
    return false;
  sptrsv_renumber_rows(exec, s.lower, perm);
  sptrsv_renumber_rows(exec, s.upper, perm);
  return true;
}

template <class ExecSpace, class Matrix>
Outcome ilu_pivot_signs(const ExecSpace& exec, const IluPlan<Matrix>& plan, const Matrix& A) {
  SYNCFREE_REQUIRE(plan.factored(), InvalidState, "ilu: no successful ilu_factor for this plan");
  return ilu_check_pivot_signs(exec, plan.m_storage, A);
}
}  // namespace impl

/// y = A U^{-1} L^{-1} b for one right-hand side and a matrix A (through its SpmvPlan) with as
/// many columns as the factors have rows: `ilu_apply` into `tmp`, then the product. Where both
/// triangular solves run the wavefront layout on CUDA, the product reads the upper solve's result
/// where the solve leaves it, and `tmp` is not written: in A's stencil format through the
/// positions of U's rows, else through a copy of A's column indices renamed to those positions
/// (each made at the first call, kept by the plan). Asynchronous.
/// \throws as `ilu_apply`; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class BView, class YView, class TmpView>
void ilu_apply_then_spmv(const ExecSpace& exec, const IluPlan<Matrix>& plan, const BView& b,
                         const SpmvPlan<Matrix>& A, const YView& y, const TmpView& tmp) {
  static_assert(BView::rank == 1 && YView::rank == 1 && TmpView::rank == 1,
                "ilu_apply_then_spmv: one right-hand side");
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "ilu_apply: no successful ilu_factor for this plan");
  const std::size_t n = std::size_t(plan.num_rows());
  const Matrix& matrix = A.matrix();
  SYNCFREE_REQUIRE(b.extent(0) == n && tmp.extent(0) == n && std::size_t(matrix.numCols()) == n &&
                       y.extent(0) == std::size_t(matrix.numRows()),
                   DimensionMismatch, "ilu_apply_then_spmv: the factors have ", n, " rows, b has ",
                   b.extent(0), " entries, tmp ", tmp.extent(0), ", A is ", matrix.numRows(), "x",
                   matrix.numCols(), ", y has ", y.extent(0));
  impl::ScopedRegion region("syncfree::ilu::apply");
  if (impl::IluChainedApply<ExecSpace, Matrix, BView, YView>::run_then_spmv(exec, plan.m_storage, b,
                                                                            A, y))
    return;
  impl::ilu_apply_solves(exec, plan.m_storage, b, tmp);
  A.apply(exec, typename Matrix::non_const_value_type(1), tmp,
          typename Matrix::non_const_value_type(0), y);
}

/// As above, with A's products in CSR. Analyzes A (an SpmvPlan) at each call: for repeated
/// products keep a plan and call the overload above.
template <class ExecSpace, class Matrix, class BView, class YView, class TmpView>
void ilu_apply_then_spmv(const ExecSpace& exec, const IluPlan<Matrix>& plan, const BView& b,
                         const Matrix& A, const YView& y, const TmpView& tmp) {
  ilu_apply_then_spmv(exec, plan, b, SpmvPlan<Matrix>(exec, A, SpmvFormat::csr), y, tmp);
}

/// The ordering an incomplete factorization should take on `ExecSpace` for A, judged from the
/// plan of its lower triangular solve in A's natural order: natural on host backends (one thread
/// gains nothing from wide levels), and on a GPU where the natural order's solve takes a grid's
/// fast path (band, wavefront) or its levels hold enough rows to fill the GPU; else multicolor,
/// whose few wide levels trade some iterations for solves that run in parallel. `reason` gets why.
/// Block multicolor was faster on most mesher-numbered matrices of the unstructured suite but made
/// CG break down on two, so it is not the default.
template <class ExecSpace, class Matrix>
OrderingMethod suggest_ordering_for_solves(const SptrsvPlan<Matrix>& lower, std::string& reason) {
  constexpr long wide_level = 4096;  // rows per level that fill an H100/H200 (132 SMs x 32)
  if (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
    reason = "host backend";
    return OrderingMethod::natural;
  }
  const SptrsvAlgorithm solve = lower.effective_algorithm();
  if (solve == SptrsvAlgorithm::band || solve == SptrsvAlgorithm::wavefront) {
    reason = impl::concat("natural order solves by ", to_string(solve));
    return OrderingMethod::natural;
  }
  const long rows_per_level = long(lower.num_rows()) / std::max<long>(1, lower.num_levels());
  reason = impl::concat(rows_per_level, " rows per level in natural order");
  return rows_per_level >= wide_level ? OrderingMethod::natural : OrderingMethod::multicolor;
}

/// The ordering `IluPreconditioner` should take on `ExecSpace` for A, from the plan of A's natural
/// order (see suggest_ordering_for_solves).
template <class ExecSpace, class Matrix>
OrderingMethod suggest_ilu_ordering(const IluPlan<Matrix>& natural, std::string& reason) {
  return suggest_ordering_for_solves<ExecSpace>(natural.lower_solve_plan(), reason);
}

/// ILU as an `Operator` (y = alpha * (LU)^{-1} x + beta * y): analyzes and factors on
/// construction. A failed factorization is not thrown: check `outcome()`; `apply` then throws
/// InvalidState.
///
/// With an ordering other than `natural`, the preconditioner factors B = P A P^T (A permuted once,
/// at construction; new values are copied through the kept permutation) and applies
/// P^T (LU)^{-1} P: the solves run in the order that exposes parallelism while the caller keeps
/// A's numbering. The two solves read the right-hand side and write the result through the
/// permutation themselves (impl::ilu_renumber_rows); only where a solve runs a grid layout
/// (wavefront, band), which has tables of its own, are they gathered and scattered in a pass each.
template <class Matrix>
class IluPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using base = typename Preconditioner<Matrix>::base;
  using ordering_type = Ordering<ordinal_type, typename Matrix::device_type>;

  IluPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                    const IluOptions& options = {}, const OrderingOptions& ordering = {})
      : m_plan(options),
        m_ordering(impl::compute_ordering_validated(
            exec, A, ordering,
            [&] { require_valid(exec, A, impl::ilu_matrix_checks, "ilu_analyze"); })),
        m_work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::operator_work"),
               A.numRows()) {
    if (!m_ordering.is_natural()) m_permuted = permute_matrix_kept(exec, A, m_ordering.permutation);
    ilu_analyze(exec, m_plan, factored(A));
    const bool isai = options.apply == IluApply::isai;
    if (!m_ordering.is_natural()) {
      m_renumbered = !isai && impl::ilu_renumber_rows(exec, m_plan, m_ordering.permutation);
      if (!m_renumbered)
        m_permuted_in = decltype(m_permuted_in)(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::permuted_in"),
            A.numRows());
    }
    if (isai) analyze_isai(exec);
    m_outcome = factor(exec, A);
  }

  /// Refactors with new values on the same pattern.
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    if (!m_ordering.is_natural()) m_permuted.refill(exec, A);
    m_outcome = factor(exec, A);
    return m_outcome;
  }

  /// The plan of the factorization, of P A P^T where an ordering permutes A (where its solves
  /// were renumbered, its `ilu_apply` then reads b and writes x numbered as A).
  const IluPlan<Matrix>& plan() const { return m_plan; }
  const ordering_type& ordering() const { return m_ordering; }
  const Outcome& outcome() const override { return m_outcome; }
  /// The diagonal shift of the factors (IluOptions::shift, or what `auto_shift` found).
  double shift() const { return m_plan.shift(); }
  /// Factorizations the last (re)factorization ran: more than one where `auto_shift` searched.
  int shift_attempts() const { return m_shift_attempts; }
  std::size_t num_rows() const override { return std::size_t(m_plan.num_rows()); }
  std::size_t num_cols() const override { return std::size_t(m_plan.num_rows()); }
  std::string name() const override {
    std::string name = impl::concat("ilu(", m_plan.options().fill_level, ") ",
                                    to_string(m_plan.effective_algorithm()));
    if (!m_ordering.is_natural()) name += impl::concat(", ", to_string(m_ordering.options.method));
    if (m_ordering.num_colors > 0) name += impl::concat(" (", m_ordering.num_colors, " colors)");
    if (m_isai_lower)
      name += impl::concat(", isai(", m_plan.options().isai_power, ")");
    else
      name += impl::concat(", solves ", to_string(m_plan.lower_solve_plan().effective_algorithm()));
    if (m_plan.shift() > 0) name += impl::concat(", shift ", m_plan.shift());
    return name;
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    this->check_sizes(x, y);
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState, "ilu: factorization failed: ", m_outcome.reason);
    if (m_isai_lower) return apply_isai(exec, x, y, alpha, beta);
    if (!m_ordering.is_natural() && !m_renumbered) {
      permute_vector(exec, m_ordering.permutation, x, m_permuted_in);
      ilu_apply(exec, m_plan, m_permuted_in, m_work);
      impl::scatter_axpby(exec, m_ordering.permutation, alpha, m_work, beta, y);
      return;
    }
    if (alpha == scalar_type(1) && beta == scalar_type(0)) {
      ilu_apply(exec, m_plan, x, y);
      return;
    }
    ilu_apply(exec, m_plan, x, m_work);
    impl::axpby(exec, alpha, m_work, beta, y);
  }

  void apply_and_dots(const typename base::execution_space& exec,
                      const typename base::const_vector_type& x,
                      const typename base::vector_type& y,
                      const typename base::const_vector_type& u,
                      const typename base::vector_type& sums) const override {
    if ((!m_ordering.is_natural() && !m_renumbered) || m_isai_lower)
      return base::apply_and_dots(exec, x, y, u, sums);
    this->check_sizes(x, y);
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState, "ilu: factorization failed: ", m_outcome.reason);
    ilu_apply_and_dots(exec, m_plan, x, y, u, sums);
  }

  /// y = A (LU)^{-1} x through `ilu_apply_then_spmv` where A is a CrsOperator of the same matrix
  /// type and no ordering permutes the factors, else the default.
  void apply_then(const typename base::execution_space& exec, const base& A,
                  const typename base::const_vector_type& x, const typename base::vector_type& y,
                  const typename base::vector_type& tmp) const override {
    const auto* crs = dynamic_cast<const CrsOperator<Matrix>*>(&A);
    if (crs == nullptr || !m_ordering.is_natural() || m_isai_lower)
      return base::apply_then(exec, A, x, y, tmp);
    this->check_sizes(x, tmp);
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState, "ilu: factorization failed: ", m_outcome.reason);
    ilu_apply_then_spmv(exec, m_plan, x, crs->plan(), y, tmp);
  }

 private:
  const Matrix& factored(const Matrix& A) const {
    return m_ordering.is_natural() ? A : m_permuted.matrix;
  }

  /// The ISAI plans of L (unit diagonal) and U, read from the combined factors.
  void analyze_isai(const typename base::execution_space& exec) {
    IsaiOptions lower;
    lower.diagonal = Diagonal::unit;
    lower.pattern_power = m_plan.options().isai_power;
    IsaiOptions upper = lower;
    upper.triangle = Triangle::upper;
    upper.diagonal = Diagonal::stored;
    m_isai_lower = std::make_unique<IsaiPlan<Matrix>>();
    m_isai_upper = std::make_unique<IsaiPlan<Matrix>>();
    isai_analyze(exec, *m_isai_lower, m_plan.factors(), lower);
    isai_analyze(exec, *m_isai_upper, m_plan.factors(), upper);
    m_isai_work = decltype(m_isai_work)(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::isai_work"),
        m_plan.num_rows());
  }

  /// ILU's factorization (with the shift the options ask for, or found by the automatic search),
  /// then ISAI's where it applies.
  Outcome factor(const typename base::execution_space& exec, const Matrix& A) {
    const Matrix& B = factored(A);
    const bool automatic = m_plan.options().auto_shift;
    const auto search = impl::search_shift(m_plan.options().shift, automatic, [&](double shift) {
      m_plan.set_shift(shift);
      Outcome outcome = ilu_factor(exec, m_plan, B);
      if (outcome.ok() && automatic) outcome = impl::ilu_pivot_signs(exec, m_plan, B);
      return outcome;
    });
    m_shift_attempts = search.attempts;
    Outcome outcome = search.outcome;
    if (outcome.ok() && m_isai_lower) {
      outcome = isai_factor(exec, *m_isai_lower, m_plan.factors());
      if (outcome.ok()) outcome = isai_factor(exec, *m_isai_upper, m_plan.factors());
    }
    return impl::outcome_in_original_rows(outcome, m_ordering);
  }

  /// y = alpha M_U M_L x + beta y, through the ordering's permutation where there is one.
  void apply_isai(const typename base::execution_space& exec,
                  const typename base::const_vector_type& x, const typename base::vector_type& y,
                  scalar_type alpha, scalar_type beta) const {
    if (m_ordering.is_natural()) {
      isai_apply(exec, *m_isai_lower, x, m_isai_work);
      isai_apply(exec, *m_isai_upper, m_isai_work, y, alpha, beta);
      return;
    }
    permute_vector(exec, m_ordering.permutation, x, m_permuted_in);
    isai_apply(exec, *m_isai_lower, m_permuted_in, m_isai_work);
    isai_apply(exec, *m_isai_upper, m_isai_work, m_work);
    impl::scatter_axpby(exec, m_ordering.permutation, alpha, m_work, beta, y);
  }

  IluPlan<Matrix> m_plan;
  ordering_type m_ordering;
  RearrangedMatrix<Matrix> m_permuted;
  /// The solves read and write the caller's numbering themselves (impl::ilu_renumber_rows).
  bool m_renumbered = false;
  Outcome m_outcome;
  int m_shift_attempts = 0;
  Vector<scalar_type, typename Matrix::device_type> m_work;
  Vector<scalar_type, typename Matrix::device_type> m_permuted_in;
  std::unique_ptr<IsaiPlan<Matrix>> m_isai_lower, m_isai_upper;  ///< with IluApply::isai
  Vector<scalar_type, typename Matrix::device_type> m_isai_work;
};

}  // namespace syncfree
