// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Stone's strongly implicit procedure (SIP) on 5-point (2-D) and 7-point (3-D) structured
/// grid matrices: an incomplete factorization LU ~ A whose parameter alpha (0.92 by default)
/// partially cancels the fill ILU(0) drops (alpha = 0 is ILU(0)), the factorization and both
/// sweeps walking the grid's hyperplanes i + j + k = const (impl/syncfree_sip_rules.hpp has the
/// recurrences).
///
/// \code
///   syncfree::SipPlan<Matrix> plan;
///   syncfree::sip_analyze(exec, plan, A, options);   // the grid (recognized or given), order
///   auto outcome = syncfree::sip_factor(exec, plan, A);  // L and U (values)
///   syncfree::sip_apply(exec, plan, r, z);             // z = (LU)^{-1} r
///   auto result = syncfree::sip_solve(exec, plan, A, b, x, 1e-8, 500);  // SIP as the solver
/// \endcode
///
/// The grid is recognized from A (its entries lie at distances 1, nx and nx*ny from the diagonal)
/// or given as (nx, ny, nz); a matrix with an entry that couples points that are not grid
/// neighbours is refused, naming the entry.

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/sip/impl/syncfree_sip_grid.hpp"
#include "algorithms/sip/impl/syncfree_sip_rules.hpp"
#include "algorithms/sip/impl/syncfree_sip_sweeps.hpp"
#include "algorithms/sip/impl/syncfree_sip_triangles.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

template <class Matrix>
class SipPlan;

namespace impl {
template <class ExecSpace, class Matrix, class R>
void sip_forward(const ExecSpace& exec, const SipPlan<Matrix>& plan, const R& r);
template <class ExecSpace, class Matrix>
void sip_rearm_forward(const ExecSpace& exec, const SipPlan<Matrix>& plan);
}  // namespace impl

enum class SipVariant {
  automatic,     ///< `triangular`, the fastest
  level_sync,    ///< one launch, a barrier between hyperplanes (the thesis' SIP_LS)
  element_sync,  ///< one launch, each point waiting only on its neighbours (SIP_ES)
  triangular,    ///< SyncFree's SpTRSV on L and U (its `wavefront` layout on grids)
};

inline const char* to_string(SipVariant v) {
  switch (v) {
    case SipVariant::automatic:
      return "auto";
    case SipVariant::level_sync:
      return "level_sync";
    case SipVariant::element_sync:
      return "element_sync";
    case SipVariant::triangular:
      return "triangular";
  }
  return "unknown";
}

/// \throws InvalidArgument for a name other than auto, level_sync, element_sync, triangular.
inline SipVariant parse_sip_variant(const std::string& name) {
  for (auto v : {SipVariant::automatic, SipVariant::level_sync, SipVariant::element_sync,
                 SipVariant::triangular})
    if (name == to_string(v)) return v;
  throw InvalidArgument("unknown SIP variant '" + name +
                        "' (expected auto, level_sync, element_sync or triangular)");
}

struct SipOptions {
  double alpha = 0.92;  ///< Stone's cancellation parameter, in [0, 1]
  SipVariant variant = SipVariant::automatic;
  /// The grid; all zero: recognized from the matrix.
  SipGrid grid;
  /// `SipPreconditioner`: SIP iterations from zero per application (1: (LU)^{-1}).
  int inner_iterations = 1;
  /// `level_sync` and `element_sync` on GPUs: threads per team (a piece of a hyperplane, or
  /// points claimed together); 0: each variant's default (impl::sip_team_size).
  int team_size = 0;
  /// Bitwise the same sweeps on every run on the same device and build: every variant gives that
  /// (`triangular`'s solves as SptrsvOptions::reproducible); kept as that promise.
  bool reproducible = false;
};

