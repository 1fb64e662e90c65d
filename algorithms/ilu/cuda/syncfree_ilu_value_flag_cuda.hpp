// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of the sync-free ILU factorization (`vector`: a warp per row;
/// `adaptive`: 2^p lanes per row): every value of the factors is its own ready flag, as in
/// SpTRSV, so a row waits on exactly the values it reads and no fence is ever issued.
///
/// The kernel reads A's values (for ILU(0) A's own array, which it checks for NaN and Inf as it
/// loads them; for ILU(k) a buffer holding them scattered onto the factors' pattern), keeps its
/// row in registers (entry k of a row in lane (k - begin) % W, slot (k - begin) / W), and writes
/// the finished row once into the factors, which hold the all-ones pattern until then. For each
/// L entry (i, m), left to right, each lane looks up its columns in row m's U part (a binary
/// search in the pattern, which never changes), polls u_mm and the u_mj it found, and only when
/// the whole vector has them computes l_im = a_im / u_mm (its owner lane, then a shuffle) and
/// a_ij -= l_im u_mj: the elimination order, and so the arithmetic, of the generic kernel
/// (impl/syncfree_ilu_factor_vector.hpp).
///
/// Prefetch (the thesis' §5.1.5): the searches depend on the pattern alone, so a row that finds
/// its pivot row unfinished spends the wait searching its next L entries, several at once, into
/// shared memory. Once its last pivot row finishes, each remaining L entry then costs a load of
/// the values it needs, not also the chain of dependent loads that a search is (row m's diagonal
/// and end, then the binary search). A row that never waits searches as it goes: searching every
/// entry up front, before the first elimination, measured slower on the 27-point stencil.
///
/// Rows longer than the registers hold (power-law hubs, circuits' rails, dense rows) are taken,
/// where a warp factors each row, by the same kernel on a path of their own: eliminated in a
/// copy of their inputs in global memory, each step matching the rest of the row and the pivot
/// row's U part from the shorter side (`ilu_value_flag_long_row`). The other rows then keep the
/// registers of 8 times the mean row and search nothing ahead (found positions are bytes).
///
/// Memory ordering: a value is written once, with a volatile store of its bits, and never is the
/// all-ones pattern (a computed NaN with that payload is replaced by the canonical NaN), so a
/// waiter that reads anything else with a volatile load reads the final value. Only U values of a
/// finished row are ever polled, and each one is polled itself: nothing else travels with it.
///
/// Forward progress: as in the SpTRSV engine (core/cuda/syncfree_sync_free_rounds.hpp). A block
/// claims consecutive positions of the L level order (topological for the factorization) by
/// ticket once it runs; the vectors of a warp run in rounds that never block, so a row waiting on
/// another row of its own warp never stops that row from progressing.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_sync_free_rounds.hpp"
#include "core/impl/syncfree_sentinel.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_permutation.hpp"

namespace syncfree::impl::cuda {

inline constexpr int ilu_flag_block_size = 256;

template <class Scalar, class Magnitude, class Ordinal, class Offset>
struct IluValueFlagRows {
  const Ordinal* order;  ///< rows in L's level order
  const Offset* row_map;
  const Ordinal* entries;
  const Offset* diagonal;
  const Scalar* input;  ///< A's values on the factors' pattern (A's own values for ILU(0))
  /// The same array as `input` where rows too long for registers are eliminated in it (then a
  /// copy of A's values, never A's own); null where no row is.
  Scalar* long_rows_work;
  Scalar* factors;       ///< all-ones until computed
  Magnitude* threshold;  ///< per row; computed here when `input_is_a`
  Magnitude absolute_threshold, relative_threshold;
  std::int64_t* report;  ///< {first bad row key, pivots replaced}: see ilu_checked_pivot
  unsigned* ticket;
  Ordinal n;
  int lookahead;  ///< L entries per row whose searches may be done ahead (shared memory)
  bool replace_tiny_pivots;
  /// `input` is A's values, unchecked: the kernel checks them and computes the thresholds, as
  /// ilu_load_values does, and spares a pass over the values.
  bool input_is_a;

