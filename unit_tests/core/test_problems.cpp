// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

#include <map>
#include <string>
#include <utility>

namespace syncfree::test {
namespace {

using HM = HostMatrix<TestMatrix<>>;

HM generate(const std::string& text) {
  return to_host(generate_matrix<TestMatrix<>>(ExecSpace(), parse_problem_spec(text)));
}

std::vector<int> row_columns(const HM& A, int i) {
  return {A.graph.entries.data() + A.graph.row_map(i),
          A.graph.entries.data() + A.graph.row_map(i + 1)};
}

std::vector<double> row_values(const HM& A, int i) {
  return {A.values.data() + A.graph.row_map(i), A.values.data() + A.graph.row_map(i + 1)};
}

std::map<std::pair<int, int>, double> entry_map(const HM& A) {
  std::map<std::pair<int, int>, double> out;
  for (int i = 0; i < A.numRows(); ++i)
    for (int k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      out[{i, A.graph.entries(k)}] = A.values(k);
  return out;
}

std::map<std::pair<int, int>, double> transpose(const std::map<std::pair<int, int>, double>& a) {
  std::map<std::pair<int, int>, double> out;
  for (const auto& [ij, v] : a) out[{ij.second, ij.first}] = v;
  return out;
}

void expect_sorted_unique_with_diagonal(const HM& A) {
  for (int i = 0; i < A.numRows(); ++i) {
    const auto cols = row_columns(A, i);
    for (std::size_t k = 1; k < cols.size(); ++k)
      ASSERT_LT(cols[k - 1], cols[k]) << "row " << i << " position " << k;
    ASSERT_TRUE(std::count(cols.begin(), cols.end(), i) == 1) << "row " << i << " has no diagonal";
    ASSERT_GE(cols.front(), 0) << "row " << i;
    ASSERT_LT(cols.back(), A.numCols()) << "row " << i;
  }
}

// --- Spec parsing ---------------------------------------------------------------------------

void expect_invalid(const std::string& text) {
  EXPECT_THROW(parse_problem_spec(text), InvalidArgument) << "spec '" << text << "'";
}

TEST(ProblemSpec, ParsesEveryKindWithItsDefaults) {
  EXPECT_EQ(parse_problem_spec("poisson2d:7").kind, ProblemKind::poisson2d);
  EXPECT_EQ(parse_problem_spec("poisson2d:7").n, 7);
  EXPECT_EQ(parse_problem_spec("poisson3d:5").kind, ProblemKind::poisson3d);
  EXPECT_EQ(parse_problem_spec("poisson3d27:5").kind, ProblemKind::poisson3d_27);
  const auto aniso = parse_problem_spec("anisotropic2d:8");
  EXPECT_EQ(aniso.kind, ProblemKind::anisotropic2d);
  EXPECT_EQ(aniso.parameter, 1e-3);
  const auto cd2 = parse_problem_spec("convdiff2d:8");
  EXPECT_EQ(cd2.kind, ProblemKind::convdiff2d);
  EXPECT_EQ(cd2.parameter, 50);
  EXPECT_EQ(parse_problem_spec("convdiff3d:8").kind, ProblemKind::convdiff3d);
  EXPECT_EQ(parse_problem_spec("convdiff3d:8").parameter, 50);
  const auto banded = parse_problem_spec("banded:100:5");
  EXPECT_EQ(banded.kind, ProblemKind::banded);
  EXPECT_EQ(banded.n, 100);
  EXPECT_EQ(banded.bandwidth, 5);
  EXPECT_EQ(banded.entries_per_row, 8);
  EXPECT_EQ(banded.seed, 42u);
  EXPECT_EQ(parse_problem_spec("banded:100:3").entries_per_row, 6);
  EXPECT_EQ(parse_problem_spec("banded:100:0").entries_per_row, 0);
}

TEST(ProblemSpec, ParsesOptionalFields) {
  EXPECT_EQ(parse_problem_spec("anisotropic2d:8:0.25").parameter, 0.25);
  EXPECT_EQ(parse_problem_spec("convdiff3d:5:2.5").parameter, 2.5);
  EXPECT_EQ(parse_problem_spec("convdiff2d:5:0").parameter, 0);
  const auto banded = parse_problem_spec("banded:100:5:3:7");
  EXPECT_EQ(banded.bandwidth, 5);
  EXPECT_EQ(banded.entries_per_row, 3);
  EXPECT_EQ(banded.seed, 7u);
}

TEST(ProblemSpec, ToStringWritesTheCanonicalForm) {
  EXPECT_EQ(parse_problem_spec("poisson3d27:4").to_string(), "poisson3d27:4");
  EXPECT_EQ(parse_problem_spec("anisotropic2d:8").to_string(), "anisotropic2d:8:0.001");
  EXPECT_EQ(parse_problem_spec("convdiff2d:8").to_string(), "convdiff2d:8:50");
  EXPECT_EQ(parse_problem_spec("convdiff3d:8:0.1").to_string(), "convdiff3d:8:0.1");
  EXPECT_EQ(parse_problem_spec("banded:100:5").to_string(), "banded:100:5:8");
  EXPECT_EQ(parse_problem_spec("banded:100:5:3:42").to_string(), "banded:100:5:3");
  EXPECT_EQ(parse_problem_spec("banded:100:5:3:7").to_string(), "banded:100:5:3:7");
}

TEST(ProblemSpec, ToStringParsesBackToAnEqualSpec) {
  for (const char* text : {"poisson2d:3", "poisson3d:9", "anisotropic2d:5:0.3", "convdiff2d:5:1e-7",
                           "convdiff3d:5:123.456", "banded:50:7:5:99"}) {
    const auto spec = parse_problem_spec(text);

    const auto back = parse_problem_spec(spec.to_string());

    EXPECT_EQ(back.kind, spec.kind) << text;
    EXPECT_EQ(back.n, spec.n) << text;
    EXPECT_EQ(back.parameter, spec.parameter) << text;
    EXPECT_EQ(back.bandwidth, spec.bandwidth) << text;
    EXPECT_EQ(back.entries_per_row, spec.entries_per_row) << text;
    EXPECT_EQ(back.seed, spec.seed) << text;
  }
}

TEST(ProblemSpec, RejectsUnknownName) {
  expect_invalid("poisson4d:10");
  expect_invalid("Poisson2d:10");
  expect_invalid("");
  expect_invalid(":10");
}

TEST(ProblemSpec, RejectsMissingOrNonNumericSize) {
  expect_invalid("poisson2d");
  expect_invalid("poisson2d:");
  expect_invalid("poisson2d:abc");
  expect_invalid("poisson2d:1.5");
  expect_invalid("poisson2d: 4");
  expect_invalid("poisson2d:+4");
  expect_invalid("banded:10");
  expect_invalid("banded:10:");
  expect_invalid("banded:10:x");
}

TEST(ProblemSpec, RejectsZeroOrNegativeSize) {
  expect_invalid("poisson2d:0");
  expect_invalid("poisson3d:-3");
  expect_invalid("banded:0:0");
}

TEST(ProblemSpec, RejectsTrailingJunk) {
  expect_invalid("poisson2d:10:5");
  expect_invalid("poisson2d:10x");
  expect_invalid("poisson2d:10:");
  expect_invalid("anisotropic2d:8:0.1:2");
  expect_invalid("anisotropic2d:8:0.1x");
  expect_invalid("banded:10:2:4:1:9");
}

TEST(ProblemSpec, RejectsBandwidthOutsideZeroToN) {
  expect_invalid("banded:10:10");
  expect_invalid("banded:10:11");
  expect_invalid("banded:10:-1");
}

TEST(ProblemSpec, RejectsOutOfRangeParameters) {
  expect_invalid("banded:10:2:5");
  expect_invalid("banded:10:2:-1");
  expect_invalid("banded:10:2:4:-1");
  expect_invalid("anisotropic2d:8:0");
  expect_invalid("anisotropic2d:8:-1");
  expect_invalid("convdiff2d:8:-1");
  expect_invalid("convdiff2d:8:nan");
  expect_invalid("convdiff3d:8:inf");
}

TEST(ProblemSpec, RejectsSizesWhoseCountsOverflowSixtyFourBits) {
  expect_invalid("poisson3d:3000000");
  expect_invalid("poisson3d27:1500000");
  expect_invalid("poisson2d:99999999999");
  expect_invalid("banded:99999999999999999999:1");
}

TEST(ProblemSpec, ErrorMessageNamesTheSpecAndTheExpectedForm) {
  try {
    parse_problem_spec("poisson2d:abc");
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "bad problem spec 'poisson2d:abc': N must be an integer, got 'abc' "
              "(expected poisson2d:N)");
  }
}

TEST(ProblemSpec, CountsRowsAndEntriesByFormula) {
  EXPECT_EQ(parse_problem_spec("poisson3d:2000").num_rows(), 8000000000);
  EXPECT_EQ(parse_problem_spec("poisson3d:1000").num_entries(), 6994000000);
  EXPECT_EQ(parse_problem_spec("poisson3d27:1000").num_entries(), 26946035992);  // 2998^3
  EXPECT_EQ(parse_problem_spec("banded:10:3").num_entries(), 58);
}

TEST(ProblemSpec, GeneratorRejectsAHandBuiltSpecWithZeroSize) {
  ProblemSpec spec;
  spec.kind = ProblemKind::poisson2d;
  spec.n = 0;

  EXPECT_THROW(generate_matrix<TestMatrix<>>(ExecSpace(), spec), InvalidArgument);
}

// --- Index type overflow ----------------------------------------------------------------------

TEST(Problems, RejectsRowCountThatOverflowsTheOrdinalType) {
  try {
    generate_matrix<TestMatrix<>>(ExecSpace(), parse_problem_spec("poisson3d:2000"));
    FAIL() << "no exception";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(std::string(e.what()),
              "poisson3d:2000 has 8000000000 rows; that overflows the 32-bit ordinal type");
  }
}

TEST(Problems, RejectsEntryCountThatOverflowsTheOffsetType) {
  // 10^9 rows fit in int, 7 * 10^9 - 6 * 10^6 entries do not.
  try {
    generate_matrix<TestMatrix<>>(ExecSpace(), parse_problem_spec("poisson3d:1000"));
    FAIL() << "no exception";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(std::string(e.what()),
              "poisson3d:1000 has 6994000000 entries; that overflows the 32-bit offset type");
  }
}

TEST(Problems, RejectsRowCountOverflowEvenWithSixtyFourBitOffsets) {
  using Wide = CrsMatrix<double, int, std::size_t, Device>;

  EXPECT_THROW(generate_matrix<Wide>(ExecSpace(), parse_problem_spec("banded:3000000000:1")),
               InvalidMatrix);
}

TEST(Problems, GeneratesWithSixtyFourBitOffsets) {
  using Wide = CrsMatrix<double, int, std::size_t, Device>;

  auto A = to_host(generate_matrix<Wide>(ExecSpace(), parse_problem_spec("poisson2d:4")));

  EXPECT_EQ(A.graph.row_map(16), 64u);
  EXPECT_EQ(A.graph.entries(A.graph.row_map(5) + 2), 5);
  EXPECT_EQ(A.values(A.graph.row_map(5) + 2), 4.0);
}

// --- Sizes and structure ----------------------------------------------------------------------

struct Counts {
  const char* spec;
  int rows;
  int entries;
};

TEST(Problems, EveryKindHasTheRowAndEntryCountOfItsFormula) {
  const Counts cases[] = {
      {"poisson2d:1", 1, 1},        {"poisson2d:5", 25, 105},     // 5 N^2 - 4 N
      {"anisotropic2d:5", 25, 105}, {"convdiff2d:5", 25, 105},    //
      {"poisson3d:4", 64, 352},     {"convdiff3d:4", 64, 352},    // 7 N^3 - 6 N^2
      {"poisson3d27:4", 64, 1000},  {"poisson3d27:1", 1, 1},      // (3 N - 2)^3
      {"banded:10:3", 10, 58},      {"banded:100:20", 100, 900},  // see the banded tests
      {"banded:6:2:4", 6, 24},      {"banded:7:0", 7, 7},         //
  };
  for (const Counts& c : cases) {
    auto A = generate(c.spec);

    EXPECT_EQ(A.numRows(), c.rows) << c.spec;
    EXPECT_EQ(A.numCols(), c.rows) << c.spec;
    EXPECT_EQ(A.nnz(), c.entries) << c.spec;
    EXPECT_EQ(A.graph.row_map(c.rows), c.entries) << c.spec;
    EXPECT_EQ(parse_problem_spec(c.spec).num_entries(), c.entries) << c.spec;
  }
}

TEST(Problems, EveryKindHasSortedUniqueColumnsAndAStoredDiagonal) {
  for (const char* spec :
       {"poisson2d:17", "poisson3d:9", "poisson3d27:7", "anisotropic2d:13", "convdiff2d:11",
        "convdiff3d:6", "banded:500:40", "banded:300:3:5", "banded:64:63:100"}) {
    SCOPED_TRACE(spec);

    expect_sorted_unique_with_diagonal(generate(spec));
  }
}

// --- Hand-checked rows ------------------------------------------------------------------------

TEST(Problems, Poisson2dRowsAreTheFivePointStencil) {
  auto A = generate("poisson2d:4");  // 4 x 4 grid, row = x + 4 y

  EXPECT_EQ(row_columns(A, 5), (std::vector<int>{1, 4, 5, 6, 9}));  // (1, 1), interior
  EXPECT_EQ(row_values(A, 5), (std::vector<double>{-1, -1, 4, -1, -1}));
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 4}));  // corner (0, 0)
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{4, -1, -1}));
  EXPECT_EQ(row_columns(A, 15), (std::vector<int>{11, 14, 15}));  // corner (3, 3)
  EXPECT_EQ(row_values(A, 15), (std::vector<double>{-1, -1, 4}));
  EXPECT_EQ(row_columns(A, 7), (std::vector<int>{3, 6, 7, 11}));  // edge (3, 1)
}