template <class Matrix>
class SipPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return std::size_t(m_grid.points()); }
  const SipGrid& grid() const { return m_grid; }
  const SipOptions& options() const { return m_options; }
  SipVariant variant() const { return m_variant; }
  /// The hyperplanes, the sweeps' critical path.
  std::int64_t num_levels() const { return m_grid.levels(); }
  /// L's off-diagonal entries (by stride: 1, nx, nx ny), B = 1 / L's diagonal, U's entries.
  const impl::SipFactors<scalar_type, device_type>& factors() const { return m_factors; }

 private:
  template <class E, class M>
  friend void sip_analyze(const E&, SipPlan<M>&, const M&, const SipOptions&);
  template <class E, class M>
  friend Outcome sip_factor(const E&, SipPlan<M>&, const M&);
  template <class E, class M, class X, class Y>
  friend void sip_apply(const E&, const SipPlan<M>&, const X&, const Y&,
                        typename M::non_const_value_type, typename M::non_const_value_type);
  template <class E, class M, class R>
  friend void impl::sip_forward(const E&, const SipPlan<M>&, const R&);
  template <class E, class M>
  friend void impl::sip_rearm_forward(const E&, const SipPlan<M>&);

  SipOptions m_options;
  SipVariant m_variant = SipVariant::triangular;
  SipGrid m_grid;
  std::int64_t m_nnz = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  mutable impl::SipLayout<device_type> m_layout;
  impl::SipFactors<scalar_type, device_type> m_factors;
  /// The sweeps' work: R (forward) and d (backward), armed for `element_sync`.
  Kokkos::View<scalar_type*, device_type> m_R, m_d;
  /// `triangular`: L and U, and their solve plans (analyzed at the first factorization).
  Matrix m_L, m_U;
  std::shared_ptr<SptrsvPlan<Matrix>> m_L_plan, m_U_plan;
};

namespace impl {

/// Runs `rule` over the grid with `variant` (element_sync or level_sync).
template <class ExecSpace, class Device, class Rule>
void sip_sweep(const ExecSpace& exec, SipLayout<Device>& layout, SipVariant variant,
               const Rule& rule, bool descending) {
  if (variant == SipVariant::level_sync)
    sip_sweep_level_sync(exec, layout, rule, descending);
  else
    sip_sweep_element_sync(exec, layout, rule, descending);
}

/// Arms every entry of v (the NaN sentinel) when `arm`.
template <class ExecSpace, class Device>
void sip_fill(const ExecSpace& exec, const Kokkos::View<double*, Device>& v, bool arm) {
  if (arm)
    Kokkos::parallel_for(
        "syncfree::sip::arm", Kokkos::RangePolicy<ExecSpace>(exec, 0, v.extent(0)),
        KOKKOS_LAMBDA(const std::size_t i) { Sentinel<double>::arm(&v(i)); });
}

}  // namespace impl

