// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA `wavefront` SpTRSV: a warp per unit of the wavefront layout
/// (impl/syncfree_sptrsv_wavefront_layout.hpp), lane r running row o of its segment at step
/// skew(r) + o, skew(r) being its distance in lines and planes from lane 0.
///
/// A row's own previous row is the lane's result of the step before (a register); the row at the
/// same place of the line before and of the plane before are the results of the step before of
/// the lane before and of the lane a group of lines before (one shuffle each); every other
/// dependency lies in an earlier unit, read from the work vector.
///
/// The warp reads the layout's step table, so a step's loads read 32 consecutive entries: the
/// analysis resolved each row's entries into slots, one per register path (2-D grids have two,
/// 3-D grids three) unless the row reads that slot from memory, and the first solve divided the
/// values by the diagonal, so a step is a product, an FMA a slot, and its store. A step is
/// branch-free.
///
/// The warp takes its steps in chunks. The table streams through a window in shared memory
/// (WavefrontWindow), copied asynchronously (cp.async) two chunks ahead, so that the registers
/// hold only the chunk running; a chunk's right-hand sides are gathered while the one before
/// runs, and the first polls of its dependencies on earlier units are issued together when it
/// starts; each step then waits only for its own. With the table out of the registers, the 2-D
/// grids take chunks of 8 steps (a poll round per 8 steps; in registers, 8 steps spilled). This was
/// faster than loading the table into registers a chunk ahead, most on the 2-D grids.
///
/// The same kernel reads its right-hand sides from another solve's work vector where the ILU's
/// apply chains its two solves (`solve_from_work`), and, in (max, +), finds each row's level
/// (`wavefront_levels`, for the ILU's analysis).
///
/// The kernel writes each result once, into the work vector (position order), and a copy after
/// it writes x in row order: a step's 32 lanes hold rows of 32 different lines, so a store of x in
/// the step touched 32 sectors, as the work vector's store does. The copy takes those stores off
/// the solve's critical path.
///
/// Forward progress. A warp claims its unit through an atomic ticket once it is running, and the
/// analysis checked that every dependency of a unit's rows lies in an earlier unit (claimed by a
/// running warp) or is one of the three register paths of the same unit, which its earlier steps
/// produced. The warp of the smallest unfinished unit therefore always progresses, whatever order
/// blocks launch in. Every loop of the kernel runs the same number of times on every lane, and
/// every shuffle and vote is executed by every lane, so they always find the whole warp.
///
/// Memory ordering: as in the sync-free engine (core/cuda/syncfree_sync_free_rounds.hpp), a value
/// is its own flag, written once with a volatile store and polled with volatile loads; the
/// all-ones pattern means "not computed" and is replaced by the canonical NaN where a result has
/// it. The window is the warp's own: each lane reads entries that other lanes copied, so the
/// warp waits for its copies (cp.async.wait_group) and then synchronizes (__syncwarp) before
/// reading a chunk, and again before a slot it has read is filled anew.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <algorithm>
#include <map>
#include <mutex>

#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree::impl::cuda {

inline constexpr int wavefront_block_size = 128;
/// Steps per chunk on a layout of P register paths: a chunk's dependencies on earlier units are
/// polled together when it starts. 8 steps suit the 2-D grids (two paths) and 4 the 3-D ones; 16
/// steps were slower on both.
template <int P>
inline constexpr int wavefront_chunk = P == 2 ? 8 : 4;
/// Chunks of the table in flight ahead of the one running. 1 to 4 measured the same.
inline constexpr int wavefront_chunks_ahead = 2;
/// Chunks ahead that the right-hand side is prefetched into L2 (prefetch_wavefront_rhs).
inline constexpr int wavefront_prefetch_chunks = 3;
/// The most blocks resident on an SM (the launch reserves shared memory to hold it there): on the
/// 3-D grids 3 blocks were slower than 2, as more warps claimed units far ahead of the solve's
/// front.
inline constexpr int wavefront_blocks_per_sm = 2;

