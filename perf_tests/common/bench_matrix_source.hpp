// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The matrices the benchmarks read, by name: a generator spec (core/syncfree_problems.hpp),
/// a Matrix Market file, or a lower bidiagonal chain.

#include <string>

#include "core/syncfree_types.hpp"

namespace syncfree::bench {

using BenchCrs = CrsMatrix<double, int, int>;

/// Builds `source` on the default device: "chain:N" (lower bidiagonal, 2 on the diagonal, -1
/// below it: N levels), a path ending in ".mtx", or a generator spec such as "poisson3d:128".
/// \throws InvalidArgument on a malformed spec; what the reader throws on a bad file
BenchCrs load_matrix(const std::string& source);

/// True for a source the benchmarks read from a file (its name is then a path).
bool is_matrix_market_path(const std::string& source);

/// The name reports and benchmark names give `source`: a Matrix Market file's base name
/// ("/data/thermal2.mtx" -> "thermal2.mtx"), else `source` itself.
std::string bench_matrix_name(const std::string& source);

}  // namespace syncfree::bench
