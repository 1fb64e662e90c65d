// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Errors that every rank throws: a failure on one rank must not leave the others waiting
/// in the next collective.

#include <cstdint>
#include <exception>
#include <string>
#include <tuple>
#include <utility>

#include <Teuchos_Comm.hpp>
#include <Teuchos_CommHelpers.hpp>

#include "core/syncfree_error.hpp"

namespace syncfree::tpetra::impl {

/// What went wrong on this rank, if anything.
struct LocalFailure {
  enum Kind : int { none, matrix, argument, other };
  int kind = none;
  std::string message;
  std::int64_t row = -1;  ///< global row at fault (InvalidMatrix::row), or -1
};

/// Throws on every rank of `comm` when any rank failed: the lowest failing rank's error (its
/// kind, message and row). Collective.
inline void throw_on_every_rank(const Teuchos::Comm<int>& comm, const LocalFailure& local) {
  const int size = comm.getSize();
  const int mine = local.kind == LocalFailure::none ? size : comm.getRank();
  int first = size;
  Teuchos::reduceAll<int, int>(comm, Teuchos::REDUCE_MIN, mine, Teuchos::outArg(first));
  if (first == size) return;
  long long header[3] = {local.kind, local.row, static_cast<long long>(local.message.size())};
  Teuchos::broadcast<int, long long>(comm, first, 3, header);
  std::string message(std::size_t(header[2]), ' ');
  if (!message.empty()) {
    if (comm.getRank() == first) message = local.message;
    Teuchos::broadcast<int, char>(comm, first, int(message.size()), &message[0]);
  }
  if (header[0] == LocalFailure::matrix) throw InvalidMatrix(message, header[1]);
  if (header[0] == LocalFailure::argument) throw InvalidArgument(message);
  throw Error(message);
}

/// Runs `phase` on this rank, then throws on every rank if it threw on any. `describe(e, row)`
/// turns an InvalidMatrix's local row into a message and a global row.
template <class Phase, class Describe>
void run_on_every_rank(const Teuchos::Comm<int>& comm, Phase&& phase, Describe&& describe) {
  LocalFailure failure;
  try {
    phase();
  } catch (const InvalidMatrix& e) {
    failure.kind = LocalFailure::matrix;
    std::tie(failure.message, failure.row) = describe(std::string(e.what()), e.row());
  } catch (const InvalidArgument& e) {
    failure.kind = LocalFailure::argument;
    failure.message = describe(std::string(e.what()), std::int64_t(-1)).first;
  } catch (const std::exception& e) {
    failure.kind = LocalFailure::other;
    failure.message = describe(std::string(e.what()), std::int64_t(-1)).first;
  }
  throw_on_every_rank(comm, failure);
}

}  // namespace syncfree::tpetra::impl
