// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The three orders in which a blocked TRSM visits its diagonal blocks and products.
/// Each works on `TrsmBlocks`' left-side form E X = B; for an upper E the walk runs backwards.

#include <algorithm>
#include <cstdint>

#include "algorithms/trsm/impl/syncfree_trsm_blocks.hpp"

namespace syncfree::impl {

/// Start of each block of `block` rows, the last one possibly shorter, in solve order.
template <class Blocks, class Visit>
void for_each_trsm_block(const Blocks& blocks, std::int64_t block, Visit visit) {
  const std::int64_t n = blocks.size();
  const std::int64_t count = (n + block - 1) / block;
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t first = (blocks.lower ? k : count - 1 - k) * block;
    visit(first, std::min(block, n - first));
  }
}

/// Eager: solve a diagonal block, then subtract its product from every block still to solve.
template <class Blocks>
void trsm_right_looking(const Blocks& blocks, std::int64_t block) {
  const std::int64_t n = blocks.size();
  for_each_trsm_block(blocks, block, [&](std::int64_t first, std::int64_t size) {
    blocks.solve_diagonal(first, size);
    if (blocks.lower)
      blocks.update(first + size, n - first - size, first, size);
    else
      blocks.update(0, first, first, size);
  });
}

/// Lazy: gather a block's update from every block already solved, then solve it.
template <class Blocks>
void trsm_left_looking(const Blocks& blocks, std::int64_t block) {
  const std::int64_t n = blocks.size();
  for_each_trsm_block(blocks, block, [&](std::int64_t first, std::int64_t size) {
    if (blocks.lower)
      blocks.update(first, size, 0, first);
    else
      blocks.update(first, size, first + size, n - first - size);
    blocks.solve_diagonal(first, size);
  });
}

/// Rows [first, first + size): the half solved first, one product, the other half; halves are
/// split at a multiple of `block`, so the diagonal blocks are those of the blocked variants.
template <class Blocks>
void trsm_recursive(const Blocks& blocks, std::int64_t first, std::int64_t size,
                    std::int64_t block) {
  if (size <= block) {
    blocks.solve_diagonal(first, size);
    return;
  }
  const std::int64_t half = (size / 2 + block - 1) / block * block;
  const std::int64_t rest = size - half;
  if (blocks.lower) {
    trsm_recursive(blocks, first, half, block);
    blocks.update(first + half, rest, first, half);
    trsm_recursive(blocks, first + half, rest, block);
  } else {
    trsm_recursive(blocks, first + half, rest, block);
    blocks.update(first, half, first + half, rest);
    trsm_recursive(blocks, first, half, block);
  }
}

}  // namespace syncfree::impl