/// Structure phase: finds the grid (options.grid, or recognized from A's pattern), checks that
/// every entry of A couples grid neighbours, and orders the points by hyperplane.
/// \throws InvalidMatrix when A is not square, its rows are not sorted and unique, it is not a 5-
/// or 7-point grid matrix (saying why, or naming the first entry that couples points that are not
/// neighbours); InvalidArgument for alpha outside [0, 1], a given grid whose size is not A's, or
/// inner_iterations < 1.
template <class ExecSpace, class Matrix>
void sip_analyze(const ExecSpace& exec, SipPlan<Matrix>& plan, const Matrix& A,
                 const SipOptions& options = {}) {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  static_assert(std::is_same_v<scalar_type, double>, "SIP is implemented for double");
  SYNCFREE_REQUIRE(options.alpha >= 0 && options.alpha <= 1, InvalidArgument,
                   "sip_analyze: alpha must be in [0, 1], got ", options.alpha);
  SYNCFREE_REQUIRE(options.team_size >= 0 && options.team_size <= 1024, InvalidArgument,
                   "sip_analyze: team size must be in [0, 1024], got ", options.team_size);
  SYNCFREE_REQUIRE(options.inner_iterations >= 1, InvalidArgument,
                   "sip_analyze: inner iterations must be >= 1, got ", options.inner_iterations);
  require_valid(exec, A, MatrixCheck::square | MatrixCheck::sorted_unique, "sip_analyze");
  impl::ScopedRegion region("syncfree::sip::analyze");
  plan = SipPlan<Matrix>();
  plan.m_options = options;
  plan.m_variant =
      options.variant == SipVariant::automatic ? SipVariant::triangular : options.variant;
  plan.m_nnz = std::int64_t(A.nnz());
  const std::int64_t n = A.numRows();
  SipGrid grid = options.grid;
  if (grid.nx == 0 && grid.ny == 0 && grid.nz == 0) {
    std::string reason;
    grid = impl::recognize_sip_grid(exec, A, reason);
    SYNCFREE_REQUIRE(reason.empty(), InvalidMatrix,
                     "sip_analyze: not a 5- or 7-point structured grid matrix: ", reason);
  } else {
    SYNCFREE_REQUIRE(grid.nx >= 1 && grid.ny >= 1 && grid.nz >= 1 && grid.points() == n,
                     InvalidArgument, "sip_analyze: a grid of ", grid.nx, " x ", grid.ny, " x ",
                     grid.nz, " points for a matrix of ", n, " rows");
  }
  const std::string stray = impl::sip_non_neighbour(exec, A, impl::sip_strides(grid));
  SYNCFREE_REQUIRE(stray.empty(), InvalidMatrix, "sip_analyze: ", stray,
                   " couples points that are not neighbours on the ", grid.nx, " x ", grid.ny,
                   " x ", grid.nz, " grid (5- or 7-point couplings only)");
  plan.m_grid = grid;

  auto& layout = plan.m_layout;
  layout.grid = impl::sip_strides(grid);
  layout.n = n;
  layout.levels = grid.levels();
  const auto planes = impl::sip_hyperplanes<ExecSpace, device_type>(exec, layout.grid);
  layout.order = planes.order;
  layout.plane_begin = planes.level_ptr;
  const auto plane_begin = impl::to_std_vector(planes.level_ptr);
  std::vector<std::int64_t> team_begin(1, 0);
  const int team =
      impl::sip_team_size<ExecSpace>(options.team_size, plan.m_variant == SipVariant::element_sync);
  layout.team = team;
  for (std::int64_t l = 0; l < layout.levels; ++l)
    team_begin.push_back(
        team_begin.back() +
        (plane_begin[std::size_t(l) + 1] - plane_begin[std::size_t(l)] + team - 1) / team);
  layout.teams = team_begin.back();
  layout.team_begin =
      impl::to_device_view<std::int64_t, device_type>(team_begin, "syncfree::sip::team_begin");
  layout.done = Kokkos::View<unsigned*, device_type>("syncfree::sip::done", layout.levels);
  layout.tickets.allocate("syncfree::sip::ticket");

  auto& f = plan.m_factors;
  const auto vector = [&](const char* label) {
    return Kokkos::View<scalar_type*, device_type>(std::string(label), std::size_t(n));
  };
  f = {vector("syncfree::sip::lx"), vector("syncfree::sip::ly"), vector("syncfree::sip::lz"),
       vector("syncfree::sip::b"),  vector("syncfree::sip::ux"), vector("syncfree::sip::uy"),
       vector("syncfree::sip::uz")};
  plan.m_R = vector("syncfree::sip::R");
  plan.m_d = vector("syncfree::sip::d");
  const bool waits = plan.m_variant == SipVariant::element_sync;
  impl::sip_fill<ExecSpace>(exec, plan.m_R, waits);
  impl::sip_fill<ExecSpace>(exec, plan.m_d, waits);
  if (plan.m_variant == SipVariant::triangular) {
    plan.m_L = impl::sip_triangle_pattern<Matrix>(exec, layout.grid, n, true);
    plan.m_U = impl::sip_triangle_pattern<Matrix>(exec, layout.grid, n, false);
  }
  plan.m_analyzed = true;
}

