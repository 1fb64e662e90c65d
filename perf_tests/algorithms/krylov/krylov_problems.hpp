// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The systems the Krylov benchmark solves: a generated problem (core/syncfree_problems.hpp:
/// b = A x_true with its smooth x_true) or a Matrix Market file (b = A 1, i.e. x_true = ones, or
/// b read from a Matrix Market vector file). A file is read once per process, however often it is
/// named.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "perf_tests/algorithms/krylov/krylov_report.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"

namespace syncfree::bench {

struct KrylovProblem {
  KrylovProblemInfo info;
  BenchCrs A;
  Vector<double> b;
};

/// Builds the benchmark's systems on the default device, keeping each file's matrix for the next
/// problem that names it.
class KrylovProblemLoader {
 public:
  /// \param[in] source a generator spec ("poisson3d:192") or a path ending in ".mtx"
  /// \param[in] symmetric whether the problem goes to CG (the caller's word: not checked)
  /// \param[in] rhs empty, or for a file a Matrix Market vector file holding b
  /// \throws InvalidArgument on a malformed spec, a non-square matrix, a right-hand side for a
  ///   generated problem or of the wrong length, a source listed twice for the same kind of
  ///   problem, or two files with the same base name; FileFormatError from the reader
  std::shared_ptr<KrylovProblem> load(const std::string& source, bool symmetric,
                                      const std::string& rhs);

 private:
  const BenchCrs& read_file(const std::string& path);

  std::map<std::string, BenchCrs> m_files;        ///< path -> matrix
  std::map<std::string, std::string> m_sources;   ///< report name -> source
  std::set<std::pair<std::string, bool>> m_used;  ///< (source, symmetric) loaded so far
};

}  // namespace syncfree::bench
