// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief IC(0) numeric factorization, synchronization-free: A ~ L L^T on A's lower triangle,
/// row by row (the up-looking, row-oriented Cholesky):
///
///   l_ij = (a_ij - sum_{k < j} l_ik l_jk) / l_jj   for each j < i in row i, left to right,
///   l_ii = sqrt(a_ii - sum_{k < i} l_ik^2).
///
/// Row i needs the rows j its L part names, finished: they are exactly its dependencies in the
/// lower solve, so rows are claimed by an atomic ticket in that solve's level order and each waits
/// only on its own (the forward-progress argument of ILU's sync-free kernels,
/// algorithms/ilu/impl/syncfree_ilu_factor_vector.hpp). A vector of lanes works on each row; entry
/// k is owned by lane (k - row_map(i)) % V. The sum of each l_ij is a vector reduction over the
/// pairs of columns row i (before j) and row j share, matched from whichever side costs fewer
/// binary searches (ilu_match_from_pivot_row); matching from row j's side reads entries of row i
/// other lanes own, so in rows longer than the vector each l_ij is written before a fence.
/// Every value is computed by one lane and every sum reduced in a fixed order: the factor is the
/// same on every run.

#include <cstdint>
#include <limits>

#include "algorithms/ic/impl/syncfree_ic_plan_storage.hpp"
#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"
#include "core/syncfree_status.hpp"

namespace syncfree::impl {

/// Problem codes of the factorization report: key = row * 4 + code, the smallest wins.
enum IcProblem : std::int64_t {
  ic_input_not_finite = 0,
  ic_pivot_not_positive = 1,
  ic_pivot_not_finite = 2
};

template <class ExecSpace, class Matrix>
struct IcFactorRows {
  using Storage = IcPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using scalar_type = typename Storage::scalar_type;
  using device_type = typename Storage::device_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;

  Kokkos::View<const offset_type*, device_type> row_map;
  Kokkos::View<const ordinal_type*, device_type> entries;
  typename Matrix::values_type values;
  Kokkos::View<const ordinal_type*, device_type> order;  ///< rows in level order
  Kokkos::View<int*, device_type> finished;
  Kokkos::View<std::uint32_t, device_type> ticket;
  Kokkos::View<std::int64_t, device_type> report;
  ordinal_type n;
  int width;  ///< lanes per row

  IcFactorRows(const Storage& s, int lanes)
      : row_map(s.factor.graph.row_map),
        entries(s.factor.graph.entries),
        values(s.factor.values),
        order(sptrsv_plan_storage(s.lower).levels.order),
        finished(s.finished),
        ticket(s.ticket),
        report(s.report),
        n(s.n),
        width(lanes) {}

  KOKKOS_FORCEINLINE_FUNCTION int owner(offset_type k, offset_type begin) const {
    return int((k - begin) % offset_type(width));
  }

  KOKKOS_FORCEINLINE_FUNCTION offset_type find(ordinal_type column, offset_type low,
                                               offset_type high) const {
    return find_sorted(column, low, high, [&](offset_type k) { return entries(k); });
  }

  /// sum_{k < j} l_ik l_jk over the columns row i's entries [begin, li) share with row j's
  /// [j_begin, j_diagonal), reduced over the vector.
  KOKKOS_INLINE_FUNCTION scalar_type shared_sum(const Member& member, offset_type begin,
                                                offset_type li, offset_type j_begin,
                                                offset_type j_diagonal) const {
    scalar_type sum = 0;
    if (!ilu_match_from_pivot_row(li - begin, j_diagonal - j_begin, width)) {
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, width),
          [&](const int lane, scalar_type& partial) {
            for (offset_type k = begin + lane; k < li; k += width) {
              const offset_type t = find(entries(k), j_begin, j_diagonal);
              if (t >= 0) partial += values(k) * values(t);
            }
          },
          sum);
    } else {
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, width),
          [&](const int lane, scalar_type& partial) {
            for (offset_type t = j_begin + lane; t < j_diagonal; t += width) {
              const offset_type k = find(entries(t), begin, li);
              if (k >= 0) partial += values(k) * values(t);
            }
          },
          sum);
    }
    return sum;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    // A team claims team_size consecutive positions with one atomic.
    ordinal_type chunk = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](ordinal_type& claimed) {
          claimed = ordinal_type(Kokkos::atomic_fetch_add(&ticket(), 1u));
        },
        chunk);
    const ordinal_type p = chunk * member.team_size() + member.team_rank();
    if (p >= n) return;
    const ordinal_type row = order(p);
    const offset_type begin = row_map(row), diagonal = row_map(row + 1) - 1;

    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
      for (offset_type li = begin + lane; li < diagonal; li += width)
        for (int spins = 0; atomic_load_relaxed(&finished(entries(li))) == 0;) spin_pause(spins);
      acq_rel_fence();
    });
    const bool shared_reads = diagonal - begin > offset_type(width);
    for (offset_type li = begin; li < diagonal; ++li) {
      const ordinal_type j = entries(li);
      const offset_type j_begin = row_map(j), j_diagonal = row_map(j + 1) - 1;
      const scalar_type sum = shared_sum(member, begin, li, j_begin, j_diagonal);
      // Written by its owner, returned through a reduction: every lane has passed the write (and,
      // where other lanes may read it, its fence) before the next step reads it.
      scalar_type written = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, width),
          [&](const int lane, scalar_type& value) {
            if (owner(li, begin) == lane) {
              value = (values(li) - sum) / values(j_diagonal);
              values(li) = value;
              if (shared_reads) acq_rel_fence();
            }
          },
          written);
    }
    scalar_type squares = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, scalar_type& partial) {
          for (offset_type k = begin + lane; k < diagonal; k += width)
            partial += values(k) * values(k);
        },
        squares);
    int lanes = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, int& count) {
          if (owner(diagonal, begin) == lane) {
            const scalar_type pivot = values(diagonal) - squares;
            if (!is_finite(pivot)) {
              Kokkos::atomic_fetch_min(&report(), std::int64_t(row) * 4 + ic_pivot_not_finite);
              values(diagonal) = scalar_type(1);  // the factorization failed; rows after it finish
            } else if (!(pivot > scalar_type(0))) {
              Kokkos::atomic_fetch_min(&report(), std::int64_t(row) * 4 + ic_pivot_not_positive);
              values(diagonal) = scalar_type(1);
            } else {
              values(diagonal) = impl::sqrt(pivot);
            }
          }
          acq_rel_fence();
          count += 1;
        },
        lanes);
    Kokkos::single(Kokkos::PerThread(member), [&]() { atomic_store_relaxed(&finished(row), 1); });
  }
};

