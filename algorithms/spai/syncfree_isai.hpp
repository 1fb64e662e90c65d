// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief ISAI: the incomplete sparse approximate inverse M ~ T^{-1} of a triangular matrix T on
/// the pattern of T (or of T^power, rows cut to `max_unknowns`), applied as one SpMV in place of a
/// triangular solve (Anzt, Huckle, Bräckle and Dongarra, "Incomplete sparse approximate inverses
/// for parallel preconditioning", 2018). Each row of M solves one small triangular system, a
/// team each.
///
/// T may hold more than its triangle (ILU's combined factors): only the entries of `triangle`
/// are read, and with `Diagonal::unit` the diagonal is taken as 1 and the stored one ignored.
/// Phases: `isai_analyze` (pattern, work space), `isai_factor` (values), `isai_apply`.

#include <cstdint>
#include <memory>
#include <string>

#include "algorithms/spai/impl/syncfree_isai_rows.hpp"
#include "algorithms/spai/impl/syncfree_spai_patterns.hpp"
#include "algorithms/spai/impl/syncfree_square_systems.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "core/syncfree_status.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree {

struct IsaiOptions {
  Triangle triangle = Triangle::lower;
  Diagonal diagonal = Diagonal::stored;
  /// M's pattern is that of T^power restricted to the triangle, the diagonal included (1, 2, 3).
  int pattern_power = 1;
  /// A row of M with more entries keeps the diagonal and the entries of largest weight in
  /// |T|^power (see SpaiOptions::max_unknowns), so that the rows of hubs do not make dense
  /// systems of thousands of unknowns; 0: no limit.
  long max_unknowns = 128;
  /// Rows with at most this many entries solve their dense system in the team's scratch (GPU
  /// shared) memory, the others in global work space; 0 to 64, 0: all in global memory.
  int scratch_unknowns = 64;
  /// Global work space of the dense problems run at once (bytes).
  std::size_t workspace_bytes = std::size_t(1) << 30;
};

/// What the ISAI phases store for one triangular matrix.
template <class Matrix>
class IsaiPlan {
 public:
  static_assert(has_signed_offsets_v<Matrix>, "offsets must be signed (see has_signed_offsets_v)");
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  bool analyzed() const { return m_analyzed; }
  bool factored() const { return m_factored; }
  std::size_t num_rows() const { return m_n; }
  const IsaiOptions& options() const { return m_options; }
  /// M, valid after a successful `isai_factor` (its pattern after `isai_analyze`).
  const Matrix& inverse() const { return m_M; }
  const SpmvPlan<Matrix>& spmv_plan() const { return *m_spmv; }
  /// Rows whose dense system is solved in global work space (longer than `scratch_unknowns`).
  std::size_t rows_in_global_memory() const { return m_layout.global_rows.extent(0); }
  /// Launches over those rows (0 when every row fits scratch).
  std::size_t num_batches() const { return m_layout.num_batches(); }

 private:
  template <class E, class M>
  friend void isai_analyze(const E&, IsaiPlan<M>&, const M&, const IsaiOptions&);
  template <class E, class M>
  friend Outcome isai_factor(const E&, IsaiPlan<M>&, const M&);

  std::size_t m_n = 0;
  std::size_t m_nnz = 0;
  bool m_analyzed = false;
  bool m_factored = false;
  IsaiOptions m_options;
  Matrix m_M;
  std::unique_ptr<SpmvPlan<Matrix>> m_spmv;
  impl::SquareSystemsLayout<device_type, typename Matrix::non_const_ordinal_type> m_layout;
};