/// `Levels`: the kernel runs in (max, +) and finds each row's level (wavefront_levels).
template <class Scalar, class Ordinal, class Device, bool Levels = false>
struct WavefrontSolveOp {
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  static constexpr bool levels = Levels;
  // The step table (build_wavefront_steps), units.entries() entries of each kind.
  const Ordinal* rows;  ///< or, chained, where b holds each row (solve_from_work)
  const Ordinal* positions;
  const Scalar* values;  ///< the slots' coefficients over the diagonal; the diagonal's inverse
  const Scalar* b;
  Scalar* work;
  unsigned* ticket;
  const Ordinal* segment_first;
  WavefrontUnits<Ordinal, Device> units;
  Ordinal n;
};

/// A warp's window on its unit's step table in shared memory: a ring of `slots` chunks of C steps,
/// entry (slot, step c of the chunk, lane) at (slot C + c) 32 + lane of each array, laid out as
/// in the table (S positions, S + 1 values: wavefront_value_index). A slot holds the positions
/// and values of chunk j and the rows of chunk j + 1: a chunk's right-hand sides are gathered a
/// chunk ahead.
template <int S, int C, class Scalar, class Ordinal>
struct WavefrontWindow {
  static constexpr int chunk = C;
  static constexpr int slots = wavefront_chunks_ahead + 1;
  static constexpr int size = slots * C * segment_unit_size;
  Scalar values[S + 1][size];
  Ordinal rows[size];
  Ordinal positions[S][size];
};

/// A hint: the line holding `p` is wanted in L2 soon. No fault where `p` is not mapped.
template <class T>
__device__ __forceinline__ void prefetch_l2(const T* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

/// Copies 16 bytes from global `from` to shared `to` asynchronously, or writes 16 zero bytes
/// there (reading nothing) where `!read`. Before sm_80 (no cp.async), a load and a store.
__device__ __forceinline__ void copy_async_16(void* to, const void* from, bool read) {
#if __CUDA_ARCH__ >= 800
  const auto shared = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(shared), "l"(from),
               "r"(read ? 16 : 0)
               : "memory");
#else
  *static_cast<int4*>(to) = read ? *static_cast<const int4*>(from) : int4{0, 0, 0, 0};
#endif
}
__device__ __forceinline__ void commit_async() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
/// Waits until at most N of this thread's committed groups of copies are pending.
template <int N>
__device__ __forceinline__ void wait_async() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/// Starts copying C steps of one array of the table, from `step`, to `to`: they are consecutive
/// in the table (wavefront_table_entry), C 32 entries from the unit's `unit_entry` on, copied in
/// 16-byte pieces spread over the warp. Past the table's `steps`, zeros.
template <int C, class T, class Ordinal>
__device__ __forceinline__ void copy_wavefront_steps(T* to, const T* table, std::size_t unit_entry,
                                                     Ordinal step, Ordinal steps, int lane) {
  constexpr int per_piece = 16 / int(sizeof(T));
  constexpr int pieces = C * segment_unit_size / per_piece;
  static_assert(16 % sizeof(T) == 0 && segment_unit_size % per_piece == 0,
                "a 16-byte piece never straddles two steps");
  const T* from = table + unit_entry + std::size_t(step) * segment_unit_size;
#pragma unroll
  for (int i = lane; i < pieces; i += segment_unit_size) {
    const int e = i * per_piece;
    copy_async_16(to + e, from + e, step + e / segment_unit_size < steps);
  }
}

/// Starts copying into slot `slot` of the window the positions and values of the chunk from
/// `step` and the rows of the chunk after it, and commits them as one group of copies.
template <int S, class Op, class Window>
__device__ __forceinline__ void copy_wavefront_window(const Op& op, Window& w, int slot,
                                                      std::size_t unit_entry,
                                                      typename Op::ordinal_type step,
                                                      typename Op::ordinal_type steps, int lane) {
  constexpr int C = Window::chunk;
  const std::size_t entries = op.units.entries();
  const int at = slot * C * segment_unit_size;
  copy_wavefront_steps<C>(w.rows + at, op.rows, unit_entry, step + C, steps, lane);
#pragma unroll
  for (int k = 0; k < S; ++k)
    copy_wavefront_steps<C>(w.positions[k] + at, op.positions + k * entries, unit_entry, step,
                            steps, lane);
#pragma unroll
  for (int i = 0; i < S + 1; ++i)
    copy_wavefront_steps<C>(w.values[i] + at, op.values + i * entries, unit_entry, step, steps,
                            lane);
  commit_async();
}

