// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sparse triangular solve (SpTRSV): L x = b or U x = b, with a plan whose analysis is
/// reused by any number of solves.
///
/// \code
///   syncfree::SptrsvPlan<Matrix> plan({syncfree::Triangle::lower});
///   syncfree::sptrsv_analyze(exec, plan, L);    // structure only: validation, levels, layout
///   syncfree::sptrsv_solve(exec, plan, L, b, x);  // any number of times, any right-hand side
/// \endcode
///
/// Algorithms: `level_set` (one launch per level), the synchronization-free `sync_free_thread`
/// (one thread per row, each waiting only on its own dependencies, rows in chain-segment order:
/// runs of up to 32 rows that each depend on the row before, in the levels of the graph between
/// them, or where chains are short in the triangle's own order; on CUDA a chain inside a warp
/// resolves by one prefix scan, other dependencies inside a warp travel through shuffles and
/// inside a block through shared memory)
/// and `sync_free_row` (a vector of lanes per row, Dufrechou & Ezzatti 2018), the thesis'
/// `multirow` (SpTRSV_mr: rows of a level grouped by length into vectors of 1-32 lanes sharing a
/// warp), `packed` (SpTRSV_Fmt: the same warps reading their entries, lane by lane, from a
/// packed copy) and `alap_packed` (SpTRSV_FL: packed, on "as late as possible" levels),
/// `wavefront` (beyond the thesis, for grids: a warp holds the same 32-row piece of 32 lines, a
/// line per lane, of one plane or of 4 or 8 planes, and runs them as a wavefront, the lines'
/// dependencies on each other passing by shuffles; sync_free_thread where the matrix has no such
/// layout), `band` (beyond the thesis, for narrow bands, whose solve is one long chain: a warp
/// sweeps 32 rows at a time in row order, a window's dependencies on the window before read from
/// registers and on each other passed by one shuffle a row, so no value on the chain goes through
/// memory; sync_free_thread where an entry lies more than 32 rows from the diagonal or a row has
/// more than 16 entries), and `automatic` (`band` where it fits, else `wavefront` where rows hold
/// at most 4 entries and the layout holds, else `sync_free_thread`, or `alap_packed` where a row
/// holds more than 32 entries; `SptrsvPlan::choice()` says which rule chose).

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

enum class SptrsvAlgorithm {
  automatic,         ///< chosen by the analysis; see `SptrsvPlan::effective_algorithm()`
  level_set,         ///< one kernel launch per level
  sync_free_thread,  ///< one thread per row, chain-segment or row order, value-as-flag
  sync_free_row,     ///< a vector of lanes per row, level order, value-as-flag
  multirow,          ///< rows of a level grouped by length, 32 / vector size rows to a warp
  packed,            ///< multirow on the packed layout (built at analysis, values at first solve)
  alap_packed,       ///< packed, on "as late as possible" levels
  wavefront,  ///< a warp per 32 chain segments, one per lane, run as a wavefront (grids); else
              ///< sync_free_thread
  band,       ///< a warp sweeping 32 rows at a time (bands at most 32 wide); else sync_free_thread
};

inline const char* to_string(SptrsvAlgorithm a) {
  switch (a) {
    case SptrsvAlgorithm::automatic:
      return "auto";
    case SptrsvAlgorithm::level_set:
      return "level_set";
    case SptrsvAlgorithm::sync_free_thread:
      return "sync_free_thread";
    case SptrsvAlgorithm::sync_free_row:
      return "sync_free_row";
    case SptrsvAlgorithm::multirow:
      return "multirow";
    case SptrsvAlgorithm::packed:
      return "packed";
    case SptrsvAlgorithm::alap_packed:
      return "alap_packed";
    case SptrsvAlgorithm::wavefront:
      return "wavefront";
    case SptrsvAlgorithm::band:
      return "band";
  }
  return "unknown";
}

/// Every algorithm, `automatic` last.
inline constexpr SptrsvAlgorithm sptrsv_algorithms[] = {
    SptrsvAlgorithm::level_set,     SptrsvAlgorithm::sync_free_thread,
    SptrsvAlgorithm::sync_free_row, SptrsvAlgorithm::multirow,
    SptrsvAlgorithm::packed,        SptrsvAlgorithm::alap_packed,
    SptrsvAlgorithm::wavefront,     SptrsvAlgorithm::band,
    SptrsvAlgorithm::automatic};

