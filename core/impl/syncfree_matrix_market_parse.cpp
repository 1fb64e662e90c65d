// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/impl/syncfree_matrix_market_parse.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>

#include "core/syncfree_error.hpp"

namespace syncfree::impl {
namespace {

// A lying header must not make us allocate: reserve at most this many entries up front.
constexpr std::int64_t max_reserve = std::int64_t(1) << 20;
// Nor may a file without newlines make one huge line.
constexpr std::size_t max_line_length = std::size_t(1) << 20;

template <class... Parts>
[[noreturn]] void fail(const std::string& path, std::int64_t line, const Parts&... parts) {
  throw FileFormatError(concat(path, ":", line, ": ", parts...));
}

// Reads lines with fread, so that NUL bytes and read errors (a directory, EISDIR) are seen.
class LineReader {
 public:
  explicit LineReader(const std::string& path)
      : m_path(path), m_file(std::fopen(path.c_str(), "rb")), m_buffer(1 << 16) {
    if (!m_file) throw FileFormatError(concat(path, ": cannot open: ", std::strerror(errno)));
  }
  ~LineReader() { std::fclose(m_file); }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line without its newline; false at the end of the file.
  bool next(std::string& line) {
    line.clear();
    bool any = false;
    for (;;) {
      if (m_pos == m_end) {
        m_pos = 0;
        m_end = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
        if (m_end == 0) {
          if (std::ferror(m_file))
            throw FileFormatError(concat(m_path, ": read error: ", std::strerror(errno)));
          if (!any) return false;
          break;
        }
      }
      any = true;
      const char* begin = m_buffer.data() + m_pos;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', m_end - m_pos));
      const std::size_t n = newline ? std::size_t(newline - begin) : m_end - m_pos;
      if (line.size() + n > max_line_length)
        fail(m_path, m_line + 1, "line is longer than ", max_line_length, " characters");
      line.append(begin, n);
      m_pos += n;
      if (newline) {
        ++m_pos;
        break;
      }
    }
    ++m_line;
    return true;
  }

  /// 1-based number of the last line read (0 before the first).
  std::int64_t line_number() const { return m_line; }

 private:
  std::string m_path;
  std::FILE* m_file;
  std::vector<char> m_buffer;
  std::size_t m_pos = 0, m_end = 0;
  std::int64_t m_line = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

void tokenize(std::string_view line, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
}

// Blank lines and % comments carry no data.
bool is_skipped(const std::vector<std::string_view>& tokens) {
  return tokens.empty() || tokens[0][0] == '%';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

enum class Parsed { ok, invalid, out_of_range };

// Drops one leading '+', which from_chars does not take; a sign after it is invalid.
bool strip_plus(std::string_view& s) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) return false;
  }
  return !s.empty();
}

Parsed parse_int(std::string_view s, std::int64_t& out) {
  if (!strip_plus(s)) return Parsed::invalid;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc::result_out_of_range) return Parsed::out_of_range;
  if (ec != std::errc() || end != s.data() + s.size()) return Parsed::invalid;
  return Parsed::ok;
}

// Out-of-range doubles come back as +-inf (overflow) or a subnormal or zero (underflow), as
// strtod gives them; the caller rejects the infinities.
bool parse_double(std::string_view s, double& out) {
  if (!strip_plus(s)) return false;
#if defined(__cpp_lib_to_chars)
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (end != s.data() + s.size()) return false;
  if (ec == std::errc()) return true;
  if (ec != std::errc::result_out_of_range) return false;
#endif
  // strtod is locale-dependent; it is the fallback for old compilers and out-of-range values.
  const std::string copy(s);
  char* end_ptr = nullptr;
  out = std::strtod(copy.c_str(), &end_ptr);
  return end_ptr == copy.c_str() + copy.size();
}

const char* plural(std::int64_t n, const char* one, const char* many) {
  return n == 1 ? one : many;
}

class Parser {
 public:
  Parser(const std::string& path, const MatrixMarketLimits& limits)
      : m_path(path), m_limits(limits), m_reader(path) {}

  MatrixMarketCoordinates parse() {
    read_banner();
    read_size_line();
    read_entries();
    return finish();
  }

  /// The banner and the size line alone.
  MatrixMarketInfo header() {
    read_banner();
    read_size_line();
    m_result.info.entries_in_file = m_declared;
    return m_result.info;
  }

 private:
  struct Entry {
    std::int64_t row, col;
    double value;
  };

  [[noreturn]] void fail_here(const std::string& what) const {
    fail(m_path, m_reader.line_number(), what);
  }

