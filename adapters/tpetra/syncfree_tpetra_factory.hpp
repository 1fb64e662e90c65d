// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief `create_preconditioner`: Ifpack2::Factory::create for SyncFree's preconditioners too,
/// with overlap through Ifpack2::AdditiveSchwarz.

#include <algorithm>
#include <cctype>
#include <string>

#include <Ifpack2_AdditiveSchwarz.hpp>
#include <Ifpack2_Factory.hpp>
#include <Teuchos_ParameterList.hpp>

#include "adapters/tpetra/syncfree_tpetra_preconditioner.hpp"

namespace syncfree::tpetra {

namespace impl {

inline std::string upper_case(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  return name;
}

/// The SyncFree method an upper-cased factory name stands for: "" for none of ours, "*" for
/// "SYNCFREE" (the "syncfree: preconditioner" parameter chooses).
inline std::string syncfree_method(const std::string& name) {
  if (name == "SYNCFREE") return "*";
  const std::string prefix = "SYNCFREE_";
  if (name.rfind(prefix, 0) != 0) return "";
  std::string method = name.substr(prefix.size());
  std::transform(method.begin(), method.end(), method.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  SYNCFREE_REQUIRE(method == "jacobi" || method == "ilu" || method == "ic" || method == "dilu" ||
                       method == "spai" || method == "fsai" || method == "sip" || method == "auto",
                   InvalidArgument, "create_preconditioner: unknown SyncFree preconditioner '",
                   name,
                   "' (SYNCFREE_ILU, SYNCFREE_IC, SYNCFREE_JACOBI, SYNCFREE_DILU, SYNCFREE_SPAI, "
                   "SYNCFREE_FSAI, SYNCFREE_SIP, SYNCFREE_AUTO or SYNCFREE)");
  return method;
}

}  // namespace impl

/// A preconditioner of A by name, as Ifpack2::Factory::create makes one, with `params` set;
/// neither initialized nor computed.
///
/// - "SYNCFREE_ILU", "SYNCFREE_IC", "SYNCFREE_JACOBI", "SYNCFREE_DILU", "SYNCFREE_SPAI",
///   "SYNCFREE_FSAI", "SYNCFREE_SIP", "SYNCFREE_AUTO" (any case), or "SYNCFREE" with
///   "syncfree: preconditioner": a syncfree::tpetra::Preconditioner. Every other name goes to Ifpack2::Factory ("RILUK",
///   "RELAXATION", "SCHWARZ", ...), so one call site switches between "RILUK" and "SYNCFREE_ILU".
/// - "schwarz: overlap level" K > 0 (for any name but Ifpack2's "SCHWARZ" itself): the named
///   preconditioner runs on each rank's subdomain grown by K layers, as the inner preconditioner
///   of an Ifpack2::AdditiveSchwarz (restricted additive Schwarz by Ifpack2's defaults). The
///   "schwarz: ..." parameters go to AdditiveSchwarz, the others to the inner preconditioner.
/// \throws InvalidArgument for an unknown "SYNCFREE_..." name or a bad "syncfree: ..."
/// parameter; Ifpack2's exceptions for its own names.
template <class Scalar, class LO, class GO, class Node>
Teuchos::RCP<Ifpack2::Preconditioner<Scalar, LO, GO, Node>> create_preconditioner(
    const std::string& name, const Teuchos::RCP<const Tpetra::RowMatrix<Scalar, LO, GO, Node>>& A,
    const Teuchos::ParameterList& params = Teuchos::ParameterList()) {
  using row_matrix_type = Tpetra::RowMatrix<Scalar, LO, GO, Node>;
  using prec_type = Ifpack2::Preconditioner<Scalar, LO, GO, Node>;
  using syncfree_type = Preconditioner<Scalar, LO, GO, Node>;

  Teuchos::ParameterList schwarz, inner;
  for (auto it = params.begin(); it != params.end(); ++it) {
    const std::string& key = params.name(it);
    (key.rfind("schwarz: ", 0) == 0 ? schwarz : inner).setEntry(key, params.entry(it));
  }
  const std::string upper = impl::upper_case(name);
  std::string method = impl::syncfree_method(upper);
  if (method == "*") method = inner.get<std::string>("syncfree: preconditioner", "ilu");
  if (!method.empty()) inner.set("syncfree: preconditioner", method);
  const int overlap = schwarz.get<int>("schwarz: overlap level", 0);
  SYNCFREE_REQUIRE(overlap >= 0, InvalidArgument,
                   "create_preconditioner: \"schwarz: overlap level\" must be >= 0, got ", overlap);

  const bool own_schwarz = upper == "SCHWARZ" || upper == "ADDITIVE SCHWARZ";
  if (overlap == 0 || own_schwarz) {
    if (!method.empty()) {
      auto prec = Teuchos::rcp(new syncfree_type(A));
      prec->setParameters(inner);
      return prec;
    }
    auto prec = Ifpack2::Factory::create<row_matrix_type>(name, A);
    prec->setParameters(own_schwarz ? params : inner);  // "schwarz: ..." keys only for SCHWARZ
    return prec;
  }

  auto additive_schwarz = Teuchos::rcp(new Ifpack2::AdditiveSchwarz<row_matrix_type>(A));
  if (method.empty()) {
    schwarz.set("inner preconditioner name", name);
    schwarz.set("inner preconditioner parameters", inner);
    additive_schwarz->setParameters(schwarz);
    return additive_schwarz;
  }
  auto local = Teuchos::rcp(new syncfree_type());
  local->setParameters(inner);
  local->set_error_communicator(A->getComm());
  additive_schwarz->setParameters(schwarz);
  additive_schwarz->setInnerPreconditioner(Teuchos::RCP<prec_type>(local));
  return additive_schwarz;
}

}  // namespace syncfree::tpetra