/// This lane's rows at the C steps from `step`, read from window entry `at` (its first); -1 where
/// none (past the table's `steps` the window holds zeros).
template <int C, class Window, class Ordinal>
__device__ __forceinline__ void wavefront_rows(const Window& w, int at, Ordinal step, Ordinal steps,
                                               Ordinal (&row)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    row[c] = step + c < steps ? w.rows[at + c * segment_unit_size] : Ordinal(-1);
}

/// Prefetches into L2 the right-hand side of the row that this lane reaches `ahead` steps after
/// the chunk now running, extrapolated from its first two rows: a lane's rows run along its line,
/// so the address is exact on a grid. The 2-D grids gain from it.
template <class Op, class Ordinal>
__device__ __forceinline__ void prefetch_wavefront_rhs(const Op& op, const Ordinal* row,
                                                       int ahead) {
  if (Op::levels || row[0] < 0 || row[1] < 0) return;
  const long long target = row[0] + (long long)(row[1] - row[0]) * (long long)ahead;
  if (target >= 0 && target < op.n) prefetch_l2(op.b + target);
}

/// The right-hand sides of this lane's C rows (0 where none).
template <int C, class Op>
__device__ __forceinline__ void gather_wavefront_rhs(const Op& op,
                                                     const typename Op::ordinal_type (&row)[C],
                                                     typename Op::value_type (&rhs)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    rhs[c] = !Op::levels && row[c] >= 0 ? op.b[row[c]] : typename Op::value_type(0);
}

/// What a lane reads of the window for the C steps of a chunk (S slots a step), and the polled
/// bits of the dependencies on earlier units (0 where a slot has none, the all-ones pattern until
/// the value arrives).
template <int C, int S, class Scalar, class Ordinal, class Bits>
struct WavefrontStep {
  Ordinal position[C][S];
  Scalar inverse[C], coefficient[C][S];
  Bits bits[C][S];
};

/// Reads the chunk of C steps from `step` at window entry `at` (its first): past the table's
/// `steps`, slots that read nothing.
template <int P, int S, class Window, class Ordinal, class Step>
__device__ __forceinline__ void read_wavefront_step(const Window& w, int at, Ordinal step,
                                                    Ordinal steps, Step& v) {
  constexpr int C = Window::chunk;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int e = at + c * segment_unit_size;
    v.inverse[c] = w.values[P][e];
#pragma unroll
    for (int k = 0; k < S; ++k) {
      v.position[c][k] = step + c < steps ? w.positions[k][e] : Ordinal(wavefront_unused);
      v.coefficient[c][k] = w.values[wavefront_value_index(k, P)][e];
    }
  }
}

/// Loads the dependencies on earlier units of steps `from` .. C - 1 that have not arrived
/// (`all`: every one, whatever its bits, and zero bits for the slots without one); whether one
/// of step `from`'s is still missing.
template <int C, int S, class Op, class Step>
__device__ __forceinline__ bool poll_wavefront(const Op& op, Step& v, int from, bool all) {
  using B = Bits<typename Op::value_type>;
  bool waiting = false;
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int k = 0; k < S; ++k)
      if (c >= from && v.position[c][k] >= 0 && (all || v.bits[c][k] == B::pattern)) {
        v.bits[c][k] = B::load(&op.work[v.position[c][k]]);
        if (c == from) waiting = waiting || v.bits[c][k] == B::pattern;
      } else if (all && v.position[c][k] < 0) {
        v.bits[c][k] = typename B::type(0);
      }
  return waiting;
}

