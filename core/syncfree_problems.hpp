// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Test and benchmark problems (finite-difference stencils and random banded matrices),
/// built directly on the device from a short spec string such as `poisson3d:100`.
///
/// Spec strings (fields separated by `:`, no spaces):
///
/// | Spec                          | Rows  | Matrix |
/// |-------------------------------|-------|---------------------------------------------------------|
/// | `poisson2d:N`                 | N^2   | 5-point Laplacian: diagonal 4, neighbors -1 | |
/// `poisson3d:N`                 | N^3   | 7-point Laplacian: diagonal 6, neighbors -1 | |
/// `poisson3d27:N`               | N^3   | 27-point stencil: diagonal 26, all 26 neighbors -1 | |
/// `anisotropic2d:N[:EPS]`       | N^2   | diagonal 2+2 EPS, x-neighbors -1, y-neighbors -EPS | |
/// `convdiff2d:N[:BETA]`         | N^2   | 5-point Laplacian plus upwind convection (nonsymmetric)
/// | | `convdiff3d:N[:BETA]`         | N^3   | 7-point Laplacian plus upwind convection
/// (nonsymmetric) | | `banded:N:BW[:M[:SEED]]`      | N     | random, strictly diagonally dominant,
/// \|i-j\| <= BW     |
///
/// Defaults: EPS = 1e-3, BETA = 50, M = min(2 BW, 8), SEED = 42.
///
/// Grid problems number the N x N (x N) grid row-major with x fastest, so point (x, y, z) is row
/// x + N y + N^2 z. Boundaries are Dirichlet: stencil neighbors outside the grid are dropped and
/// the diagonal is kept. The convection-diffusion problems add first-order upwind convection with
/// velocity (BETA, BETA[, BETA]) scaled by h = 1 / (N + 1): in each direction the lower-index
/// neighbor gets -1 - BETA h and the diagonal gets + BETA h.
///
/// In `banded`, row i draws min(M, W_i) off-diagonal columns from the W_i columns of its band
/// (|i - j| <= BW, j != i), one from each of min(M, W_i) equal strata of the band, so the columns
/// come out sorted and unique. Off-diagonal values are uniform in [-1, 0), the diagonal is 1 plus
/// the sum of their magnitudes. Positions and values come from a counter-based hash of (SEED, row,
/// k), so a spec gives the same matrix on every backend and every run.
///
/// Every row of every generated matrix has its column indices sorted ascending and unique, and
/// stores its diagonal.

#include <cstdint>
#include <limits>
#include <string>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_problems_kernels.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

/// The family of a generated problem; see the table in this file's description.
enum class ProblemKind {
  poisson2d,      ///< `poisson2d:N`
  poisson3d,      ///< `poisson3d:N`
  poisson3d_27,   ///< `poisson3d27:N`
  anisotropic2d,  ///< `anisotropic2d:N[:EPS]`
  convdiff2d,     ///< `convdiff2d:N[:BETA]`
  convdiff3d,     ///< `convdiff3d:N[:BETA]`
  banded,         ///< `banded:N:BW[:M[:SEED]]`
};

/// The name of a kind as it appears in spec strings, e.g. "poisson3d27".
const char* to_string(ProblemKind kind);

/// A parsed problem description. `parse_problem_spec` fills in the defaults of omitted fields; a
/// spec built by hand must set every field its kind uses.
struct ProblemSpec {
  ProblemKind kind = ProblemKind::poisson2d;
  std::int64_t n = 0;          ///< grid points per side, or rows for `banded`
  double parameter = 0;        ///< EPS for `anisotropic2d`, BETA for `convdiff*`; unused otherwise
  std::int64_t bandwidth = 0;  ///< `banded`: largest |i - j| of a stored entry
  int entries_per_row = 0;     ///< `banded`: off-diagonal candidates per row (M)
  std::uint64_t seed = 42;     ///< `banded`: seed of the hash that draws positions and values

  /// The canonical spec string, with every optional field written out (the seed only when it is
  /// not 42), e.g. "anisotropic2d:100:0.001". `parse_problem_spec` maps it back to an equal spec.
  std::string to_string() const;

  /// Number of rows (and columns) of the matrix.
  /// \throws InvalidArgument when the count does not fit in 64 bits
  std::int64_t num_rows() const;

  /// Exact number of stored entries of the matrix, e.g. 5 N^2 - 4 N for `poisson2d:N`.
  /// \throws InvalidArgument when the count does not fit in 64 bits
  std::int64_t num_entries() const;
};

/// Parses a spec string such as `poisson3d:100` or `banded:100000:20:4`.
///
/// \param[in] text the spec; see this file's description for the grammar and the defaults
/// \returns the spec with every field set
/// \throws InvalidArgument naming the spec and the problem when the name is unknown, a field is
///   missing, not a number, out of range (N <= 0, BW >= N, M > 2 BW, EPS <= 0, BETA < 0), when
///   there are trailing fields, or when the row or entry count does not fit in 64 bits
ProblemSpec parse_problem_spec(const std::string& text);

