// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Permutations of vectors and symmetric permutations of matrices.
///
/// A permutation is a view `perm` of size n where `perm(new) = old`: entry `new` of the permuted
/// object is entry `old` of the original.

#include <string>
#include <vector>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_row_lanes.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_rearranged_matrix.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// True when `perm` holds every index 0..n-1 exactly once.
template <class ExecSpace, class Perm>
bool is_permutation(const ExecSpace& exec, const Perm& perm) {
  using ordinal_type = typename Perm::non_const_value_type;
  const ordinal_type n = ordinal_type(perm.extent(0));
  Kokkos::View<int*, typename Perm::device_type> seen("syncfree::perm_seen", n);
  ordinal_type bad = 0;
  Kokkos::parallel_reduce(
      "syncfree::permutation::check", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& count) {
        const ordinal_type p = perm(i);
        if (p < 0 || p >= n || Kokkos::atomic_fetch_add(&seen(p), 1) != 0) ++count;
      },
      bad);
  return bad == 0;
}

namespace impl {
/// A host vector of indices (a permutation, an order) as a device view labelled `label`.
template <class Ordinal, class Device>
Kokkos::View<Ordinal*, Device> to_device_view(const std::vector<Ordinal>& indices,
                                              const char* label = "syncfree::indices") {
  Kokkos::View<Ordinal*, Device> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), indices.size());
  Kokkos::deep_copy(
      out, Kokkos::View<const Ordinal*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
               indices.data(), indices.size()));
  return out;
}

/// A copy of a 1-D view in host memory, as a std::vector.
template <class View>
std::vector<typename View::non_const_value_type> to_std_vector(const View& view) {
  std::vector<typename View::non_const_value_type> out(view.extent(0));
  Kokkos::deep_copy(Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>(out.data(), out.size()),
                    view);
  return out;
}

/// Writes `inverse(perm(i)) = i`.
template <class ExecSpace, class Perm, class Inverse>
void invert_permutation_into(const ExecSpace& exec, const Perm& perm, const Inverse& inverse) {
  using ordinal_type = typename Perm::non_const_value_type;
  Kokkos::parallel_for(
      "syncfree::permutation::invert", Kokkos::RangePolicy<ExecSpace>(exec, 0, perm.extent(0)),
      KOKKOS_LAMBDA(const ordinal_type i) { inverse(perm(i)) = i; });
}

/// y(perm(i)) = alpha * w(i) + beta * y(perm(i)), y overwritten where beta == 0 (NaN in y does
/// not survive): the scatter back to the caller's numbering, fused with the Operator's scaling.
template <class ExecSpace, class Perm, class W, class Y>
void scatter_axpby(const ExecSpace& exec, const Perm& perm, typename Y::non_const_value_type alpha,
                   const W& w, typename Y::non_const_value_type beta, const Y& y) {
  using scalar_type = typename Y::non_const_value_type;
  Kokkos::parallel_for(
      "syncfree::permutation::scatter", Kokkos::RangePolicy<ExecSpace>(exec, 0, perm.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        const auto row = perm(i);
        y(row) = beta == scalar_type(0) ? alpha * w(i) : alpha * w(i) + beta * y(row);
      });
}
}  // namespace impl

