// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_problems.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <locale>
#include <sstream>
#include <vector>

namespace syncfree {
namespace {

struct KindInfo {
  ProblemKind kind;
  const char* name;
  const char* usage;
  int min_fields;  // after the name
  int max_fields;
};

constexpr KindInfo kinds[] = {
    {ProblemKind::poisson2d, "poisson2d", "poisson2d:N", 1, 1},
    {ProblemKind::poisson3d, "poisson3d", "poisson3d:N", 1, 1},
    {ProblemKind::poisson3d_27, "poisson3d27", "poisson3d27:N", 1, 1},
    {ProblemKind::anisotropic2d, "anisotropic2d", "anisotropic2d:N[:EPS]", 1, 2},
    {ProblemKind::convdiff2d, "convdiff2d", "convdiff2d:N[:BETA]", 1, 2},
    {ProblemKind::convdiff3d, "convdiff3d", "convdiff3d:N[:BETA]", 1, 2},
    {ProblemKind::banded, "banded", "banded:N:BW[:M[:SEED]]", 2, 4},
};

constexpr double default_epsilon = 1e-3;
constexpr double default_beta = 50;
constexpr std::uint64_t default_seed = 42;

const KindInfo& info(ProblemKind kind) {
  for (const KindInfo& k : kinds)
    if (k.kind == kind) return k;
  throw InvalidArgument(impl::concat("unknown ProblemKind ", static_cast<int>(kind)));
}

int dimension(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::poisson2d:
    case ProblemKind::anisotropic2d:
    case ProblemKind::convdiff2d:
      return 2;
    case ProblemKind::poisson3d:
    case ProblemKind::poisson3d_27:
    case ProblemKind::convdiff3d:
      return 3;
    case ProblemKind::banded:
      return 1;
  }
  return 0;
}

bool has_parameter(ProblemKind kind) { return info(kind).max_fields == 2; }

/// Shortest decimal that reads back as the same double, in the C locale.
std::string format_double(double value) {
  for (int precision : {15, 17}) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(precision);
    out << value;
    std::istringstream in(out.str());
    in.imbue(std::locale::classic());
    double back = 0;
    in >> back;
    if (back == value || precision == 17) return out.str();
  }
  return {};
}

// Overflow-checked arithmetic on non-negative counts; false on overflow.
bool mul(std::int64_t a, std::int64_t b, std::int64_t& out) {
  if (a != 0 && b > INT64_MAX / a) return false;
  out = a * b;
  return true;
}
bool add(std::int64_t a, std::int64_t b, std::int64_t& out) {
  if (b > INT64_MAX - a) return false;
  out = a + b;
  return true;
}

bool count_rows(const ProblemSpec& spec, std::int64_t& rows) {
  const int dim = dimension(spec.kind);
  rows = 1;
  for (int d = 0; d < dim; ++d)
    if (!mul(rows, spec.n, rows)) return false;
  return true;
}

// n + sum_i min(m, W_i) with W_i = min(i, bw) + min(n-1-i, bw). Rows with i >= m and n-1-i >= m
// have W_i >= min(2 m, 2 bw) >= m (as m <= 2 bw), so only the rows near either end are summed.
bool count_banded_entries(std::int64_t n, std::int64_t bw, std::int64_t m, std::int64_t& nnz) {
  const std::int64_t head_end = std::min(n, m);
  const std::int64_t tail_begin = std::max(head_end, n - m);
  std::int64_t edge = 0, edge_rows = 0;
  auto add_row = [&](std::int64_t i) {
    edge += std::min(m, std::min(i, bw) + std::min(n - 1 - i, bw));
    ++edge_rows;
  };
  for (std::int64_t i = 0; i < head_end; ++i) add_row(i);
  for (std::int64_t i = tail_begin; i < n; ++i) add_row(i);
  std::int64_t interior = 0;
  return mul(n - edge_rows, m, interior) && add(interior, edge, nnz) && add(nnz, n, nnz);
}