/// `P`: the register paths (wavefront_paths), `S`: the slots per step (wavefront_slots).
template <int P, int S, class Op>
__global__ void __launch_bounds__(wavefront_block_size) sptrsv_wavefront_kernel(const Op op) {
  using Scalar = typename Op::value_type;
  using Ordinal = typename Op::ordinal_type;
  using B = Bits<Scalar>;
  constexpr int C = wavefront_chunk<P>, ahead = wavefront_chunks_ahead;
  static_assert(C >= 2, "prefetch_wavefront_rhs takes a lane's direction from two steps");
  using Window = WavefrontWindow<S, C, Scalar, Ordinal>;
  extern __shared__ __align__(16) unsigned char wavefront_shared[];
  Window& w = reinterpret_cast<Window*>(wavefront_shared)[threadIdx.x / segment_unit_size];
  const int lane = threadIdx.x & 31;
  unsigned claimed = 0;
  if (lane == 0) claimed = atomicAdd(op.ticket, 1u);
  const Ordinal unit = Ordinal(__shfl_sync(full_mask, claimed, 0));
  if (unit >= op.units.count()) return;

  // The rows of chunk 0 first, then slot a holds chunk a (and the rows of a + 1).
  const Ordinal table_steps = op.units.steps();
  const std::size_t unit_entry =
      wavefront_table_entry(std::size_t(unit), std::size_t(table_steps), 0, 0);
  copy_wavefront_steps<C>(w.rows + (Window::slots - 1) * C * segment_unit_size, op.rows, unit_entry,
                          Ordinal(0), table_steps, lane);
  commit_async();
  for (int a = 0; a < ahead; ++a)
    copy_wavefront_window<S>(op, w, a, unit_entry, Ordinal(a * C), table_steps, lane);

  const Ordinal segment = op.units.first_segment(unit) + lane;
  Ordinal first = 0, length = 0;
  if (segment < op.units.first_segment(unit + 1)) {
    first = op.segment_first[segment];
    length = op.segment_first[segment + 1] - first;
  }
  const int lines = op.units.lines;
  const int skew = wavefront_skew(lane, lines);
  Ordinal steps = length > 0 ? Ordinal(skew) + length : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    const Ordinal other = __shfl_xor_sync(full_mask, steps, offset);
    steps = other > steps ? other : steps;
  }

  wait_async<ahead>();
  __syncwarp();
  Ordinal row[C];
  Scalar rhs[C];
  wavefront_rows<C>(w, (Window::slots - 1) * C * segment_unit_size + lane, Ordinal(0), table_steps,
                    row);
  gather_wavefront_rhs(op, row, rhs);
  WavefrontStep<C, S, Scalar, Ordinal, typename B::type> v;
  Scalar last = 0;  // this lane's result of the step before
  int slot = 0;     // the chunk running; the next `ahead` are in flight
  for (Ordinal chunk = 0; chunk < steps; chunk += C) {
    const int at = slot * C * segment_unit_size + lane;
    __syncwarp();  // every lane has read the slot filled now
    copy_wavefront_window<S>(op, w, slot == 0 ? Window::slots - 1 : slot - 1, unit_entry,
                             chunk + ahead * C, table_steps, lane);
    wait_async<ahead>();  // this chunk, and the rows of the next
    __syncwarp();
    Ordinal next_row[C];
    Scalar next_rhs[C];
    wavefront_rows<C>(w, at, chunk + C, table_steps, next_row);
    gather_wavefront_rhs(op, next_row, next_rhs);
    prefetch_wavefront_rhs(op, row, wavefront_prefetch_chunks * C);
    read_wavefront_step<P, S>(w, at, chunk, table_steps, v);
    poll_wavefront<C, S>(op, v, 0, true);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      // This step's dependencies on earlier units; each round polls the later steps' too.
      bool waiting = false;
#pragma unroll
      for (int k = 0; k < S; ++k) waiting = waiting || v.bits[c][k] == B::pattern;
      while (__any_sync(full_mask, waiting)) {
        __nanosleep(32);  // longer backoffs, up to 1 us, measured no faster
        waiting = poll_wavefront<C, S>(op, v, c, false);
      }
      // The step is a chain through `last`, `left` and `below` (the step before's results): the
      // terms off it come first. A slot reads its register path unless it reads memory (or
      // nothing: zero bits).
      const Scalar left = __shfl_up_sync(full_mask, last, 1);
      const Scalar below = __shfl_up_sync(full_mask, last, lines);  // 32 (none): its own
      Scalar sum = Op::levels ? Scalar(0) : rhs[c] * v.inverse[c];
#pragma unroll
      for (int k = S - 1; k >= 0; --k) {
        const Scalar path = k == wavefront_own ? last : k == wavefront_left ? left : below;
        const Scalar read = B::value(v.bits[c][k]);
        const Scalar value = k < P && v.position[c][k] == wavefront_register ? path : read;
        if constexpr (Op::levels)  // the coefficient: 1, or -inf where the slot has no entry
          sum = fmax(sum, value + v.coefficient[c][k]);
        else
          sum = fma(-v.coefficient[c][k], value, sum);
      }
      const bool active = row[c] >= 0;
      if (active)
        B::store(&op.work[first + (chunk + c - skew)],
                 B::of(sum) == B::pattern ? B::value(Sentinel<Scalar>::canonical_nan) : sum);
      last = active ? sum : last;
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
      row[c] = next_row[c];
      rhs[c] = next_rhs[c];
    }
    slot = slot + 1 == Window::slots ? 0 : slot + 1;
  }
  wait_async<0>();  // no copy into the window outlives the warp
}

