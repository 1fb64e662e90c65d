// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief C = A B through Kokkos Kernels' SpGEMM (the same call in Kokkos Kernels 3.4 and 4.x),
/// rows sorted.

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spgemm.hpp>
#include <stdexcept>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl {

/// A B, rows sorted; waits for `exec` first (Kokkos Kernels' SpGEMM runs on the default instance).
/// \throws NotSupported where the SpGEMM Kokkos Kernels calls (cuSPARSE's, where it is enabled)
/// gives up, e.g. for lack of memory on a product of a few hundred million entries.
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
  try {
    KokkosSparse::spgemm_symbolic(handle, A, false, B, false, C);
    KokkosSparse::spgemm_numeric(handle, A, false, B, false, C);
  } catch (const std::runtime_error& e) {
    throw NotSupported(concat("sparse matrix product of ", A.numRows(), " rows (", A.nnz(), " and ",
                              B.nnz(), " entries) failed in Kokkos Kernels' SpGEMM: ", e.what()));
  }
  handle.destroy_spgemm_handle();
  typename Matrix::execution_space().fence();
  sort_rows(exec, C);
  return C;
}

}  // namespace syncfree::impl
