// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// syncfree-solve: the command-line front end of SyncFree. Exit status 0 when the solver
// converged, 1 when it did not, 2 for bad input or usage (with a one-line reason on stderr).

#include <iostream>
#include <string>

#include <Kokkos_Core.hpp>

#include "apps/syncfree-solve/solve_options.hpp"
#include "apps/syncfree-solve/solve_report.hpp"
#include "apps/syncfree-solve/solve_run.hpp"
#include "core/syncfree_error.hpp"

int main(int argc, char* argv[]) {
  const auto parsed = syncfree::app::parse_solve_options(argc, argv);
  if (!parsed.options) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << '\n';
    return parsed.exit_code;
  }
  Kokkos::ScopeGuard kokkos;
  try {
    const auto report = syncfree::app::run_solve(*parsed.options, std::cout);
    syncfree::app::print_report(std::cout, report);
    if (!parsed.options->json.empty())
      syncfree::app::write_json_report(parsed.options->json, report);
    return report.result.converged() ? 0 : 1;
  } catch (const syncfree::InvalidMatrix& e) {
    // The library counts rows from 0; a Matrix Market file counts them from 1.
    const std::string what = e.what();
    std::cerr << "syncfree-solve: " << what;
    if (e.row() >= 0 && !parsed.options->matrix.empty())
      std::cerr << " (row " << e.row() + 1 << " in " << parsed.options->matrix
                << ", which counts from 1)";
    if (!parsed.options->permute_diagonal &&
        (what.find("diagonal entry is missing") != std::string::npos ||
         what.find("diagonal entry is zero") != std::string::npos))
      std::cerr << "; --permute-diagonal permutes the rows to a zero-free diagonal";
    std::cerr << '\n';
    return 2;
  } catch (const syncfree::Error& e) {
    std::cerr << "syncfree-solve: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "syncfree-solve: out of memory\n";
    return 2;
  }
}