/// Numeric phase: L and U for A's values, in hyperplane order (`element_sync` waiting point by
/// point, the others with `level_sync`'s barriers). Call again whenever the values change.
/// \returns `Status::zero_pivot` naming the first point whose pivot is zero, `Status::not_finite`
/// naming the first whose factors are NaN or Inf, else success.
/// \throws InvalidState before `sip_analyze`; StructureMismatch when A has another size.
template <class ExecSpace, class Matrix>
Outcome sip_factor(const ExecSpace& exec, SipPlan<Matrix>& plan, const Matrix& A) {
  using device_type = typename Matrix::device_type;
  SYNCFREE_REQUIRE(plan.m_analyzed, InvalidState, "sip_factor: call sip_analyze first");
  SYNCFREE_REQUIRE(
      std::size_t(A.numRows()) == plan.num_rows() && std::int64_t(A.nnz()) == plan.m_nnz,
      StructureMismatch, "sip_factor: plan was analyzed for ", plan.num_rows(), " rows and ",
      plan.m_nnz, " entries, the matrix has ", A.numRows(), " and ", A.nnz());
  impl::ScopedRegion region("syncfree::sip::factor");
  impl::SipFactorRule<Matrix> rule;
  rule.row_map = A.graph.row_map;
  rule.entries = A.graph.entries;
  rule.values = A.values;
  rule.grid = plan.m_layout.grid;
  rule.alpha = plan.m_options.alpha;
  rule.f = plan.m_factors;
  rule.failure = Kokkos::View<std::int64_t, device_type>("syncfree::sip::failure");
  Kokkos::deep_copy(exec, rule.failure, std::numeric_limits<std::int64_t>::max());
  // The factorization waits on nine values per point: element_sync's per-point waits cost it
  // more than level_sync's barriers, which `triangular` therefore borrows.
  const SipVariant launch = plan.m_variant == SipVariant::element_sync ? SipVariant::element_sync
                                                                       : SipVariant::level_sync;
  const bool waits = launch == SipVariant::element_sync;
  impl::sip_fill<ExecSpace>(exec, plan.m_factors.ux, waits);
  impl::sip_fill<ExecSpace>(exec, plan.m_factors.uy, waits);
  impl::sip_fill<ExecSpace>(exec, plan.m_factors.uz, waits);
  impl::sip_sweep(exec, plan.m_layout, launch, rule, false);
  std::int64_t failure = 0;
  Kokkos::deep_copy(exec, failure, rule.failure);
  exec.fence();
  plan.m_factored = failure == std::numeric_limits<std::int64_t>::max();
  if (!plan.m_factored) {
    const std::int64_t point = failure / 2;
    if (failure % 2 == impl::sip_zero_pivot)
      return {Status::zero_pivot, point, impl::concat("row ", point, ": the SIP pivot is zero")};
    return {Status::not_finite, point,
            impl::concat("row ", point, ": the SIP factors are not finite")};
  }
  if (plan.m_variant == SipVariant::triangular) {
    impl::sip_fill_triangles(exec, plan.m_layout.grid, plan.m_factors, plan.m_L, plan.m_U);
    if (!plan.m_L_plan) {
      const bool reproducible = plan.m_options.reproducible;
      plan.m_L_plan = std::make_shared<SptrsvPlan<Matrix>>(SptrsvOptions{
          Triangle::lower, Diagonal::stored, SptrsvAlgorithm::automatic, reproducible});
      plan.m_U_plan = std::make_shared<SptrsvPlan<Matrix>>(
          SptrsvOptions{Triangle::upper, Diagonal::unit, SptrsvAlgorithm::automatic, reproducible});
      sptrsv_analyze(exec, *plan.m_L_plan, plan.m_L);
      sptrsv_analyze(exec, *plan.m_U_plan, plan.m_U);
    } else {
      sptrsv_values_changed(*plan.m_L_plan);
      sptrsv_values_changed(*plan.m_U_plan);
    }
  }
  return {};
}