  void read_banner() {
    if (!m_reader.next(m_line)) fail(m_path, 1, "file is empty");
    tokenize(m_line, m_tokens);
    const char* expected = "expected '%%MatrixMarket matrix <format> <field> <symmetry>'";
    if (m_tokens.empty() || lower(m_tokens[0]) != "%%matrixmarket")
      fail_here(concat("missing banner: ", expected, " on the first line"));
    if (m_tokens.size() != 5)
      fail_here(concat("malformed banner: ", expected, ", found ", m_tokens.size(), " words"));
    const std::string object = lower(m_tokens[1]);
    MatrixMarketInfo& info = m_result.info;
    info.format = lower(m_tokens[2]);
    info.field = lower(m_tokens[3]);
    info.symmetry = lower(m_tokens[4]);
    if (object != "matrix")
      fail_here(concat("unsupported object '", object, "' (only 'matrix' is supported)"));
    if (info.format != "coordinate" && info.format != "array")
      fail_here(concat("unsupported format '", info.format, "' (expected coordinate or array)"));
    if (info.field != "real" && info.field != "integer" && info.field != "pattern")
      fail_here(concat("unsupported field '", info.field, "' (expected real, integer or pattern)"));
    if (info.symmetry != "general" && info.symmetry != "symmetric" &&
        info.symmetry != "skew-symmetric")
      fail_here(concat("unsupported symmetry '", info.symmetry,
                       "' (expected general, symmetric or skew-symmetric)"));
    if (info.field == "pattern" && info.format == "array")
      fail_here("unsupported combination: field pattern needs the coordinate format");
    m_coordinate = info.format == "coordinate";
    m_pattern = info.field == "pattern";
    m_integer = info.field == "integer";
    m_symmetric = info.symmetry != "general";
    m_skew = info.symmetry == "skew-symmetric";
  }

  std::int64_t parse_size(std::string_view token, const char* what) const {
    std::int64_t n = 0;
    const Parsed p = parse_int(token, n);
    if (p == Parsed::invalid)
      fail_here(concat("size line: ", what, " '", token, "' is not an integer"));
    if (p == Parsed::out_of_range)
      fail_here(concat("size line: ", what, " '", token, "' is out of range"));
    if (n < 0) fail_here(concat("size line: ", what, " is negative (", n, ")"));
    return n;
  }

  // Values an array file holds: column-major, only the lower triangle when symmetric, only the
  // strict lower triangle when skew-symmetric.
  std::int64_t array_values(std::int64_t nrows, std::int64_t ncols) const {
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    if (!m_symmetric) {
      if (nrows != 0 && ncols > max / nrows)
        fail_here(concat("array of ", nrows, " x ", ncols, " values is too large"));
      return nrows * ncols;
    }
    // nrows <= max_dimension <= 2^63 - 1; halve the even factor first to stay in range.
    const std::int64_t a = m_skew ? nrows - 1 : nrows + 1;
    const std::int64_t even = nrows % 2 == 0 ? nrows / 2 : a / 2;
    const std::int64_t other = nrows % 2 == 0 ? a : nrows;
    if (nrows > 0 && even != 0 && other > max / even)
      fail_here(concat("array of ", nrows, " x ", ncols, " values is too large"));
    return nrows > 0 ? even * other : 0;
  }

  void read_size_line() {
    do {
      if (!m_reader.next(m_line)) fail_here("missing size line after the banner");
      tokenize(m_line, m_tokens);
    } while (is_skipped(m_tokens));
    m_size_line = m_reader.line_number();
    const std::size_t expected = m_coordinate ? 3 : 2;
    if (m_tokens.size() != expected)
      fail_here(concat("size line has ", m_tokens.size(), " tokens, expected ", expected,
                       m_coordinate ? " (rows columns entries)" : " (rows columns)"));
    MatrixMarketInfo& info = m_result.info;
    info.nrows = parse_size(m_tokens[0], "number of rows");
    info.ncols = parse_size(m_tokens[1], "number of columns");
    if (m_coordinate) m_declared = parse_size(m_tokens[2], "number of entries");

    if (m_symmetric && info.nrows != info.ncols)
      fail_here(concat("a ", info.symmetry, " matrix must be square, the size line says ",
                       info.nrows, " x ", info.ncols));
    if (m_limits.vector && info.ncols != 1)
      fail_here(concat("a vector file must have 1 column, the size line says ", info.nrows, " x ",
                       info.ncols));
    if (info.nrows > m_limits.max_dimension)
      fail_here(
          concat(info.nrows, " rows do not fit the ", m_limits.ordinal_bits, "-bit ordinal type"));
    if (info.ncols > m_limits.max_dimension)
      fail_here(concat(info.ncols, " columns do not fit the ", m_limits.ordinal_bits,
                       "-bit ordinal type"));
    if (!m_coordinate) m_declared = array_values(info.nrows, info.ncols);
    if (m_declared > m_limits.max_entries)
      fail_here(
          concat(m_declared, " entries do not fit the ", m_limits.offset_bits, "-bit offset type"));
  }

