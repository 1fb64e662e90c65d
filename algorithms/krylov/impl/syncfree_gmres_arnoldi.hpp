// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The device kernels of restarted (F)GMRES: Arnoldi step (modified Gram-Schmidt in its
/// inverse compact WY form, or classical Gram-Schmidt twice, both as whole-basis passes),
/// Givens rotations and the small triangular solves on one device team or thread, and the cycle's
/// start and end.

#include "algorithms/krylov/impl/syncfree_basis_sums.hpp"
#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"

namespace syncfree {

/// How GMRES orthogonalizes a new Krylov vector against the basis.
enum class Orthogonalization {
  mgs,   ///< modified Gram-Schmidt: a projection and an update pass over the basis at step j
  cgs2,  ///< classical Gram-Schmidt, twice: two projection and two update passes at step j
};

inline const char* to_string(Orthogonalization o) {
  return o == Orthogonalization::mgs ? "mgs" : "cgs2";
}

namespace impl {

namespace gmres_slot {
enum : int {
  steps = slot::aux_0,        ///< Arnoldi steps of the current cycle the update will use
  cycle_done = slot::aux_1,   ///< 1 once the cycle must end (estimate met the tolerance, lucky
                              ///< breakdown, singular Hessenberg)
  h_next = slot::first_free,  ///< ||w||, the subdiagonal entry of the current step
  count = h_next + 1 - slot::first_free
};
}

/// The Givens rotation [c s; -s c] that maps (a, b) to (r, 0), robust to zeros and overflow
/// (as LAPACK's dlartg): r = 0 only when a = b = 0.
template <class Scalar>
KOKKOS_INLINE_FUNCTION void givens(Scalar a, Scalar b, Scalar& c, Scalar& s, Scalar& r) {
  if (b == Scalar(0)) {
    c = Scalar(1);
    s = Scalar(0);
    r = a;
  } else if (a == Scalar(0)) {
    c = Scalar(0);
    s = Scalar(1);
    r = b;
  } else {
    // Divide by the larger of the two, so that t * t cannot overflow.
    const bool a_larger = impl::abs(a) > impl::abs(b);
    const Scalar larger = a_larger ? a : b;
    const Scalar t = (a_larger ? b : a) / larger;
    Scalar u = impl::sqrt(Scalar(1) + t * t);
    if (larger < Scalar(0)) u = -u;
    const Scalar along = Scalar(1) / u;  // the cosine when a is larger, else the sine
    c = a_larger ? along : t * along;
    s = a_larger ? t * along : along;
    r = larger * u;
  }
}

/// The basis, the Hessenberg matrix and the rotations of one GMRES(m) solve.
template <class Scalar, class Device>
struct GmresWorkspace {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  using matrix_type = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device>;
  matrix_type V;     ///< n x (m + 1) Arnoldi basis
  matrix_type Z;     ///< n x m preconditioned basis M v_j (FGMRES), else empty
  matrix_type H;     ///< (m + 1) x m Hessenberg matrix, rotated into R in place
  matrix_type gram;  ///< MGS: m x m, strictly lower part of V'V, row j from step j
  vector_type cs, sn, g, y;
  vector_type sums;  ///< the projections of a pass over the basis
  vector_type norm;  ///< w'w after an update
  vector_type tmp;   ///< M v_j (GMRES, where apply_then needs it), V y (update)