/// Structure phase: M's pattern from T's (`options`). Depends only on the pattern of T, except
/// where `max_unknowns` cuts rows by the weights of T's values.
/// \throws InvalidMatrix when T is not square or a row has unsorted or repeated columns;
/// InvalidArgument on options out of range.
template <class ExecSpace, class Matrix>
void isai_analyze(const ExecSpace& exec, IsaiPlan<Matrix>& plan, const Matrix& T,
                  const IsaiOptions& options = {}) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  require_valid(exec, T, MatrixCheck::square | MatrixCheck::sorted_unique, "isai_analyze");
  SYNCFREE_REQUIRE(options.pattern_power >= 1 && options.pattern_power <= 3, InvalidArgument,
                   "isai_analyze: pattern_power must be 1, 2 or 3, not ", options.pattern_power);
  SYNCFREE_REQUIRE(options.workspace_bytes > 0 && options.max_unknowns >= 0, InvalidArgument,
                   "isai_analyze: workspace_bytes must be positive, max_unknowns not negative");
  plan = IsaiPlan<Matrix>();
  plan.m_n = std::size_t(T.numRows());
  plan.m_nnz = std::size_t(T.nnz());
  plan.m_options = options;
  // T's triangle with its diagonal, weighted |t_ij| (the diagonal 1), to the power; the powers
  // of a triangle stay in it.
  const bool lower = options.triangle == Triangle::lower;
  const auto map = T.graph.row_map;
  const auto cols = T.graph.entries;
  const auto values = T.values;
  const auto in_triangle = KOKKOS_LAMBDA(const ordinal_type i, const ordinal_type j) {
    return lower ? j < i : j > i;
  };
  const Matrix base = impl::build_crs<Matrix>(
      exec, "syncfree::isai::triangle", T.numRows(), T.numCols(),
      KOKKOS_LAMBDA(const ordinal_type i) {
        offset_type count = 1;
        for (auto k = map(i); k < map(i + 1); ++k) count += in_triangle(i, cols(k));
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type i, offset_type out,
                    const typename Matrix::index_type::non_const_type& out_entries,
                    const typename Matrix::values_type::non_const_type& out_values) {
        if (!lower) {
          out_entries(out) = i;
          out_values(out++) = 1;
        }
        for (auto k = map(i); k < map(i + 1); ++k)
          if (in_triangle(i, cols(k))) {
            out_entries(out) = cols(k);
            out_values(out++) = impl::abs(values(k));
          }
        if (lower) {
          out_entries(out) = i;
          out_values(out) = 1;
        }
      });
  plan.m_M = impl::capped_rows(exec, impl::pattern_power(exec, base, options.pattern_power),
                               options.max_unknowns);
  plan.m_spmv = std::make_unique<SpmvPlan<Matrix>>(exec, plan.m_M);
  plan.m_layout = impl::layout_square_systems(
      exec, plan.m_M, impl::IsaiRows<ExecSpace, Matrix>::vectors, options.scratch_unknowns,
      options.workspace_bytes, "isai_analyze");
  plan.m_analyzed = true;
}

/// Numeric phase: M's rows from T's values. Call again when they change (same pattern).
/// \returns `Status::zero_pivot` with the first row i whose system meets a zero diagonal entry of
/// T, `Status::not_finite` where NaN or Inf appear; else success. A failed row of M is zero.
/// \throws InvalidState before `isai_analyze`; StructureMismatch when T has another size or number
/// of entries.
template <class ExecSpace, class Matrix>
Outcome isai_factor(const ExecSpace& exec, IsaiPlan<Matrix>& plan, const Matrix& T) {
  SYNCFREE_REQUIRE(plan.m_analyzed, InvalidState, "isai_factor: call isai_analyze first");
  SYNCFREE_REQUIRE(std::size_t(T.numRows()) == plan.m_n && std::size_t(T.nnz()) == plan.m_nnz,
                   StructureMismatch, "isai_factor: plan was analyzed for ", plan.m_n, " rows and ",
                   plan.m_nnz, " entries, the matrix has ", T.numRows(), " and ", T.nnz());
  impl::IsaiRows<ExecSpace, Matrix> rows;
  rows.m_map = plan.m_M.graph.row_map;
  rows.m_cols = plan.m_M.graph.entries;
  rows.t_map = T.graph.row_map;
  rows.t_cols = T.graph.entries;
  rows.t_values = T.values;
  rows.lower = plan.m_options.triangle == Triangle::lower;
  rows.unit_diagonal = plan.m_options.diagonal == Diagonal::unit;
  rows.result = plan.m_M.values;
  const std::int64_t first_bad = impl::solve_square_systems(exec, "syncfree::isai::rows", rows,
                                                            plan.m_layout, std::int64_t(plan.m_n));
  plan.m_factored = first_bad < 0;
  if (plan.m_factored) return {};
  const std::int64_t i = first_bad / 4;
  if (first_bad % 4 == impl::isai_not_finite)
    return {Status::not_finite, i, impl::concat("row ", i, " of ISAI: NaN or Inf in T")};
  return {Status::zero_pivot, i,
          impl::concat("row ", i, " of ISAI: its triangular system meets a zero diagonal entry")};
}

/// y = alpha M x + beta y.
/// \throws InvalidState unless the last `isai_factor` succeeded; DimensionMismatch on sizes.
template <class ExecSpace, class Matrix, class X, class Y>
void isai_apply(const ExecSpace& exec, const IsaiPlan<Matrix>& plan, const X& x, const Y& y,
                typename Matrix::non_const_value_type alpha = 1,
                typename Matrix::non_const_value_type beta = 0) {
  SYNCFREE_REQUIRE(plan.factored(), InvalidState,
                   "isai_apply: no successful isai_factor for this plan");
  SYNCFREE_REQUIRE(x.extent(0) == plan.num_rows() && y.extent(0) == plan.num_rows(),
                   DimensionMismatch, "isai_apply: plan has ", plan.num_rows(), " rows, x ",
                   x.extent(0), ", y ", y.extent(0));
  plan.spmv_plan().apply(exec, alpha, x, beta, y);
}

}  // namespace syncfree