bool count_entries(const ProblemSpec& spec, std::int64_t& nnz) {
  const std::int64_t n = spec.n;
  std::int64_t a = 0;
  switch (spec.kind) {
    case ProblemKind::poisson2d:
    case ProblemKind::anisotropic2d:
    case ProblemKind::convdiff2d:  // 5 n^2 - 4 n
      return n <= INT64_MAX / 5 && mul(n, 5 * n - 4, nnz);
    case ProblemKind::poisson3d:
    case ProblemKind::convdiff3d:  // n^2 (7 n - 6)
      return n <= INT64_MAX / 7 && mul(n, n, a) && mul(a, 7 * n - 6, nnz);
    case ProblemKind::poisson3d_27:  // (3 n - 2)^3: a Kronecker product of three tridiagonals
      return n <= INT64_MAX / 3 && mul(3 * n - 2, 3 * n - 2, a) && mul(a, 3 * n - 2, nnz);
    case ProblemKind::banded:
      return count_banded_entries(n, spec.bandwidth, spec.entries_per_row, nnz);
  }
  return false;
}

/// What is wrong with the fields of a spec, or an empty string.
std::string spec_problem(const ProblemSpec& spec) {
  if (spec.n <= 0) return impl::concat("N must be positive, got ", spec.n);
  switch (spec.kind) {
    case ProblemKind::anisotropic2d:
      if (!(std::isfinite(spec.parameter) && spec.parameter > 0))
        return impl::concat("EPS must be positive and finite, got ", spec.parameter);
      break;
    case ProblemKind::convdiff2d:
    case ProblemKind::convdiff3d:
      if (!(std::isfinite(spec.parameter) && spec.parameter >= 0))
        return impl::concat("BETA must be non-negative and finite, got ", spec.parameter);
      break;
    case ProblemKind::banded:
      if (spec.bandwidth < 0 || spec.bandwidth >= spec.n)
        return impl::concat("BW must be in [0, N), got BW = ", spec.bandwidth,
                            " with N = ", spec.n);
      // m > 2 bw, written so that 2 bw cannot overflow
      if (spec.entries_per_row < 0 || (spec.entries_per_row + 1) / 2 > spec.bandwidth)
        return impl::concat("M must be in [0, 2 BW], got M = ", spec.entries_per_row,
                            " with BW = ", spec.bandwidth);
      break;
    default:
      break;
  }
  std::int64_t count = 0;
  if (!count_rows(spec, count) || !count_entries(spec, count))
    return "the row or entry count overflows 64-bit integers";
  return {};
}

[[noreturn]] void fail(const std::string& text, const KindInfo* kind, const std::string& why) {
  throw InvalidArgument(impl::concat("bad problem spec '", text, "': ", why,
                                     kind ? impl::concat(" (expected ", kind->usage, ")") : ""));
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> fields(1);
  for (char c : text) {
    if (c == separator)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

template <class Int>
Int parse_integer(const std::string& text, const KindInfo& kind, const char* field,
                  const std::string& value) {
  Int out{};
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, out);
  if (ec == std::errc::result_out_of_range)
    fail(text, &kind, impl::concat(field, " = ", value, " is out of range"));
  if (value.empty() || ec != std::errc() || ptr != end)
    fail(text, &kind, impl::concat(field, " must be an integer, got '", value, "'"));
  return out;
}

double parse_double(const std::string& text, const KindInfo& kind, const char* field,
                    const std::string& value) {
  std::istringstream in(value);
  in.imbue(std::locale::classic());
  double out = 0;
  const bool leading_space = !value.empty() && std::isspace(static_cast<unsigned char>(value[0]));
  if (value.empty() || leading_space || !(in >> out) || in.peek() != EOF)
    fail(text, &kind, impl::concat(field, " must be a number, got '", value, "'"));
  return out;
}

}  // namespace

const char* to_string(ProblemKind kind) { return info(kind).name; }

std::string ProblemSpec::to_string() const {
  std::string out = impl::concat(syncfree::to_string(kind), ":", n);
  if (has_parameter(kind)) out += ":" + format_double(parameter);
  if (kind == ProblemKind::banded) {
    out += impl::concat(":", bandwidth, ":", entries_per_row);
    if (seed != default_seed) out += impl::concat(":", seed);
  }
  return out;
}