  std::int64_t parse_index(std::string_view token, const char* what, std::int64_t bound) const {
    std::int64_t i = 0;
    const Parsed p = parse_int(token, i);
    if (p == Parsed::invalid) fail_here(concat(what, " index '", token, "' is not an integer"));
    if (p == Parsed::out_of_range || i < 1 || i > bound)
      fail_here(concat(what, " index ", token, " is out of range (1 to ", bound, ")"));
    return i - 1;
  }

  double parse_value(std::string_view token) const {
    if (m_pattern) return 1.0;
    double v = 0;
    if (m_integer) {
      std::int64_t i = 0;
      const Parsed p = parse_int(token, i);
      if (p == Parsed::invalid)
        fail_here(concat("value '", token, "' is not an integer (the field is integer)"));
      if (p == Parsed::out_of_range)
        fail_here(concat("integer value '", token, "' is out of range"));
      v = double(i);
    } else if (!parse_double(token, v)) {
      fail_here(concat("value '", token, "' is not a number"));
    }
    if (!std::isfinite(v)) fail_here(concat("value '", token, "' is not finite"));
    if (std::abs(v) > m_limits.max_value)
      fail_here(concat("value '", token, "' does not fit the ", m_limits.scalar_bits,
                       "-bit scalar type"));
    return v;
  }

  void check_token_count(std::size_t expected, const char* names) const {
    if (m_tokens.size() < expected)
      fail_here(concat("entry has ", m_tokens.size(), plural(m_tokens.size(), " token", " tokens"),
                       ", expected ", expected, " (", names, ")"));
    if (m_tokens.size() > expected)
      fail_here(concat("trailing text '", m_tokens[expected], "' after the entry"));
  }

  Entry parse_coordinate_entry() const {
    check_token_count(m_pattern ? 2 : 3, m_pattern ? "row column" : "row column value");
    const std::int64_t i = parse_index(m_tokens[0], "row", m_result.info.nrows);
    const std::int64_t j = parse_index(m_tokens[1], "column", m_result.info.ncols);
    const double v = parse_value(m_pattern ? std::string_view() : m_tokens[2]);
    if (m_symmetric && j > i)
      fail_here(concat("entry (", i + 1, ", ", j + 1, ") is above the diagonal; a ",
                       m_result.info.symmetry, " file stores only the lower triangle"));
    if (m_skew && i == j)
      fail_here(concat("entry (", i + 1, ", ", j + 1,
                       ") is on the diagonal; a skew-symmetric matrix has a zero diagonal, "
                       "which is not stored"));
    return {i, j, v};
  }

  // Array values come column by column; (m_array_row, m_array_col) is the next position.
  Entry parse_array_value() {
    check_token_count(1, "value");
    const Entry e{m_array_row, m_array_col, parse_value(m_tokens[0])};
    if (++m_array_row == m_result.info.nrows) {
      ++m_array_col;
      m_array_row = m_skew ? m_array_col + 1 : m_symmetric ? m_array_col : 0;
    }
    return e;
  }

  void read_entries() {
    m_entries.reserve(std::size_t(std::min(m_declared, max_reserve)));
    m_array_row = m_skew ? 1 : 0;
    std::int64_t count = 0;
    while (m_reader.next(m_line)) {
      tokenize(m_line, m_tokens);
      if (is_skipped(m_tokens)) continue;
      if (count == m_declared)
        fail_here(concat("more entries than the ", m_declared, " declared on line ", m_size_line));
      m_entries.push_back(m_coordinate ? parse_coordinate_entry() : parse_array_value());
      ++count;
    }
    if (count < m_declared)
      fail_here(concat("file ends after ", count, " of ", m_declared, " declared entries"));
    m_result.info.entries_in_file = count;
  }