/// A linear system A x_true = b with a known solution.
///
/// \tparam Matrix a `CrsMatrix`; the vectors live on its device
template <class Matrix>
struct Problem {
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  Matrix A;
  Vector<scalar_type, device_type> x_true;  ///< smooth, non-constant, in [1, 1.5]
  Vector<scalar_type, device_type> b;       ///< A x_true, computed by SpMV on the device
  ProblemSpec spec;
};

namespace impl {

/// Checks the fields of a spec (built by hand or parsed); throws InvalidArgument.
void check_problem_spec(const ProblemSpec& spec);

/// The stencil coefficients of a grid problem (any kind but `banded`).
StencilWeights stencil_weights(const ProblemSpec& spec);

}  // namespace impl

/// Builds the matrix of a spec on the device of `Matrix`, in parallel on `exec`.
///
/// Three passes: count the entries of each row, prefix-sum the counts into the row offsets, fill
/// the columns and values. Nothing is sorted afterwards; rows come out sorted by construction.
///
/// \tparam Matrix a `CrsMatrix` (any scalar, ordinal and offset type)
/// \tparam ExecSpace an execution space that can access `Matrix`'s memory space
/// \param[in] exec the instance the kernels are enqueued on; fence it before reading the matrix
///   from another instance
/// \param[in] spec a valid spec (see `parse_problem_spec`)
/// \returns the matrix, square with `spec.num_rows()` rows and `spec.num_entries()` entries
/// \throws InvalidArgument when a field of `spec` is out of range
/// \throws InvalidMatrix when the row count overflows the ordinal type or the entry count the
///   offset type of `Matrix`; checked before anything is allocated
/// \note Re-entrant: concurrent calls with different execution-space instances are independent.
template <class Matrix, class ExecSpace>
Matrix generate_matrix(const ExecSpace& exec, const ProblemSpec& spec) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Matrix::memory_space>::accessible,
                "generate_matrix: the execution space cannot access the matrix's memory space");

  impl::check_problem_spec(spec);
  const std::int64_t nrows = spec.num_rows();
  const std::int64_t nnz = spec.num_entries();
  require_fits<ordinal_type>(nrows, spec.to_string(), "rows", "ordinal");
  require_fits<offset_type>(nnz, spec.to_string(), "entries", "offset");

  typename Matrix::row_map_type::non_const_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::problem::row_map"), nrows + 1);
  typename Matrix::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::problem::entries"), nnz);
  typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::problem::values"), nnz);

  if (spec.kind == ProblemKind::banded) {
    impl::BandedRows<decltype(row_map), decltype(entries), decltype(values)> rows{
        spec.n, spec.bandwidth, spec.entries_per_row, spec.seed, row_map, entries, values};
    impl::build_rows<ExecSpace>(exec, "banded", nrows, rows);
  } else {
    impl::StencilRows<decltype(row_map), decltype(entries), decltype(values)> rows{
        spec.n, impl::stencil_weights(spec), row_map, entries, values};
    impl::build_rows<ExecSpace>(exec, "stencil", nrows, rows);
  }
  return make_crs<Matrix>(spec.to_string(), nrows, nrows, row_map, entries, values);
}

/// Builds the matrix of a spec, a known solution and the matching right-hand side.
///
/// \tparam Matrix a `CrsMatrix`
/// \tparam ExecSpace an execution space that can access `Matrix`'s memory space
/// \param[in] exec the instance the kernels are enqueued on
/// \param[in] spec a valid spec (see `parse_problem_spec`)
/// \returns A as from `generate_matrix`, x_true with x_i = 1 + 8 t^2 (1 - t)^2 where
///   t = (i mod 1024) / 1024 (smooth, periodic, in [1, 1.5]), and b = A x_true
/// \throws InvalidArgument, InvalidMatrix as `generate_matrix`
template <class Matrix, class ExecSpace>
Problem<Matrix> generate_problem(const ExecSpace& exec, const ProblemSpec& spec) {
  using scalar_type = typename Matrix::non_const_value_type;
  using vector_type = Vector<scalar_type, typename Matrix::device_type>;

  Problem<Matrix> problem{generate_matrix<Matrix>(exec, spec), vector_type(), vector_type(), spec};
  const std::int64_t n = spec.num_rows();
  problem.x_true =
      vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::problem::x_true"), n);
  problem.b =
      vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::problem::b"), n);
  Kokkos::parallel_for("syncfree::problems::x_true",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       impl::SmoothVector<vector_type>{problem.x_true});
  impl::spmv(exec, scalar_type(1), problem.A, problem.x_true, scalar_type(0), problem.b);
  return problem;
}

}  // namespace syncfree