TEST(Problems, Poisson3dRowsAreTheSevenPointStencil) {
  auto A = generate("poisson3d:3");  // row = x + 3 y + 9 z

  EXPECT_EQ(row_columns(A, 13), (std::vector<int>{4, 10, 12, 13, 14, 16, 22}));  // center
  EXPECT_EQ(row_values(A, 13), (std::vector<double>{-1, -1, -1, 6, -1, -1, -1}));
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 3, 9}));  // corner
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{6, -1, -1, -1}));
}

TEST(Problems, Poisson3d27RowsAreTheTwentySevenPointStencil) {
  auto A = generate("poisson3d27:3");

  std::vector<int> all(27);
  for (int j = 0; j < 27; ++j) all[j] = j;
  std::vector<double> center_values(27, -1.0);
  center_values[13] = 26;
  EXPECT_EQ(row_columns(A, 13), all);
  EXPECT_EQ(row_values(A, 13), center_values);
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 3, 4, 9, 10, 12, 13}));
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{26, -1, -1, -1, -1, -1, -1, -1}));
  EXPECT_EQ(row_columns(A, 26), (std::vector<int>{13, 14, 16, 17, 22, 23, 25, 26}));
}

TEST(Problems, Anisotropic2dRowsWeightYNeighborsByEpsilon) {
  auto A = generate("anisotropic2d:4:0.25");

  EXPECT_EQ(row_columns(A, 5), (std::vector<int>{1, 4, 5, 6, 9}));
  EXPECT_EQ(row_values(A, 5), (std::vector<double>{-0.25, -1, 2.5, -1, -0.25}));
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 4}));
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{2.5, -1, -0.25}));
}

