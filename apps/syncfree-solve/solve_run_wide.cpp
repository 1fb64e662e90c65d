// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// run_solve_as for matrices of more than 2^31 - 1 entries, in a translation unit of its own so
// that it compiles beside the 32-bit one.

#include <cstdint>

#include "apps/syncfree-solve/solve_run_impl.hpp"

namespace syncfree::app {

template SolveReport run_solve_as<CrsMatrix<double, int, std::int64_t>>(const SolveOptions&,
                                                                        std::ostream&);

}  // namespace syncfree::app
