// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The device-resident state every Krylov solver shares: one small buffer of scalars that
/// holds the stopping status, the iteration count, the residual norm and the solver's own
/// recurrence scalars (alpha, beta, omega, rho, ...). Kernels read and write it on the device;
/// the host copies its first slots back once per `check_every` iterations.
///
/// Only single-thread "scalar kernels" write the status, and every vector kernel that changes x
/// (or a vector the next stopping test depends on) returns at once when the status is no longer
/// `running`, so the iterations launched after the device stopped leave the answer untouched.

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <string>

#include "algorithms/krylov/impl/syncfree_krylov_kernels.hpp"
#include "algorithms/krylov/impl/syncfree_stagnation_watch.hpp"
#include "algorithms/krylov/syncfree_krylov_options.hpp"
#include "core/impl/syncfree_host_reads.hpp"

namespace syncfree::impl {

/// Slots of the state buffer shared by all solvers; solver slots start at `first_free`.
namespace slot {
enum : int {
  status,      ///< a `DeviceStatus`
  cause,       ///< a `StopCause`
  iteration,   ///< iterations completed
  residual,    ///< ||r|| of the last completed iteration (the recurrence's, or GMRES's estimate)
  reference,   ///< the norm the stopping test compares with
  threshold,   ///< tolerance * reference
  scratch_0,   ///< free for one kernel's reduction
  scratch_1,   ///< free for one kernel's reduction
  aux_0,       ///< solver-specific, read by the host (GMRES: the steps of the current cycle)
  aux_1,       ///< solver-specific, read by the host (GMRES: the cycle is done)
  first_free,  ///< first solver-specific slot the host does not read
};
/// Slots the host copies back at each check.
inline constexpr int host_read = first_free;
}  // namespace slot

enum class DeviceStatus : int { running = 0, converged = 1, breakdown = 2, not_finite = 3 };

/// Why a solver stopped; `to_string` gives the reason SolveResult reports.
enum class StopCause : int {
  none = 0,
  zero_rhs,
  rhs_not_finite,
  initial_residual_not_finite,
  residual_not_finite,
  cg_rz_not_positive,
  cg_pap_not_positive,
  bicgstab_rho_zero,
  bicgstab_rv_zero,
  bicgstab_omega_zero,
  bicgstab_scalar_not_finite,
  tfqmr_vr_zero,
  tfqmr_rho_zero,
  tfqmr_scalar_not_finite,
  gmres_singular_hessenberg,
  gmres_not_finite,
};

inline const char* to_string(StopCause cause) {
  switch (cause) {
    case StopCause::none:
      return "";
    case StopCause::zero_rhs:
      return "";
    case StopCause::rhs_not_finite:
      return "right-hand side is not finite (NaN or Inf in b)";
    case StopCause::initial_residual_not_finite:
      return "initial residual is not finite (NaN or Inf in the operator, the preconditioner or "
             "the initial guess)";
    case StopCause::residual_not_finite:
      return "residual is not finite";
    case StopCause::cg_rz_not_positive:
      return "r'z <= 0: the preconditioner is not positive definite";
    case StopCause::cg_pap_not_positive:
      return "p'Ap <= 0: the operator is not positive definite";
    case StopCause::bicgstab_rho_zero:
      return "rho = (r0, r) = 0: the shadow residual is orthogonal to the residual";
    case StopCause::bicgstab_rv_zero:
      return "(r0, v) = 0: the shadow residual is orthogonal to A p";
    case StopCause::bicgstab_omega_zero:
      return "omega = 0: the stabilizing step made no progress";
    case StopCause::bicgstab_scalar_not_finite:
      return "a BiCGStab scalar is not finite";
    case StopCause::tfqmr_vr_zero:
      return "(v, r0) = 0: the shadow residual is orthogonal to v";
    case StopCause::tfqmr_rho_zero:
      return "rho = (w, r0) = 0: the shadow residual is orthogonal to w";
    case StopCause::tfqmr_scalar_not_finite:
      return "a TFQMR scalar is not finite";
    case StopCause::gmres_singular_hessenberg:
      return "the Hessenberg matrix is singular: the preconditioned operator is singular on the "
             "Krylov space";
    case StopCause::gmres_not_finite:
      return "the Arnoldi process produced a value that is not finite";
  }
  return "unknown";
}

/// The device-side handle of the state: copied into kernels by value.
template <class Scalar, class Device>
struct KrylovState {
  using view_type = Kokkos::View<Scalar*, Device>;
  view_type s;
  view_type history;  ///< relative residual per iteration, or empty