  GmresWorkspace(std::size_t n, int m, bool flexible)
      : V("syncfree::gmres::V", n, m + 1),
        Z("syncfree::gmres::Z", flexible ? n : 0, flexible ? m : 0),
        H("syncfree::gmres::H", m + 1, m),
        gram("syncfree::gmres::gram", m, m),
        cs("syncfree::gmres::cs", m),
        sn("syncfree::gmres::sn", m),
        g("syncfree::gmres::g", m + 1),
        y("syncfree::gmres::y", m),
        sums("syncfree::gmres::sums", basis_sums_length(m)),
        norm("syncfree::gmres::norm", 1),
        tmp(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::gmres::tmp"), n) {}

  int restart() const { return int(H.extent(1)); }
  vector_type column(const matrix_type& M, int j) const {
    return Kokkos::subview(M, Kokkos::ALL, j);
  }
};

/// Starts a cycle from r = V(:, 0) = b - A x: checks ||r|| against the tolerance (the explicit
/// residual decides convergence), sets g = ||r|| e1 and normalizes V(:, 0).
template <class Scalar, class Device>
void gmres_cycle_start(const typename Device::execution_space& exec,
                       const KrylovState<Scalar, Device>& st,
                       const GmresWorkspace<Scalar, Device>& ws) {
  using exec_space = typename Device::execution_space;
  const auto v0 = ws.column(ws.V, 0);
  const auto g = ws.g;
  const int m = ws.restart();
  reduce_into<1>(exec, "syncfree::gmres::beta", v0.extent(0),
                 Kokkos::subview(st.s, int(slot::scratch_0)), DotBody<Scalar, Device>{v0, v0});
  single_task(
      exec, "syncfree::gmres::cycle_start", KOKKOS_LAMBDA(const int) {
        if (!st.running()) return;
        const Scalar beta = impl::sqrt(st[slot::scratch_0]);
        st[gmres_slot::steps] = Scalar(0);
        st[gmres_slot::cycle_done] = Scalar(0);
        st[slot::residual] = beta;
        if (!is_finite(beta))
          return st.stop(DeviceStatus::not_finite, StopCause::residual_not_finite);
        if (beta <= st[slot::threshold]) return st.stop(DeviceStatus::converged, StopCause::none);
        g(0) = beta;
        for (int i = 1; i <= m; ++i) g(i) = Scalar(0);
      });
  Kokkos::parallel_for(
      "syncfree::gmres::normalize_v0", Kokkos::RangePolicy<exec_space>(exec, 0, v0.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        if (st.running()) v0(i) /= st[slot::residual];
      });
}

/// Arnoldi step j: w = A M v_j (FGMRES: z_j = M v_j, w = A z_j) into V(:, j + 1), orthogonalized
/// against V(:, 0..j) into H(0..j, j), ||w|| into h_next; then the Givens kernel and v_{j+1}.
///
/// MGS is computed in its inverse compact WY form (Swirydowicz, Langou, Ananthan, Yang and
/// Thomas, Numer. Linear Algebra Appl. 28, 2021). MGS's coefficient of v_i is the projection on v_i
/// of w less its earlier projections, h_i = (w - sum_{l<i} h_l v_l)'v_i, so h solves
/// (I + L) h = V'w with L the strictly lower part of V'V. The pass that projects w on the basis
/// also projects v_j, which gives row j of L. So a step reads the basis twice (project, update),
/// whatever j, instead of once per column, and is MGS in exact arithmetic, with MGS's
/// O(eps kappa) loss of orthogonality. CGS2 projects and updates twice.
template <class Scalar, class Device>
void gmres_step(const typename Device::execution_space& exec, const Operator<Scalar, Device>& A,
                const Operator<Scalar, Device>& M, const KrylovState<Scalar, Device>& st,
                const GmresWorkspace<Scalar, Device>& ws, int j, Orthogonalization ortho,
                bool flexible) {
  using exec_space = typename Device::execution_space;
  const std::size_t n = ws.V.extent(0);
  const auto V = ws.V, H = ws.H, gram = ws.gram;
  const auto w = ws.column(V, j + 1);
  const auto vj = ws.column(V, j);
  if (flexible) {
    const auto zj = ws.column(ws.Z, j);
    M.apply(exec, vj, zj);
    A.apply(exec, zj, w);
  } else {
    M.apply_then(exec, A, vj, w, ws.tmp);
  }
  const bool cgs2 = ortho == Orthogonalization::cgs2;
  const auto basis = Kokkos::subview(V, Kokkos::ALL, std::make_pair(0, j + 1));
  const auto h = Kokkos::subview(H, std::make_pair(0, j + 1), j);
  const auto sums = ws.sums, norm = ws.norm;
  if (cgs2)
    project_on_basis<1>(exec, basis, w, w, sums);
  else
    project_on_basis<2>(exec, basis, w, vj, sums);
  // MGS's forward substitution, by columns, on one team: the sums and L in team scratch, then a
  // barrier per column, no load waiting for a store before it. A GMRES step runs no slower than
  // with one thread for this kernel and the Givens kernel below.
  using member_type = typename Kokkos::TeamPolicy<exec_space>::member_type;
  const std::size_t gram_entries = std::size_t(j) * std::size_t(j + 1) / 2;
  team_task<Scalar>(
      exec, "syncfree::gmres::coefficients", std::size_t(j + 1) + gram_entries,
      KOKKOS_LAMBDA(const member_type& team, Scalar* shared) {
        if (!st.running() || st[gmres_slot::cycle_done] != Scalar(0)) return;
        const int rank = team.team_rank(), size = team.team_size();
        if (cgs2) {
          for (int i = rank; i <= j; i += size) H(i, j) = sums(i);
          return;
        }
        // h[i], then L(i, l) at lower[i (i - 1) / 2 + l] for 0 <= l < i <= j.
        Scalar* const h = shared;
        Scalar* const lower = shared + (j + 1);
        for (int i = rank; i <= j; i += size) h[i] = sums(basis_sum_index<2>(i, 0));
        for (int i = 1; i < j; ++i)
          for (int l = rank; l < i; l += size) lower[i * (i - 1) / 2 + l] = gram(i, l);
        for (int l = rank; l < j; l += size) {
          const Scalar entry = sums(basis_sum_index<2>(l, 1));
          gram(j, l) = entry;
          lower[j * (j - 1) / 2 + l] = entry;
        }
        team.team_barrier();
        for (int l = 0; l < j; ++l) {  // h[l] is final: take its term out of the rows below
          const Scalar hl = h[l];
          for (int i = l + 1 + rank; i <= j; i += size) h[i] -= lower[i * (i - 1) / 2 + l] * hl;
          team.team_barrier();
        }
        for (int i = rank; i <= j; i += size) H(i, j) = h[i];
      });
  update_with_basis(exec, basis, h, w, norm);
  if (cgs2) {  // the second pass: its coefficients are added to H(:, j) by the Givens kernel
    project_on_basis<1>(exec, basis, w, w, sums);
    update_with_basis(exec, basis, Kokkos::subview(sums, std::make_pair(0, j + 1)), w, norm);
  }
  const auto cs = ws.cs, sn = ws.sn, g = ws.g;
  const int m = ws.restart();
  // The rotations run on one thread of a team, from the column and the rotations in team scratch
  // (loaded by the whole team), so that no load waits for the store before it.
  team_task<Scalar>(
      exec, "syncfree::gmres::givens", std::size_t(3 * j + 2),
      KOKKOS_LAMBDA(const member_type& team, Scalar* shared) {
        if (!st.running() || st[gmres_slot::cycle_done] != Scalar(0)) return;
        const int rank = team.team_rank(), size = team.team_size();
        // column[0..j] = H(0..j, j), then the j rotations' cosines and sines, then 1 where the
        // rotated column is to be stored.
        Scalar* const column = shared;
        Scalar* const c_old = shared + (j + 1);
        Scalar* const s_old = c_old + j;
        Scalar* const store = s_old + j;
        for (int i = rank; i <= j; i += size) column[i] = cgs2 ? H(i, j) + sums(i) : H(i, j);
        for (int i = rank; i < j; i += size) {
          c_old[i] = cs(i);
          s_old[i] = sn(i);
        }
        team.team_barrier();
        // In a function of its own, so that its returns do not skip the team's barrier.
        const auto rotate = [&]() {
          store[0] = Scalar(0);
          const Scalar h_next = impl::sqrt(norm(0));
          st[gmres_slot::h_next] = h_next;
          bool finite = is_finite(h_next);
          for (int i = 0; i <= j; ++i) finite = finite && is_finite(column[i]);
          if (!finite) return st.stop(DeviceStatus::not_finite, StopCause::gmres_not_finite);
          store[0] = Scalar(1);
          Scalar a = column[0];  // the rotated entry carried in a register
          for (int i = 0; i < j; ++i) {
            const Scalar b = column[i + 1];
            column[i] = c_old[i] * a + s_old[i] * b;
            a = -s_old[i] * a + c_old[i] * b;
          }
          Scalar c, s, r;
          givens(a, h_next, c, s, r);
          cs(j) = c;
          sn(j) = s;
          H(j, j) = r;
          H(j + 1, j) = Scalar(0);
          g(j + 1) = -s * g(j);
          g(j) = c * g(j);
          const Scalar estimate = impl::abs(g(j + 1));
          if (r == Scalar(0)) {
            // H(0..j, 0..j) is singular: keep the first j steps and give up.
            st[gmres_slot::steps] = Scalar(j);
            st[gmres_slot::cycle_done] = Scalar(1);
            return st.stop(DeviceStatus::breakdown, StopCause::gmres_singular_hessenberg);
          }
          st[gmres_slot::steps] = Scalar(j + 1);
          st.count_iteration(estimate);
          if (!is_finite(estimate))
            return st.stop(DeviceStatus::not_finite, StopCause::gmres_not_finite);
          // The estimate ends the cycle; the explicit residual of the next cycle start decides.
          if (estimate <= st[slot::threshold] || h_next == Scalar(0) || j + 1 == m)
            st[gmres_slot::cycle_done] = Scalar(1);
        };
        if (rank == 0) rotate();
        team.team_barrier();
        if (store[0] != Scalar(0))
          for (int i = rank; i < j; i += size) H(i, j) = column[i];
      });
  Kokkos::parallel_for(
      "syncfree::gmres::normalize", Kokkos::RangePolicy<exec_space>(exec, 0, n),
      KOKKOS_LAMBDA(const std::size_t k) {
        if (!st.running() || st[gmres_slot::cycle_done] != Scalar(0)) return;
        w(k) /= st[gmres_slot::h_next];
      });
}

/// Ends a cycle of `k` steps: y = R^{-1} g on one thread, then x += M V y (FGMRES: x += Z y).
template <class Scalar, class Device>
void gmres_cycle_end(const typename Device::execution_space& exec,
                     const Operator<Scalar, Device>& M, const GmresWorkspace<Scalar, Device>& ws,
                     int k, bool flexible,
                     const typename Operator<Scalar, Device>::vector_type& x) {
  if (k == 0) return;
  const auto H = ws.H;
  const auto g = ws.g, y = ws.y;
  single_task(
      exec, "syncfree::gmres::back_substitution", KOKKOS_LAMBDA(const int) {
        for (int i = k - 1; i >= 0; --i) {
          Scalar sum = g(i);
          for (int l = i + 1; l < k; ++l) sum -= H(i, l) * y(l);
          y(i) = sum / H(i, i);
        }
      });
  const auto yk = Kokkos::subview(y, std::make_pair(0, k));
  if (flexible) {
    combine_basis(exec, Scalar(1), Kokkos::subview(ws.Z, Kokkos::ALL, std::make_pair(0, k)), yk,
                  Scalar(1), x);
  } else {
    combine_basis(exec, Scalar(1), Kokkos::subview(ws.V, Kokkos::ALL, std::make_pair(0, k)), yk,
                  Scalar(0), ws.tmp);
    M.apply(exec, ws.tmp, x, Scalar(1), Scalar(1));
  }
}

}  // namespace impl
}  // namespace syncfree