std::int64_t ProblemSpec::num_rows() const {
  std::int64_t rows = 0;
  SYNCFREE_REQUIRE(count_rows(*this, rows), InvalidArgument, "problem spec '", to_string(),
                   "' is too large: its row count overflows 64-bit integers");
  return rows;
}

std::int64_t ProblemSpec::num_entries() const {
  std::int64_t nnz = 0;
  SYNCFREE_REQUIRE(count_entries(*this, nnz), InvalidArgument, "problem spec '", to_string(),
                   "' is too large: its entry count overflows 64-bit integers");
  return nnz;
}

namespace impl {

void check_problem_spec(const ProblemSpec& spec) {
  const std::string why = spec_problem(spec);
  SYNCFREE_REQUIRE(why.empty(), InvalidArgument, "bad problem spec '", spec.to_string(),
                   "': ", why);
}

StencilWeights stencil_weights(const ProblemSpec& spec) {
  StencilWeights w;
  w.dim = dimension(spec.kind);
  w.diag = 2.0 * w.dim;
  for (int a = 0; a < 3; ++a) w.lower[a] = w.upper[a] = -1.0;
  switch (spec.kind) {
    case ProblemKind::poisson3d_27:
      w.full = true;
      w.diag = 26;
      w.corner = -1;
      break;
    case ProblemKind::anisotropic2d:
      w.diag = 2 + 2 * spec.parameter;
      w.lower[1] = w.upper[1] = -spec.parameter;
      break;
    case ProblemKind::convdiff2d:
    case ProblemKind::convdiff3d: {
      const double beta_h = spec.parameter * (1.0 / static_cast<double>(spec.n + 1));
      w.diag += w.dim * beta_h;
      for (int a = 0; a < w.dim; ++a) w.lower[a] = -1.0 - beta_h;
      break;
    }
    default:
      break;
  }
  return w;
}

}  // namespace impl

ProblemSpec parse_problem_spec(const std::string& text) {
  const std::vector<std::string> fields = split(text, ':');
  const KindInfo* kind = nullptr;
  for (const KindInfo& k : kinds)
    if (fields[0] == k.name) kind = &k;
  if (!kind) {
    std::string known;
    for (const KindInfo& k : kinds) known += std::string(known.empty() ? "" : ", ") + k.usage;
    fail(text, nullptr, impl::concat("unknown problem '", fields[0], "'; known: ", known));
  }
  const int given = static_cast<int>(fields.size()) - 1;
  if (given < kind->min_fields)
    fail(text, kind,
         impl::concat(kind->name, " needs ", kind->min_fields, " field",
                      kind->min_fields > 1 ? "s" : "", " after the name"));
  if (given > kind->max_fields)
    fail(text, kind, impl::concat("trailing field '", fields[kind->max_fields + 1], "'"));

  ProblemSpec spec;
  spec.kind = kind->kind;
  spec.n = parse_integer<std::int64_t>(text, *kind, "N", fields[1]);
  if (spec.kind == ProblemKind::anisotropic2d)
    spec.parameter = given >= 2 ? parse_double(text, *kind, "EPS", fields[2]) : default_epsilon;
  if (spec.kind == ProblemKind::convdiff2d || spec.kind == ProblemKind::convdiff3d)
    spec.parameter = given >= 2 ? parse_double(text, *kind, "BETA", fields[2]) : default_beta;
  if (spec.kind == ProblemKind::banded) {
    spec.bandwidth = parse_integer<std::int64_t>(text, *kind, "BW", fields[2]);
    const std::int64_t m = given >= 3 ? parse_integer<std::int64_t>(text, *kind, "M", fields[3])
                                      : (spec.bandwidth >= 4 ? 8 : 2 * spec.bandwidth);
    if (m > INT_MAX) fail(text, kind, impl::concat("M = ", m, " is out of range"));
    spec.entries_per_row = static_cast<int>(m);
    spec.seed =
        given >= 4 ? parse_integer<std::uint64_t>(text, *kind, "SEED", fields[4]) : default_seed;
  }
  const std::string why = spec_problem(spec);
  if (!why.empty()) fail(text, kind, why);
  return spec;
}

}  // namespace syncfree