  /// Entry of `column` in row m's U part [low, high), or -1.
  __device__ Offset find(Ordinal column, Offset low, Offset high) const {
    return find_sorted(column, low, high, [&](Offset k) { return __ldg(&entries[k]); });
  }
};

/// Searches of several L entries at once, this many per lane (E slots each), so that their loads
/// are in flight together.
template <int E>
inline constexpr int ilu_searches_together = E >= 4 ? 1 : 4 / E;

/// Shared memory of a block whose rows may search `lookahead` L entries ahead: per row, where the
/// pivot row holds its diagonal; per lane and slot, where the pivot row's U part holds the slot's
/// column, as one byte counted from the diagonal (rows of this kernel have at most W * E <= 256
/// entries, so a U part has at most 255 after the diagonal: 0-254, and 255 for "absent").
template <int W, int E, class Offset>
constexpr std::size_t ilu_lookahead_bytes(int lookahead) {
  return std::size_t(lookahead) *
         (ilu_flag_block_size / W * sizeof(Offset) + E * ilu_flag_block_size);
}
inline constexpr std::uint8_t ilu_not_found = 0xFF;

/// Blocks of this kernel that each SM must hold at once, i.e. at most 65536 / (256 * blocks)
/// registers per thread. The factorization needs many rows in flight: on one entry per lane (rows
/// of up to W entries) ptxas left alone takes 53 registers, 4 blocks per SM, while 6 blocks (40
/// registers, a few bytes spilled) factor the 27-point stencil faster and the other stencils as
/// fast or faster (8 blocks spill more and lose on all but the 27-point stencil). More entries per
/// lane spill too much to gain.
template <int E>
inline constexpr int ilu_min_blocks_per_sm = E == 1 ? 6 : 1;

/// The value of a factor entry once computed: polled with volatile loads until it is not the
/// all-ones pattern.
template <class Scalar>
__device__ Scalar ilu_wait_for_value(const Scalar* p) {
  using B = Bits<Scalar>;
  auto bits = B::load(p);
  while (bits == B::pattern) {
    __nanosleep(32);
    bits = B::load(p);
  }
  return B::value(bits);
}

/// L entries of a long row whose matches are looked up together before they are eliminated, and
/// lanes per entry: a group's pivot rows of at most 32 / ilu_long_row_group U entries are looked
/// up at once, a lane per U entry.
inline constexpr int ilu_long_row_group = 4;

/// A row longer than the registers hold (W * E entries), by a whole warp, eliminated in
/// `rows.long_rows_work` (where its inputs are), then every value written once into the factors.
///
/// Its L entries go by groups of G = `ilu_long_row_group`, entry g of a group to lanes
/// [g 32/G, (g+1) 32/G). Where a pivot row has at most 32/G U entries (the common case: the row is
/// long, its pivot rows are not), each of its lanes looks up where one of them falls in the rest
/// of the row (a binary search) and loads that u_mj: the group's searches run side by side, none
/// waiting for the group's eliminations. Then the entries are eliminated in order, each a
/// division, an update by its lanes and a `__syncwarp`, which orders the lanes' writes of the work
/// array. An entry whose pivot row is longer matches as it goes, with the whole warp, from
/// whichever side costs fewer searches (impl/syncfree_ilu_row.hpp). The pattern-only loads of 32
/// L entries (pivot row, its diagonal and end) are made at once, a lane each, and passed by
/// shuffles, with the pivots u_mm where already computed. A warp spins only on values of rows
/// before its own in the level order, which other warps compute.
template <class Rows, class Ordinal, class Offset, class Magnitude>
__device__ void ilu_value_flag_long_row(const Rows& rows, Ordinal row, Offset begin, Offset end,
                                        Offset pivot, Magnitude threshold, int lane) {
  using Scalar = std::remove_const_t<std::remove_pointer_t<decltype(rows.input)>>;
  using B = Bits<Scalar>;
  constexpr int G = ilu_long_row_group, lanes_per_entry = 32 / G;
  Scalar* const work = rows.long_rows_work;
  const auto in_rest = [&](Ordinal column, Offset after) {
    return find_sorted(column, after + 1, end, [&](Offset q) { return __ldg(&rows.entries[q]); });
  };
  const auto publish = [&](Offset k, Scalar value) {
    const auto bits = B::of(value);
    B::store(&rows.factors[k],
             bits == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : value);
  };
  const int my_entry = lane / lanes_per_entry, my_slot = lane % lanes_per_entry;
  for (Offset window = begin; window < pivot; window += 32) {
    const Offset mine = window + lane;
    Offset my_diagonal = 0, my_end = 0;
    typename B::type my_pivot = B::pattern;  // u_mm, if already computed
    if (mine < pivot) {
      const Ordinal m = __ldg(&rows.entries[mine]);
      my_diagonal = __ldg(&rows.diagonal[m]);
      my_end = __ldg(&rows.row_map[m + 1]);
      my_pivot = B::load(&rows.factors[my_diagonal]);
    }
    const int steps = pivot - window < 32 ? int(pivot - window) : 32;
    for (int first = 0; first < steps; first += G) {
      // This lane's look-up for entry `my_entry` of the group: the U entry t of its pivot row.
      const int j = first + my_entry < steps ? first + my_entry : steps - 1;
      const Offset my_ref_diagonal = __shfl_sync(0xFFFFFFFFu, my_diagonal, j);
      const Offset my_ref_end = __shfl_sync(0xFFFFFFFFu, my_end, j);
      const Offset t = my_ref_diagonal + 1 + my_slot;
      Offset found = -1;
      typename B::type u = 0;
      if (first + my_entry < steps && my_ref_end - my_ref_diagonal - 1 <= lanes_per_entry &&
          t < my_ref_end) {
        found = in_rest(__ldg(&rows.entries[t]), window + j);
        if (found >= 0) u = B::load(&rows.factors[t]);
      }
      for (int g = 0; g < G && first + g < steps; ++g) {
        const Offset current = window + first + g;
        const int source = (first + g) % 32;
        const Offset ref_diagonal = __shfl_sync(0xFFFFFFFFu, my_diagonal, source);
        const Offset ref_end = __shfl_sync(0xFFFFFFFFu, my_end, source);
        const auto u_mm = __shfl_sync(0xFFFFFFFFu, my_pivot, source);
        const Scalar l =
            work[current] /
            (u_mm != B::pattern ? B::value(u_mm) : ilu_wait_for_value(&rows.factors[ref_diagonal]));
        const Offset ref_length = ref_end - ref_diagonal - 1;
        if (ref_length <= lanes_per_entry) {
          if (my_entry == g && found >= 0) {
            while (u == B::pattern) {
              __nanosleep(32);
              u = B::load(&rows.factors[t]);
            }
            work[found] -= l * B::value(u);
          }
        } else {
          if (!ilu_match_from_pivot_row(end - current - 1, ref_length, 32)) {
            for (Offset k = current + 1 + lane; k < end; k += 32) {
              const Offset q = rows.find(__ldg(&rows.entries[k]), ref_diagonal + 1, ref_end);
              if (q >= 0) work[k] -= l * ilu_wait_for_value(&rows.factors[q]);
            }
          } else {
            for (Offset q = ref_diagonal + 1 + lane; q < ref_end; q += 32) {
              const Offset k = in_rest(__ldg(&rows.entries[q]), current);
              if (k >= 0) work[k] -= l * ilu_wait_for_value(&rows.factors[q]);
            }
          }
        }
        if (lane == 0) publish(current, l);
        __syncwarp();
      }
    }
  }
  for (Offset k = pivot + lane; k < end; k += 32) {
    Scalar value = work[k];
    if (k == pivot)
      value = ilu_checked_pivot(row, value, threshold, rows.replace_tiny_pivots, rows.report);
    publish(k, value);
  }
}

/// W lanes per row, at most E entries per lane (rows of up to W * E entries). L entries are polled
/// one at a time: polling four at once (their searches, then all their values) measured slower on
/// most benchmark matrices (register pressure, and searches redone when only part of a window was
/// ready), and again with the searches done ahead in shared memory (more registers).
template <int W, int E, class Rows>
__global__ void __launch_bounds__(ilu_flag_block_size, ilu_min_blocks_per_sm<E>)
    ilu_value_flag_kernel(const Rows rows) {
  using Scalar = std::remove_const_t<std::remove_pointer_t<decltype(rows.input)>>;
  using Ordinal = std::remove_const_t<std::remove_pointer_t<decltype(rows.order)>>;
  using Offset = std::remove_const_t<std::remove_pointer_t<decltype(rows.row_map)>>;
  using Magnitude = std::remove_pointer_t<decltype(rows.threshold)>;
  using B = Bits<Scalar>;
  constexpr int rows_per_block = ilu_flag_block_size / W;
  constexpr int together = ilu_searches_together<E>;
  static_assert(W * E <= 256, "found positions are stored in one byte");
  __shared__ unsigned s_chunk;
  extern __shared__ __align__(16) unsigned char s_lookahead_bytes[];
  // Pivot row j's diagonal: s_ref[j * rows_per_block + row of the block]; search j of slot e of
  // this thread: s_found[(j * E + e) * block + thread].
  Offset* const s_ref = reinterpret_cast<Offset*>(s_lookahead_bytes);
  std::uint8_t* const s_found =
      reinterpret_cast<std::uint8_t*>(s_ref + std::size_t(rows.lookahead) * rows_per_block);
  if (threadIdx.x == 0) s_chunk = atomicAdd(rows.ticket, 1u);
  __syncthreads();

  const int lane = int(threadIdx.x) % W;
  const int block_row = int(threadIdx.x) / W;
  const unsigned vector_mask =
      W == 32 ? full_mask : ((1u << W) - 1u) << ((threadIdx.x & 31u) & ~unsigned(W - 1));
  const Ordinal p = Ordinal(s_chunk) * rows_per_block + Ordinal(block_row);
  bool done = p >= rows.n;
  Ordinal row = 0;
  Offset begin = 0, end = 0, pivot = 0;
  // The row's pivot threshold, in the lane that holds its diagonal: known before the first
  // elimination, so that no load follows the last one. Loaded there, it would lie on the path from
  // the last pivot row's completion to this row's.
  Magnitude threshold = 0;
  Scalar value[E];
  Ordinal column[E];   // the columns of the lane's entries
  int searchable = 0;  // L entries of the row that may be searched ahead: [0, searchable)
#pragma unroll
  for (int e = 0; e < E; ++e) value[e] = Scalar(0), column[e] = 0;
  if (!done) {
    row = rows.order[p];
    begin = rows.row_map[row];
    end = rows.row_map[row + 1];
    pivot = rows.diagonal[row];
  }
  // Compiled where long rows may come (IluValueFlagFactor::slots_beside_long_rows), so that the
  // kernels of shorter rows keep their registers.
  if constexpr (W == 32 && E >= 2) {
    // A row too long for the registers: one warp, one row, so it may spin (see above).
    if (!done && end - begin > Offset(W * E)) {
      Magnitude t = 0;
      if (lane == 0) t = rows.threshold[row];
      ilu_value_flag_long_row(rows, row, begin, end, pivot, __shfl_sync(full_mask, t, 0), lane);
      return;
    }
  }
  if (!done) {
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const Offset k = begin + lane + Offset(e) * W;
      if (k < end) value[e] = rows.input[k], column[e] = __ldg(&rows.entries[k]);
    }
    if (rows.input_is_a) {
      bool finite = true;
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const Offset k = begin + lane + Offset(e) * W;
        finite = finite && is_finite(value[e]);
        if (k == pivot) {
          threshold =
              ilu_pivot_threshold(rows.absolute_threshold, rows.relative_threshold, value[e]);
          rows.threshold[row] = threshold;
        }
      }
      if ((__ballot_sync(vector_mask, !finite) & vector_mask) != 0 && lane == 0)
        Kokkos::atomic_fetch_min(&rows.report[0], std::int64_t(row) * 4 + ilu_input_not_finite);
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (begin + lane + Offset(e) * W == pivot) threshold = rows.threshold[row];
    }
    searchable = pivot - begin < Offset(rows.lookahead) ? int(pivot - begin) : rows.lookahead;
  }
  // Searches the L entries [first, last) of the row into shared memory, all at once; by the
  // whole vector, converged.
  const auto search_ahead = [&](int first, int last) {
    Offset low[together][E], length[together][E], ref_diagonal[together];
    std::uint8_t found[together][E];
#pragma unroll
    for (int g = 0; g < together; ++g) {
      const int j = first + g;
      Offset ref_end = 0;
      ref_diagonal[g] = 0;
      if (j < last) {
        const Ordinal m = __ldg(&rows.entries[begin + j]);
        ref_diagonal[g] = __ldg(&rows.diagonal[m]);
        ref_end = __ldg(&rows.row_map[m + 1]);
        if (lane == 0) s_ref[j * rows_per_block + block_row] = ref_diagonal[g];
      }
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const Offset k = begin + lane + Offset(e) * W;
        low[g][e] = ref_diagonal[g] + 1;
        length[g][e] = j < last && k > begin + j && k < end ? ref_end - ref_diagonal[g] - 1 : 0;
        found[g][e] = ilu_not_found;
      }
    }
    for (bool searching = true; searching;) {
      searching = false;
#pragma unroll
      for (int g = 0; g < together; ++g) {
#pragma unroll
        for (int e = 0; e < E; ++e) {
          if (length[g][e] > 0) {
            const Offset half = length[g][e] / 2;
            const Ordinal c = __ldg(&rows.entries[low[g][e] + half]);
            if (c == column[e]) {
              found[g][e] = std::uint8_t(low[g][e] + half - ref_diagonal[g] - 1);
              length[g][e] = 0;
            } else if (c < column[e]) {
              low[g][e] += half + 1;
              length[g][e] -= half + 1;
            } else {
              length[g][e] = half;
            }
            searching = searching || length[g][e] > 0;
          }
        }
      }
    }
