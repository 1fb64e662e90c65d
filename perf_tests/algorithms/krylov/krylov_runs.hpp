// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Every solver + preconditioner pair the Krylov benchmark runs, behind one interface.
/// A case is named "<implementation>:<solver>+<preconditioner>", e.g. "syncfree:cg+ilu0" or
/// "cusparse:gmres+jacobi": SyncFree's solvers with its ILU(0) (applied by ISAI: "ilu0_isai"),
/// IC(0) (solving with L^T by the column push: "ic0_push"), Jacobi, SPAI(A) ("spai"), SPAI(A^2)
/// thresholded ("spai2"), FSAI(A) ("fsai"), multicolor DILU ("dilu") or Stone's SIP ("sip", grid
/// matrices), or the textbook solvers on cuSPARSE and cuBLAS with csrilu02 and two SpSV solves,
/// or with the inverse diagonal applied by cublasDdgmm. A SyncFree case may name the format of
/// A's products after '@' ("syncfree:cg+ilu0@csr"; by default CrsOperator's automatic choice),
/// and an ILU(0) or IC(0) case the ordering of its factors after '#'
/// ("syncfree:cg+ilu0#multicolor", "#auto"). A SyncFree preconditioner built, stored and applied
/// in single precision (SinglePrecisionPreconditioner; SPAI and FSAI: values kept in float,
/// SpmvPrecision::single) ends in "_single" ("syncfree:cg+ic0_single#auto"); SyncFree's FGMRES is
/// "fgmres".

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/syncfree_status.hpp"
#include "perf_tests/common/bench_matrix_source.hpp"

namespace syncfree::bench {

struct KrylovSettings {
  double tolerance = 1e-8;  ///< stop at ||b - A x|| <= tolerance ||b||
  int max_iterations = 5000;
  int restart = 30;                       ///< GMRES(m)
  std::string orthogonalization = "mgs";  ///< SyncFree GMRES: "mgs" or "cgs2"
  int check_every = 1;  ///< SyncFree solvers: iterations between host reads of the state
};

struct KrylovCase {
  std::string implementation;  ///< "syncfree" or "cusparse"
  std::string solver;          ///< "cg", "bicgstab", "gmres"; syncfree: "fgmres"
  /// "ilu0", "jacobi"; syncfree: "ilu0_isai", "ic0", "ic0_push", "spai", "spai2", "fsai", "dilu",
  /// "sip"
  std::string preconditioner;
  std::string spmv_format;  ///< "", "csr" or "stencil" (SyncFree cases)
  /// SyncFree ILU(0) cases: "" (natural), an OrderingMethod's name, "block_multicolor_rcm"
  /// (blocks of the RCM numbering) or "auto" (suggest_ilu_ordering)
  std::string ordering;
  std::string precision;  ///< "" (double) or "single" (SyncFree preconditioners)
  std::string name() const {
    return implementation + ":" + solver + "+" + preconditioner +
           (precision.empty() ? "" : "_" + precision) + (ordering.empty() ? "" : "#" + ordering) +
           (spmv_format.empty() ? "" : "@" + spmv_format);
  }
};

/// \throws InvalidArgument on a malformed name
KrylovCase parse_krylov_case(const std::string& name);

/// The cases this build can run on a symmetric positive definite problem (CG) or on a
/// nonsymmetric one (BiCGStab, GMRES). On CUDA, where A's products take the stencil format by
/// default, SyncFree's ILU(0) cases run in CSR too ("@csr"), for the A/B in one process; the
/// cuSPARSE cases (ILU(0) and Jacobi) exist on CUDA only.
std::vector<std::string> krylov_case_names(bool symmetric);

class KrylovRun {
 public:
  virtual ~KrylovRun() = default;
  /// Everything before the first iteration: operator and preconditioner (analysis + factor).
  virtual void setup() = 0;
  /// Solves A x = b from the x given; only after setup().
  virtual SolveResult solve(const Vector<double>& b, const Vector<double>& x) = 0;
  /// Anything worth recording, e.g. the ILU variant chosen.
  virtual std::string note() const { return {}; }
  /// Median seconds of one preconditioner application z = M r (after setup()).
  virtual double apply_seconds(const Vector<double>& r) = 0;
  /// The bytes one product with A reads and writes in the format it ran (after setup()).
  virtual double spmv_bytes() const = 0;
  /// What the performance model takes (after setup()): the SpMV features and format of A's
  /// product ("A") and of the preconditioner's ("M": its "kind" and products); null where none.
  virtual nlohmann::json model_features() const { return {}; }
};

std::unique_ptr<KrylovRun> make_krylov_run(const KrylovCase& c, const BenchCrs& A,
                                           const KrylovSettings& settings);

}  // namespace syncfree::bench
