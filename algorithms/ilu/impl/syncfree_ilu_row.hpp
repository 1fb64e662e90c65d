// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What every ILU numeric variant does with one row: wait for a pivot row, find matching
/// entries, check and publish its own pivot. Device code shared by the kernels.
///
/// Row i is eliminated in place (IKJ): for each L entry (i, m), left to right, once row m is
/// finished, l_im = a_im / u_mm and a_ij -= l_im * u_mj for every j > m present in both rows (no
/// fill beyond the analyzed pattern). Entries of row i are owned by lanes, entry k by lane
/// (k - row_map(i)) % V: a lane reads and writes its own entries, so they do not travel between
/// lanes through memory; the multiplier travels through a vector reduction (registers).
///
/// Long rows. Matching the rest of row i against row m's U part costs each lane a binary search
/// of the other side per entry it takes: of row m per entry of row i, or of row i per entry of
/// row m. The cheaper side is taken (`eliminate`): a hub row of a power-law graph, thousands of
/// entries long, takes the few entries of each pivot row instead of all of its own for every
/// one. Lanes then write entries they do not own, and follow the step with a fence and a vector
/// reduction, so that the owner reads them afterwards.
///
/// Memory ordering. A finished row publishes its flag with a relaxed atomic store after a release
/// fence by every lane and a vector reduction (all lanes' fences precede the store); a waiter
/// polls the flag with relaxed atomic loads and issues an acquire fence before reading the row.
/// Unlike SpTRSV's value-as-flag, a whole row travels with one flag, hence the fences.

#include <cstdint>

#include "algorithms/ilu/impl/syncfree_ilu_plan_storage.hpp"
#include "core/impl/syncfree_sorted_search.hpp"

namespace syncfree::impl {

/// Problem codes of the factorization report; key = row * 4 + code, the smallest key wins: the
/// first row in row order, and in that row a NaN or Inf given in A before what it caused.
enum IluProblem : std::int64_t {
  ilu_input_not_finite = 0,
  ilu_tiny_pivot = 1,
  ilu_pivot_not_finite = 2
};

/// Steps of a binary search among `length` entries.
template <class Offset>
KOKKOS_FORCEINLINE_FUNCTION int search_depth(Offset length) {
  int depth = 1;
  while (length > 1) length /= 2, ++depth;
  return depth;
}

/// Whether an elimination step matches from the pivot row's side: each of the `ref_length`
/// entries of its U part searched among the `rest` of row i, rather than each of those among the
/// U part, `lanes` sharing the searches. That side costs a fence and a reduction more (~2 steps).
template <class Offset>
KOKKOS_FORCEINLINE_FUNCTION bool ilu_match_from_pivot_row(Offset rest, Offset ref_length,
                                                          int lanes) {
  const Offset own_steps = (rest + lanes - 1) / lanes * search_depth(ref_length);
  const Offset ref_steps = (ref_length + lanes - 1) / lanes * search_depth(rest) + 2;
  return ref_steps < own_steps;
}

/// Row i's pivot threshold from A's a_ii (IluOptions::absolute_threshold, relative_threshold).
template <class Magnitude, class Scalar>
KOKKOS_INLINE_FUNCTION Magnitude ilu_pivot_threshold(Magnitude absolute, Magnitude relative,
                                                     Scalar a_ii) {
  return absolute + relative * impl::abs(a_ii);
}

/// The pivot u of row `row`, checked against its threshold t: a NaN or Inf pivot, or one at or
/// below t, is recorded in report[0] (key row * 4 + problem, the smallest wins), unless
/// `replace` holds, t > 0 and the pivot is merely tiny: then it becomes +-t and report[1] counts
/// it. Returns the pivot to keep.
template <class Ordinal, class Scalar, class Magnitude>
KOKKOS_INLINE_FUNCTION Scalar ilu_checked_pivot(Ordinal row, Scalar u, Magnitude t, bool replace,
                                                std::int64_t* report) {
  if (!is_finite(u)) {
    Kokkos::atomic_fetch_min(&report[0], std::int64_t(row) * 4 + ilu_pivot_not_finite);
  } else if (impl::abs(u) <= t) {
    if (replace && t > 0) {
      u = u < Scalar(0) ? Scalar(-t) : Scalar(t);
      Kokkos::atomic_fetch_add(&report[1], std::int64_t(1));
    } else {
      Kokkos::atomic_fetch_min(&report[0], std::int64_t(row) * 4 + ilu_tiny_pivot);
    }
  }
  return u;
}

template <class Matrix>
struct IluRowData {
  using Storage = IluPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using scalar_type = typename Storage::scalar_type;
  using magnitude_type = typename Storage::magnitude_type;
  using device_type = typename Storage::device_type;

  Kokkos::View<const offset_type*, device_type> row_map;
  Kokkos::View<const ordinal_type*, device_type> entries;
  typename Matrix::values_type values;
  Kokkos::View<const offset_type*, device_type> diagonal;
  Kokkos::View<const ordinal_type*, device_type> order;  ///< rows in level order
  Kokkos::View<int*, device_type> finished;
  Kokkos::View<std::uint32_t, device_type> ticket;
  Kokkos::View<const magnitude_type*, device_type> threshold;
  Kokkos::View<std::int64_t[2], device_type> report;
  ordinal_type n;
  bool replace_tiny_pivots;