  MatrixMarketCoordinates finish() {
    if (m_symmetric) {
      const std::size_t n = m_entries.size();
      const auto diagonal = std::count_if(m_entries.begin(), m_entries.end(),
                                          [](const Entry& e) { return e.row == e.col; });
      m_entries.reserve(2 * n - std::size_t(diagonal));
      for (std::size_t k = 0; k < n; ++k) {
        const Entry e = m_entries[k];
        if (e.row != e.col) m_entries.push_back({e.col, e.row, m_skew ? -e.value : e.value});
      }
    }
    // Stable, so that duplicates are summed in file order.
    std::stable_sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
      return a.row < b.row || (a.row == b.row && a.col < b.col);
    });

    MatrixMarketInfo& info = m_result.info;
    std::size_t out = 0;
    for (std::size_t k = 0; k < m_entries.size(); ++k) {
      const Entry& e = m_entries[k];
      if (out > 0 && m_entries[out - 1].row == e.row && m_entries[out - 1].col == e.col) {
        m_entries[out - 1].value += e.value;
        // Count file entries, not their mirrors.
        if (!m_symmetric || e.row >= e.col) ++info.duplicates_summed;
      } else {
        m_entries[out++] = e;
      }
    }
    m_entries.resize(out);

    const std::int64_t last_line = m_reader.line_number();
    if (std::int64_t(out) > m_limits.max_entries)
      fail(m_path, m_size_line, out, " entries after symmetric expansion do not fit the ",
           m_limits.offset_bits, "-bit offset type");
    for (const Entry& e : m_entries)
      if (!std::isfinite(e.value) || std::abs(e.value) > m_limits.max_value)
        fail(m_path, last_line, "duplicate entries at (", e.row + 1, ", ", e.col + 1,
             ") sum to a value that does not fit the ", m_limits.scalar_bits, "-bit scalar type");

    info.stored_entries = std::int64_t(out);
    m_result.row.resize(out);
    m_result.col.resize(out);
    m_result.value.resize(out);
    for (std::size_t k = 0; k < out; ++k) {
      m_result.row[k] = m_entries[k].row;
      m_result.col[k] = m_entries[k].col;
      m_result.value[k] = m_entries[k].value;
    }
    std::vector<Entry>().swap(m_entries);
    return std::move(m_result);
  }

  std::string m_path;
  MatrixMarketLimits m_limits;
  LineReader m_reader;
  std::string m_line;
  std::vector<std::string_view> m_tokens;
  bool m_coordinate = true, m_pattern = false, m_integer = false;
  bool m_symmetric = false, m_skew = false;
  std::int64_t m_size_line = 0;
  std::int64_t m_declared = 0;
  std::int64_t m_array_row = 0, m_array_col = 0;
  std::vector<Entry> m_entries;
  MatrixMarketCoordinates m_result;
};

}  // namespace

MatrixMarketCoordinates parse_matrix_market(const std::string& path,
                                            const MatrixMarketLimits& limits) {
  return Parser(path, limits).parse();
}

MatrixMarketInfo parse_matrix_market_header(const std::string& path,
                                            const MatrixMarketLimits& limits) {
  return Parser(path, limits).header();
}

MatrixMarketWriter::MatrixMarketWriter(const std::string& path)
    : m_path(path), m_file(std::fopen(path.c_str(), "wb")) {
  if (!m_file)
    throw FileFormatError(concat(path, ": cannot open for writing: ", std::strerror(errno)));
}

MatrixMarketWriter::~MatrixMarketWriter() {
  if (m_file) std::fclose(m_file);
}

void MatrixMarketWriter::write_coordinate_header(std::int64_t nrows, std::int64_t ncols,
                                                 std::int64_t entries) {
  std::fprintf(m_file,
               "%%%%MatrixMarket matrix coordinate real general\n%" PRId64 " %" PRId64 " %" PRId64
               "\n",
               nrows, ncols, entries);
}

void MatrixMarketWriter::write_array_header(std::int64_t nrows, std::int64_t ncols) {
  std::fprintf(m_file, "%%%%MatrixMarket matrix array real general\n%" PRId64 " %" PRId64 "\n",
               nrows, ncols);
}

void MatrixMarketWriter::write_entry(std::int64_t row, std::int64_t col, double value) {
  std::fprintf(m_file, "%" PRId64 " %" PRId64 " %.17g\n", row + 1, col + 1, value);
}

void MatrixMarketWriter::write_value(double value) { std::fprintf(m_file, "%.17g\n", value); }

void MatrixMarketWriter::close() {
  const bool failed = std::ferror(m_file) != 0;
  const int error = errno;
  const bool close_failed = std::fclose(m_file) != 0;
  m_file = nullptr;
  if (failed || close_failed)
    throw FileFormatError(
        concat(m_path, ": write failed: ", std::strerror(close_failed ? errno : error)));
}

}  // namespace syncfree::impl
