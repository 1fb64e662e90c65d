// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The kernel that solves one diagonal block of a TRSM for every right-hand side.

#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// Solves E(f:f+s, f:f+s) x = b in place for every right-hand side, where E is the effective
/// triangle of a left-side solve (E(i, j) = A(j, i) when `transposed`), lower when `Lower`, and
/// right-hand side r is column r of B, or row r of B when `rows_are_rhs` (a right-side solve).
///
/// A team takes `vectors` right-hand sides. On GPUs a thread per block row holds the row's
/// entries in registers; column by column the rows after the pivot subtract their multiple of the
/// pivot's entries, which pass through scratch: one barrier per column. Where it fits (`staged`),
/// the block of E is first copied into scratch, its columns scaled by their diagonal entry's
/// inverse, so that the columns' steps touch no global memory. Host backends run one thread per
/// team, the right-hand sides in scratch.
template <class ExecSpace, class AView, class BView, bool Lower, bool Unit>
struct TrsmDiagonalSolve {
  using scalar_type = typename BView::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using matrix_scratch = Kokkos::View<scalar_type**, Kokkos::LayoutLeft, scratch_space, unmanaged>;
  using vector_scratch = Kokkos::View<scalar_type*, scratch_space, unmanaged>;
  static constexpr int vectors = 16;
  using pivot_scratch = Kokkos::View<scalar_type[2][vectors], scratch_space, unmanaged>;

  AView A;
  BView B;
  std::int64_t first;
  int size;
  std::int64_t num_rhs;
  bool rows_are_rhs, transposed;
  bool staged;        ///< E's block is copied into scratch first
  bool in_registers;  ///< a thread per row (`solve_in_registers`)

  KOKKOS_INLINE_FUNCTION scalar_type e(int i, int j) const {
    return transposed ? A(first + j, first + i) : A(first + i, first + j);
  }
  KOKKOS_INLINE_FUNCTION scalar_type& b(int i, std::int64_t r) const {
    return rows_are_rhs ? B(r, first + i) : B(first + i, r);
  }
  static KOKKOS_INLINE_FUNCTION bool in_triangle(int i, int j) { return Lower ? i > j : i < j; }

  /// The tile holds E's block, one row of padding against bank conflicts.
  static std::size_t scratch_bytes(int size, bool staged, bool in_registers) {
    return (staged ? matrix_scratch::shmem_size(size + 1, size) + vector_scratch::shmem_size(size)
                   : 0) +
           (in_registers ? pivot_scratch::shmem_size() : matrix_scratch::shmem_size(size, vectors));
  }