/// The algorithm named `name` ("auto", "level_set", ...). \throws InvalidArgument otherwise.
inline SptrsvAlgorithm parse_sptrsv_algorithm(const std::string& name) {
  for (auto a : sptrsv_algorithms)
    if (name == to_string(a)) return a;
  throw InvalidArgument("unknown SpTRSV algorithm '" + name + "'");
}

struct SptrsvOptions {
  Triangle triangle = Triangle::lower;
  Diagonal diagonal = Diagonal::stored;
  SptrsvAlgorithm algorithm = SptrsvAlgorithm::automatic;
  /// A promise of bitwise the same x from every solve with the same plan, matrix and b on the
  /// same device and build. Every algorithm keeps it (sync-free values are published once, chains
  /// scanned in a fixed tree: core/cuda/syncfree_warp_chain_scan.hpp); what the option changes is
  /// that a choice from timings (`tune`) is refused.
  bool reproducible = false;
  /// With `automatic`: also analyze the performance model's fastest algorithms for this triangle
  /// (up to three, predicted within 2x of its fastest, besides the rule's choice), time a few solves
  /// of each, and keep the fastest; `SptrsvPlan::choice()` lists the times. The model cannot rank
  /// algorithms whose times differ by less than its error; a measurement can. Costs an analysis
  /// and a few solves per candidate: for plans that serve many solves. A choice from timings may
  /// differ from run to run, so `tune` and `reproducible` are refused together.
  bool tune = false;
};

}  // namespace syncfree

#include "algorithms/sptrsv/impl/syncfree_sptrsv_analyze.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_cost.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_dispatch.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_access.hpp"

namespace syncfree {

template <class Matrix>
class SptrsvPlan;

namespace impl {
template <class ExecSpace, class Matrix>
void sptrsv_tune(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Matrix& A);

/// \throws InvalidArgument where both are asked: a choice made from timings may differ between
/// runs, so a tuned analysis cannot promise the same bits.
inline void require_tuning_not_reproducible(bool tune, bool reproducible, const char* context) {
  SYNCFREE_REQUIRE(!(tune && reproducible), InvalidArgument, context,
                   ": tuning chooses from timings, which vary from run to run: it cannot be "
                   "combined with reproducible");
}
}  // namespace impl

/// Plan for repeated triangular solves with one sparsity pattern. Owns its device memory.
///
/// \tparam Matrix a `syncfree::CrsMatrix` (scalar float or double)
/// \note A plan holds the work space of its solves: do not solve with one plan from two execution
/// space instances at once. Copies of a plan share that storage.
template <class Matrix>
class SptrsvPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using ordinal_type = typename Matrix::non_const_ordinal_type;

  explicit SptrsvPlan(const SptrsvOptions& options = {}) : m_options(options) {}

  const SptrsvOptions& options() const { return m_options; }
  bool analyzed() const { return m_analyzed; }
  /// The algorithm solves run: the requested one, or what `automatic` chose at analysis.
  SptrsvAlgorithm effective_algorithm() const { return m_effective; }
  /// Why: "requested", or, for `automatic`, the rule and the feature of the triangle that chose
  /// it (for example "a row of 2288 entries: lanes per row by length, ...").
  const std::string& choice() const { return m_storage.choice; }
  ordinal_type num_rows() const { return m_storage.n; }
  /// Whether the plan holds the level sets of its triangle: found by the analysis where the
  /// layout needs them, else (`sync_free_thread` in chain order, `wavefront`, `band`, or the
  /// triangle's own order) by `sptrsv_find_levels`.
  bool has_levels() const { return m_storage.levels_known; }
  /// Length of the longest dependency chain: the critical path of every solve.
  /// \throws InvalidState unless `has_levels()`.
  ordinal_type num_levels() const { return known_levels("num_levels").num_levels; }
  ordinal_type max_level_size() const { return known_levels("max_level_size").max_level_size; }
  /// `sync_free_thread` (0 for the others, and where its chains are too short to be used): levels
  /// of the graph between its chain segments (runs of up to 32 rows, each depending on the one
  /// before), the dependency hops through memory on its critical path.
  ordinal_type num_chain_levels() const { return m_storage.chain_levels; }
  /// Off-diagonal entries of the longest row.
  ordinal_type max_row_length() const { return m_storage.max_row_length; }
  /// Device memory the plan holds (levels, level-ordered structure, work space, layouts).
  std::size_t memory_bytes() const { return m_storage.bytes(); }
  /// Device memory of the packed layout alone (`packed`, `alap_packed`; 0 for the others).
  std::size_t packed_bytes() const { return m_storage.packed_bytes(); }

