// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What syncfree-solve reports, as text and as JSON.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "apps/syncfree-solve/solve_options.hpp"
#include "core/syncfree_status.hpp"

namespace syncfree::app {

/// One SpTRSV algorithm for one triangular factor of the preconditioner (--explain).
struct ExplainedSolve {
  std::string factor;     ///< "L" or "U" (IC: "L^T")
  std::string algorithm;  ///< an SpTRSV algorithm
  double predicted_seconds = 0;
  std::string bound;             ///< the prediction's largest term
  double measured_seconds = -1;  ///< --explain=measure, else -1
  std::string not_measured;      ///< why a candidate was not timed
};

/// The algorithm a factor's solves run, and why (--explain).
struct ExplainedChoice {
  std::string factor;
  std::string algorithm;
  std::string reason;
  std::int64_t rows = 0, entries = 0, levels = 0;
};

struct SolveReport {
  std::string backend;
  std::string problem;  ///< generator spec or file name
  std::int64_t n = 0;
  std::int64_t nnz = 0;
  int offset_bits = 32;     ///< of A's entry offsets: 32 or 64
  std::string spmv_format;  ///< the format A's products ran in: csr or stencil
  std::string solver;
  std::string preconditioner;
  std::string precond_side;       ///< left or right
  std::string precond_precision;  ///< double or single
  std::string precond_reason;     ///< why --precond auto chose the preconditioner
  std::string renumber;           ///< the system's numbering as solved (empty: not considered)
  std::string renumber_reason;    ///< why --renumber auto renumbered or not
  std::string ordering;           ///< ILU's ordering as run (empty without ILU)
  std::string ordering_reason;    ///< why --ordering auto chose it
  std::int64_t colors = 0;        ///< colors of a multicolor ordering or of DILU, else 0
  std::string dilu_variant;       ///< the variant DILU's sweeps ran (empty without DILU)
  std::int64_t dilu_negative_pivots = 0;  ///< DILU: pivots below zero
  std::string sip_grid;                   ///< SIP's grid, nx x ny x nz (empty without SIP)
  std::int64_t levels = 0;                ///< levels of the lower triangular factor as solved (ILU)
  double shift = -1;                      ///< ILU and IC: the factors' diagonal shift, else -1
  int shift_attempts = 0;                 ///< factorizations --shift auto ran
  std::int64_t precond_bytes = -1;        ///< ILU and IC: device memory of the factorization's plan
  std::int64_t permuted_rows = -1;        ///< --permute-diagonal: rows moved, else -1
  std::int64_t precond_nnz = 0;    ///< entries of an approximate inverse (SPAI: M, FSAI: G), else 0
  double spai_max_residual = -1;   ///< SPAI: max_k ||A m_k - e_k||, else -1
  double spai_mean_residual = -1;  ///< SPAI: the mean of the same
  std::int64_t spai_fallbacks = 0;  ///< SPAI: columns given Jacobi's (--spai-fallback)
  int restart = 0;                  ///< GMRES family, else 0
  std::string orthogonalization;    ///< GMRES family, else empty
  double tolerance = 0;
  int max_iterations = 0;
  SolveResult result;
  double setup_seconds = 0;
  double solve_seconds = 0;
  std::string explain_device;               ///< --explain: the device parameters' device and source
  double iteration_predicted_seconds = -1;  ///< --explain: the model's time per iteration, or -1
  std::string iteration_prediction;         ///< --explain: that prediction and its terms
  std::string iteration_not_predicted;      ///< --explain: why there is no prediction
  std::vector<ExplainedSolve> explained;
  std::vector<ExplainedChoice> explained_choices;
  int ranks = 0;     ///< syncfree-tpetra-solve: MPI ranks, else 0
  int overlap = -1;  ///< syncfree-tpetra-solve: the additive Schwarz overlap, else -1
};

/// A report with the solver's settings from `o` filled in (solver, side, restart and
/// orthogonalization of the GMRES family, tolerance, iteration limit).
SolveReport report_settings(const SolveOptions& o);

void print_report(std::ostream& out, const SolveReport& report);
void write_json_report(const std::string& path, const SolveReport& report);

}  // namespace syncfree::app