namespace impl {

/// Marks R "not computed" again, as a backward sweep does, so that `sip_forward` can run again
/// alone (`element_sync` waits on R; the others need nothing).
template <class ExecSpace, class Matrix>
void sip_rearm_forward(const ExecSpace& exec, const SipPlan<Matrix>& plan) {
  sip_fill<ExecSpace>(exec, plan.m_R, plan.m_variant == SipVariant::element_sync);
}

/// R = L^{-1} r alone (the benchmark's forward sweep; before each but the first after a backward
/// sweep, `sip_rearm_forward`): the plan's R holds it.
template <class ExecSpace, class Matrix, class R>
void sip_forward(const ExecSpace& exec, const SipPlan<Matrix>& plan, const R& r) {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  SipForwardRule<scalar_type, device_type, R> forward{plan.m_layout.grid, plan.m_factors, r,
                                                      plan.m_R, plan.m_d};
  sip_sweep(exec, plan.m_layout, plan.m_variant, forward, false);
}

}  // namespace impl

/// y = alpha (LU)^{-1} x + beta y (beta = 0: y is overwritten). x and y must not alias.
/// \throws InvalidState unless the last `sip_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y>
void sip_apply(const ExecSpace& exec, const SipPlan<Matrix>& plan, const X& x, const Y& y,
               typename Matrix::non_const_value_type alpha = 1,
               typename Matrix::non_const_value_type beta = 0) {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "sip_apply: no successful sip_factor for this plan");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows(),
                   DimensionMismatch, "sip_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0));
  impl::ScopedRegion region("syncfree::sip::apply");
  if (plan.m_variant == SipVariant::triangular) {
    sptrsv_solve(exec, *plan.m_L_plan, plan.m_L, x, plan.m_R);
    if (beta == scalar_type(0) && alpha == scalar_type(1)) {
      sptrsv_solve(exec, *plan.m_U_plan, plan.m_U, plan.m_R, y);
    } else {
      sptrsv_solve(exec, *plan.m_U_plan, plan.m_U, plan.m_R, plan.m_d);
      impl::axpby(exec, alpha, plan.m_d, beta, y);
    }
    return;
  }
  impl::SipForwardRule<scalar_type, device_type, X> forward{plan.m_layout.grid, plan.m_factors, x,
                                                            plan.m_R, plan.m_d};
  impl::sip_sweep(exec, plan.m_layout, plan.m_variant, forward, false);
  impl::SipBackwardRule<scalar_type, device_type, Y> backward{
      plan.m_layout.grid, plan.m_factors, plan.m_R, plan.m_d, y, alpha, beta};
  impl::sip_sweep(exec, plan.m_layout, plan.m_variant, backward, true);
}

