// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The CUDA engine of SyncFree's sync-free kernels: one thread per position of a
/// topological order, each waiting only on the positions it depends on.
///
/// An operation (`Op`) says what a position computes from the values of its dependencies: a
/// triangular solve sums a_ij x_j, the level analysis takes max(level_j + 1). The engine moves
/// each dependency along the cheapest path that reaches its consumer:
///  - same warp: a register shuffle. The warp runs in rounds; in each round every lane takes what
///    its dependencies in memory already allow, then the warp steps through shuffles (each hands
///    every lane the value of the in-warp position it waits on, and positions that thereby have
///    all their values finish) until no lane can move. A chain of 32 positions inside a warp (each
///    position's last dependency the position before it) resolves by one segmented prefix scan
///    of 5 steps: a max-plus recurrence for the level analysis, an affine one for the solve. Such
///    a position always takes its value from that scan, anchored at its chain's head, so its
///    bits do not depend on which lanes were ready first (syncfree_warp_chain_scan.hpp).
///  - same block: shared memory; other blocks: the work vector in global memory.
/// A round never blocks, so lanes of a warp never wait on each other's progress. Everything a
/// position reads that does not depend on other positions (its entries, its coefficients, its
/// right-hand side) is loaded before it starts waiting, the first `prefetch` entries into
/// registers, and each round polls all pending dependencies at once: one memory latency per
/// round, not one per dependency.
///
/// Forward progress. A block claims a chunk of consecutive positions through an atomic ticket
/// once it is running, and a position only depends on smaller positions (the order is
/// topological: analysis guarantees it). Smaller positions in the same chunk belong to the same
/// resident block (its warps are scheduled independently, and rounds never block); smaller chunks
/// were claimed by running blocks. The smallest unfinished position therefore always progresses,
/// whatever order the hardware launches blocks in.
///
/// Memory ordering. A value is its own flag: the all-ones bit pattern means "not computed", and
/// `Op::finish` never returns that pattern. Values are written once with a volatile store and
/// read with volatile loads compared bit-exactly; no other data travels with a value, so no fence
/// is needed. The one __syncthreads orders the shared-memory initialisation before any read of it.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/cuda/syncfree_warp_chain_scan.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl::cuda {

inline constexpr int rounds_block_size = 256;

/// Bit-level access to 4- and 8-byte values, for the all-ones "not computed" pattern.
template <class Value>
struct Bits {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "values must be 4 or 8 bytes");
  using type = std::conditional_t<sizeof(Value) == 8, std::uint64_t, std::uint32_t>;
  static constexpr type pattern = ~type(0);
  __device__ __forceinline__ static type of(Value v) { return bit_cast<type>(v); }
  __device__ __forceinline__ static Value value(type b) { return bit_cast<Value>(b); }
  /// Read past the caches that could hold a stale "not computed".
  __device__ __forceinline__ static type load(const Value* p) {
    return *reinterpret_cast<const volatile type*>(p);
  }
  __device__ __forceinline__ static void store(Value* p, Value v) {
    *reinterpret_cast<volatile type*>(p) = of(v);
  }
};