  explicit IluRowData(const Storage& s, bool replace)
      : row_map(s.lu.graph.row_map),
        entries(s.lu.graph.entries),
        values(s.lu.values),
        diagonal(s.diagonal),
        order(sptrsv_plan_storage(s.lower).levels.order),
        finished(s.finished),
        ticket(s.ticket),
        threshold(s.threshold),
        report(s.report),
        n(s.n),
        replace_tiny_pivots(replace) {}

  /// Lane that owns entry k of row `row` when vectors have `width` lanes.
  KOKKOS_FORCEINLINE_FUNCTION int owner(offset_type k, offset_type row_begin, int width) const {
    return int((k - row_begin) % offset_type(width));
  }

  /// First entry after `after` owned by `lane`.
  KOKKOS_FORCEINLINE_FUNCTION offset_type first_owned(offset_type after, offset_type row_begin,
                                                      int lane, int width) const {
    const offset_type next = after + 1;
    const int shift = (lane - owner(next, row_begin, width) + width) % width;
    return next + shift;
  }

  /// Entry of column `column` in entries [low, high) (sorted), or -1.
  KOKKOS_FORCEINLINE_FUNCTION offset_type find(ordinal_type column, offset_type low,
                                               offset_type high) const {
    return find_sorted(column, low, high, [&](offset_type k) { return entries(k); });
  }

  /// Spins until row `ref` is finished; read its entries only after an acquire fence.
  KOKKOS_FORCEINLINE_FUNCTION void wait_for(ordinal_type ref) const {
    for (int spins = 0; atomic_load_relaxed(&finished(ref)) == 0;) spin_pause(spins);
  }

  /// By the lane owning the diagonal: see ilu_checked_pivot.
  KOKKOS_FORCEINLINE_FUNCTION void check_pivot(ordinal_type row) const {
    scalar_type& u = values(diagonal(row));
    u = ilu_checked_pivot(row, u, threshold(row), replace_tiny_pivots, report.data());
  }

  /// After every lane's release fence and a vector reduction: the row may be read by others.
  KOKKOS_FORCEINLINE_FUNCTION void publish(ordinal_type row) const {
    atomic_store_relaxed(&finished(row), 1);
  }

  /// The vector waits until every pivot row of its row (L entries [begin, pivot)) is finished:
  /// all polled at once, then one acquire fence.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void wait_for_pivot_rows(const Member& member, offset_type begin,
                                                  offset_type pivot, int width) const {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
      for (offset_type li = begin + lane; li < pivot; li += width) wait_for(entries(li));
      acq_rel_fence();
    });
  }

  /// l = a_i,ref / u_ref,ref for the L entry `li` of a row starting at `begin`: computed and
  /// stored by the lane owning the entry, returned to every lane.
  template <class Member>
  KOKKOS_INLINE_FUNCTION scalar_type multiplier(const Member& member, offset_type li,
                                                offset_type begin, ordinal_type ref,
                                                int width) const {
    scalar_type l = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, scalar_type& value) {
          if (owner(li, begin, width) == lane) {
            value = values(li) / values(diagonal(ref));
            values(li) = value;
          }
        },
        l);
    return l;
  }

  /// a_ij -= l * u_mj for the entries of row i after `li` (to `end`) whose column row m's U part
  /// [ref_begin, ref_end) holds, by whichever side costs fewer searches (see the file's comment).
  template <class Member>
  KOKKOS_INLINE_FUNCTION void eliminate(const Member& member, offset_type li, offset_type begin,
                                        offset_type end, scalar_type l, offset_type ref_begin,
                                        offset_type ref_end, int width) const {
    if (!ilu_match_from_pivot_row(end - li - 1, ref_end - ref_begin, width)) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
        for (offset_type k = first_owned(li, begin, lane, width); k < end; k += width) {
          const offset_type t = find(entries(k), ref_begin, ref_end);
          if (t >= 0) values(k) -= l * values(t);
        }
      });
      return;
    }
    const auto by_pivot_row = [&](const int lane) {
      for (offset_type t = ref_begin + lane; t < ref_end; t += width) {
        const offset_type k = find(entries(t), li + 1, end);
        if (k >= 0) values(k) -= l * values(t);
      }
    };
    if (width == 1) {
      by_pivot_row(0);
      return;
    }
    int lanes = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, int& count) {
          by_pivot_row(lane);
          acq_rel_fence();
          count += 1;
        },
        lanes);
  }

  /// Checks the pivot and, when other rows wait on this one (`publishing`), releases the row:
  /// every lane's fence, then a vector reduction so that all fences precede the flag.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void finish_row(const Member& member, ordinal_type row, offset_type begin,
                                         offset_type pivot, int width, bool publishing) const {
    if (!publishing) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
        if (owner(pivot, begin, width) == lane) check_pivot(row);
      });
      return;
    }
    int lanes = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, int& count) {
          if (owner(pivot, begin, width) == lane) check_pivot(row);
          acq_rel_fence();
          count += 1;
        },
        lanes);
    Kokkos::single(Kokkos::PerThread(member), [&]() { publish(row); });
  }
};

}  // namespace syncfree::impl
