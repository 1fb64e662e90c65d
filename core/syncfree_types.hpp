// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Matrix and vector types: aliases of Kokkos Kernels' CrsMatrix and Kokkos views.

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace syncfree {

/// Device of the default execution space (CUDA in a CUDA build, the host otherwise).
using DefaultDevice =
    Kokkos::Device<Kokkos::DefaultExecutionSpace, Kokkos::DefaultExecutionSpace::memory_space>;
/// Device used for host-side data: file input and output, reference oracles.
using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;

/// Compressed sparse row matrix. `Ordinal` indexes rows and columns, `Offset` indexes entries.
template <class Scalar, class Ordinal = int, class Offset = int, class Device = DefaultDevice>
using CrsMatrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, void, Offset>;

/// Whether SyncFree's plans take `Matrix`: their offsets must be signed (`int`, or `std::int64_t`
/// for more than 2^31 - 1 entries), as -1 marks an absent entry in their tables.
template <class Matrix>
inline constexpr bool has_signed_offsets_v = std::is_signed_v<typename Matrix::non_const_size_type>;

/// The same matrix type, living on the host.
template <class Matrix>
using HostMatrix =
    CrsMatrix<typename Matrix::non_const_value_type, typename Matrix::non_const_ordinal_type,
              typename Matrix::non_const_size_type, HostDevice>;

/// The same matrix type on another device.
template <class Matrix, class Device>
using MatrixOn =
    CrsMatrix<typename Matrix::non_const_value_type, typename Matrix::non_const_ordinal_type,
              typename Matrix::non_const_size_type, Device>;

template <class Scalar, class Device = DefaultDevice>
using Vector = Kokkos::View<Scalar*, Kokkos::LayoutLeft, Device>;

/// Several right-hand sides or solutions, one per column.
template <class Scalar, class Device = DefaultDevice>
using MultiVector = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device>;

/// Which triangle of a matrix an operation uses.
enum class Triangle { lower, upper };

/// How a triangular matrix treats its diagonal.
enum class Diagonal {
  stored,  ///< the diagonal is stored and used
  unit,    ///< the diagonal is not stored and taken as 1
};

inline const char* to_string(Triangle t) { return t == Triangle::lower ? "lower" : "upper"; }
inline const char* to_string(Diagonal d) { return d == Diagonal::stored ? "stored" : "unit"; }

/// Builds a CrsMatrix from its three arrays (row_map of size n+1, entries and values of size nnz).
template <class Matrix, class RowMap, class Entries, class Values>
Matrix make_crs(const std::string& label, std::int64_t nrows, std::int64_t ncols,
                const RowMap& row_map, const Entries& entries, const Values& values) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  return Matrix(label, static_cast<ordinal_type>(nrows), static_cast<ordinal_type>(ncols),
                static_cast<typename Matrix::non_const_size_type>(values.extent(0)), values,
                row_map, entries);
}

/// Deep copy of a matrix onto another device (host to device, device to host).
template <class Device, class Matrix>
MatrixOn<Matrix, Device> copy_to(const Matrix& A) {
  using Out = MatrixOn<Matrix, Device>;
  typename Out::row_map_type::non_const_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::row_map"),
      A.graph.row_map.extent(0));
  typename Out::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::entries"),
      A.graph.entries.extent(0));
  typename Out::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::values"), A.values.extent(0));
  Kokkos::deep_copy(row_map, A.graph.row_map);
  Kokkos::deep_copy(entries, A.graph.entries);
  Kokkos::deep_copy(values, A.values);
  return make_crs<Out>("syncfree::matrix", A.numRows(), A.numCols(), row_map, entries, values);
}

/// Deep copy of a vector onto another device.
template <class Device, class View>
Vector<typename View::non_const_value_type, Device> copy_vector_to(const View& v) {
  static_assert(View::rank == 1, "copy_vector_to copies vectors");
  Vector<typename View::non_const_value_type, Device> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, v.label()), v.extent(0));
  Kokkos::deep_copy(out, v);
  return out;
}

}  // namespace syncfree
