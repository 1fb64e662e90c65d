// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA kernel of the `gather` ILU factorization: a warp per row, the row (its columns and
/// values) held in shared memory. The pivot rows of several L entries at once are gathered with
/// consecutive lanes, a lane per (L entry, U entry of its pivot row) pair, each pair matched into
/// the row by a binary search in shared memory; their values are then polled together, and the
/// entries whose pivot rows have finished are eliminated in order.
///
/// Why beside the value-flag kernel (syncfree_ilu_value_flag_cuda.hpp): that kernel keeps the row
/// in registers and polls one L entry at a time, each lane searching its own columns in the pivot
/// row's pattern in global memory. Where rows have many L entries whose pivot rows finish about
/// together (finite-element meshes in a mesher's numbering: the row's neighbours in the last few
/// levels), a row then pays one memory round trip per entry after its last wait, and thousands of
/// levels multiply it. Here the entries ready together cost one round trip, the searches run in
/// shared memory, and the few registers a lane holds leave room for more rows in flight.
///
/// Arithmetic: for each L entry (i, m) in order, l_im = a_im / u_mm and a_ij -= l_im u_mj for the
/// columns j of row m's U part in row i: the operations, in the order, of the other kernels, so
/// the factors are the same bit for bit.
///
/// Memory ordering and the values' bits as in the value-flag kernel: a value is written once with
/// a volatile store and is never the all-ones pattern, which waiters poll with volatile loads.
///
/// Rows longer than a warp's share of shared memory (power-law hubs, circuits' rails: up to 8
/// times it) take a block of their own and its whole shared memory. Warp 0 eliminates their
/// groups; an L entry whose pivot row's U part is longer than a group holds (a neighbouring hub's:
/// thousands of entries, which one warp matches 32 at a time) is matched by all 8 warps between
/// two block barriers. Power-law matrices have chains of hubs that depend on hubs, and those
/// matches make up most of that critical path.
///
/// Forward progress: a block claims consecutive positions of the claim order by ticket once it
/// runs, a warp takes one row and waits only on rows before it in that order (earlier blocks, or
/// other warps of its own block, which are scheduled independently). That order is L's level
/// order, except where long rows are (`IluGatherFactor::make_claim_order`).

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "algorithms/ilu/cuda/syncfree_ilu_value_flag_cuda.hpp"