#pragma unroll
    for (int g = 0; g < together; ++g) {
      if (first + g < last) {
#pragma unroll
        for (int e = 0; e < E; ++e)
          s_found[std::size_t((first + g) * E + e) * ilu_flag_block_size + threadIdx.x] =
              found[g][e];
      }
    }
    __syncwarp(vector_mask);  // s_ref is read by lanes other than the one that wrote it
  };
  // The L entries below `ahead` not yet eliminated have their searches in shared memory, except
  // one whose search `found` holds.
  int ahead = 0;
  Offset current = begin;   // the L entry being eliminated
  Offset searched = -1;     // the L entry `found` belongs to
  Offset ref_diagonal = 0;  // where row m holds u_mm
  Offset found[E];          // per slot: where row m's U holds the slot's column, or -1

  // While the pivot row of L entry j is unfinished: search the next entries ahead.
  const auto search_while_waiting = [&](int j) {
    const int first = j + 1 > ahead ? j + 1 : ahead;
    if (first < searchable) {
      ahead = first + together < searchable ? first + together : searchable;
      search_ahead(first, ahead);
    }
  };

  while (true) {
    bool progressed = false;
    if (!done) {
      while (current < pivot) {
        const int j = int(current - begin);
        if (searched != current) {
          if (j < ahead) {
            ref_diagonal = s_ref[j * rows_per_block + block_row];
#pragma unroll
            for (int e = 0; e < E; ++e) {
              const auto f = s_found[std::size_t(j * E + e) * ilu_flag_block_size + threadIdx.x];
              found[e] = f == ilu_not_found ? Offset(-1) : ref_diagonal + 1 + Offset(f);
            }
          } else {
            const Ordinal m = __ldg(&rows.entries[current]);
            ref_diagonal = __ldg(&rows.diagonal[m]);
            const Offset ref_end = __ldg(&rows.row_map[m + 1]);
#pragma unroll
            for (int e = 0; e < E; ++e) {
              const Offset k = begin + lane + Offset(e) * W;
              found[e] = k > current && k < end ? rows.find(column[e], ref_diagonal + 1, ref_end)
                                                : Offset(-1);
            }
          }
          searched = current;
        }
        const int owner = int((current - begin) % W);
        const int owner_slot = int((current - begin) / W);
        bool ready = true;
        Scalar u_mm = Scalar(1);
        if (lane == owner) {
          const auto bits = B::load(&rows.factors[ref_diagonal]);
          ready = bits != B::pattern;
          u_mm = B::value(bits);
        }
        Scalar u[E];
#pragma unroll
        for (int e = 0; e < E; ++e) {
          u[e] = Scalar(0);
          if (found[e] >= 0) {
            const auto bits = B::load(&rows.factors[found[e]]);
            ready = ready && bits != B::pattern;
            u[e] = B::value(bits);
          }
        }
        if ((__ballot_sync(vector_mask, !ready) & vector_mask) != 0) {
          search_while_waiting(j);
          break;
        }
        Scalar l = Scalar(0);
        if (lane == owner) {
#pragma unroll
          for (int e = 0; e < E; ++e)
            if (e == owner_slot) l = value[e] = value[e] / u_mm;
        }
        l = __shfl_sync(vector_mask, l, owner, W);
#pragma unroll
        for (int e = 0; e < E; ++e)
          if (found[e] >= 0) value[e] -= l * u[e];
        ++current;
        progressed = true;
      }
      if (current == pivot) {
#pragma unroll
        for (int e = 0; e < E; ++e) {
          const Offset k = begin + lane + Offset(e) * W;
          if (k == pivot)
            value[e] =
                ilu_checked_pivot(row, value[e], threshold, rows.replace_tiny_pivots, rows.report);
          if (k < end) {
            const auto bits = B::of(value[e]);
            B::store(&rows.factors[k],
                     bits == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : value[e]);
          }
        }
        done = true;
        progressed = true;
      }
    }
    if (__all_sync(full_mask, done)) break;
    if (!__any_sync(full_mask, progressed)) __nanosleep(32);
  }
}

