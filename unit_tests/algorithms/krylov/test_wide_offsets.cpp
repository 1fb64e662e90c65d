// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Matrices whose entries are indexed by 64-bit offsets (std::int64_t: SyncFree's plans take signed
// offsets), the type a matrix of more than 2^31 - 1 entries needs: every phase gives the bits that
// 32-bit offsets give, on matrices small enough for a unit test.

#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/utils/syncfree_temp_files.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using Narrow = TestMatrix<double, int>;
using Wide = TestMatrix<double, std::int64_t>;

/// The same matrix with 64-bit offsets.
Wide widened(const Narrow& A) {
  typename Wide::row_map_type::non_const_type row_map("row_map", A.graph.row_map.extent(0));
  const auto from = A.graph.row_map;
  Kokkos::parallel_for(
      "widen", Kokkos::RangePolicy<ExecSpace>(0, from.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { row_map(i) = std::int64_t(from(i)); });
  typename Wide::index_type::non_const_type entries("entries", A.graph.entries.extent(0));
  typename Wide::values_type::non_const_type values("values", A.values.extent(0));
  Kokkos::deep_copy(entries, A.graph.entries);
  Kokkos::deep_copy(values, A.values);
  return make_crs<Wide>("wide", A.numRows(), A.numCols(), row_map, entries, values);
}

std::vector<double> smooth(int n) {
  std::vector<double> b(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = std::cos(0.3 * i) + 0.1;
  return b;
}

struct NamedMatrix {
  std::string name;
  Narrow A;
};

/// Grids whose triangles take the wavefront layout (the 3-D one's unit structure outgrows a CUDA
/// block's shared memory with 64-bit offsets), and unstructured matrices.
std::vector<NamedMatrix> matrices() {
  std::vector<NamedMatrix> all;
  for (const char* spec : {"poisson3d:40", "convdiff2d:64"})
    all.push_back({spec, generate_problem<Narrow>(ExecSpace(), parse_problem_spec(spec)).A});
  all.push_back({"geometric_convection", geometric_convection(1500)});
  all.push_back({"power_law", power_law_matrix(1200, 3, 7)});
  return all;
}

TEST(WideOffsets, ReadAndGeneratedMatricesMatch) {
  const auto problem = generate_problem<Wide>(ExecSpace(), parse_problem_spec("poisson2d:20"));
  const auto narrow = generate_problem<Narrow>(ExecSpace(), parse_problem_spec("poisson2d:20"));
  EXPECT_EQ(to_std(problem.A.values), to_std(narrow.A.values));
  EXPECT_EQ(to_std(problem.A.graph.entries), to_std(narrow.A.graph.entries));
  EXPECT_EQ(to_std(problem.b), to_std(narrow.b));

  // The same file read with either offset type.
  const std::string path = temporary_file("wide_offsets.mtx");
  write_matrix_market(path, narrow.A);
  const Wide read = read_matrix_market<Wide>(path);
  EXPECT_EQ(to_std(read.values), to_std(narrow.A.values));
  EXPECT_EQ(to_std(read.graph.entries), to_std(narrow.A.graph.entries));
  const auto row_map = to_std(read.graph.row_map);
  const auto narrow_row_map = to_std(narrow.A.graph.row_map);
  ASSERT_EQ(row_map.size(), narrow_row_map.size());
  for (std::size_t i = 0; i < row_map.size(); ++i)
    EXPECT_EQ(row_map[i], std::int64_t(narrow_row_map[i]));
  EXPECT_EQ(read_matrix_market_header(path).entries_in_file, narrow.A.nnz());
}

TEST(WideOffsets, SpmvAndTriangularSolvesGiveTheBitsOf32BitOffsets) {
  for (const auto& m : matrices()) {
    SCOPED_TRACE(m.name);
    const Wide W = widened(m.A);
    const int n = m.A.numRows();
    const auto b = to_view(smooth(n));

    Vector<double, Device> y_narrow("y", n), y_wide("y", n);
    SpmvPlan<Narrow>(ExecSpace(), m.A).apply(ExecSpace(), 1.0, b, 0.0, y_narrow);
    SpmvPlan<Wide>(ExecSpace(), W).apply(ExecSpace(), 1.0, b, 0.0, y_wide);
    EXPECT_EQ(to_std(y_wide), to_std(y_narrow));

    const auto L = extract_triangle(ExecSpace(), m.A, Triangle::lower, Diagonal::stored);
    const auto LW = extract_triangle(ExecSpace(), W, Triangle::lower, Diagonal::stored);
    for (const auto algorithm :
         {SptrsvAlgorithm::level_set, SptrsvAlgorithm::sync_free_thread,
          SptrsvAlgorithm::sync_free_row, SptrsvAlgorithm::multirow, SptrsvAlgorithm::packed,
          SptrsvAlgorithm::alap_packed, SptrsvAlgorithm::wavefront, SptrsvAlgorithm::automatic}) {
      SCOPED_TRACE(to_string(algorithm));
      SptrsvOptions options;
      options.algorithm = algorithm;
      options.reproducible = true;
      SptrsvPlan<Narrow> narrow(options);
      SptrsvPlan<Wide> wide(options);
      sptrsv_analyze(ExecSpace(), narrow, L);
      sptrsv_analyze(ExecSpace(), wide, LW);
      Vector<double, Device> x_narrow("x", n), x_wide("x", n);
      sptrsv_solve(ExecSpace(), narrow, L, b, x_narrow);
      sptrsv_solve(ExecSpace(), wide, LW, b, x_wide);
      EXPECT_EQ(to_std(x_wide), to_std(x_narrow));
      EXPECT_EQ(wide.effective_algorithm(), narrow.effective_algorithm());
      if (algorithm == SptrsvAlgorithm::wavefront && m.name != "power_law" &&
          m.name != "geometric_convection") {
        EXPECT_EQ(wide.effective_algorithm(), SptrsvAlgorithm::wavefront);
      }
    }
  }
}

TEST(WideOffsets, FactorizationsAndKrylovSolvesGiveTheBitsOf32BitOffsets) {
  for (const auto& m : matrices()) {
    SCOPED_TRACE(m.name);
    const Wide W = widened(m.A);
    const int n = m.A.numRows();
    const auto b = to_view(smooth(n));
    GmresOptions options;
    options.tolerance = 1e-10;
    options.max_iterations = 400;

    for (const int fill : {0, 1}) {
      SCOPED_TRACE(fill);
      IluOptions ilu;
      ilu.fill_level = fill;
      ilu.reproducible = true;
      IluPreconditioner<Narrow> narrow(ExecSpace(), m.A, ilu);
      IluPreconditioner<Wide> wide(ExecSpace(), W, ilu);
      ASSERT_TRUE(narrow.outcome().ok() && wide.outcome().ok());
      EXPECT_EQ(to_std(wide.plan().factors().values), to_std(narrow.plan().factors().values));

      const CrsOperator<Narrow> op_narrow(m.A);
      const CrsOperator<Wide> op_wide(W);
      Vector<double, Device> x_narrow("x", n), x_wide("x", n);
      const SolveResult r_narrow =
          gmres_solve(ExecSpace(), op_narrow, narrow, b, x_narrow, options);
      const SolveResult r_wide = gmres_solve(ExecSpace(), op_wide, wide, b, x_wide, options);
      EXPECT_EQ(r_wide.status, Status::success);
      EXPECT_EQ(r_wide.iterations, r_narrow.iterations);
      EXPECT_EQ(to_std(x_wide), to_std(x_narrow));
    }
  }
  // SPD: IC(0) and Jacobi under CG.
  const auto spd = generate_problem<Narrow>(ExecSpace(), parse_problem_spec("poisson3d:12"));
  const Wide W = widened(spd.A);
  const int n = spd.A.numRows();
  KrylovOptions cg;
  cg.tolerance = 1e-10;
  IcOptions ic;
  ic.reproducible = true;
  const IcPreconditioner<Narrow> ic_narrow(ExecSpace(), spd.A, ic);
  const IcPreconditioner<Wide> ic_wide(ExecSpace(), W, ic);
  const JacobiPreconditioner<Narrow> jacobi_narrow(ExecSpace(), spd.A);
  const JacobiPreconditioner<Wide> jacobi_wide(ExecSpace(), W);
  const CrsOperator<Narrow> op_narrow(spd.A);
  const CrsOperator<Wide> op_wide(W);
  const Operator<double, Device>* pairs[2][2] = {{&ic_narrow, &ic_wide},
                                                 {&jacobi_narrow, &jacobi_wide}};
  for (const auto& pair : pairs) {
    SCOPED_TRACE(pair[0]->name());
    Vector<double, Device> x_narrow("x", n), x_wide("x", n);
    const SolveResult r_narrow = cg_solve(ExecSpace(), op_narrow, *pair[0], spd.b, x_narrow, cg);
    const SolveResult r_wide = cg_solve(ExecSpace(), op_wide, *pair[1], spd.b, x_wide, cg);
    EXPECT_EQ(r_wide.status, Status::success);
    EXPECT_EQ(r_wide.iterations, r_narrow.iterations);
    EXPECT_EQ(to_std(x_wide), to_std(x_narrow));
  }
}

}  // namespace
}  // namespace syncfree::test
