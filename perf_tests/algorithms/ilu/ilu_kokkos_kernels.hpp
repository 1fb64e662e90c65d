// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Kokkos Kernels' spiluk (level-scheduled ILU(k), team policy) as a benchmark method. Its
/// symbolic phase runs on the host; the caller sizes L and U (here exactly, for ILU(0)).

#include <memory>

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spiluk.hpp>

#include "perf_tests/algorithms/ilu/ilu_methods.hpp"

namespace syncfree::bench {

// Kokkos Kernels moved spiluk out of Experimental in 4.x (the old names remain, deprecated).
#if KOKKOS_VERSION >= 40000
namespace kk_spiluk = KokkosSparse;
#else
namespace kk_spiluk = KokkosSparse::Experimental;
#endif

class KokkosKernelsIlu final : public IluMethod {
 public:
  using Exec = Kokkos::DefaultExecutionSpace;
  using Memory = Exec::memory_space;
  using Handle =
      KokkosKernels::Experimental::KokkosKernelsHandle<int, int, double, Exec, Memory, Memory>;
  using RowMap = BenchCrs::row_map_type::non_const_type;
  using Entries = BenchCrs::index_type::non_const_type;
  using Values = BenchCrs::values_type::non_const_type;

  explicit KokkosKernelsIlu(const IluBenchMatrix& m) : m_matrix(m) {
    const HostCrs& A = m.A_host;
    for (int i = 0; i < A.numRows(); ++i)
      for (int k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) {
        m_nnz_lower += A.graph.entries(k) <= i;
        m_nnz_upper += A.graph.entries(k) >= i;
      }
  }
  ~KokkosKernelsIlu() override { release(); }

  void release() override {
    if (m_handle) m_handle->destroy_spiluk_handle();
    m_handle.reset();
    m_L_row_map = {};
    m_U_row_map = {};
    m_L_entries = {};
    m_U_entries = {};
    m_L_values = {};
    m_U_values = {};
  }
  void analyze() override {
    const int n = m_matrix.A.numRows();
    m_handle = std::make_unique<Handle>();
    m_handle->create_spiluk_handle(KokkosSparse::Experimental::SPILUKAlgorithm::SEQLVLSCHD_TP1, n,
                                   m_nnz_lower, m_nnz_upper);
    m_L_row_map = RowMap("kk::L_row_map", n + 1);
    m_U_row_map = RowMap("kk::U_row_map", n + 1);
    m_L_entries = Entries("kk::L_entries", m_nnz_lower);
    m_U_entries = Entries("kk::U_entries", m_nnz_upper);
    kk_spiluk::spiluk_symbolic(m_handle.get(), 0, m_matrix.A.graph.row_map,
                               m_matrix.A.graph.entries, m_L_row_map, m_L_entries, m_U_row_map,
                               m_U_entries);
    auto* spiluk = m_handle->get_spiluk_handle();
    Kokkos::resize(m_L_entries, spiluk->get_nnzL());
    Kokkos::resize(m_U_entries, spiluk->get_nnzU());
    m_L_values = Values("kk::L_values", spiluk->get_nnzL());
    m_U_values = Values("kk::U_values", spiluk->get_nnzU());
  }

  void factor() override {
    kk_spiluk::spiluk_numeric(m_handle.get(), 0, m_matrix.A.graph.row_map, m_matrix.A.graph.entries,
                              m_matrix.A.values, m_L_row_map, m_L_entries, m_L_values, m_U_row_map,
                              m_U_entries, m_U_values);
  }

  void apply(const Vector<double>&, const Vector<double>&) override {
    throw NotSupported("kokkos_kernels: the benchmark times spiluk's factorization only");
  }

  /// L (unit diagonal stored last in each row) and U merged into one L\U matrix.
  HostCrs host_factors() override {
    const auto Lr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_L_row_map);
    const auto Le = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_L_entries);
    const auto Lv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_L_values);
    const auto Ur = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_U_row_map);
    const auto Ue = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_U_entries);
    const auto Uv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_U_values);
    const int n = m_matrix.A.numRows();
    HostCrs::row_map_type::non_const_type row_map("kk::LU_row_map", n + 1);
    HostCrs::index_type::non_const_type entries("kk::LU_entries", Le.extent(0) + Ue.extent(0));
    HostCrs::values_type::non_const_type values("kk::LU_values", Le.extent(0) + Ue.extent(0));
    int t = 0;
    for (int i = 0; i < n; ++i) {
      for (int k = Lr(i); k < Lr(i + 1); ++k)
        if (Le(k) < i) entries(t) = Le(k), values(t++) = Lv(k);
      for (int k = Ur(i); k < Ur(i + 1); ++k) entries(t) = Ue(k), values(t++) = Uv(k);
      row_map(i + 1) = t;
    }
    return make_crs<HostCrs>("kk::LU", n, n, row_map,
                             Kokkos::subview(entries, Kokkos::make_pair(0, t)),
                             Kokkos::subview(values, Kokkos::make_pair(0, t)));
  }

  int levels() const override {
    return m_handle ? int(m_handle->get_spiluk_handle()->get_num_levels()) : -1;
  }

 private:
  const IluBenchMatrix& m_matrix;
  int m_nnz_lower = 0, m_nnz_upper = 0;
  std::unique_ptr<Handle> m_handle;
  RowMap m_L_row_map, m_U_row_map;
  Entries m_L_entries, m_U_entries;
  Values m_L_values, m_U_values;
};

}  // namespace syncfree::bench