/// How sptrsv_wavefront_kernel<P, S, Op> launches on a device: warps and shared memory a block.
struct WavefrontLaunch {
  long warps = 0;
  std::size_t shared = 0;
};

/// The launch of sptrsv_wavefront_kernel<P, S, Op> on the current device, found and its shared
/// memory allowed once per device (the attribute queries and cudaFuncSetAttribute stay off the
/// solve): as many warps as wavefront_block_size holds, fewer where their windows do not fit a
/// block (64-bit indices, 4 slots); enough shared memory that at most wavefront_blocks_per_sm
/// blocks share an SM (1 KB of each block's is the system's).
template <int P, int S, class Op>
WavefrontLaunch wavefront_launch() {
  using Window =
      WavefrontWindow<S, wavefront_chunk<P>, typename Op::value_type, typename Op::ordinal_type>;
  static std::mutex mutex;
  static std::map<int, WavefrontLaunch> by_device;
  int device = 0;
  require_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = by_device.find(device); found != by_device.end()) return found->second;
  int per_sm = 0, per_block = 0;
  require_cuda(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
               "cudaDeviceGetAttribute");
  require_cuda(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
               "cudaDeviceGetAttribute");
  WavefrontLaunch launch;
  launch.warps = std::min<long>(wavefront_block_size / segment_unit_size,
                                long(per_block) / long(sizeof(Window)));
  SYNCFREE_REQUIRE(launch.warps >= 1, NotSupported, "sptrsv wavefront: a warp's window (",
                   sizeof(Window), " bytes) exceeds the shared memory of a block (", per_block,
                   " bytes)");
  launch.shared = std::min(std::size_t(per_block),
                           std::max(sizeof(Window) * std::size_t(launch.warps),
                                    std::size_t(per_sm) / (wavefront_blocks_per_sm + 1)));
  require_cuda(
      cudaFuncSetAttribute(sptrsv_wavefront_kernel<P, S, Op>,
                           cudaFuncAttributeMaxDynamicSharedMemorySize, int(launch.shared)),
      "cudaFuncSetAttribute (sptrsv wavefront)");
  return by_device.emplace(device, launch).first->second;
}

template <int P, int S, class Op>
void launch_sptrsv_wavefront_kernel(const Op& op, cudaStream_t stream) {
  const WavefrontLaunch launch = wavefront_launch<P, S, Op>();
  const unsigned blocks = unsigned((long(op.units.count()) + launch.warps - 1) / launch.warps);
  if (blocks > 0)
    sptrsv_wavefront_kernel<P, S, Op>
        <<<blocks, unsigned(launch.warps * segment_unit_size), launch.shared, stream>>>(op);
}

/// Launches the kernel for the layout's register paths and slots (wavefront_paths, _slots) of `s`.
template <class Op, class Storage>
void launch_sptrsv_wavefront(const Op& op, const Storage& s, cudaStream_t stream) {
  static_assert(wavefront_max_entries == 4, "one kernel per slot count up to the maximum");
  const int paths = wavefront_paths(s), slots = wavefront_slots(s);
  if (paths == 2 && slots == 2)
    launch_sptrsv_wavefront_kernel<2, 2>(op, stream);
  else if (paths == 2 && slots == 3)
    launch_sptrsv_wavefront_kernel<2, 3>(op, stream);
  else if (paths == 2)
    launch_sptrsv_wavefront_kernel<2, 4>(op, stream);
  else if (slots == 3)
    launch_sptrsv_wavefront_kernel<3, 3>(op, stream);
  else
    launch_sptrsv_wavefront_kernel<3, 4>(op, stream);
  require_launched("sptrsv wavefront");
}