TEST(Problems, Convdiff2dRowsAddUpwindConvection) {
  // h = 1/4, beta h = 1: lower neighbors -2, upper neighbors -1, diagonal 4 + 2 = 6
  auto A = generate("convdiff2d:3:4");

  EXPECT_EQ(row_columns(A, 4), (std::vector<int>{1, 3, 4, 5, 7}));
  EXPECT_EQ(row_values(A, 4), (std::vector<double>{-2, -2, 6, -1, -1}));
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{6, -1, -1}));
  EXPECT_EQ(row_columns(A, 8), (std::vector<int>{5, 7, 8}));
  EXPECT_EQ(row_values(A, 8), (std::vector<double>{-2, -2, 6}));
}

TEST(Problems, Convdiff3dRowsAddUpwindConvection) {
  // h = 1/4, beta h = 1: lower neighbors -2, upper neighbors -1, diagonal 6 + 3 = 9
  auto A = generate("convdiff3d:3:4");

  EXPECT_EQ(row_columns(A, 13), (std::vector<int>{4, 10, 12, 13, 14, 16, 22}));
  EXPECT_EQ(row_values(A, 13), (std::vector<double>{-2, -2, -2, 9, -1, -1, -1}));
  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 3, 9}));
  EXPECT_EQ(row_values(A, 0), (std::vector<double>{9, -1, -1, -1}));
  EXPECT_EQ(row_columns(A, 26), (std::vector<int>{17, 23, 25, 26}));
  EXPECT_EQ(row_values(A, 26), (std::vector<double>{-2, -2, -2, 9}));
}

