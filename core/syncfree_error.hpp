// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Exceptions for caller misuse and invalid input, and the macros that throw them.
///
/// SyncFree has three error channels (see STYLE.md, B5): exceptions for misuse and malformed input
/// (this file), `CudaError` for backend failures, and a returned `Status` for numerical outcomes
/// (`syncfree_status.hpp`). Exceptions never cross a Kokkos kernel boundary.

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

namespace syncfree {

/// Base of every exception SyncFree throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Sizes of operands do not fit together.
class DimensionMismatch : public Error {
 public:
  using Error::Error;
};

/// A call came in the wrong order (solve before analyze, apply of a failed factorization).
class InvalidState : public Error {
 public:
  using Error::Error;
};

/// A matrix does not have the structure the plan was analyzed for.
class StructureMismatch : public Error {
 public:
  using Error::Error;
};

/// A matrix violates a requirement of the algorithm (unsorted indices, missing diagonal, NaN, entry
/// outside the requested triangle, non-square shape, sizes that overflow the index types).
/// `row()` is the first row found at fault, counted from 0, or -1 where no one row is.
class InvalidMatrix : public Error {
 public:
  using Error::Error;
  InvalidMatrix(const std::string& what, std::int64_t row) : Error(what), m_row(row) {}
  std::int64_t row() const { return m_row; }

 private:
  std::int64_t m_row = -1;
};

/// A value, option or argument is outside what the function accepts.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A Matrix Market file is malformed or unsupported; the message names the file and the line.
class FileFormatError : public Error {
 public:
  using Error::Error;
};

/// The requested algorithm or backend was not compiled into this build.
class NotCompiled : public Error {
 public:
  using Error::Error;
};

/// The requested option exists but is not implemented for this combination (yet).
class NotSupported : public Error {
 public:
  using Error::Error;
};

/// A CUDA runtime or library call failed.
class CudaError : public Error {
 public:
  using Error::Error;
};

namespace impl {

/// Builds a message from streamable pieces: `concat("row ", 3, " is empty")`.
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

}  // namespace impl
}  // namespace syncfree

/// Throws `ExceptionType` with `message` (any streamable pieces) when `condition` is false.
#define SYNCFREE_REQUIRE(condition, ExceptionType, ...)                           \
  do {                                                                            \
    if (!(condition)) throw ExceptionType(::syncfree::impl::concat(__VA_ARGS__)); \
  } while (false)

/// Internal invariant (a SyncFree bug if it fails); checked in debug builds only.
#ifdef NDEBUG
#define SYNCFREE_ASSERT(condition) ((void)0)
#else
#define SYNCFREE_ASSERT(condition)                                                              \
  do {                                                                                          \
    if (!(condition))                                                                           \
      throw std::logic_error(::syncfree::impl::concat(__FILE__, ":", __LINE__, ": assertion '", \
                                                      #condition, "' failed"));                 \
  } while (false)
#endif
