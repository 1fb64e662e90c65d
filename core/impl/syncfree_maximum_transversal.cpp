// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cstdint>
#include <vector>

#include "core/syncfree_transversal.hpp"

#if SYNCFREE_HAVE_BTF
#include <btf.h>
#endif

namespace syncfree::impl {

std::vector<std::int64_t> maximum_transversal(std::int64_t n,
                                              const std::vector<std::int64_t>& row_map,
                                              const std::vector<std::int64_t>& entries) {
#if SYNCFREE_HAVE_BTF
  // BTF reads a compressed-column pattern: given A's rows it reads A^T, and the column it matches
  // to row i of A^T is a row of A holding an entry in column i.
  static_assert(sizeof(SuiteSparse_long) == sizeof(std::int64_t), "SuiteSparse_long is 64-bit");
  std::vector<SuiteSparse_long> pointers(row_map.begin(), row_map.end());
  std::vector<SuiteSparse_long> indices(entries.begin(), entries.end());
  const auto size = static_cast<std::size_t>(n);
  std::vector<SuiteSparse_long> match(size), work(5 * size);
  double done = 0;
  const SuiteSparse_long matched =
      btf_l_maxtrans(n, n, pointers.data(), indices.data(), 0.0, &done, match.data(), work.data());
  if (matched < n) {
    std::int64_t column = 0;
    while (column < n && match[std::size_t(column)] >= 0) ++column;
    throw InvalidMatrix(
        concat("the matrix is structurally singular: no row permutation gives it a zero-free "
               "diagonal (",
               matched, " of ", n, " columns can have one; column ", column, " cannot)"));
  }
  return std::vector<std::int64_t>(match.begin(), match.end());
#else
  (void)n;
  (void)row_map;
  (void)entries;
  throw InvalidArgument(
      "zero_free_diagonal_rows: SyncFree was built without SuiteSparse's BTF (Debian's "
      "libsuitesparse-dev), which finds the permutation");
#endif
}

}  // namespace syncfree::impl