/// SIP as a solver: x += (LU)^{-1} (b - A x) until ||b - A x|| <= tolerance ||b|| or
/// max_iterations, the residual read on the host every iteration. A must be the factored matrix.
template <class ExecSpace, class Matrix, class B, class X>
SolveResult sip_solve(const ExecSpace& exec, const SipPlan<Matrix>& plan, const Matrix& A,
                      const B& b, const X& x, double tolerance, int max_iterations) {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "sip_solve: no successful sip_factor for this plan");
  const SpmvPlan<Matrix> a_plan(exec, A);
  Vector<scalar_type, device_type> r("syncfree::sip::r", plan.num_rows()),
      z("syncfree::sip::z", plan.num_rows());
  const double b_norm = double(impl::nrm2(exec, b));
  SolveResult result;
  for (int it = 0;; ++it) {
    Kokkos::deep_copy(exec, r, b);
    a_plan.apply(exec, scalar_type(-1), x, scalar_type(1), r);
    const double norm = double(impl::nrm2(exec, r));
    result.iterations = it;
    result.relative_residual = b_norm > 0 ? norm / b_norm : norm;
    if (!impl::is_finite(norm)) {
      result.status = Status::not_finite;
      result.reason = "the residual is not finite";
      return result;
    }
    if (norm <= tolerance * b_norm) {
      result.status = Status::success;
      return result;
    }
    if (it == max_iterations) {
      result.status = Status::not_converged;
      result.reason = impl::concat("relative residual ", result.relative_residual, " after ", it,
                                   " iterations");
      return result;
    }
    sip_apply(exec, plan, r, z);
    impl::axpby(exec, scalar_type(1), z, scalar_type(1), x);
  }
}

/// SIP as an `Operator`: `inner_iterations` SIP iterations from zero per application (one:
/// (LU)^{-1}). Analyzes and factors on construction; keeps A (shallow) for inner iterations.
template <class Matrix>
class SipPreconditioner final : public Preconditioner<Matrix> {
 public:
  using scalar_type = typename Matrix::non_const_value_type;
  using base = typename Preconditioner<Matrix>::base;

  /// \throws as sip_analyze. A failed factorization is not thrown: check `outcome()`.
  SipPreconditioner(const typename base::execution_space& exec, const Matrix& A,
                    const SipOptions& options = {})
      : m_A(A) {
    sip_analyze(exec, m_plan, A, options);
    m_outcome = sip_factor(exec, m_plan, A);
    if (options.inner_iterations > 1) {
      m_spmv = std::make_shared<SpmvPlan<Matrix>>(exec, m_A);
      m_z = typename base::vector_type("syncfree::sip::inner_z", m_plan.num_rows());
      m_r = typename base::vector_type("syncfree::sip::inner_r", m_plan.num_rows());
      m_dz = typename base::vector_type("syncfree::sip::inner_dz", m_plan.num_rows());
    }
  }

  const Outcome& outcome() const override { return m_outcome; }
  const Outcome& refactor(const typename base::execution_space& exec, const Matrix& A) override {
    m_A = A;
    if (m_spmv) m_spmv = std::make_shared<SpmvPlan<Matrix>>(exec, m_A);
    m_outcome = sip_factor(exec, m_plan, A);
    return m_outcome;
  }
  const SipPlan<Matrix>& plan() const { return m_plan; }
  std::size_t num_rows() const override { return m_plan.num_rows(); }
  std::size_t num_cols() const override { return m_plan.num_rows(); }
  std::string name() const override { return "sip"; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, scalar_type alpha = scalar_type(1),
             scalar_type beta = scalar_type(0)) const override {
    SYNCFREE_REQUIRE(m_outcome.ok(), InvalidState, "sip: factorization failed: ", m_outcome.reason);
    const int inner = m_plan.options().inner_iterations;
    if (inner == 1) {
      sip_apply(exec, m_plan, x, y, alpha, beta);
      return;
    }
    sip_apply(exec, m_plan, x, m_z);
    for (int it = 1; it < inner; ++it) {
      Kokkos::deep_copy(exec, m_r, x);
      m_spmv->apply(exec, scalar_type(-1), m_z, scalar_type(1), m_r);
      sip_apply(exec, m_plan, m_r, m_dz);
      impl::axpby(exec, scalar_type(1), m_dz, scalar_type(1), m_z);
    }
    impl::axpby(exec, alpha, m_z, beta, y);
  }

 private:
  Matrix m_A;
  SipPlan<Matrix> m_plan;
  Outcome m_outcome;
  std::shared_ptr<SpmvPlan<Matrix>> m_spmv;
  typename base::vector_type m_z, m_r, m_dz;
};

}  // namespace syncfree