namespace syncfree::impl::cuda {

inline constexpr int ilu_gather_block_size = 256;
inline constexpr int ilu_gather_rows_per_block = ilu_gather_block_size / 32;
/// (L entry, pivot-row U entry) pairs per lane in a group: a group takes the L entries whose pivot
/// rows' U parts fit in 32 times this many, an entry with a longer one goes alone, 32 at a time.
inline constexpr int ilu_gather_pairs_per_lane = 2;
/// Entries of the longest row a warp's share of shared memory holds (this many columns and
/// values); a longer row takes a block's whole shared memory, 8 times this.
inline constexpr long ilu_gather_longest_row = 512;

/// Shared memory of a block whose rows hold at most `capacity` entries.
template <class Scalar, class Ordinal>
constexpr std::size_t ilu_gather_bytes(int capacity) {
  return std::size_t(ilu_gather_rows_per_block) * capacity * (sizeof(Scalar) + sizeof(Ordinal));
}

/// The smallest `not_ready` of the warp.
__device__ __forceinline__ int ilu_warp_min(int not_ready) {
  for (int offset = 16; offset > 0; offset /= 2)
    not_ready = min(not_ready, __shfl_xor_sync(full_mask, not_ready, offset));
  return not_ready;
}

template <class Rows>
__global__ void __launch_bounds__(ilu_gather_block_size)
    ilu_gather_kernel(const Rows rows, const int capacity) {
  using Scalar = std::remove_const_t<std::remove_pointer_t<decltype(rows.input)>>;
  using Ordinal = std::remove_const_t<std::remove_pointer_t<decltype(rows.order)>>;
  using Offset = std::remove_const_t<std::remove_pointer_t<decltype(rows.row_map)>>;
  using Magnitude = std::remove_pointer_t<decltype(rows.threshold)>;
  using B = Bits<Scalar>;
  constexpr int P = ilu_gather_pairs_per_lane;
  __shared__ unsigned s_chunk;
  extern __shared__ __align__(16) unsigned char s_gather_bytes[];
  if (threadIdx.x == 0) s_chunk = atomicAdd(rows.ticket, 1u);
  __syncthreads();

  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const Ordinal first = Ordinal(s_chunk) * ilu_gather_rows_per_block;
  if (first >= rows.n) return;  // the whole block
  // A row longer than `capacity` is claimed at the start of a block whose other positions are
  // empty (-1): the whole block takes it, its shared memory running on over theirs. Warp 0
  // eliminates; where a pivot row's U part is longer than a group holds, every warp takes part.
  const Ordinal head = rows.order[first];
  const bool whole_block = head >= 0 && rows.row_map[head + 1] - rows.row_map[head] > capacity;
  const int rank = whole_block ? int(threadIdx.x) : lane;
  const int threads = whole_block ? ilu_gather_block_size : 32;
  const auto sync = [&] {
    if (whole_block)
      __syncthreads();
    else
      __syncwarp();
  };
  Ordinal row = head;
  if (!whole_block) {
    const Ordinal p = first + Ordinal(warp);
    if (p >= rows.n) return;  // the whole warp
    row = rows.order[p];
    if (row < 0) return;
  }
  const std::size_t slot = whole_block ? 0 : std::size_t(warp) * capacity;
  Scalar* const value = reinterpret_cast<Scalar*>(s_gather_bytes) + slot;
  Ordinal* const column =
      reinterpret_cast<Ordinal*>(reinterpret_cast<Scalar*>(s_gather_bytes) +
                                 std::size_t(ilu_gather_rows_per_block) * capacity) +
      slot;
  const Offset begin = rows.row_map[row];
  const int length = int(rows.row_map[row + 1] - begin);
  const int lower = int(rows.diagonal[row] - begin);  // L entries: [0, lower)

  // The row into shared memory; the thread that loads the diagonal keeps the pivot threshold and
  // checks the pivot at the end (the same thread: both loops give entry k to rank k % threads).
  Magnitude threshold = 0;
  bool finite = true;
  for (int k = rank; k < length; k += threads) {
    const Scalar v = rows.input[begin + k];
    column[k] = __ldg(&rows.entries[begin + k]);
    value[k] = v;
    if (rows.input_is_a) {
      finite = finite && is_finite(v);
      if (k == lower) {
        threshold = ilu_pivot_threshold(rows.absolute_threshold, rows.relative_threshold, v);
        rows.threshold[row] = threshold;
      }
    } else if (k == lower) {
      threshold = rows.threshold[row];
    }
  }
  if (rows.input_is_a && __any_sync(full_mask, !finite) && lane == 0)
    Kokkos::atomic_fetch_min(&rows.report[0], std::int64_t(row) * 4 + ilu_input_not_finite);
  sync();

  const auto position_in_row = [&](Ordinal c, int after) {
    return find_sorted(c, after + 1, length, [&](int k) { return column[k]; });
  };
  for (int j = 0; j < lower;) {
    // Lane g: the pivot row of L entry j + g, where it holds u_mm and how many U entries follow.
    Offset my_diagonal = 0;
    int my_length = 0;
    if (j + lane < lower) {
      const Ordinal m = column[j + lane];
      my_diagonal = __ldg(&rows.diagonal[m]);
      my_length = int(__ldg(&rows.row_map[m + 1]) - my_diagonal - 1);
    }
    int inclusive = my_length;
    for (int d = 1; d < 32; d *= 2) {
      const int before = __shfl_up_sync(full_mask, inclusive, d);
      if (lane >= d) inclusive += before;
    }
    const int count = __popc(__ballot_sync(full_mask, j + lane < lower && inclusive <= 32 * P));

    if (count == 0) {  // one entry whose pivot row's U part is longer than a group holds
      const Offset diagonal = __shfl_sync(full_mask, my_diagonal, 0);
      const int pivot_length = __shfl_sync(full_mask, my_length, 0);
      if (whole_block) __syncthreads();  // warp 0's eliminations before it are seen
      const Scalar l = value[j] / ilu_wait_for_value(&rows.factors[diagonal]);
      for (int t = rank; t < pivot_length; t += threads) {
        const Offset q = diagonal + 1 + t;
        const int k = position_in_row(__ldg(&rows.entries[q]), j);
        if (k >= 0) value[k] -= l * ilu_wait_for_value(&rows.factors[q]);
      }
      sync();  // every thread has read value[j]; the next entry reads this one's updates
      if (rank == 0) value[j] = l;
      ++j;
      continue;
    }
    if (whole_block && warp > 0) {  // groups are warp 0's
      j += count;
      continue;
    }

    // Pair t = lane + 32 s of the group: U entry `q` of the pivot row of L entry j + `entry`,
    // matched to entry `k` of the row (-1: not in the row, nothing to poll).
    int entry[P], k[P];
    Offset q[P];
    typename B::type u[P];
#pragma unroll
    for (int s = 0; s < P; ++s) entry[s] = -1, k[s] = -1, q[s] = 0, u[s] = B::pattern;
    for (int g = 0; g < count; ++g) {
      const int start = __shfl_sync(full_mask, inclusive - my_length, g);
      const int pivot_length = __shfl_sync(full_mask, my_length, g);
      const Offset diagonal = __shfl_sync(full_mask, my_diagonal, g);
#pragma unroll
      for (int s = 0; s < P; ++s) {
        const int t = lane + 32 * s - start;
        if (t >= 0 && t < pivot_length) entry[s] = g, q[s] = diagonal + 1 + t;
      }
    }
    Ordinal c[P];
#pragma unroll
    for (int s = 0; s < P; ++s) c[s] = entry[s] >= 0 ? __ldg(&rows.entries[q[s]]) : Ordinal(0);
#pragma unroll
    for (int s = 0; s < P; ++s)
      if (entry[s] >= 0) k[s] = position_in_row(c[s], j + entry[s]);

    // Poll the group's values (u_mm in lane g), eliminate the entries ready in order.
    typename B::type my_pivot = B::pattern;
    for (int first = 0; first < count;) {
      int not_ready = count;
      if (lane >= first && lane < count && my_pivot == B::pattern) {
        my_pivot = B::load(&rows.factors[my_diagonal]);
        if (my_pivot == B::pattern) not_ready = lane;
      }
#pragma unroll
      for (int s = 0; s < P; ++s) {
        if (k[s] >= 0 && entry[s] >= first && u[s] == B::pattern) {
          u[s] = B::load(&rows.factors[q[s]]);
          if (u[s] == B::pattern) not_ready = min(not_ready, entry[s]);
        }
      }
      const int ready = ilu_warp_min(not_ready);
      if (ready == first) {
        __nanosleep(32);
        continue;
      }
      for (int g = first; g < ready; ++g) {
        const Scalar l = value[j + g] / B::value(__shfl_sync(full_mask, my_pivot, g));
#pragma unroll
        for (int s = 0; s < P; ++s)
          if (entry[s] == g && k[s] >= 0) value[k[s]] -= l * B::value(u[s]);
        __syncwarp();  // as above
        if (lane == 0) value[j + g] = l;
      }
      first = ready;
    }
    j += count;
  }
  sync();

  for (int e = rank; e < length; e += threads) {
    Scalar v = value[e];
    if (e == lower) v = ilu_checked_pivot(row, v, threshold, rows.replace_tiny_pivots, rows.report);
    const auto bits = B::of(v);
    B::store(&rows.factors[begin + e],
             bits == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : v);
  }
}

/// Entries per warp of the kernel's shared memory for rows of at most `longest` entries (a power
/// of two, at least 32; rows longer than it take a block), or 0 where a block cannot hold them.
inline int ilu_gather_capacity(long longest) {
  if (longest > ilu_gather_rows_per_block * ilu_gather_longest_row) return 0;
  int capacity = 32;
  while (capacity < longest && capacity < ilu_gather_longest_row) capacity *= 2;
  return capacity;
}

/// Dynamic shared memory of the kernel for `capacity`, asked for where above 48 KiB in all.
template <class Rows>
std::size_t ilu_gather_shared_bytes(int capacity) {
  using Scalar = std::remove_const_t<std::remove_pointer_t<decltype(Rows::input)>>;
  using Ordinal = std::remove_const_t<std::remove_pointer_t<decltype(Rows::order)>>;
  const std::size_t bytes = ilu_gather_bytes<Scalar, Ordinal>(capacity);
  // The static part counts too: ask above 40 KiB.
  if (bytes > 40 * 1024)
    require_cuda(cudaFuncSetAttribute(ilu_gather_kernel<Rows>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
                 "ilu gather: shared memory");
  return bytes;
}

/// \param rows `rows.order` and `rows.n`: the claim order, with its empty positions
template <class Rows>
void launch_ilu_gather(const Rows& rows, int capacity, cudaStream_t stream) {
  const std::size_t bytes = ilu_gather_shared_bytes<Rows>(capacity);
  const unsigned blocks =
      unsigned((rows.n + ilu_gather_rows_per_block - 1) / ilu_gather_rows_per_block);
  if (blocks > 0)
    ilu_gather_kernel<<<blocks, ilu_gather_block_size, bytes, stream>>>(rows, capacity);
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix>
struct IluGatherFactor<
    Kokkos::Cuda, Matrix,
    std::enable_if_t<std::is_same_v<typename Matrix::non_const_value_type, double> ||
                     std::is_same_v<typename Matrix::non_const_value_type, float>>> {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using Rows = typename IluValueFlagFactor<Kokkos::Cuda, Matrix>::Rows;

  static bool takes(const IluPlanStorage<Matrix>& s) {
    return cuda::ilu_gather_capacity(s.longest_row) > 0;
  }

  /// The order in which blocks claim rows where some are longer than `capacity`: each such row at
  /// the start of a block of its own, the block's other positions empty (-1), and, as in the
  /// value-flag kernel (`longest_rows_first`, which says why), the longest of them first, in level
  /// order among themselves; then every other row in level order. Forward progress as there: the
  /// rows claimed first take at most (resident blocks per SM - 1) * SMs / 8 blocks. Made once per
  /// plan and capacity; its length is `s.gather_claim_order.extent(0)`.
  static void make_claim_order(const IluPlanStorage<Matrix>& s, int capacity) {
    constexpr int per_block = cuda::ilu_gather_rows_per_block;
    int device = 0, sms = 0, per_sm = 0;
    const std::size_t bytes = cuda::ilu_gather_shared_bytes<Rows>(capacity);
    const bool ok =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cuda::ilu_gather_kernel<Rows>,
                                                      cuda::ilu_gather_block_size,
                                                      bytes) == cudaSuccess;
    if (!ok) cudaGetLastError();  // then none goes first
    const long first = ok ? long(per_sm - 1) * sms / 8 : 0;
    const long key = (first << 16) + capacity;
    if (s.gather_claim_key == key) return;

    const auto order = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), sptrsv_plan_storage(s.lower).levels.order);
    const auto row_map =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.lu.graph.row_map);
    const auto length = [&](ordinal_type r) { return long(row_map(r + 1) - row_map(r)); };
    std::vector<ordinal_type> claimed;
    claimed.reserve(std::size_t(s.n));
    const auto claim_block = [&](ordinal_type r) {
      while (claimed.size() % per_block != 0) claimed.push_back(-1);
      claimed.push_back(r);
      claimed.resize(claimed.size() + per_block - 1, -1);
    };
    std::vector<char> early(std::size_t(s.n), 0);
    for (const ordinal_type r :
         ilu_longest_rows_in_level_order(order, s.n, length, capacity, first)) {
      claim_block(r);
      early[std::size_t(r)] = 1;
    }
    for (ordinal_type p = 0; p < s.n; ++p) {
      const ordinal_type r = order(p);
      if (early[std::size_t(r)]) continue;
      if (length(r) > capacity)
        claim_block(r);
      else
        claimed.push_back(r);
    }
    s.gather_claim_order = impl::to_device_view<ordinal_type, typename Matrix::device_type>(
        claimed, "syncfree::ilu::gather_claim_order");
    s.gather_claim_key = key;
  }

  static bool run(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s, const Matrix& A,
                  const IluOptions& options) {
    const long longest = s.longest_row;
    const int capacity = cuda::ilu_gather_capacity(longest);
    if (capacity == 0) return false;
    auto rows = IluValueFlagFactor<Kokkos::Cuda, Matrix>::prepare(exec, s, A, options, false);
    if (longest > capacity) {
      make_claim_order(s, capacity);
      rows.order = s.gather_claim_order.data();
      rows.n = ordinal_type(s.gather_claim_order.extent(0));
    }
    cuda::launch_ilu_gather(rows, capacity, exec.cuda_stream());
    cuda::require_launched("ilu gather");
    return true;
  }
};

}  // namespace syncfree::impl

#endif