/// Shared memory for the searches done ahead, per block, at most.
inline constexpr std::size_t ilu_lookahead_budget = 24 * 1024;

/// L entries per row that may be searched ahead: all of the longest row's, as far as the budget
/// allows.
template <int W, int E, class Offset>
int ilu_lookahead(long longest_lower) {
  const long fit = long(ilu_lookahead_budget / ilu_lookahead_bytes<W, E, Offset>(1));
  return int(longest_lower < fit ? longest_lower : fit);
}

template <int W, int E, class Rows>
void launch_ilu_value_flag(Rows rows, long longest_lower, cudaStream_t stream) {
  using Offset = std::remove_const_t<std::remove_pointer_t<decltype(rows.row_map)>>;
  constexpr int rows_per_block = ilu_flag_block_size / W;
  // Found positions are kept as bytes from the pivot row's diagonal: only where no row is longer
  // than the registers hold.
  rows.lookahead = rows.long_rows_work ? 0 : ilu_lookahead<W, E, Offset>(longest_lower);
  const std::size_t bytes = ilu_lookahead_bytes<W, E, Offset>(rows.lookahead);
  const unsigned blocks = unsigned((rows.n + rows_per_block - 1) / rows_per_block);
  if (blocks > 0) ilu_value_flag_kernel<W, E><<<blocks, ilu_flag_block_size, bytes, stream>>>(rows);
}