/// Lanes per row: the ILU rule (ilu_vector_width): a whole warp where levels are narrow (under
/// 4096 rows) or rows long, else the smallest power of two >= the mean row length; one lane on
/// host backends.
template <class ExecSpace, class Matrix>
int ic_vector_width(const IcPlanStorage<Matrix>& s) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return 1;
  const double rows_per_level = s.lower.num_levels() > 0 ? double(s.n) / s.lower.num_levels() : 0;
  if (rows_per_level < 4096) return 32;
  int width = 1;
  while (width < 32 && width < s.mean_row_length) width *= 2;
  return width;
}

/// Copies A's lower triangle into the factor, the diagonal times 1 + `shift`, recording the first
/// row holding a NaN or Inf.
template <class ExecSpace, class Matrix>
void ic_load_values(const ExecSpace& exec, const IcPlanStorage<Matrix>& s, const Matrix& A,
                    double shift) {
  using ordinal_type = typename IcPlanStorage<Matrix>::ordinal_type;
  using scalar_type = typename IcPlanStorage<Matrix>::scalar_type;
  const auto a_row_map = A.graph.row_map;
  const auto a_values = A.values;
  const auto row_map = s.factor.graph.row_map;
  const auto values = s.factor.values;
  const auto report = s.report;
  const scalar_type scale = scalar_type(1 + shift);
  Kokkos::parallel_for(
      "syncfree::ic::load_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        bool finite = true;
        const auto from = a_row_map(i) - row_map(i);
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          finite = finite && is_finite(a_values(from + k));
          values(k) = a_values(from + k);
        }
        values(row_map(i + 1) - 1) *= scale;
        if (!finite) Kokkos::atomic_fetch_min(&report(), std::int64_t(i) * 4 + ic_input_not_finite);
      });
}

/// Loads A's values and factors: the first problem, in row order, as an outcome.
template <class ExecSpace, class Matrix>
Outcome ic_factor_values(const ExecSpace& exec, const IcPlanStorage<Matrix>& s, const Matrix& A,
                         double shift) {
  SYNCFREE_REQUIRE(A.numRows() == s.n && A.nnz() == s.a_nnz &&
                       A.graph.row_map.data() == s.a_row_map_data &&
                       A.graph.entries.data() == s.a_entries_data,
                   StructureMismatch,
                   "ic_factor: the matrix is not the one the plan analyzed (same row_map and "
                   "entries arrays are required)");
  Kokkos::deep_copy(exec, s.report, std::numeric_limits<std::int64_t>::max());
  Kokkos::deep_copy(exec, s.finished, 0);
  Kokkos::deep_copy(exec, s.ticket, 0u);
  ic_load_values(exec, s, A, shift);
  using Functor = IcFactorRows<ExecSpace, Matrix>;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const int width = ic_vector_width<ExecSpace>(s);
  const int team_size = host ? 1 : 128 / width;  // 128 lanes per team, as ILU's
  const auto league = (s.n + team_size - 1) / team_size;
  Kokkos::parallel_for("syncfree::ic::factor_sync_free",
                       typename Functor::Policy(exec, league, team_size, width), Functor(s, width));

  auto report = Kokkos::create_mirror_view(Kokkos::HostSpace(), s.report);
  Kokkos::deep_copy(exec, report, s.report);
  exec.fence();
  Outcome outcome;
  if (report() == std::numeric_limits<std::int64_t>::max()) return outcome;
  const std::int64_t row = report() / 4;
  outcome.index = row;
  switch (report() % 4) {
    case ic_input_not_finite:
      outcome.status = Status::not_finite;
      outcome.reason = concat("row ", row, ": the matrix holds a NaN or Inf value");
      break;
    case ic_pivot_not_finite:
      outcome.status = Status::not_finite;
      outcome.reason = concat("row ", row, ": the pivot became NaN or Inf");
      break;
    default:
      outcome.status = Status::not_positive_definite;
      outcome.reason =
          concat("row ", row, ": the pivot is not positive (the incomplete factorization of A",
                 shift > 0 ? concat(" + ", shift, " diag(A)") : std::string(),
                 " is not positive definite; a diagonal shift helps)");
  }
  return outcome;
}

}  // namespace syncfree::impl