/// The level of each row of the triangle that the layout of `s` solves, into `level` (by row): the
/// kernel run in (max, +), a row's level being the largest of its dependencies' plus one (0
/// without any). The layout's analysis checked that every dependency of every row is one of its
/// slots. Its coefficients are 1, or -inf for a slot without an entry; they take the place of the
/// packed values, which the next solve packs again. Levels are exact in `Scalar` below 2^24
/// (float) or 2^53 (double): the caller checks n.
template <class Storage, class LevelView>
void wavefront_levels(const Kokkos::Cuda& exec, const Storage& s, const LevelView& level) {
  using Scalar = typename Storage::scalar_type;
  using Ordinal = typename Storage::ordinal_type;
  const int paths = wavefront_paths(s), slots = wavefront_slots(s);
  const std::size_t entries = s.units.entries();
  const auto sources = s.wavefront_sources;
  const auto coefficients = s.wavefront_values;
  Kokkos::parallel_for(
      "syncfree::wavefront::level_coefficients",
      Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, entries), KOKKOS_LAMBDA(const std::size_t e) {
        coefficients(std::size_t(paths) * entries + e) = Scalar(0);
        for (int k = 0; k < slots; ++k) {
          const std::size_t at = std::size_t(wavefront_value_index(k, paths)) * entries + e;
          coefficients(at) =
              sources(at) < 0 ? -Kokkos::Experimental::infinity<Scalar>::value : Scalar(1);
        }
      });
  s.packed_values_of = nullptr;
  using Op = WavefrontSolveOp<Scalar, Ordinal, typename Storage::device_type, true>;
  const Op op{s.wavefront_rows.data(),
              s.wavefront_positions.data(),
              s.wavefront_values.data(),
              nullptr,
              s.x_work.data(),
              s.ticket.data(),
              s.segment_first.data(),
              s.units,
              s.n};
  launch_sptrsv_wavefront(op, s, reset_work(exec, s));
  const auto order = s.order;
  const auto work = s.x_work;
  Kokkos::parallel_for(
      "syncfree::wavefront::levels", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, s.n),
      KOKKOS_LAMBDA(const Ordinal p) { level(order(p)) = Ordinal(work(p)); });
}

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <class Matrix, class BColumn, class XColumn>
struct LayoutSolve<SptrsvAlgorithm::wavefront, Kokkos::Cuda, Matrix, BColumn, XColumn,
                   std::enable_if_t<cuda::has_cuda_sync_free_v<Matrix, BColumn, XColumn>>> {
  using Scalar = typename Matrix::non_const_value_type;
  using Ordinal = typename Matrix::non_const_ordinal_type;
  using Storage = SptrsvPlanStorage<Matrix>;

  static void solve(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A, const BColumn& b,
                    const XColumn& x, bool unit) {
    if (s.n == 0) return;
    launch(exec, s, A, b.data(), s.wavefront_rows.data(), unit);
    write_x(exec, s, x);
  }

  /// The solve, with sums(0) = u'x and sums(1) = x'x reduced in the pass that writes x.
  template <class U, class Sums>
  static void solve_and_dots(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A,
                             const BColumn& b, const XColumn& x, bool unit, const U& u,
                             const Sums& sums) {
    if (s.n > 0) launch(exec, s, A, b.data(), s.wavefront_rows.data(), unit);
    write_x_and_dots(exec, s, x, u, sums);
  }

  /// The kernel alone: the solution stays in s.x_work, by position, for `solve_from_work`.
  static void solve_into_work(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A,
                              const BColumn& b, bool unit) {
    if (s.n > 0) launch(exec, s, A, b.data(), s.wavefront_rows.data(), unit);
  }

  /// The solve whose right-hand side is the solution that `solve_into_work` left in the work
  /// vector of `from`: `rhs_positions` gives, for each entry of this plan's step table, the
  /// position in `from` of its row (-1 where none). Then x (and with `sums`, u'x and x'x) as
  /// `solve` (`solve_and_dots`) writes them.
  template <class Positions>
  static void solve_from_work(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A,
                              const Storage& from, const Positions& rhs_positions, const XColumn& x,
                              bool unit) {
    if (s.n == 0) return;
    launch_from_work(exec, s, A, from, rhs_positions, unit);
    write_x(exec, s, x);
  }
  template <class Positions, class U, class Sums>
  static void solve_from_work_and_dots(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A,
                                       const Storage& from, const Positions& rhs_positions,
                                       const XColumn& x, bool unit, const U& u, const Sums& sums) {
    if (s.n > 0) launch_from_work(exec, s, A, from, rhs_positions, unit);
    write_x_and_dots(exec, s, x, u, sums);
  }

  // The parts of the solves (public, as nvcc's extended lambdas may not live in private members).
  template <class Positions>
  static void launch_from_work(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A,
                               const Storage& from, const Positions& rhs_positions, bool unit) {
    launch(exec, s, A, from.x_work.data(), rhs_positions.data(), unit);
  }

  /// x in row order from the work vector (see the file's comment). A result whose bits were the
  /// all-ones pattern reads back as the canonical NaN.
  static void write_x(const Kokkos::Cuda& exec, const Storage& s, const XColumn& x) {
    const auto order = s.order;
    const auto work = s.x_work;
    Kokkos::parallel_for(
        "syncfree::wavefront::x", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, s.n),
        KOKKOS_LAMBDA(const Ordinal p) { x(order(p)) = work(p); });
  }
  template <class U, class Sums>
  static void write_x_and_dots(const Kokkos::Cuda& exec, const Storage& s, const XColumn& x,
                               const U& u, const Sums& sums) {
    const auto order = s.order;
    const auto work = s.x_work;
    reduce_into<2>(
        exec, "syncfree::wavefront::x_dots", std::size_t(s.n), sums,
        KOKKOS_LAMBDA(const std::size_t p, Scalar* sum) {
          const auto row = order(p);
          const Scalar value = work(p);
          x(row) = value;
          sum[0] += u(row) * value;
          sum[1] += value * value;
        });
  }

  /// The kernel, which leaves the solution in the work vector in position order: b(rows(e)) is
  /// the right-hand side of entry e of the step table.
  static void launch(const Kokkos::Cuda& exec, const Storage& s, const Matrix& A, const Scalar* b,
                     const Ordinal* rows, bool unit) {
    using Op = cuda::WavefrontSolveOp<Scalar, Ordinal, typename Matrix::device_type>;
    sptrsv_pack_wavefront_values(exec, s, A, unit);
    const Op op{rows,
                s.wavefront_positions.data(),
                s.wavefront_values.data(),
                b,
                s.x_work.data(),
                s.ticket.data(),
                s.segment_first.data(),
                s.units,
                s.n};
    cuda::launch_sptrsv_wavefront(op, s, cuda::reset_work(exec, s));
  }
};

