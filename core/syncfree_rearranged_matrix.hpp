// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A matrix whose entries are those of another matrix A, rearranged (P A P^T, A^T), with
/// the source of each entry kept so that new values of A refill it without redoing the pattern.

#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// `matrix` holds the entries of some A rearranged: its entry k is A's entry `source(k)`.
template <class Matrix>
struct RearrangedMatrix {
  using offset_type = typename Matrix::non_const_size_type;
  Matrix matrix;
  Kokkos::View<offset_type*, typename Matrix::device_type> source;

  /// Copies the values of A (the pattern it was built from) into `matrix`.
  template <class ExecSpace>
  void refill(const ExecSpace& exec, const Matrix& A) const {
    SYNCFREE_REQUIRE(A.nnz() == matrix.nnz(), StructureMismatch, "RearrangedMatrix: A has ",
                     A.nnz(), " entries, the rearranged pattern ", matrix.nnz());
    const auto from = A.values;
    const auto to = matrix.values;
    const auto src = source;
    Kokkos::parallel_for(
        "syncfree::rearranged::refill", Kokkos::RangePolicy<ExecSpace>(exec, 0, to.extent(0)),
        KOKKOS_LAMBDA(const std::size_t k) { to(k) = from(src(k)); });
  }
};

}  // namespace syncfree
