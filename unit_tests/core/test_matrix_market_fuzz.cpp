// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Inputs nobody wrote by hand: seeded random mutations of valid Matrix Market files (truncations,
// lost and doubled lines, swapped fields, huge, negative and non-numeric tokens, stray bytes,
// other banners). Each one either reads into a valid matrix or throws FileFormatError naming the
// file and a line; nothing else (a crash, another exception, a hang under ctest's timeout).

#include <cstdint>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/syncfree_matrix_market.hpp"
#include "core/syncfree_validation.hpp"
#include "unit_tests/utils/syncfree_temp_files.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using HM = CrsMatrix<double, int, int, HostDevice>;

const std::vector<std::string> seed_matrices = {
    "%%MatrixMarket matrix coordinate real general\n% a comment\n5 5 8\n1 1 4.0\n2 2 4\n"
    "3 3 4e0\n4 4 4.5\n5 5 -4\n2 1 -1\n1 2 -1.25\n5 3 1e-3\n",
    "%%MatrixMarket matrix coordinate integer symmetric\n4 4 6\n1 1 2\n2 2 2\n3 3 2\n4 4 2\n"
    "2 1 -1\n4 3 -1\n",
    "%%MatrixMarket matrix coordinate pattern general\n3 4 4\n1 1\n2 3\n3 4\n3 1\n",
    "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -2\n",
    "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6\n",
};
const std::vector<std::string> seed_vectors = {
    "%%MatrixMarket matrix array real general\n4 1\n1.0\n-2\n3e2\n0\n",
};

const std::vector<std::string> odd_tokens = {"0",          "-1",         "+3",
                                             "007",        "1.5",        "-0",
                                             "1e3",        "12345",      "2147483647",
                                             "2147483648", "4294967297", "99999999999999999999",
                                             "1e308",      "-1e308",     "1e999",
                                             "nan",        "inf",        "-inf",
                                             "abc",        "0x10",       "",
                                             "%",          "\xc3\xa9",   "\xe2\x88\x9e",
                                             "complex",    "hermitian",  "symmetric",
                                             "general",    "pattern",    "array",
                                             "coordinate", "vector",     "%%MatrixMarket"};
const std::string odd_bytes =
    std::string("0123456789-+.eE \t\n%x\r") + std::string(1, '\0') + "\xff\xc3";

/// `contents` after 1 to 3 random mutations.
std::string mutate(std::string s, std::mt19937_64& random) {
  auto pick = [&random](std::size_t n) {
    return std::size_t(random() % std::max<std::size_t>(n, 1));
  };
  const int mutations = 1 + int(random() % 3);
  for (int m = 0; m < mutations; ++m) {
    std::vector<std::string> lines;
    for (std::size_t begin = 0; begin < s.size();) {
      const std::size_t end = std::min(s.find('\n', begin), s.size());
      lines.push_back(s.substr(begin, end - begin));
      begin = end + 1;
    }
    switch (random() % 8) {
      case 0:  // truncate
        s.resize(pick(s.size() + 1));
        continue;
      case 1:  // lose a byte
        if (!s.empty()) s.erase(pick(s.size()), 1);
        continue;
      case 2:  // a stray byte
        s.insert(pick(s.size() + 1), 1, odd_bytes[pick(odd_bytes.size())]);
        continue;
      case 3: {  // one token replaced
        if (lines.empty()) continue;
        std::string& line = lines[pick(lines.size())];
        std::vector<std::pair<std::size_t, std::size_t>> tokens;
        for (std::size_t i = 0; i < line.size();) {
          const std::size_t b = line.find_first_not_of(" \t", i);
          if (b == std::string::npos) break;
          const std::size_t e = std::min(line.find_first_of(" \t", b), line.size());
          tokens.emplace_back(b, e - b);
          i = e;
        }
        if (tokens.empty()) continue;
        const auto [b, n] = tokens[pick(tokens.size())];
        line.replace(b, n, odd_tokens[pick(odd_tokens.size())]);
        break;
      }
      case 4:  // a line doubled
        if (!lines.empty()) {
          const std::size_t i = pick(lines.size());
          lines.insert(lines.begin() + std::ptrdiff_t(i), lines[i]);
        }
        break;
      case 5:  // a line lost
        if (!lines.empty()) lines.erase(lines.begin() + std::ptrdiff_t(pick(lines.size())));
        break;
      case 6:  // two lines swapped
        if (lines.size() > 1) std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
        break;
      default:  // a token appended to a line
        if (!lines.empty()) lines[pick(lines.size())] += " " + odd_tokens[pick(odd_tokens.size())];
        break;
    }
    std::string joined;
    for (const auto& line : lines) joined += line + "\n";
    s = joined;
  }
  return s;
}

struct Tally {
  int read = 0, refused = 0;
};

/// Reads the mutated file with `read`; fails the test unless it reads or throws FileFormatError
/// naming the file and a line.
template <class Read>
void expect_read_or_clear_error(const std::string& path, const std::string& contents,
                                std::uint64_t seed, const Read& read, Tally& tally) {
  static const std::regex located(".*:[0-9]+: .+");
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << contents; }
  try {
    read(path);
    ++tally.read;
  } catch (const FileFormatError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ":", 0), 0u) << "seed " << seed << ": " << what;
    EXPECT_TRUE(std::regex_match(what, located)) << "seed " << seed << ": " << what;
    ++tally.refused;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "seed " << seed << ": " << typeid(e).name() << ": " << e.what() << "\nfile:\n"
                  << contents;
  }
}

TEST(MatrixMarketFuzz, EveryMutationReadsOrNamesItsLine) {
  const std::string path = temporary_file("fuzz.mtx");
  Tally tally;
  std::mt19937_64 random(20261128);
  for (std::uint64_t seed = 0; seed < 4000; ++seed) {
    const std::string& base = seed_matrices[seed % seed_matrices.size()];
    expect_read_or_clear_error(
        path, mutate(base, random), seed,
        [](const std::string& p) {
          const HM A = read_matrix_market<HM>(p);
          // What reads is a valid CRS matrix: row pointers, column range, sorted and unique.
          EXPECT_TRUE(check_matrix(Kokkos::DefaultHostExecutionSpace(), A,
                                   MatrixCheck::sorted_unique | MatrixCheck::finite)
                          .ok());
        },
        tally);
  }
  for (std::uint64_t seed = 0; seed < 1000; ++seed)
    expect_read_or_clear_error(
        path, mutate(seed_vectors[0], random), seed,
        [](const std::string& p) { read_vector_market<double, HostDevice>(p); }, tally);
  // Both outcomes occur, so the mutations neither always break nor never break the files.
  EXPECT_GT(tally.read, 100);
  EXPECT_GT(tally.refused, 1000);
  std::cout << tally.read << " mutated files read, " << tally.refused << " refused\n";
}

}  // namespace
}  // namespace syncfree::test