// Every row of a grid problem against an assembly written from the definitions, one point and one
// neighbor at a time.
std::map<std::pair<int, int>, double> assemble(const char* kind, int n, double p) {
  const std::string k = kind;
  const int dim = (k == "poisson3d" || k == "poisson3d27" || k == "convdiff3d") ? 3 : 2;
  const int nz = dim == 3 ? n : 1;
  const double beta_h = p / (n + 1);
  std::map<std::pair<int, int>, double> out;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int row = x + n * y + n * n * z;
        auto add = [&](int dx, int dy, int dz, double v) {
          const int xx = x + dx, yy = y + dy, zz = z + dz;
          if (xx < 0 || xx >= n || yy < 0 || yy >= n || zz < 0 || zz >= nz) return;
          out[{row, xx + n * yy + n * n * zz}] = v;
        };
        if (k == "poisson2d") {
          add(0, 0, 0, 4);
          for (int d : {-1, 1}) add(d, 0, 0, -1), add(0, d, 0, -1);
        } else if (k == "poisson3d") {
          add(0, 0, 0, 6);
          for (int d : {-1, 1}) add(d, 0, 0, -1), add(0, d, 0, -1), add(0, 0, d, -1);
        } else if (k == "poisson3d27") {
          for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx) add(dx, dy, dz, dx || dy || dz ? -1 : 26);
        } else if (k == "anisotropic2d") {
          add(0, 0, 0, 2 + 2 * p);
          for (int d : {-1, 1}) add(d, 0, 0, -1), add(0, d, 0, -p);
        } else if (k == "convdiff2d") {
          add(0, 0, 0, 4 + 2 * beta_h);
          add(-1, 0, 0, -1 - beta_h), add(0, -1, 0, -1 - beta_h);
          add(1, 0, 0, -1), add(0, 1, 0, -1);
        } else if (k == "convdiff3d") {
          add(0, 0, 0, 6 + 3 * beta_h);
          add(-1, 0, 0, -1 - beta_h), add(0, -1, 0, -1 - beta_h), add(0, 0, -1, -1 - beta_h);
          add(1, 0, 0, -1), add(0, 1, 0, -1), add(0, 0, 1, -1);
        }
      }
  return out;
}

