// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `project_on_basis` on CUDA (impl/syncfree_basis_sums.hpp) by tiles of rows: a block
/// holds its tile of u (and v) in registers, then runs through the basis column by column, each
/// warp reducing its share of a column's sums by shuffles into shared memory; the block writes one
/// partial per sum, and reduce_finish_kernel adds the tiles' partials in a fixed order. u and v
/// are read once, every column's loads of a tile are in flight together, and no thread holds more
/// than two sums. On the H200 the groups of columns side by side (the generic pass) moved
/// 3.1 TB/s in a GMRES(30) step on convdiff3d:160, where the update pass moves 4.3.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>

#include "core/cuda/syncfree_reduce_into_cuda.hpp"
#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl::cuda {

inline constexpr int basis_tile_block = 256;
/// Rows of a tile per thread.
inline constexpr int basis_tile_rows = 16;
inline constexpr int basis_tile_warps = basis_tile_block / 32;
/// Sums of a group of columns (impl::basis_group_sums: the layout of basis_sum_index).
inline constexpr int basis_tile_group_sums = 8;

/// partials[tile * slots + s], s = basis_sum_index<K>(l, k), for the `slots` sums of the c
/// columns (slots past the last column: zero).
template <int K, int Width, class Scalar>
__global__ void __launch_bounds__(basis_tile_block)
    project_tiles_kernel(const std::size_t n, const std::size_t ld, const Scalar* __restrict__ B,
                         const int c, const Scalar* __restrict__ u, const Scalar* __restrict__ v,
                         const int slots, Scalar* __restrict__ partials) {
  extern __shared__ unsigned char shared_bytes[];
  Scalar* const warp_sums = reinterpret_cast<Scalar*>(shared_bytes);  // [warp][slot]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int s = threadIdx.x; s < basis_tile_warps * slots; s += basis_tile_block)
    warp_sums[s] = Scalar(0);

  const std::size_t first = std::size_t(blockIdx.x) * basis_tile_block * basis_tile_rows;
  Scalar ur[basis_tile_rows], vr[basis_tile_rows];
#pragma unroll
  for (int r = 0; r < basis_tile_rows; ++r) {
    const std::size_t i = first + std::size_t(r) * basis_tile_block + threadIdx.x;
    ur[r] = i < n ? u[i] : Scalar(0);
    vr[r] = K == 2 && i < n ? v[i] : Scalar(0);
  }
  __syncthreads();  // the zeroed sums
  for (int l = 0; l < c; ++l) {
    const Scalar* column = B + std::size_t(l) * ld;
    Scalar su = 0, sv = 0;
#pragma unroll
    for (int r = 0; r < basis_tile_rows; ++r) {
      const std::size_t i = first + std::size_t(r) * basis_tile_block + threadIdx.x;
      const Scalar b = i < n ? column[i] : Scalar(0);
      su += b * ur[r];
      if (K == 2) sv += b * vr[r];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      su += __shfl_down_sync(full_mask, su, offset);
      if (K == 2) sv += __shfl_down_sync(full_mask, sv, offset);
    }
    if (lane == 0) {
      const int group = l / Width, at = l % Width;
      warp_sums[warp * slots + group * basis_tile_group_sums + at] = su;
      if (K == 2) warp_sums[warp * slots + group * basis_tile_group_sums + Width + at] = sv;
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < slots; s += basis_tile_block) {
    Scalar total = 0;
    for (int w = 0; w < basis_tile_warps; ++w) total += warp_sums[w * slots + s];
    partials[std::size_t(blockIdx.x) * slots + s] = total;
  }
}

/// Shared memory a tile needs for `slots` sums; project_on_basis falls back to the generic pass
/// above the device's limit (a basis of several hundred columns).
template <class Scalar>
std::size_t project_tiles_shared_bytes(int slots) {
  return std::size_t(basis_tile_warps) * std::size_t(slots) * sizeof(Scalar);
}

/// The sums of project_on_basis<K> (Width columns a group, `groups` groups of 8 sums) into
/// `result`, on `stream`.
template <int K, int Width, class Scalar>
void project_on_basis_tiles(cudaStream_t stream, std::size_t n, std::size_t ld, const Scalar* B,
                            int c, const Scalar* u, const Scalar* v, int groups, Scalar* result) {
  const int slots = groups * basis_tile_group_sums;
  const std::size_t tile = std::size_t(basis_tile_block) * basis_tile_rows;
  const std::size_t tiles = (n + tile - 1) / tile;
  StreamScratch partials(sizeof(Scalar) * std::size_t(slots) * (tiles > 0 ? tiles : 1), stream);
  auto* p = static_cast<Scalar*>(partials.get());
  if (tiles > 0) {
    project_tiles_kernel<K, Width>
        <<<unsigned(tiles), basis_tile_block, project_tiles_shared_bytes<Scalar>(slots), stream>>>(
            n, ld, B, c, u, v, slots, p);
    require_launched("project_tiles");
  }
  reduce_finish_kernel<basis_tile_group_sums>
      <<<dim3(basis_tile_group_sums, groups), reduce_block_size, 0, stream>>>(int(tiles), p,
                                                                              result);
  require_launched("reduce_finish");
}

}  // namespace syncfree::impl::cuda

#endif