  /// tile(i, j) = E(i, j) / E(j, j) on the strict triangle (E(i, j) if unit), and
  /// inverse(i) = 1 / E(i, i). A is read in its memory order, a thread per memory row, `batch`
  /// loads in flight each: a load at a time would pay the memory's latency once per entry.
  KOKKOS_INLINE_FUNCTION void stage(const member_type& team, const matrix_scratch& tile,
                                    const vector_scratch& inverse) const {
    constexpr int batch = 8;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](int fast) {
      for (int slow0 = 0; slow0 < size; slow0 += batch) {
        scalar_type value[batch] = {};
        for (int c = 0; c < batch; ++c)
          if (slow0 + c < size) value[c] = A(first + fast, first + slow0 + c);
        for (int c = 0; c < batch; ++c)
          if (slow0 + c < size)
            (transposed ? tile(slow0 + c, fast) : tile(fast, slow0 + c)) = value[c];
      }
    });
    team.team_barrier();
    if (Unit) return;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size),
                         [&](int i) { inverse(i) = scalar_type(1) / tile(i, i); });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](int i) {
      const int begin = Lower ? 0 : i + 1, end = Lower ? i : size;
      for (int j = begin; j < end; ++j) tile(i, j) *= inverse(j);
    });
    team.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION scalar_type multiplier(const matrix_scratch& tile, int i, int j) const {
    return staged ? tile(i, j) : Unit ? e(i, j) : e(i, j) / e(j, j);
  }
  KOKKOS_INLINE_FUNCTION scalar_type inverse_diagonal(const vector_scratch& inverse, int i) const {
    return staged ? inverse(i) : scalar_type(1) / e(i, i);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::int64_t r0 = std::int64_t(team.league_rank()) * vectors;
    const int count = int(num_rhs - r0 < vectors ? num_rhs - r0 : vectors);
    const matrix_scratch tile(team.team_scratch(0), staged ? size + 1 : 0, staged ? size : 0);
    const vector_scratch inverse(team.team_scratch(0), staged ? size : 0);
    if (staged) stage(team, tile, inverse);
    if (in_registers)
      solve_in_registers(team, tile, inverse, r0, count);
    else
      solve_in_scratch(team, tile, inverse, r0, count);
  }

  /// A thread per row (team size >= size), its `vectors` entries in registers (fixed trip
  /// counts keep them there); the pivot row's entries pass through two scratch buffers, so that
  /// one barrier per column suffices.
  KOKKOS_INLINE_FUNCTION void solve_in_registers(const member_type& team,
                                                 const matrix_scratch& tile,
                                                 const vector_scratch& inverse, std::int64_t r0,
                                                 int count) const {
    const pivot_scratch pivot(team.team_scratch(0));
    const int i = team.team_rank();
    scalar_type x[vectors];
    for (int v = 0; v < vectors; ++v) x[v] = i < size && v < count ? b(i, r0 + v) : scalar_type(0);
    for (int step = 0; step < size; ++step) {
      const int j = Lower ? step : size - 1 - step;
      const bool below = i < size && in_triangle(i, j);
      // The multiplier does not depend on the pivot: read it before the barrier.
      const scalar_type m = below ? multiplier(tile, i, j) : scalar_type(0);
      if (i == j)
        for (int v = 0; v < vectors; ++v) pivot(step & 1, v) = x[v];
      team.team_barrier();
      if (below)
        for (int v = 0; v < vectors; ++v) x[v] -= m * pivot(step & 1, v);
    }
    if (i < size) {
      const scalar_type d = Unit ? scalar_type(1) : inverse_diagonal(inverse, i);
      for (int v = 0; v < vectors; ++v)
        if (v < count) b(i, r0 + v) = Unit ? x[v] : x[v] * d;
    }
  }

  /// Any team size (host backends run one thread): the right-hand sides in scratch.
  KOKKOS_INLINE_FUNCTION void solve_in_scratch(const member_type& team, const matrix_scratch& tile,
                                               const vector_scratch& inverse, std::int64_t r0,
                                               int count) const {
    const matrix_scratch x(team.team_scratch(0), size, vectors);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](int i) {
      for (int v = 0; v < count; ++v) x(i, v) = b(i, r0 + v);
    });
    team.team_barrier();
    for (int step = 0; step < size; ++step) {
      const int j = Lower ? step : size - 1 - step;
      const int begin = Lower ? j + 1 : 0, end = Lower ? size : j;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int i) {
        const scalar_type m = multiplier(tile, i, j);
        for (int v = 0; v < count; ++v) x(i, v) -= m * x(j, v);
      });
      team.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](int i) {
      const scalar_type d = Unit ? scalar_type(1) : inverse_diagonal(inverse, i);
      for (int v = 0; v < count; ++v) b(i, r0 + v) = Unit ? x(i, v) : x(i, v) * d;
    });
  }
};

template <bool Lower, bool Unit, class ExecSpace, class AView, class BView>
void trsm_launch_diagonal_block(const ExecSpace& exec, const AView& A, const BView& B,
                                std::int64_t first, int size, bool rows_are_rhs, bool transposed) {
  using Kernel = TrsmDiagonalSolve<ExecSpace, AView, BView, Lower, Unit>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const std::int64_t num_rhs = rows_are_rhs ? B.extent(0) : B.extent(1);
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  const int threads = host ? 1 : (size + 31) / 32 * 32;
  const bool in_registers = !host && threads <= 256;
  const bool staged =
      Kernel::scratch_bytes(size, true, in_registers) <= std::size_t(Policy::scratch_size_max(0));
  const Kernel kernel{A, B, first, size, num_rhs, rows_are_rhs, transposed, staged, in_registers};
  const std::int64_t league = (num_rhs + Kernel::vectors - 1) / Kernel::vectors;
  Kokkos::parallel_for(
      "syncfree::trsm::diagonal_block",
      Policy(exec, league, std::min(threads, 256))
          .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(size, staged, in_registers))),
      kernel);
}

/// Runs `TrsmDiagonalSolve` on block [first, first + size): a team per `vectors` right-hand sides,
/// a thread per block row on GPUs (blocks of up to 256 rows; 256 threads in scratch beyond), one
/// thread on host backends; the block is staged where it fits in level-0 scratch (64 rows of
/// doubles on CUDA).
template <class ExecSpace, class AView, class BView>
void trsm_solve_diagonal_block(const ExecSpace& exec, const AView& A, const BView& B,
                               std::int64_t first, int size, bool rows_are_rhs, bool transposed,
                               bool lower, bool unit) {
  if (lower && unit)
    trsm_launch_diagonal_block<true, true>(exec, A, B, first, size, rows_are_rhs, transposed);
  else if (lower)
    trsm_launch_diagonal_block<true, false>(exec, A, B, first, size, rows_are_rhs, transposed);
  else if (unit)
    trsm_launch_diagonal_block<false, true>(exec, A, B, first, size, rows_are_rhs, transposed);
  else
    trsm_launch_diagonal_block<false, false>(exec, A, B, first, size, rows_are_rhs, transposed);
}

}  // namespace syncfree::impl