/// The engine. `Op` provides value_type, coefficient_type, a per-position `Row` state,
/// max_backoff_ns (the longest sleep of a waiting warp), blocks_per_sm (the most blocks resident on
/// one SM: 1 or 2, 0 for no limit), chain_links (see below), `n`, `ticket`,
/// `work` (the value of every position, all-ones until computed) and
///   Row start(position, begin&, end&)  - entries [begin, end) of the position
///   Ordinal dependency(k), coefficient_type coefficient(k)
///   combine(Row&, coefficient, value), value_type finish(const Row&), write(position, Row, value)
/// and, with chain_links (a position whose one remaining dependency has the value v has the value
/// f(v), for maps f of a family closed under composition), the family: `Link` {value_type a, b},
///   Link chain_link(Row, coefficient)  - f of such a position (its b may not depend on the
///                                        values of dependencies: it is taken before the wait)
///   Link compose(later, earlier)       - later o earlier
///   value_type chain_zero()            - the a that adds nothing to a composition
///   bool chain_usable(value)           - whether a scanned value may be used
template <int prefetch, class Op>
__global__ void __launch_bounds__(rounds_block_size) sync_free_rounds_kernel(const Op op) {
  using Value = typename Op::value_type;
  using Coefficient = typename Op::coefficient_type;
  using Ordinal = typename Op::ordinal_type;
  using Offset = typename Op::offset_type;
  using B = Bits<Value>;
  __shared__ Value s_value[rounds_block_size];
  __shared__ unsigned s_chunk;
  if (threadIdx.x == 0) s_chunk = atomicAdd(op.ticket, 1u);
  s_value[threadIdx.x] = B::value(B::pattern);
  __syncthreads();

  const Ordinal block_base = Ordinal(s_chunk) * rounds_block_size;
  const Ordinal warp_base = block_base + Ordinal(threadIdx.x & ~31u);
  const int lane = threadIdx.x & 31;
  const Ordinal p = block_base + Ordinal(threadIdx.x);
  bool done = p >= op.n;
  Offset begin = 0, k = 0, end = 0;
  typename Op::Row row{};
  Value result{};
  if (!done) {
    row = op.start(p, begin, end);
    k = begin;
  }
  Ordinal column[prefetch];
  Coefficient coefficient[prefetch];
#pragma unroll
  for (int i = 0; i < prefetch; ++i) {
    column[i] = warp_base;  // padding: looks like an in-warp entry, and is never taken
    coefficient[i] = Coefficient{};
    if (begin + i < end) {
      column[i] = op.dependency(begin + i);
      coefficient[i] = op.coefficient(begin + i);
    }
  }

  // The chain scan's parts that need no dependency's value, composed before the warp waits.
  [[maybe_unused]] WarpChainScan<Op> chain_scan;
  [[maybe_unused]] bool linked = false;        // the last entry is the lane before: a chain lane
  [[maybe_unused]] bool map_known = false;     // its map's a is fixed (all other entries taken)
  [[maybe_unused]] bool scan_refused = false;  // its scanned value was not usable: it steps
  [[maybe_unused]] Value map_a{};
  if constexpr (Op::chain_links) {
    Ordinal last = warp_base - 1;  // the position of this position's last entry
    Coefficient c_last{};
    if (!done && end > begin) {
#pragma unroll
      for (int i = 0; i < prefetch; ++i)
        if (begin + i + 1 == end) last = column[i], c_last = coefficient[i];
      if (end > begin + prefetch) last = op.dependency(end - 1), c_last = op.coefficient(end - 1);
    }
    linked = last + 1 == p && lane > 0;
    chain_scan.prepare(lane, linked, Op::chain_link(row, c_last).b);
  }

  [[maybe_unused]] unsigned idle_rounds = 0;  // rounds since the warp last progressed
  bool progressed = false;
  const auto publish = [&](Value value) {
    result = value;
    B::store(&s_value[threadIdx.x], result);
    B::store(&op.work[p], result);
    op.write(p, row, result);
    done = true;
    progressed = true;
  };
  const auto finish_position = [&] { publish(op.finish(row)); };
  while (true) {
    progressed = false;
    if (!done) {
      typename B::type bits[prefetch];
      // Chain-ordered operations poll each entry with one generic load (shared memory or the work
      // vector, no branch) and take entries without branches: a round has fewer, shorter dependent
      // instructions. Level order (rows of up to 16 far dependencies) was slower that way and keeps
      // the branches.
      if constexpr (Op::chain_links) {
#pragma unroll
        for (int i = 0; i < prefetch; ++i) {
          bits[i] = B::pattern;
          if (begin + i >= k && begin + i < end && column[i] < warp_base)
            bits[i] = B::load(column[i] >= block_base ? &s_value[column[i] - block_base]
                                                      : &op.work[column[i]]);
        }
#pragma unroll
        for (int i = 0; i < prefetch; ++i) {
          const bool take = begin + i == k && bits[i] != B::pattern;
          if (take) Op::combine(row, coefficient[i], B::value(bits[i]));
          k += take ? 1 : 0;
          progressed = progressed || take;
        }
      } else {
#pragma unroll
        for (int i = 0; i < prefetch; ++i) {
          bits[i] = B::pattern;
          if (begin + i >= k && begin + i < end && column[i] < warp_base)
            bits[i] = column[i] >= block_base ? B::load(&s_value[column[i] - block_base])
                                              : B::load(&op.work[column[i]]);
        }
#pragma unroll
        for (int i = 0; i < prefetch; ++i) {
          if (begin + i == k && k < end && bits[i] != B::pattern) {
            Op::combine(row, coefficient[i], B::value(bits[i]));
            ++k;
            progressed = true;
          }
        }
      }
      // Entries beyond the registers (long rows): one at a time.
      while (k >= begin + prefetch && k < end) {
        const Ordinal q = op.dependency(k);
        if (q >= warp_base) break;
        const auto b = q >= block_base ? B::load(&s_value[q - block_base]) : B::load(&op.work[q]);
        if (b == B::pattern) break;
        Op::combine(row, op.coefficient(k), B::value(b));
        ++k;
        progressed = true;
      }
    }
    // Entries whose positions live in this warp, by shuffles from the lanes that own them, and
    // positions that thereby finish, in steps until no lane of the warp can move: a chain
    // running through the warp is resolved in one round, in registers.
    while (true) {
      if (!done && k == end) finish_position();
      Ordinal q = warp_base - 1;
      Coefficient c{};
      if (!done && k < end) {
#pragma unroll
        for (int i = 0; i < prefetch; ++i)
          if (begin + i == k) q = column[i], c = coefficient[i];
        if (k >= begin + prefetch) q = op.dependency(k), c = op.coefficient(k);
      }
      // Chain lanes whose one remaining entry is the lane before them take their values from one
      // scan of their maps from their chain's head (syncfree_warp_chain_scan.hpp), once every
      // lane from the head on is ready, never by a step: so the bits do not depend on timing. A
      // lane whose scanned value Op::chain_usable refuses (overflow in the scan's products, or
      // NaN/Inf data) steps instead, as a lane without a chain: the sequential formula
      // propagates data's NaN and Inf. The refusal depends on data only.
      bool scanning = false;  // a chain lane waiting for the scan
      if constexpr (Op::chain_links) {
        scanning = linked && !done && k + 1 == end && !scan_refused;
        if (scanning && !map_known) {
          map_a = Op::chain_link(row, c).a;
          map_known = true;
        }
        if (__ballot_sync(full_mask, scanning)) {
          const unsigned available = __ballot_sync(full_mask, linked ? map_known : done);
          const bool ready = scanning && chain_scan.segment_available(lane, available);
          if (__any_sync(full_mask, ready)) {
            const Value value = chain_scan.scan(linked ? map_a : done ? result : Op::chain_zero());
            if (ready && Op::chain_usable(value)) {
              publish(value);
              q = warp_base - 1;
              scanning = false;
            } else if (ready) {
              scan_refused = true;
              scanning = false;
            }
          }
        }
      }
      const bool wants_lane = q >= warp_base && !scanning;
      if (__ballot_sync(full_mask, wants_lane) == 0) break;  // no lane waits inside the warp
      const int source_lane = wants_lane ? int(q - warp_base) : lane;
      const Value v = __shfl_sync(full_mask, result, source_lane);
      const unsigned finished = __ballot_sync(full_mask, done);
      const bool took = wants_lane && ((finished >> source_lane) & 1u);
      if (took) {
        Op::combine(row, c, v);
        ++k;
        progressed = true;
      }
      if (!__any_sync(full_mask, took)) break;
    }
    if (__all_sync(full_mask, done)) break;
    // A warp that made no progress is waiting on memory: back off, from 32 ns doubling up to
    // Op::max_backoff_ns, so that warps far from being ready leave their issue slots to the
    // warps that are.
    if constexpr (Op::max_backoff_ns <= 32) {
      if (!__any_sync(full_mask, progressed)) __nanosleep(32);
    } else if (__any_sync(full_mask, progressed)) {
      idle_rounds = 0;
    } else {
      const unsigned backoff = 32u << (idle_rounds < 10 ? idle_rounds : 10);
      __nanosleep(backoff < Op::max_backoff_ns ? backoff : Op::max_backoff_ns);
      ++idle_rounds;
    }
  }
}