/// The inverse permutation: `inverse(perm(i)) = i`.
template <class ExecSpace, class Perm>
Kokkos::View<typename Perm::non_const_value_type*, typename Perm::device_type> invert_permutation(
    const ExecSpace& exec, const Perm& perm) {
  using ordinal_type = typename Perm::non_const_value_type;
  Kokkos::View<ordinal_type*, typename Perm::device_type> inverse(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::inverse_perm"), perm.extent(0));
  impl::invert_permutation_into(exec, perm, inverse);
  return inverse;
}

/// y(i) = x(perm(i)).
template <class ExecSpace, class Perm, class X, class Y>
void permute_vector(const ExecSpace& exec, const Perm& perm, const X& x, const Y& y) {
  SYNCFREE_REQUIRE(x.extent(0) == perm.extent(0) && y.extent(0) == perm.extent(0),
                   DimensionMismatch, "permute_vector: permutation has ", perm.extent(0),
                   " entries, x ", x.extent(0), ", y ", y.extent(0));
  Kokkos::parallel_for(
      "syncfree::permutation::vector", Kokkos::RangePolicy<ExecSpace>(exec, 0, perm.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { y(i) = x(perm(i)); });
}

/// B = P A P^T: row i of B is row perm(i) of A, and column j of A becomes column inverse(j).
/// Rows of B come out with sorted column indices.
/// \throws DimensionMismatch when A is not square or perm has the wrong size;
/// \throws InvalidArgument when perm is not a permutation.
template <class ExecSpace, class Matrix, class Perm>
Matrix permute_matrix(const ExecSpace& exec, const Matrix& A, const Perm& perm) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  SYNCFREE_REQUIRE(A.numRows() == A.numCols() && perm.extent(0) == std::size_t(A.numRows()),
                   DimensionMismatch, "permute_matrix: matrix is ", A.numRows(), "x", A.numCols(),
                   " and the permutation has ", perm.extent(0), " entries");
  SYNCFREE_REQUIRE(is_permutation(exec, perm), InvalidArgument,
                   "permute_matrix: the given indices are not a permutation");
  const auto inverse = invert_permutation(exec, perm);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  const ordinal_type n = A.numRows();
  typename Matrix::row_map_type::non_const_type out_map("syncfree::permuted::row_map", n + 1);
  Kokkos::parallel_for(
      "syncfree::permutation::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        out_map(i + 1) = row_map(perm(i) + 1) - row_map(perm(i));
      });
  const offset_type nnz = impl::counts_to_offsets(exec, out_map);
  typename Matrix::index_type::non_const_type out_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::permuted::entries"), nnz);
  typename Matrix::values_type::non_const_type out_values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::permuted::values"), nnz);
  // A vector of lanes copies each row: reads and writes side by side.
  using Teams = impl::RowTeams<ExecSpace>;
  const Teams teams(n > 0 ? double(nnz) / double(n) : 0.0);
  Kokkos::parallel_for(
      "syncfree::permutation::fill", teams.policy(exec, n),
      KOKKOS_LAMBDA(const typename Teams::member_type& member) {
        const ordinal_type i = ordinal_type(teams.row(member));
        if (i >= n) return;
        const offset_type from = row_map(perm(i)), out = out_map(i);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, out_map(i + 1) - out),
                             [&](const offset_type t) {
                               out_entries(out + t) = inverse(entries(from + t));
                               out_values(out + t) = values(from + t);
                             });
      });
  Matrix B =
      make_crs<Matrix>("syncfree::permuted", n, A.numCols(), out_map, out_entries, out_values);
  impl::sort_rows(exec, B);
  return B;
}

/// P A P^T with the source of every entry kept, for new values on the same pattern
/// (`RearrangedMatrix::refill`).
/// \throws as `permute_matrix`.
template <class ExecSpace, class Matrix, class Perm>
RearrangedMatrix<Matrix> permute_matrix_kept(const ExecSpace& exec, const Matrix& A,
                                             const Perm& perm) {
  using offset_type = typename Matrix::non_const_size_type;
  // The entries' indices ride through the permutation as values (exact in double below 2^53).
  using IndexMatrix = CrsMatrix<double, typename Matrix::non_const_ordinal_type, offset_type,
                                typename Matrix::device_type>;
  Kokkos::View<double*, typename Matrix::device_type> index(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::permutation::index"), A.nnz());
  Kokkos::parallel_for(
      "syncfree::permutation::index", Kokkos::RangePolicy<ExecSpace>(exec, 0, index.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k) { index(k) = double(k); });
  const IndexMatrix moved =
      permute_matrix(exec,
                     make_crs<IndexMatrix>("syncfree::permutation::indices", A.numRows(),
                                           A.numCols(), A.graph.row_map, A.graph.entries, index),
                     perm);
  RearrangedMatrix<Matrix> out;
  out.source = Kokkos::View<offset_type*, typename Matrix::device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::permutation::source"), A.nnz());
  typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::permuted::values"), A.nnz());
  const auto src = out.source;
  const auto moved_index = moved.values;
  Kokkos::parallel_for(
      "syncfree::permutation::source", Kokkos::RangePolicy<ExecSpace>(exec, 0, src.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k) { src(k) = offset_type(moved_index(k)); });
  out.matrix = make_crs<Matrix>("syncfree::permuted", A.numRows(), A.numCols(), moved.graph.row_map,
                                moved.graph.entries, values);
  out.refill(exec, A);
  return out;
}

}  // namespace syncfree