/// Calls launch(std::integral_constant<int, V>{}) for the V of `Values` equal to `value`; false
/// if none is.
template <int... Values, class Launch>
bool launch_for(int value, Launch&& launch) {
  return ((value == Values && (launch(std::integral_constant<int, Values>{}), true)) || ...);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

/// Of the rows longer than `limit` entries, the `first` longest (among equal lengths, those the
/// level order meets first), in L's level order (`order`, on the host; `length(r)`: row r's
/// entries): the rows a sync-free factorization claims before all others, so that a long row
/// eliminates as its pivot rows finish instead of holding up, once claimed, the rows after it.
template <class Ordinal, class Order, class Length>
std::vector<Ordinal> ilu_longest_rows_in_level_order(const Order& order, Ordinal n,
                                                     const Length& length, long limit, long first) {
  std::vector<long> lengths;
  for (Ordinal r = 0; r < n; ++r)
    if (length(r) > limit) lengths.push_back(length(r));
  std::vector<Ordinal> rows;
  if (first <= 0 || lengths.empty()) return rows;
  const auto nth = lengths.begin() + (std::min<long>(first, long(lengths.size())) - 1);
  std::nth_element(lengths.begin(), nth, lengths.end(), std::greater<long>());
  const long shortest = *nth;
  for (Ordinal p = 0; p < n && long(rows.size()) < first; ++p)
    if (length(order(p)) >= shortest) rows.push_back(order(p));
  return rows;
}

template <class Matrix>
struct IluValueFlagFactor<
    Kokkos::Cuda, Matrix,
    std::enable_if_t<std::is_same_v<typename Matrix::non_const_value_type, double> ||
                     std::is_same_v<typename Matrix::non_const_value_type, float>>> {
  /// Registers per lane for rows of up to `longest` entries on `width` lanes: a power of two up
  /// to 8, or 0 when the rows are too long for registers.
  static int slots(int width, long longest) {
    int e = 1;
    while (e * width < longest) e *= 2;
    return e <= 8 ? e : 0;
  }

  /// Registers per lane where some rows are too long for them (a warp per row only): enough for
  /// rows of 8 times the mean length; longer rows take the kernel's long-row path.
  static int slots_beside_long_rows(const IluPlanStorage<Matrix>& s) {
    // At least 2: with 1, the kernel is held to 40 registers (ilu_min_blocks_per_sm), too few
    // for the long-row path.
    const int e = slots(32, long(8 * s.mean_row_length));
    return e == 0 ? 8 : e < 2 ? 2 : e;
  }

  /// The order in which the kernel claims rows where some are longer than W * E entries: the
  /// longest of them first (in level order among themselves), then every other row in level
  /// order. A long row claimed at its place in the level order holds up the rows after it that
  /// need it: they are claimed, fill the GPU and wait while it eliminates its thousands of L
  /// entries one after another, hub after hub. Claimed first, it eliminates as its pivot rows
  /// finish.
  ///
  /// Forward progress: a row claimed first waits on rows claimed after it, so those must find room
  /// on the GPU. The rows claimed first take at most (resident blocks per SM - 1) * SMs / 8
  /// blocks, which leaves the rest of the GPU to the level order (where a row waits only on rows
  /// claimed before it or claimed first, which are running), even when other kernels or a
  /// partition of the SMs take most of it. Where a block per SM is all that fits, none goes first.
  template <int W, int E, class Rows>
  static const typename Matrix::non_const_ordinal_type* longest_rows_first(
      const IluPlanStorage<Matrix>& s, const Rows&) {
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    const ordinal_type* level_order = sptrsv_plan_storage(s.lower).levels.order.data();
    int device = 0, sms = 0, per_sm = 0;
    const bool ok =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
                                                      cuda::ilu_value_flag_kernel<W, E, Rows>,
                                                      cuda::ilu_flag_block_size, 0) == cudaSuccess;
    if (!ok) cudaGetLastError();  // no error of the factorization: it claims in level order
    const long first = ok ? long(per_sm - 1) * sms / 8 * (cuda::ilu_flag_block_size / W) : 0;
    if (first <= 0) return level_order;
    const long key = first * 512 + W * E;
    if (s.long_rows_first_key != key) {
      const auto order = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(), sptrsv_plan_storage(s.lower).levels.order);
      const auto row_map =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.lu.graph.row_map);
      const auto length = [&](ordinal_type r) { return long(row_map(r + 1) - row_map(r)); };
      std::vector<ordinal_type> claimed =
          ilu_longest_rows_in_level_order(order, s.n, length, long(W * E), first);
      claimed.reserve(std::size_t(s.n));
      std::vector<char> early(std::size_t(s.n), 0);
      for (const ordinal_type r : claimed) early[std::size_t(r)] = 1;
      for (ordinal_type p = 0; p < s.n; ++p)
        if (!early[std::size_t(order(p))]) claimed.push_back(order(p));
      s.long_rows_first_order = impl::to_device_view<ordinal_type, typename Matrix::device_type>(
          claimed, "syncfree::ilu::long_rows_first_order");
      s.long_rows_first_key = key;
    }
    return s.long_rows_first_order.data();
  }

  static bool fits(const IluPlanStorage<Matrix>& s, int width) {
    if (width == 32) return true;
    return (width == 4 || width == 8 || width == 16) && slots(width, s.longest_row) > 0;
  }

  using Rows = cuda::IluValueFlagRows<
      typename IluPlanStorage<Matrix>::scalar_type, typename IluPlanStorage<Matrix>::magnitude_type,
      typename IluPlanStorage<Matrix>::ordinal_type, typename IluPlanStorage<Matrix>::offset_type>;

  /// The kernels' arguments, A's values loaded where the kernels do not read A's own, the factors
  /// set to the all-ones pattern and the ticket to 0. `in_place`: rows too long for registers are
  /// eliminated in the input (then a copy of A's values).
  static Rows prepare(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s, const Matrix& A,
                      const IluOptions& options, bool in_place) {
    using Storage = IluPlanStorage<Matrix>;
    using scalar_type = typename Storage::scalar_type;
    // ILU(0): A's pattern is the factors', so the kernel reads A's values as they are, unless long
    // rows are eliminated in place or the diagonal is shifted: then in a copy.
    const bool input_is_a = s.a_to_lu.extent(0) == 0 && !in_place && options.shift == 0;
    if (!input_is_a) {
      if (s.factor_input.extent(0) != s.lu.values.extent(0))
        s.factor_input = decltype(s.factor_input)(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ilu::factor_input"),
            s.lu.values.extent(0));
      ilu_load_values(exec, s, A, s.factor_input, options);
    }
    cudaMemsetAsync(s.lu.values.data(), 0xFF, sizeof(scalar_type) * s.lu.values.extent(0),
                    exec.cuda_stream());
    Kokkos::deep_copy(exec, s.ticket, 0u);
    return Rows{sptrsv_plan_storage(s.lower).levels.order.data(),
                s.lu.graph.row_map.data(),
                s.lu.graph.entries.data(),
                s.diagonal.data(),
                input_is_a ? A.values.data() : s.factor_input.data(),
                in_place ? s.factor_input.data() : nullptr,
                s.lu.values.data(),
                s.threshold.data(),
                typename Storage::magnitude_type(options.absolute_threshold),
                typename Storage::magnitude_type(options.relative_threshold),
                s.report.data(),
                s.ticket.data(),
                s.n,
                0,
                options.replace_tiny_pivots,
                input_is_a};
  }

  static bool run(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s, const Matrix& A,
                  const IluOptions& options, int width) {
    if (!fits(s, width)) return false;
    int e = slots(width, s.longest_row);
    const bool long_rows = e == 0;
    if (long_rows) e = slots_beside_long_rows(s);
    const Rows rows = prepare(exec, s, A, options, long_rows);
    const cudaStream_t stream = exec.cuda_stream();
    const long l = long(s.lower.max_row_length());
    bool launched = false;
    cuda::launch_for<4, 8, 16, 32>(width, [&](auto w) {
      launched = cuda::launch_for<1, 2, 4, 8>(e, [&](auto slots) {
        constexpr int W = decltype(w)::value, E = decltype(slots)::value;
        auto claimed = rows;
        if (long_rows) claimed.order = longest_rows_first<W, E>(s, rows);
        cuda::launch_ilu_value_flag<W, E>(claimed, l, stream);
      });
    });
    SYNCFREE_REQUIRE(launched, InvalidState, "ilu value-flag factorization: width ", width,
                     " with ", e, " entries per lane has no kernel");
    cuda::require_launched("ilu value-flag");
    return true;
  }
};

}  // namespace syncfree::impl

#endif