 private:
  template <class E, class M>
  friend void sptrsv_analyze(const E&, SptrsvPlan<M>&, const M&);
  template <class M>
  friend void sptrsv_values_changed(const SptrsvPlan<M>&);
  template <class E, class M, class B, class X>
  friend void sptrsv_solve(const E&, const SptrsvPlan<M>&, const M&, const B&, const X&);
  friend struct impl::SptrsvPlanAccess;  // the one door of SyncFree's other algorithms

  const auto& known_levels(const char* getter) const {
    SYNCFREE_REQUIRE(m_storage.levels_known, InvalidState, "SptrsvPlan::", getter,
                     ": this plan's layout (", to_string(m_effective),
                     ") found no level sets; call sptrsv_find_levels(exec, plan) first");
    return m_storage.levels;
  }

  SptrsvOptions m_options;
  SptrsvAlgorithm m_effective = SptrsvAlgorithm::automatic;
  bool m_analyzed = false;
  impl::SptrsvPlanStorage<Matrix> m_storage;
};

/// Analysis (structure only): validates the triangle and lays the rows out in the algorithm's
/// order on the device (level order, chain segments in level order, wavefront units, or the
/// triangle's own order; see `SptrsvAlgorithm`).
/// Reusable while the pattern of A (its `row_map` and `entries`) stays the same; the values may
/// change between solves.
///
/// \throws InvalidMatrix when A is not square, has an entry outside the requested triangle,
/// unsorted or duplicate column indices, a missing or zero diagonal (stored diagonal), a NaN or
/// Inf value, or inconsistent row pointers. No solve kernel ever runs on such a matrix.
/// With `SptrsvOptions::tune`, the candidates' timed solves read A's values.
template <class ExecSpace, class Matrix>
void sptrsv_analyze(const ExecSpace& exec, SptrsvPlan<Matrix>& plan, const Matrix& A) {
  impl::ScopedRegion region("syncfree::sptrsv::analyze");
  impl::require_tuning_not_reproducible(plan.m_options.tune, plan.m_options.reproducible,
                                        "sptrsv_analyze");
  plan.m_analyzed = false;
  plan.m_storage.io_order = {};  // the rows of the pattern analyzed now are its own
  const auto shape =
      impl::sptrsv_validate(exec, A, plan.m_options.triangle, plan.m_options.diagonal);
  plan.m_effective = impl::sptrsv_build_layout(exec, plan.m_storage, A, plan.m_options.triangle,
                                               nullptr, plan.m_options.algorithm, nullptr, shape);
  plan.m_analyzed = true;
  if (plan.m_options.tune && plan.m_options.algorithm == SptrsvAlgorithm::automatic)
    impl::sptrsv_tune(exec, plan, A);
}

/// Tells the plan that the values of its matrix changed in place (same arrays). Only `packed`,
/// `alap_packed`, `wavefront` and `band` need it: they copy A's values into their layout when a
/// solve first sees the values array, and copy them again at the next solve after this call. The
/// other algorithms read A's values at every solve.
template <class Matrix>
void sptrsv_values_changed(const SptrsvPlan<Matrix>& plan) {
  plan.m_storage.packed_values_of = nullptr;
}

/// Solves T x = b for the triangle T of A given to the plan, for one right-hand side (rank-1 views)
/// or several (rank-2 views, one per column). Asynchronous on `exec`.
///
/// NaN or Inf in b propagate to x (never a hang: see core/impl/syncfree_sentinel.hpp).
/// \throws InvalidState before `sptrsv_analyze`; StructureMismatch when A is not the matrix (same
/// pattern arrays) the plan analyzed; DimensionMismatch when b and x do not fit A.
template <class ExecSpace, class Matrix, class BView, class XView>
void sptrsv_solve(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan, const Matrix& A,
                  const BView& b, const XView& x) {
  static_assert(int(BView::rank) == int(XView::rank) && (BView::rank == 1 || BView::rank == 2),
                "sptrsv_solve: b and x must both be vectors or both be multivectors");
  const auto& s = plan.m_storage;
  SYNCFREE_REQUIRE(plan.analyzed(), InvalidState, "sptrsv_solve: call sptrsv_analyze first");
  SYNCFREE_REQUIRE(A.numRows() == s.n && A.nnz() == s.matrix.nnz() &&
                       A.graph.row_map.data() == s.matrix.graph.row_map.data() &&
                       A.graph.entries.data() == s.matrix.graph.entries.data(),
                   StructureMismatch,
                   "sptrsv_solve: the matrix is not the one the plan analyzed (same row_map and "
                   "entries arrays are required)");
  SYNCFREE_REQUIRE(b.extent(0) == std::size_t(s.n) && x.extent(0) == std::size_t(s.n) &&
                       b.extent(1) == x.extent(1),
                   DimensionMismatch, "sptrsv_solve: matrix has ", s.n, " rows, b is ", b.extent(0),
                   "x", b.extent(1), ", x is ", x.extent(0), "x", x.extent(1));
  impl::ScopedRegion region("syncfree::sptrsv::solve");
  const bool unit = plan.m_options.diagonal == Diagonal::unit;
  if constexpr (BView::rank == 1) {
    impl::sptrsv_solve_column(exec, plan.m_effective, s, A, b, x, unit);
  } else {
    for (std::size_t j = 0; j < b.extent(1); ++j)
      impl::sptrsv_solve_column(exec, plan.m_effective, s, A, Kokkos::subview(b, Kokkos::ALL(), j),
                                Kokkos::subview(x, Kokkos::ALL(), j), unit);
  }
}