TEST(Problems, GridProblemsMatchAnAssemblyFromTheDefinition) {
  struct Case {
    const char* spec;
    const char* kind;
    int n;
    double parameter;
  };
  for (const Case& c :
       {Case{"poisson2d:6", "poisson2d", 6, 0}, Case{"poisson3d:5", "poisson3d", 5, 0},
        Case{"poisson3d27:4", "poisson3d27", 4, 0},
        Case{"anisotropic2d:7:0.003", "anisotropic2d", 7, 0.003},
        Case{"convdiff2d:6", "convdiff2d", 6, 50},
        Case{"convdiff3d:5:7.5", "convdiff3d", 5, 7.5}}) {
    SCOPED_TRACE(c.spec);
    const auto expected = assemble(c.kind, c.n, c.parameter);

    const auto actual = entry_map(generate(c.spec));

    ASSERT_EQ(actual.size(), expected.size());
    for (const auto& [ij, v] : expected) {
      auto it = actual.find(ij);
      ASSERT_TRUE(it != actual.end()) << "missing (" << ij.first << ", " << ij.second << ")";
      EXPECT_DOUBLE_EQ(it->second, v) << "(" << ij.first << ", " << ij.second << ")";
    }
  }
}

// --- Symmetry ---------------------------------------------------------------------------------

TEST(Problems, SymmetricKindsEqualTheirTranspose) {
  for (const char* spec :
       {"poisson2d:6", "poisson3d:4", "poisson3d27:4", "anisotropic2d:6", "convdiff2d:6:0"}) {
    const auto a = entry_map(generate(spec));

    EXPECT_EQ(transpose(a), a) << spec;
  }
}

TEST(Problems, ConvectionDiffusionIsNotSymmetric) {
  auto A2 = generate("convdiff2d:3:4");
  auto A3 = generate("convdiff3d:3:4");
  const auto a2 = entry_map(A2);
  const auto a3 = entry_map(A3);

  EXPECT_NE(transpose(a2), a2);
  EXPECT_NE(transpose(a3), a3);
  EXPECT_EQ((a2.at({4, 3})), -2.0);  // upwind (lower) neighbor
  EXPECT_EQ((a2.at({3, 4})), -1.0);
  EXPECT_EQ((a3.at({13, 4})), -2.0);
  EXPECT_EQ((a3.at({4, 13})), -1.0);
}

// --- Banded -----------------------------------------------------------------------------------

