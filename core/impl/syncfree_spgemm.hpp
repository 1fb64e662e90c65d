// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief C = A B through Kokkos Kernels' SpGEMM (the same call in Kokkos Kernels 3.4 and 4.x),
/// rows sorted.

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spgemm.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// A B, rows sorted; waits for `exec` first (Kokkos Kernels' SpGEMM runs on the default instance).
template <class ExecSpace, class Matrix>
Matrix spgemm(const ExecSpace& exec, const Matrix& A, const Matrix& B) {
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<
      typename Matrix::non_const_size_type, typename Matrix::non_const_ordinal_type,
      typename Matrix::non_const_value_type, typename Matrix::execution_space,
      typename Matrix::memory_space, typename Matrix::memory_space>;
  exec.fence();
  Handle handle;
  handle.create_spgemm_handle(KokkosSparse::SPGEMMAlgorithm::SPGEMM_KK);
  Matrix C;
  KokkosSparse::spgemm_symbolic(handle, A, false, B, false, C);
  KokkosSparse::spgemm_numeric(handle, A, false, B, false, C);
  handle.destroy_spgemm_handle();
  typename Matrix::execution_space().fence();
  sort_rows(exec, C);
  return C;
}

}  // namespace syncfree::impl