/// Dynamic shared memory, never read, that lets at most `blocks` blocks of `kernel` reside on one
/// SM (0: no limit, or where the device cannot be limited that way). Fewer resident blocks mean
/// fewer waiting warps polling beside the ready ones.
template <class Kernel>
int occupancy_limiting_bytes(Kernel kernel, int blocks) {
  if (blocks <= 0) return 0;
  int device = 0, per_sm = 0, reserved = 0, per_block = 0, resident = 0;
  cudaFuncAttributes attributes{};
  bool ok = cudaGetDevice(&device) == cudaSuccess &&
            cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) ==
                cudaSuccess &&
            cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) ==
                cudaSuccess &&
            cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) ==
                cudaSuccess &&
            cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess;
  // Just enough that blocks + 1 of them do not fit.
  const long bytes =
      ok ? per_sm / (blocks + 1) + 1 - long(attributes.sharedSizeBytes) - reserved : 0;
  ok = ok && bytes > 0 && bytes + long(attributes.sharedSizeBytes) <= per_block &&
       cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) ==
           cudaSuccess &&
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, rounds_block_size,
                                                     std::size_t(bytes)) == cudaSuccess &&
       resident == blocks;
  if (ok) return int(bytes);
  cudaGetLastError();  // a failed query here is no error of the solve: it runs unlimited
  return 0;
}