TEST(Problems, BandedWithFullCandidateCountFillsTheWholeBand) {
  auto A = generate("banded:6:2:4");

  EXPECT_EQ(row_columns(A, 0), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(row_columns(A, 1), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(row_columns(A, 2), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(row_columns(A, 3), (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(row_columns(A, 4), (std::vector<int>{2, 3, 4, 5}));
  EXPECT_EQ(row_columns(A, 5), (std::vector<int>{3, 4, 5}));
}

TEST(Problems, BandedDrawsOneColumnPerStratumOfTheBand) {
  // BW = 4, M = 2: an interior row's band of 8 columns splits into [i-4, i-1] and [i+1, i+4].
  auto A = generate("banded:20:4:2");

  for (int i = 4; i < 16; ++i) {
    const auto cols = row_columns(A, i);
    ASSERT_EQ(cols.size(), 3u) << "row " << i;
    EXPECT_GE(cols[0], i - 4) << "row " << i;
    EXPECT_LE(cols[0], i - 1) << "row " << i;
    EXPECT_EQ(cols[1], i) << "row " << i;
    EXPECT_GE(cols[2], i + 1) << "row " << i;
    EXPECT_LE(cols[2], i + 4) << "row " << i;
  }
}

TEST(Problems, BandedStaysInBandAndIsStrictlyDiagonallyDominant) {
  const int n = 1000, bw = 30, m = 8;
  auto A = generate("banded:1000:30");

  for (int i = 0; i < n; ++i) {
    const auto cols = row_columns(A, i);
    const auto vals = row_values(A, i);
    const int width = std::min(i, bw) + std::min(n - 1 - i, bw);
    ASSERT_EQ(int(cols.size()), 1 + std::min(m, width)) << "row " << i;
    double off_sum = 0, diag = 0;
    for (std::size_t k = 0; k < cols.size(); ++k) {
      ASSERT_LE(std::abs(cols[k] - i), bw) << "row " << i;
      if (cols[k] == i) {
        diag = vals[k];
      } else {
        ASSERT_GE(vals[k], -1.0) << "row " << i;
        ASSERT_LT(vals[k], 0.0) << "row " << i;
        off_sum += -vals[k];
      }
    }
    EXPECT_DOUBLE_EQ(diag, 1.0 + off_sum) << "row " << i;
    EXPECT_GT(diag, off_sum) << "row " << i;
  }
}

TEST(Problems, BandedIsDeterministicForASeedAndChangesWithIt) {
  auto first = entry_map(generate("banded:400:25"));
  auto second = entry_map(generate("banded:400:25"));
  auto explicit_seed = entry_map(generate("banded:400:25:8:42"));
  auto other_seed = entry_map(generate("banded:400:25:8:7"));

  EXPECT_EQ(first, second);
  EXPECT_EQ(first, explicit_seed);
  EXPECT_NE(first, other_seed);
  int same_positions = 0;
  for (const auto& [ij, v] : other_seed) same_positions += first.count(ij) ? 1 : 0;
  EXPECT_LT(same_positions, int(first.size()) / 2);  // diagonals (400) plus few chance matches
}

// --- Problems: x_true and b -------------------------------------------------------------------

TEST(Problems, RightHandSideIsATimesXTrue) {
  for (const char* spec : {"poisson2d:9", "poisson3d:6", "poisson3d27:5", "anisotropic2d:8",
                           "convdiff2d:8", "convdiff3d:6", "banded:1500:12"}) {
    SCOPED_TRACE(spec);
    auto problem = generate_problem<TestMatrix<>>(ExecSpace(), parse_problem_spec(spec));

    const auto expected = reference::spmv(to_host(problem.A), to_std(problem.x_true));

    // A row sums at most 27 terms of magnitude <= 39; another summation order on the device
    // moves b_i by at most about 27 * 39 * eps = 2.3e-13.
    EXPECT_EQ(problem.spec.to_string(), parse_problem_spec(spec).to_string());
    expect_near_entrywise(to_std(problem.b), expected, 1e-12);
  }
}

TEST(Problems, XTrueIsTheSmoothPeriodicProfile) {
  auto problem = generate_problem<TestMatrix<>>(ExecSpace(), parse_problem_spec("banded:2100:1"));

  const auto x = to_std(problem.x_true);

  ASSERT_EQ(x.size(), 2100u);
  EXPECT_EQ(x[0], 1.0);
  EXPECT_EQ(x[256], 1.28125);  // t = 1/4: 1 + 8 / 16 * 9 / 16
  EXPECT_EQ(x[512], 1.5);      // t = 1/2
  EXPECT_EQ(x[1024], 1.0);     // next period
  EXPECT_EQ(x[1024 + 512], 1.5);
}

}  // namespace
}  // namespace syncfree::test
