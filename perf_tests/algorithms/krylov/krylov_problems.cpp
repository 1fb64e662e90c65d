// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "perf_tests/algorithms/krylov/krylov_problems.hpp"

#include <chrono>
#include <cstdio>

#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_spmv.hpp"

namespace syncfree::bench {

const BenchCrs& KrylovProblemLoader::read_file(const std::string& path) {
  auto found = m_files.find(path);
  if (found != m_files.end()) return found->second;
  const auto start = std::chrono::steady_clock::now();
  const BenchCrs A = load_matrix(path);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::printf("read %s: %d rows, %ld entries in %.1f s\n", path.c_str(), A.numRows(), long(A.nnz()),
              seconds.count());
  return m_files.emplace(path, A).first->second;
}

std::shared_ptr<KrylovProblem> KrylovProblemLoader::load(const std::string& source, bool symmetric,
                                                         const std::string& rhs) {
  const bool file = is_matrix_market_path(source);
  const ProblemSpec spec = file ? ProblemSpec() : parse_problem_spec(source);
  // What the problem is: the path of a file, the canonical spec of a generated problem.
  const std::string key = file ? source : spec.to_string();
  const std::string name = file ? bench_matrix_name(source) : key;
  SYNCFREE_REQUIRE(m_used.insert({key, symmetric}).second, InvalidArgument, "'", source,
                   "' is listed twice for ",
                   symmetric ? "--syncfree_spd" : "--syncfree_nonsymmetric");
  const auto [named, inserted] = m_sources.emplace(name, key);
  SYNCFREE_REQUIRE(inserted || named->second == key, InvalidArgument, "'", source, "' and '",
                   named->second, "' would both be reported as ", name);

  const Kokkos::DefaultExecutionSpace exec;
  auto p = std::make_shared<KrylovProblem>();
  p->info.name = name;
  p->info.symmetric = symmetric;
  if (file) {
    p->info.file = source;
    p->A = read_file(source);
    SYNCFREE_REQUIRE(p->A.numRows() == p->A.numCols(), InvalidArgument, source, " is ",
                     p->A.numRows(), " x ", p->A.numCols(), ", not square");
    const int n = p->A.numRows();
    if (rhs.empty()) {
      Vector<double> ones(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ones"), n);
      Kokkos::deep_copy(exec, ones, 1.0);
      p->b = Vector<double>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
      spmv(exec, 1.0, p->A, ones, 0.0, p->b);
      exec.fence();
      p->info.rhs = "A 1 (x_true = 1)";
    } else {
      p->b = read_vector_market<double>(rhs);
      SYNCFREE_REQUIRE(p->b.extent(0) == std::size_t(n), InvalidArgument, "right-hand side ", rhs,
                       " has ", p->b.extent(0), " entries, ", source, " ", n, " rows");
      p->info.rhs = "the vector in " + rhs;
    }
  } else {
    SYNCFREE_REQUIRE(rhs.empty(), InvalidArgument, "a right-hand side (", rhs,
                     ") is for a Matrix Market matrix, not for ", source);
    auto generated = generate_problem<BenchCrs>(exec, spec);
    p->A = generated.A;
    p->b = generated.b;
    p->info.rhs = "A x_true (x_true smooth in [1, 1.5])";
  }
  p->info.rows = p->A.numRows();
  p->info.nnz = int(p->A.nnz());
  return p;
}

}  // namespace syncfree::bench