/// Dynamic shared memory per block for 1 and 2 resident blocks per SM of `kernel` (found once per
/// kernel, for the current device); the kernel's limit is set to the larger, so either launches.
template <class Kernel>
struct OccupancyLimits {
  int bytes[2];
  explicit OccupancyLimits(Kernel kernel)
      : bytes{occupancy_limiting_bytes(kernel, 1), occupancy_limiting_bytes(kernel, 2)} {
    const int most = bytes[0] > bytes[1] ? bytes[0] : bytes[1];
    if (most > 0 && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         most) != cudaSuccess) {
      cudaGetLastError();  // then the solve runs unlimited
      bytes[0] = bytes[1] = 0;
    }
  }
  int operator()(int blocks) const { return blocks == 1 || blocks == 2 ? bytes[blocks - 1] : 0; }
};

/// One launch of the engine holding `prefetch` entries of each position in registers, limited to
/// op.blocks_per_sm resident blocks per SM (1 or 2; other values: no limit).
template <int prefetch, class Op>
void launch_sync_free_rounds_kernel(const Op& op, unsigned blocks, cudaStream_t stream) {
  const auto kernel = sync_free_rounds_kernel<prefetch, Op>;
  int bytes = 0;
  if (op.blocks_per_sm > 0) {
    static const OccupancyLimits<decltype(kernel)> limits(kernel);
    bytes = limits(op.blocks_per_sm);
  }
  kernel<<<blocks, rounds_block_size, bytes, stream>>>(op);
}

/// Launches the engine on `op` over positions 0..n-1 (work and ticket must be all-ones and zero),
/// holding min(16, next power of two >= longest) entries of each position in registers.
template <class Op>
void launch_sync_free_rounds(const Op& op, long longest, cudaStream_t stream) {
  const unsigned blocks = unsigned((op.n + rounds_block_size - 1) / rounds_block_size);
  if (blocks == 0) return;
  if (longest <= 1) {
    launch_sync_free_rounds_kernel<1>(op, blocks, stream);
  } else if (longest <= 2) {
    launch_sync_free_rounds_kernel<2>(op, blocks, stream);
  } else if (longest <= 4) {
    launch_sync_free_rounds_kernel<4>(op, blocks, stream);
  } else if (longest <= 8) {
    launch_sync_free_rounds_kernel<8>(op, blocks, stream);
  } else {
    launch_sync_free_rounds_kernel<16>(op, blocks, stream);
  }
}

}  // namespace syncfree::impl::cuda

#endif