/// The wavefront layout's levels from its own kernel (cuda::wavefront_levels), instead of the level
/// pass in row order, which took about half of the ILU(0) analysis of a 3-D grid.
template <class Matrix>
struct LayoutLevels<Kokkos::Cuda, Matrix,
                    std::enable_if_t<cuda::has_cuda_sync_free_v<
                        Matrix, typename Matrix::values_type, typename Matrix::values_type>>> {
  using Ordinal = typename Matrix::non_const_ordinal_type;
  using Result = LevelSets<Ordinal, typename Matrix::device_type>;
  static Result compute(const Kokkos::Cuda& exec, const SptrsvPlanStorage<Matrix>& s) {
    using Scalar = typename Matrix::non_const_value_type;
    // Every level is below n; the kernel's values hold it exactly below 2^24 (float) or 2^53.
    const double exact = sizeof(Scalar) == 4 ? 16777216.0 : 9007199254740992.0;
    if (s.units.count() == 0 || double(s.n) >= exact)
      return compute_level_sets(exec, s.matrix, s.triangle);
    const Kokkos::View<Ordinal*, typename Matrix::device_type> level(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level"), s.n);
    cuda::wavefront_levels(exec, s, level);
    return level_sets_from_levels(exec, level);
  }
};

}  // namespace syncfree::impl

#endif
