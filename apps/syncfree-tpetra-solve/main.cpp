// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// syncfree-tpetra-solve: syncfree-solve over MPI, through Tpetra, Belos and Ifpack2. Exit status
// 0 when the solver converged, 1 when it did not, 2 for bad input or usage (a one-line reason on
// stderr from rank 0). An error met on some ranks only aborts them all.

#include <mpi.h>

#include <exception>
#include <iostream>
#include <sstream>

#include <Tpetra_Core.hpp>

#include "apps/syncfree-solve/solve_report.hpp"
#include "apps/syncfree-tpetra-solve/tpetra_solve_options.hpp"
#include "apps/syncfree-tpetra-solve/tpetra_solve_run.hpp"
#include "core/syncfree_error.hpp"

int main(int argc, char* argv[]) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  const bool root = comm->getRank() == 0;
  const auto parsed = syncfree::app::parse_tpetra_solve_options(argc, argv);
  if (!parsed.options) {
    if (root) (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << '\n';
    return parsed.exit_code;
  }
  const auto& options = *parsed.options;
  std::ostringstream quiet;
  try {
    const auto report = syncfree::app::run_tpetra_solve(options, *comm, root ? std::cout : quiet);
    if (root) {
      syncfree::app::print_report(std::cout, report);
      if (!options.solve.json.empty()) syncfree::app::write_json_report(options.solve.json, report);
    }
    return report.result.converged() ? 0 : 1;
  } catch (const syncfree::InvalidMatrix& e) {
    // Thrown on every rank alike. Tpetra's reader numbers rows from 0, the file from 1.
    if (root) {
      std::cerr << "syncfree-tpetra-solve: " << e.what();
      if (e.row() >= 0 && !options.solve.matrix.empty())
        std::cerr << " (row " << e.row() + 1 << " in " << options.solve.matrix
                  << ", which counts from 1)";
      std::cerr << '\n';
    }
    return 2;
  } catch (const syncfree::Error& e) {
    if (root) std::cerr << "syncfree-tpetra-solve: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    // Met on this rank only, perhaps while others wait in a collective: stop them all.
    std::cerr << "syncfree-tpetra-solve: rank " << comm->getRank() << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return 2;
}