  KOKKOS_INLINE_FUNCTION Scalar& operator[](int k) const { return s(k); }
  KOKKOS_INLINE_FUNCTION bool running() const { return s(slot::status) == Scalar(0); }
  KOKKOS_INLINE_FUNCTION void stop(DeviceStatus status, StopCause cause) const {
    s(slot::status) = Scalar(int(status));
    s(slot::cause) = Scalar(int(cause));
  }
  /// Counts one iteration ending with residual norm `norm` and records it.
  KOKKOS_INLINE_FUNCTION void count_iteration(Scalar norm) const {
    const int it = int(s(slot::iteration)) + 1;
    s(slot::iteration) = Scalar(it);
    s(slot::residual) = norm;
    const Scalar ref = s(slot::reference);
    if (std::size_t(it) < history.extent(0)) history(it) = ref > Scalar(0) ? norm / ref : norm;
  }
  /// `count_iteration`, then stops on convergence or a residual that is not finite.
  KOKKOS_INLINE_FUNCTION void finish_iteration(Scalar norm) const {
    count_iteration(norm);
    if (!is_finite(norm))
      stop(DeviceStatus::not_finite, StopCause::residual_not_finite);
    else if (norm <= s(slot::threshold))
      stop(DeviceStatus::converged, StopCause::none);
  }
};

/// A solver's work vector of n entries, left uninitialized (the solver writes it before reading).
template <class Scalar, class Device>
typename Operator<Scalar, Device>::vector_type work_vector(const std::string& label,
                                                           std::size_t n) {
  return typename Operator<Scalar, Device>::vector_type(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
}

/// What a solver's residual is replaced by: r = b - A x.
template <class Scalar, class Device>
struct TrueResidual {
  const Operator<Scalar, Device>& A;
  typename Operator<Scalar, Device>::const_vector_type b, x;
  typename Operator<Scalar, Device>::vector_type r;
};

/// Why a solver's residual is being replaced by the true one.
enum class Replacement {
  drop,         ///< the recursive residual fell by `KrylovOptions::residual_replacement`
  convergence,  ///< the recursive residual met the tolerance: is the true one there too?
  stagnation,   ///< the residual stagnated: one restart from the true residual before stopping
};

/// The host side of one solve: owns the state buffer, reads it back, calls the monitor, watches
/// for stagnation, decides when a residual is replaced, and turns the device status into a
/// `SolveResult`.
template <class Scalar, class Device>
class KrylovRun {
 public:
  using state_type = KrylovState<Scalar, Device>;
  using execution_space = typename Device::execution_space;
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  using const_vector_type = typename Operator<Scalar, Device>::const_vector_type;

  /// \param solver_slots slots the solver uses from `slot::first_free` on
  KrylovRun(const KrylovOptions& options, int solver_slots)
      : m_options(options), m_watch(options.stagnation_window, options.stagnation_factor) {
    m_state.s = typename state_type::view_type("syncfree::krylov::state",
                                               std::size_t(slot::first_free + solver_slots));
    if (options.keep_history)
      m_state.history = typename state_type::view_type("syncfree::krylov::history",
                                                       std::size_t(options.max_iterations) + 1);
    m_host = Kokkos::View<Scalar*, Kokkos::HostSpace>("syncfree::krylov::state_host",
                                                      std::size_t(slot::host_read));
  }
  KrylovRun(const KrylovRun&) = delete;
  KrylovRun& operator=(const KrylovRun&) = delete;

  const state_type& state() const { return m_state; }

  /// Keeps a copy of x each time the residual norm read has halved since the last copy, for a
  /// solver whose residual is not monotone: on stagnation `finish` returns the copy when its true
  /// residual is smaller than x's.
  void keep_best_iterate(const vector_type& x) {
    if (!m_watch.enabled()) return;
    m_x = x;
    m_best = work_vector<Scalar, Device>("syncfree::krylov::best", x.extent(0));
  }

  /// Sets the reference norm and the threshold from ||b|| and ||r|| (r = b - A x on entry),
  /// records iteration 0 and reads the state. Stops with not_finite on NaN/Inf in b or r, and
  /// with success (x = 0) when b = 0.
  void start(const execution_space& exec, const const_vector_type& b, const const_vector_type& r) {
    const state_type st = m_state;
    const bool from_r0 = m_options.reference == ResidualNorm::initial_residual;
    const Scalar tolerance = Scalar(m_options.tolerance);
    reduce_into<2>(
        exec, "syncfree::krylov::start_norms", b.extent(0),
        Kokkos::subview(st.s, std::make_pair(int(slot::scratch_0), int(slot::first_free))),
        KOKKOS_LAMBDA(const std::size_t i, Scalar* sum) {
          sum[0] += b(i) * b(i);
          sum[1] += r(i) * r(i);
        });
    single_task(
        exec, "syncfree::krylov::start", KOKKOS_LAMBDA(const int) {
          const Scalar b_norm = impl::sqrt(st[slot::scratch_0]);
          const Scalar r_norm = impl::sqrt(st[slot::scratch_1]);
          st[slot::iteration] = Scalar(0);
          st[slot::residual] = r_norm;
          if (!is_finite(b_norm))
            return st.stop(DeviceStatus::not_finite, StopCause::rhs_not_finite);
          if (b_norm == Scalar(0)) return st.stop(DeviceStatus::converged, StopCause::zero_rhs);
          if (!is_finite(r_norm))
            return st.stop(DeviceStatus::not_finite, StopCause::initial_residual_not_finite);
          const Scalar ref = from_r0 ? r_norm : b_norm;
          st[slot::reference] = ref;
          st[slot::threshold] = tolerance * ref;
          if (st.history.extent(0) > 0) st.history(0) = ref > Scalar(0) ? r_norm / ref : r_norm;
          if (r_norm <= tolerance * ref) st.stop(DeviceStatus::converged, StopCause::none);
        });
    read(exec);
    if (cause() == StopCause::none && m_options.monitor) {
      const double ref = double(m_host(slot::reference));
      m_options.monitor(0, ref > 0 ? residual() / ref : residual());
    }
    m_last_monitored = 0;
  }

  /// Copies the host slots back (the one host read of a check) and calls the monitor when an
  /// iteration completed since the last read.
  void read(const execution_space& exec) {
    post_read(exec, 0);
    take_read(exec, 0, false);
  }

  /// Queues the copy of the host slots into read slot `slot`, behind the work queued so far.
  void post_read(const execution_space& exec, int slot) {
    m_reads.post(exec, Kokkos::subview(m_state.s, std::make_pair(0, int(slot::host_read))), slot);
  }

  /// Takes the copy queued into `slot` (waiting for it) as the state the host knows, and calls the
  /// monitor when an iteration completed since the last read. With a batch still `in_flight`
  /// behind that copy, an iterate kept now is the one after that batch: its norm comes with the
  /// next read.
  void take_read(const execution_space& exec, int slot, bool in_flight) {
    const Scalar* const values = m_reads.take(slot);
    std::copy(values, values + m_host.extent(0), m_host.data());
    const int it = iterations();
    if (it > m_last_monitored && m_options.monitor) {
      const double ref = double(m_host(slot::reference));
      const double norm = double(m_host(slot::residual));
      m_options.monitor(it, ref > 0 ? norm / ref : norm);
    }
    m_last_monitored = std::max(m_last_monitored, it);
    const double norm = residual();
    if (std::isfinite(norm))
      m_largest_since_replacement = std::max(m_largest_since_replacement, norm);
    m_watch.observe(it, norm);
    if (m_best_pending) {  // the iterate kept behind the batch this read follows
      m_best_iteration = it;
      m_best_norm = norm;
      m_best_pending = false;
      return;
    }
    // Kept where the norm halved since the last kept iterate: a few dozen copies of x a solve,
    // not one an iteration.
    if (m_best.extent(0) > 0 && std::isfinite(norm) &&
        (m_best_iteration < 0 || norm <= 0.5 * m_best_norm)) {
      Kokkos::deep_copy(exec, m_best, m_x);
      m_best_pending = in_flight;
      m_best_iteration = it;
      m_best_norm = norm;
    }
  }

  DeviceStatus status() const { return DeviceStatus(int(m_host(slot::status))); }
  StopCause cause() const { return StopCause(int(m_host(slot::cause))); }
  bool running() const { return status() == DeviceStatus::running; }
  int iterations() const { return int(m_host(slot::iteration)); }
  double residual() const { return double(m_host(slot::residual)); }

  /// Iterations launched so far (the device may have stopped earlier: see `iterations`).
  int launched() const { return m_launched; }
  double aux(int k) const { return double(m_host(slot::aux_0 + k)); }

  /// How many iterations to launch before the next read (at most `limit`), and counts them as
  /// launched.
  int next_batch(int limit = std::numeric_limits<int>::max()) {
    const int batch =
        std::min(std::min(m_options.check_every, limit), m_options.max_iterations - m_launched);
    m_launched += batch;
    return batch;
  }
  /// The residual has not fallen by the stagnation factor within the window (while running).
  bool stagnated() const { return running() && m_watch.stagnated(iterations()); }
  bool may_continue() const {
    return running() && !stagnated() && m_launched < m_options.max_iterations;
  }

  /// Runs `iteration()` (which launches one iteration's kernels) in batches of `check_every`,
  /// reading the state after each batch, until the solve stops, stagnates or reaches the
  /// iteration limit.
  template <class Iteration>
  void iterate(const execution_space& exec, Iteration&& iteration) {
    auto none = [](Replacement) {};
    run_batches(exec, iteration, nullptr, none);
  }

  /// `iterate` with residual replacement: when due (see `KrylovOptions::residual_replacement`),
  /// r = b - A x replaces the residual, the stop is decided again on it, and where the solve goes
  /// on `replaced(why)` brings the solver's own scalars up to date or restarts it.
  template <class Iteration, class Replaced>
  void iterate(const execution_space& exec, Iteration&& iteration,
               const TrueResidual<Scalar, Device>& true_residual, Replaced&& replaced) {
    run_batches(exec, iteration, &true_residual, replaced);
  }

  /// The result: status and reason from the device, the history, and the true relative residual
  /// ||b - A x|| / ||b|| recomputed from x with r as work space.
  SolveResult finish(const execution_space& exec, const Operator<Scalar, Device>& A,
                     const const_vector_type& b, const vector_type& x, const vector_type& r) {
    SolveResult result;
    result.iterations = iterations();
    result.residual_replacements = m_replacements;
    result.reason = to_string(cause());
    switch (status()) {
      case DeviceStatus::running:
        result.status = Status::not_converged;
        result.reason = "iteration limit reached";
        break;
      case DeviceStatus::converged:
        result.status = Status::success;
        break;
      case DeviceStatus::breakdown:
        result.status = Status::breakdown;
        break;
      case DeviceStatus::not_finite:
        result.status = Status::not_finite;
        break;
    }
    if (m_options.keep_history) {
      Kokkos::View<Scalar*, Kokkos::HostSpace> h("syncfree::krylov::history_host",
                                                 std::size_t(result.iterations) + 1);
      Kokkos::deep_copy(exec, h,
                        Kokkos::subview(m_state.history, std::make_pair(0, result.iterations + 1)));
      exec.fence();
      result.history.assign(h.data(), h.data() + h.extent(0));
    }
    if (cause() == StopCause::zero_rhs) {
      Kokkos::deep_copy(exec, x, Scalar(0));
      result.relative_residual = 0;
      result.history.assign(m_options.keep_history ? 1 : 0, 0.0);
      return result;
    }
    if (cause() == StopCause::rhs_not_finite) {
      result.relative_residual = std::numeric_limits<double>::quiet_NaN();
      return result;
    }
    const double b_norm = double(nrm2(exec, b));
    result.relative_residual = true_relative_residual(exec, A, b, x, r, b_norm);
    if (stagnated()) report_stagnation(exec, A, b, x, r, b_norm, result);
    return result;
  }

 private:
  /// The host looks at each batch's state while the next batch runs: the read of a batch is
  /// queued behind it and taken after the next batch is launched, so the device does not wait for
  /// the host between batches. Anything but going on (a stop, a replacement) is decided on the
  /// state of the last batch launched, with nothing in flight: the solve so takes the decisions of
  /// reads after every batch, one batch later, and after a stop at most one batch runs for nothing
  /// (its kernels see the stop and leave x as it is).
  template <class Iteration, class Replaced>
  void run_batches(const execution_space& exec, Iteration& iteration,
                   const TrueResidual<Scalar, Device>* true_residual, Replaced& replaced) {
    const auto launch = [&](int slot) {
      for (int k = next_batch(); k > 0; --k) iteration();
      post_read(exec, slot);
    };
    const auto going_on = [&] { return may_continue() && !(true_residual && replacement_due()); };
    int in_flight = -1;  // the read slot of the batch launched last, until its read is taken
    for (;;) {
      if (in_flight < 0) {
        if (true_residual)
          if (const auto why = replacement_due())
            replace_residual(exec, *true_residual, *why, replaced);
        if (!may_continue()) break;
        launch(in_flight = 0);
      } else if (going_on()) {
        const int next = 1 - in_flight;
        launch(next);
        take_read(exec, in_flight, true);
        in_flight = next;
      } else {
        take_read(exec, in_flight, false);
        in_flight = -1;
      }
    }
  }

  // Public, and no template, because CUDA's extended lambdas need an accessible enclosing
  // function whose template arguments are not local types.
 public:
  /// r = b - A x becomes the residual of the current iteration and the stop is decided again on
  /// its norm (converged when it meets the threshold, running otherwise, also where the recursive
  /// residual had claimed convergence). Asynchronous; `replace_residual` reads the state after.
  void adopt_true_residual(const execution_space& exec, const TrueResidual<Scalar, Device>& t) {
    const state_type st = m_state;
    impl::residual(exec, t.A, t.b, t.x, t.r);
    reduce_into<1>(exec, "syncfree::krylov::replaced_norm", t.r.extent(0),
                   Kokkos::subview(st.s, int(slot::scratch_0)), DotBody<Scalar, Device>{t.r, t.r});
    single_task(
        exec, "syncfree::krylov::replaced", KOKKOS_LAMBDA(const int) {
          const Scalar norm = impl::sqrt(st[slot::scratch_0]);
          const int it = int(st[slot::iteration]);
          st[slot::residual] = norm;
          const Scalar ref = st[slot::reference];
          if (std::size_t(it) < st.history.extent(0))
            st.history(it) = ref > Scalar(0) ? norm / ref : norm;
          if (!is_finite(norm))
            return st.stop(DeviceStatus::not_finite, StopCause::residual_not_finite);
          if (norm <= st[slot::threshold]) return st.stop(DeviceStatus::converged, StopCause::none);
          st.stop(DeviceStatus::running, StopCause::none);
        });
  }

 private:
  /// `adopt_true_residual`, then the state is read, the watch told, and `replaced` called where
  /// the solve goes on.
  template <class Replaced>
  void replace_residual(const execution_space& exec, const TrueResidual<Scalar, Device>& t,
                        Replacement why, Replaced& replaced) {
    adopt_true_residual(exec, t);
    read(exec);
    ++m_replacements;
    m_replaced_at = iterations();
    m_largest_since_replacement = residual();
    if (why == Replacement::convergence) m_watch.raise_level(iterations(), residual());
    if (why == Replacement::stagnation) {
      m_watch.restart_window(iterations());
      m_restarted_level = m_watch.level_iteration();
      m_restart_iteration = iterations();
    }
    if (running()) replaced(why);
  }

  /// When replacement is due (see `KrylovOptions::residual_replacement`), why; at most once per
  /// iteration, and on stagnation once per fall (a restart that did not bring a new fall ends the
  /// solve).
  std::optional<Replacement> replacement_due() const {
    if (!(m_options.residual_replacement > 0) || iterations() == m_replaced_at) return {};
    if (stagnated() && m_watch.level_iteration() != m_restarted_level)
      return Replacement::stagnation;
    if (status() == DeviceStatus::converged && cause() == StopCause::none)
      return Replacement::convergence;
    if (running() && residual() <= m_options.residual_replacement * m_largest_since_replacement)
      return Replacement::drop;
    return {};
  }

  /// Status and reason of a stagnated solve; x becomes the kept iterate when its true residual is
  /// the smaller.
  void report_stagnation(const execution_space& exec, const Operator<Scalar, Device>& A,
                         const const_vector_type& b, const vector_type& x, const vector_type& r,
                         double b_norm, SolveResult& result) const {
    const double ref = double(m_host(slot::reference));
    result.status = Status::stagnated;
    result.reason =
        concat("the residual norm did not fall below ", std::setprecision(3), m_watch.factor(),
               " times its value at iteration ", m_watch.level_iteration(), " (relative ",
               ref > 0 ? m_watch.level() / ref : m_watch.level(), ") within ", m_watch.window(),
               " iterations");
    if (m_restarted_level == m_watch.level_iteration())
      result.reason +=
          ", nor within as many after restarting from the true residual at iteration " +
          std::to_string(m_restart_iteration);
    if (m_best.extent(0) == 0 || m_best_iteration >= iterations()) return;
    const double best = true_relative_residual(exec, A, b, m_best, r, b_norm);
    if (!(best < result.relative_residual)) return;
    Kokkos::deep_copy(exec, x, m_best);
    exec.fence();
    result.relative_residual = best;
    result.reason += "; x is the iterate of iteration " + std::to_string(m_best_iteration) +
                     ", whose true residual was the smaller";
  }

  KrylovOptions m_options;
  state_type m_state;
  Kokkos::View<Scalar*, Kokkos::HostSpace> m_host;  ///< the state the host knows
  HostReads<Scalar, execution_space> m_reads{std::size_t(slot::host_read), 2};
  bool m_best_pending = false;  ///< m_best is being copied behind a batch not read yet
  int m_launched = 0;
  int m_last_monitored = 0;
  StagnationWatch m_watch;
  vector_type m_x, m_best;  ///< with keep_best_iterate: the solution and its kept copy
  int m_best_iteration = -1;
  double m_best_norm = 0;
  double m_largest_since_replacement = 0;
  int m_replaced_at = 0;
  int m_restarted_level = -1;  ///< the watch's level_iteration at the last restart on stagnation
  int m_restart_iteration = -1;
  int m_replacements = 0;
};

}  // namespace syncfree::impl