/// Finds, on `exec`, the level sets of an analyzed plan whose layout did not need them (see
/// `SptrsvPlan::has_levels`) and keeps them in the plan; nothing where it has them.
template <class ExecSpace, class Matrix>
void sptrsv_find_levels(const ExecSpace& exec, const SptrsvPlan<Matrix>& plan) {
  impl::SptrsvPlanAccess::find_levels(exec, plan);
}

/// A triangular solve as an `Operator`: y = alpha * T^{-1} x + beta * y. Analyzes on construction.
template <class Matrix>
class SptrsvOperator final
    : public Operator<typename Matrix::non_const_value_type, typename Matrix::device_type> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = Operator<scalar_type, typename Matrix::device_type>;

  SptrsvOperator(const typename base::execution_space& exec, const Matrix& A,
                 const SptrsvOptions& options = {})
      : m_A(A),
        m_plan(options),
        m_work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::operator_work"),
               A.numRows()) {
    sptrsv_analyze(exec, m_plan, A);
  }

  const SptrsvPlan<Matrix>& plan() const { return m_plan; }
  std::size_t num_rows() const override { return std::size_t(m_A.numRows()); }
  std::size_t num_cols() const override { return std::size_t(m_A.numRows()); }
  std::string name() const override {
    return std::string("sptrsv ") + to_string(m_plan.effective_algorithm());
  }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    this->check_sizes(x, y);
    if (alpha == scalar_type(1) && beta == scalar_type(0)) {
      sptrsv_solve(exec, m_plan, m_A, x, y);
      return;
    }
    sptrsv_solve(exec, m_plan, m_A, x, m_work);
    impl::axpby(exec, alpha, m_work, beta, y);
  }

 private:
  Matrix m_A;
  SptrsvPlan<Matrix> m_plan;
  Vector<scalar_type, typename Matrix::device_type> m_work;
};

/// One algorithm and the performance model's prediction of a solve by it.
struct SptrsvPrediction {
  SptrsvAlgorithm algorithm;
  Prediction solve;
};

}  // namespace syncfree

#include "algorithms/sptrsv/impl/syncfree_sptrsv_tune.hpp"

namespace syncfree {

/// The performance model's prediction of one solve of the `options.triangle` of A by each
/// algorithm it has a formula for (all but `wavefront` and `band`, whose layouts exist only on
/// grids and bands), fastest first, on the device `device` describes (`device_parameters(exec)`
/// for the running one). Validates A as an analysis does, reads its pattern once on the host
/// (syncfree_triangle_features.hpp) and runs one `sync_free_thread` analysis, for its chain
/// levels. The model's errors and how often its fastest is the fastest measured are recorded
/// beside the benchmarks.
template <class ExecSpace, class Matrix>
std::vector<SptrsvPrediction> sptrsv_predict(const ExecSpace& exec, const Matrix& A,
                                             const SptrsvOptions& options,
                                             const DeviceParameters& device) {
  SptrsvOptions chain_options = options;
  chain_options.algorithm = SptrsvAlgorithm::sync_free_thread;
  SptrsvPlan<Matrix> plan(chain_options);
  sptrsv_analyze(exec, plan, A);
  return impl::sptrsv_rank(device, triangle_features(copy_to<HostDevice>(A), options.triangle),
                           long(plan.num_chain_levels()));
}

}  // namespace syncfree
