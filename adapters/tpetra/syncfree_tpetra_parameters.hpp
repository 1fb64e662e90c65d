// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The "syncfree: ..." parameters of syncfree::tpetra::Preconditioner, their validation,
/// and the SyncFree preconditioner they describe.

#include <initializer_list>
#include <memory>
#include <string>

#include <Teuchos_ParameterList.hpp>
#include <Teuchos_StandardParameterEntryValidators.hpp>

#include "algorithms/dilu/syncfree_dilu.hpp"
#include "algorithms/ic/syncfree_ic.hpp"
#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_preconditioner_choice.hpp"
#include "algorithms/sip/syncfree_sip.hpp"
#include "algorithms/spai/syncfree_fsai.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_preconditioner.hpp"
#include "core/syncfree_single_precision.hpp"

namespace syncfree::tpetra {

/// The preconditioner a parameter list describes, in SyncFree's own options.
struct LocalPreconditionerOptions {
  std::string method = "ilu";  ///< jacobi, ilu, ic, dilu, spai, fsai, sip or auto
  /// auto: the solve takes A to be symmetric positive definite (CG), so FSAI may be chosen
  bool symmetric_positive_definite = false;
  IluOptions ilu;
  IcOptions ic;
  OrderingOptions ordering;  ///< ILU's and IC's
  DiluOptions dilu;
  SpaiOptions spai;
  FsaiOptions fsai;
  SipOptions sip;
  /// ILU or IC built, stored and applied in float; SPAI's and FSAI's values kept in float
  bool single_precision = false;
};

/// Every parameter the adapter takes, with its default and a line of documentation.
inline Teuchos::RCP<const Teuchos::ParameterList> valid_parameters() {
  static const Teuchos::RCP<const Teuchos::ParameterList> list = [] {
    auto p = Teuchos::parameterList("syncfree");
    auto choice = [&p](const char* name, const char* value, const char* doc,
                       std::initializer_list<const char*> values) {
      const Teuchos::Array<std::string> allowed(values.begin(), values.end());
      p->set(name, std::string(value), doc, Teuchos::rcp(new Teuchos::StringValidator(allowed)));
    };
    choice("syncfree: preconditioner", "ilu", "SyncFree preconditioner of each rank's block",
           {"jacobi", "ilu", "ic", "dilu", "spai", "fsai", "sip", "auto"});
    p->set("syncfree: symmetric positive definite", false,
           "auto: the solve takes each block to be symmetric positive definite (CG), so FSAI "
           "may be chosen where Jacobi converges slowly");
    choice("syncfree: precision", "double",
           "precision ilu and ic are built, stored and applied in, and spai's and fsai's "
           "values are kept in (the solve stays in double): half the value bytes per "
           "application in single",
           {"double", "single"});
    p->set("syncfree: fill level", 0, "k of ILU(k)");
    choice("syncfree: ilu algorithm", "auto", "ILU's numeric factorization variant",
           {"auto", "level_set", "shared", "vector", "adaptive", "parallel", "gather"});
    choice("syncfree: sptrsv algorithm", "auto", "algorithm of ILU's two triangular solves",
           {"auto", "level_set", "sync_free_thread", "sync_free_row", "multirow", "packed",
            "alap_packed", "wavefront", "band"});
    choice("syncfree: ilu apply", "triangular",
           "ILU applies two triangular solves, or two products with ISAI inverses",
           {"triangular", "isai"});
    choice("syncfree: ic upper solve", "transposed_copy",
           "IC solves with L^T on a transposed copy, or on L by the column push (about half "
           "the memory; not with reproducible)",
           {"transposed_copy", "column_push"});
    p->set("syncfree: isai power", 1, "ISAI's pattern: L^k and U^k (1, 2 or 3)");
    p->set("syncfree: shift", 0.0, "ILU and IC: factor A + shift diag(A), shift >= 0");
    p->set("syncfree: auto shift", false,
           "ILU and IC: search for a shift that keeps every pivot's sign (IC: positive)");
    choice("syncfree: ordering", "natural", "ILU's and IC's row ordering of each block",
           {"natural", "multicolor", "block_multicolor", "rcm", "nd"});
    p->set("syncfree: block size", 32, "rows per block of the block_multicolor ordering");
    p->set("syncfree: blocks from rcm", false, "block_multicolor: blocks of the RCM numbering");
    p->set("syncfree: coloring distance", 1, "multicolor orderings and DILU: 1 or 2");
    p->set("syncfree: replace tiny pivots", false,
           "ILU: replace a pivot below the threshold instead of failing");
    p->set("syncfree: reproducible", false,
           "bitwise the same results on every run: the ILU variant parallel is refused");
    p->set("syncfree: absolute threshold", 0.0, "ILU's tiny-pivot threshold, absolute part");
    p->set("syncfree: relative threshold", 0.0, "ILU's tiny-pivot threshold, times |a_ii|");
    choice("syncfree: dilu variant", "auto", "how DILU's sweeps run",
           {"auto", "per_color", "sync_free_2d", "sync_free_1d"});
    p->set("syncfree: dilu sweeps", 1, "DILU smoothing steps from zero per application");
    p->set("syncfree: dilu omega", 1.0, "DILU's relaxation, in (0, 2]");
    p->set("syncfree: pattern power", 1, "SPAI's and FSAI's pattern: A^k thresholded (1, 2, 3)");
    p->set("syncfree: drop threshold", 0.0,
           "SPAI/FSAI keep a_ij with |a_ij| >= t sqrt(|a_ii a_jj|) before the power");
    choice("syncfree: spai side", "right", "SPAI minimizes ||AM - I|| (right) or ||MA - I||",
           {"right", "left"});
    p->set("syncfree: spai fallback", false, "SPAI: Jacobi's column where least squares fails");
    p->set("syncfree: sip alpha", 0.92, "Stone's cancellation parameter, in [0, 1]");
    p->set("syncfree: sip inner iterations", 1, "SIP iterations from zero per application");
    choice("syncfree: sip variant", "auto", "how SIP sweeps the grid",
           {"auto", "level_sync", "element_sync", "triangular"});
    return Teuchos::RCP<const Teuchos::ParameterList>(p);
  }();
  return list;
}

namespace impl {

template <class T>
T parameter(const Teuchos::ParameterList& list, const std::string& name) {
  return list.isParameter(name) ? list.get<T>(name) : valid_parameters()->get<T>(name);
}

inline void require_range(const std::string& name, double value, double low, double high) {
  SYNCFREE_REQUIRE(value >= low && value <= high, InvalidArgument, "\"", name, "\" = ", value,
                   ": must lie in [", low, ", ", high, "]");
}

}  // namespace impl

/// The options `list` describes.
/// \throws InvalidArgument naming the parameter: a name not in `valid_parameters()` (a
/// misspelling), a value of the wrong type, a choice not offered, or a number out of range.
inline LocalPreconditionerOptions parse_parameters(const Teuchos::ParameterList& list) {
  try {
    list.validateParameters(*valid_parameters());
  } catch (const std::exception& e) {
    throw InvalidArgument(std::string("syncfree::tpetra: ") + e.what());
  }
  using impl::parameter;
  using impl::require_range;
  LocalPreconditionerOptions o;
  o.method = parameter<std::string>(list, "syncfree: preconditioner");
  o.symmetric_positive_definite = parameter<bool>(list, "syncfree: symmetric positive definite");
  o.single_precision = parameter<std::string>(list, "syncfree: precision") == "single";
  SYNCFREE_REQUIRE(!o.single_precision || o.method == "ilu" || o.method == "ic" ||
                       o.method == "spai" || o.method == "fsai",
                   InvalidArgument,
                   "syncfree::tpetra: \"syncfree: precision\" = single: for ilu, ic, spai and fsai "
                   "only, not ",
                   o.method);
  o.ilu.fill_level = parameter<int>(list, "syncfree: fill level");
  require_range("syncfree: fill level", o.ilu.fill_level, 0, 1000);
  o.ilu.algorithm = parse_ilu_algorithm(parameter<std::string>(list, "syncfree: ilu algorithm"));
  o.ilu.solve_algorithm =
      parse_sptrsv_algorithm(parameter<std::string>(list, "syncfree: sptrsv algorithm"));
  o.ilu.apply = parse_ilu_apply(parameter<std::string>(list, "syncfree: ilu apply"));
  o.ilu.isai_power = parameter<int>(list, "syncfree: isai power");
  require_range("syncfree: isai power", o.ilu.isai_power, 1, 3);
  o.ilu.replace_tiny_pivots = parameter<bool>(list, "syncfree: replace tiny pivots");
  o.ilu.reproducible = parameter<bool>(list, "syncfree: reproducible");
  o.ilu.absolute_threshold = parameter<double>(list, "syncfree: absolute threshold");
  o.ilu.relative_threshold = parameter<double>(list, "syncfree: relative threshold");
  require_range("syncfree: absolute threshold", o.ilu.absolute_threshold, 0, 1e300);
  require_range("syncfree: relative threshold", o.ilu.relative_threshold, 0, 1e300);
  o.ilu.shift = parameter<double>(list, "syncfree: shift");
  require_range("syncfree: shift", o.ilu.shift, 0, 1e300);
  o.ilu.auto_shift = parameter<bool>(list, "syncfree: auto shift");
  o.ic.solve_algorithm = o.ilu.solve_algorithm;
  o.ic.reproducible = o.ilu.reproducible;
  o.ic.shift = o.ilu.shift;
  o.ic.auto_shift = o.ilu.auto_shift;
  o.ic.upper_solve = parse_ic_upper_solve(parameter<std::string>(list, "syncfree: ic upper solve"));

  o.ordering.method = parse_ordering_method(parameter<std::string>(list, "syncfree: ordering"));
  o.ordering.block_size = parameter<int>(list, "syncfree: block size");
  require_range("syncfree: block size", o.ordering.block_size, 1, 1 << 30);
  o.ordering.blocks_from_rcm = parameter<bool>(list, "syncfree: blocks from rcm");
  o.ordering.coloring_distance = parameter<int>(list, "syncfree: coloring distance");
  require_range("syncfree: coloring distance", o.ordering.coloring_distance, 1, 2);

  o.dilu.variant = parse_dilu_variant(parameter<std::string>(list, "syncfree: dilu variant"));
  o.dilu.coloring_distance = o.ordering.coloring_distance;
  o.dilu.sweeps = parameter<int>(list, "syncfree: dilu sweeps");
  require_range("syncfree: dilu sweeps", o.dilu.sweeps, 1, 1000);
  o.dilu.omega = parameter<double>(list, "syncfree: dilu omega");
  require_range("syncfree: dilu omega", o.dilu.omega, 1e-3, 2);

  const int power = parameter<int>(list, "syncfree: pattern power");
  require_range("syncfree: pattern power", power, 1, 3);
  const double threshold = parameter<double>(list, "syncfree: drop threshold");
  require_range("syncfree: drop threshold", threshold, 0, 1e300);
  o.spai.pattern_power = o.fsai.pattern_power = power;
  o.spai.threshold = o.fsai.threshold = threshold;
  o.spai.side = parse_spai_side(parameter<std::string>(list, "syncfree: spai side"));
  o.spai.fallback_to_diagonal = parameter<bool>(list, "syncfree: spai fallback");
  o.spai.apply_precision = o.fsai.apply_precision =
      o.single_precision ? SpmvPrecision::single : SpmvPrecision::matrix;

  o.sip.alpha = parameter<double>(list, "syncfree: sip alpha");
  require_range("syncfree: sip alpha", o.sip.alpha, 0, 1);
  o.sip.inner_iterations = parameter<int>(list, "syncfree: sip inner iterations");
  require_range("syncfree: sip inner iterations", o.sip.inner_iterations, 1, 1000);
  o.sip.variant = parse_sip_variant(parameter<std::string>(list, "syncfree: sip variant"));
  o.sip.reproducible = o.ilu.reproducible;
  return o;
}

/// `options` with "auto" replaced by the preconditioner `suggest_preconditioner` picks for A
/// (Jacobi, or FSAI where the solve is symmetric positive definite and most rows are not
/// diagonally dominant), its reason in `reason`; other methods as they are, `reason` empty.
/// \throws InvalidMatrix as suggest_preconditioner (A not square).
template <class Matrix, class ExecSpace>
LocalPreconditionerOptions resolve_automatic(const ExecSpace& exec,
                                             LocalPreconditionerOptions options, const Matrix& A,
                                             std::string& reason) {
  reason.clear();
  if (options.method != "auto") return options;
  const auto suggestion = suggest_preconditioner(exec, A, options.symmetric_positive_definite);
  options.method = to_string(suggestion.choice);
  reason = suggestion.reason;
  return options;
}

/// ILU or IC (`options.method`) of B, whose values are double or float.
template <class Matrix, class ExecSpace>
std::unique_ptr<Preconditioner<Matrix>> make_local_factorization(
    const ExecSpace& exec, const LocalPreconditionerOptions& options, const Matrix& B) {
  if (options.method == "ilu")
    return std::make_unique<IluPreconditioner<Matrix>>(exec, B, options.ilu, options.ordering);
  return std::make_unique<IcPreconditioner<Matrix>>(exec, B, options.ic, options.ordering);
}

/// The SyncFree preconditioner `options` describe, analyzed and factored for A. In single
/// precision ILU and IC are built for A's values rounded to float inside a
/// SinglePrecisionPreconditioner (the float set of every preconditioner would double the
/// adapter's compile time), and SPAI and FSAI keep their values in float (their options say so).
/// \throws as the preconditioner's constructor, or round_to_single; a failed factorization is in
/// its `outcome()`.
template <class Matrix, class ExecSpace>
std::unique_ptr<Preconditioner<Matrix>> make_local_preconditioner(
    const ExecSpace& exec, const LocalPreconditionerOptions& options, const Matrix& A) {
  const std::string& method = options.method;
  if (options.single_precision && (method == "ilu" || method == "ic"))
    return std::make_unique<SinglePrecisionPreconditioner<Matrix>>(
        make_local_factorization(exec, options, round_to_single(exec, A)));
  if (method == "ilu" || method == "ic") return make_local_factorization(exec, options, A);
  if (method == "sip") return std::make_unique<SipPreconditioner<Matrix>>(exec, A, options.sip);
  if (method == "jacobi") return std::make_unique<JacobiPreconditioner<Matrix>>(exec, A);
  if (method == "dilu") return std::make_unique<DiluPreconditioner<Matrix>>(exec, A, options.dilu);
  if (method == "spai") return std::make_unique<SpaiPreconditioner<Matrix>>(exec, A, options.spai);
  if (method == "fsai") return std::make_unique<FsaiPreconditioner<Matrix>>(exec, A, options.fsai);
  throw InvalidArgument(
      syncfree::impl::concat("syncfree::tpetra: unknown preconditioner '", method, "'"));
}

}  // namespace syncfree::tpetra
