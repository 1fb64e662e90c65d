// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// bench_trsm: dense blocked TRSM, FP64, against cuBLAS's dtrsm and KokkosBlas::trsm in the same
// process. For each case (side, triangle, transpose: LLN, RUN, ...), size n and number of
// right-hand sides m: every SyncFree variant at the default block size, `recursive` at each block
// size of --blocks, and the two baselines; the median time, TFLOP/s (m n^2 flops) and its share of
// --peak_tflops, and each result's difference from the first baseline's.
//
//   bench_trsm [--out=FILE] [--cases=LLN,RUN,...] [--sizes=N,...] [--rhs=M,...]
//              [--blocks=B,...] [--peak_tflops=P] [--budget=SECONDS]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <KokkosBlas3_trsm.hpp>
#include <nlohmann/json.hpp>

#include "algorithms/trsm/syncfree_trsm.hpp"
#include "perf_tests/common/benchmark_context.hpp"
#include "perf_tests/common/command_line.hpp"
#include "perf_tests/common/device_timer.hpp"
#include "perf_tests/common/report.hpp"
#include "perf_tests/common/vector_difference.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "perf_tests/common/cublas_handle.hpp"
#endif

namespace syncfree::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Dense = Kokkos::View<double**, Kokkos::LayoutLeft, ExecSpace::memory_space>;

/// A case in BLAS letters: side (L, R), triangle (L, U), op (N, T); the diagonal is stored.
struct Case {
  std::string letters;
  TrsmOptions options(TrsmVariant variant, int block) const {
    TrsmOptions o;
    o.side = letters[0] == 'L' ? TrsmSide::left : TrsmSide::right;
    o.triangle = letters[1] == 'L' ? Triangle::lower : Triangle::upper;
    o.transpose = letters[2] == 'T';
    o.variant = variant;
    o.block_size = block;
    return o;
  }
};

KOKKOS_INLINE_FUNCTION double hashed_unit(std::uint64_t i, std::uint64_t j) {
  std::uint64_t h = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull + (i << 6) + (i >> 2));
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return double(h >> 11) * 0x1.0p-53 * 2.0 - 1.0;  // in [-1, 1)
}

/// A well-conditioned triangle: diagonal in [1, 2], the rest in [-1, 1] / n, zero outside.
Dense make_triangle(std::int64_t n, bool lower) {
  Dense A(Kokkos::view_alloc("A", Kokkos::WithoutInitializing), n, n);
  Kokkos::parallel_for(
      "bench_trsm::A", Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({0, 0}, {n, n}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        const double u = hashed_unit(std::uint64_t(i), std::uint64_t(j));
        A(i, j) = i == j ? 1.5 + 0.5 * u : (lower ? i > j : i < j) ? u / double(n) : 0.0;
      });
  return A;
}

Dense make_rhs(std::int64_t rows, std::int64_t cols) {
  Dense B(Kokkos::view_alloc("B0", Kokkos::WithoutInitializing), rows, cols);
  Kokkos::parallel_for(
      "bench_trsm::B", Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({0, 0}, {rows, cols}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        B(i, j) = hashed_unit(std::uint64_t(i) + 7919, std::uint64_t(j) + 104729);
      });
  return B;
}

double difference(const Dense& x, const Dense& reference) {
  return max_relative_difference(Vector<double>(x.data(), x.size()),
                                 Vector<double>(reference.data(), reference.size()));
}

struct Method {
  std::string name;
  std::function<void(const Dense& A, const Dense& B)> solve;
};

struct Settings {
  std::vector<std::string> cases = {"LLN", "LUN", "LLT", "LUT", "RLN", "RUN", "RLT", "RUT"};
  std::vector<std::int64_t> sizes = {1024, 2048, 4096, 8192, 16384};
  std::vector<std::int64_t> rhs = {1, 16, 256, 1024, 4096};
  std::vector<int> blocks = {64, 128, 256};
  double peak_tflops = 0;
  double budget = 0.3;
#if defined(KOKKOS_ENABLE_CUDA)
  cublasHandle_t cublas = nullptr;
#endif
};

/// The baselines first (the first is every result's reference), then SyncFree's variants.
std::vector<Method> methods(const Settings& s, const Case& c) {
  std::vector<Method> list;
  const ExecSpace exec;
#if defined(KOKKOS_ENABLE_CUDA)
  list.push_back({"cublas", [c, handle = s.cublas](const Dense& A, const Dense& B) {
                    const double one = 1;
                    SYNCFREE_IMPL_CUBLAS_CHECK(cublasDtrsm(
                        handle, c.letters[0] == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                        c.letters[1] == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                        c.letters[2] == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                        int(B.extent(0)), int(B.extent(1)), &one, A.data(), int(A.stride(1)),
                        B.data(), int(B.stride(1))));
                  }});
#endif
  list.push_back({"kokkos_blas", [c, exec](const Dense& A, const Dense& B) {
                    const char side[2] = {c.letters[0], 0}, uplo[2] = {c.letters[1], 0},
                               trans[2] = {c.letters[2], 0};
#if KOKKOS_VERSION >= 40000
                    KokkosBlas::trsm(exec, side, uplo, trans, "N", 1.0, A, B);
#else
                    (void)exec;
                    KokkosBlas::trsm(side, uplo, trans, "N", 1.0, A, B);
#endif
                  }});
  for (const TrsmVariant variant : {TrsmVariant::automatic, TrsmVariant::right_looking,
                                    TrsmVariant::left_looking, TrsmVariant::recursive})
    list.push_back({std::string("syncfree:") + to_string(variant),
                    [c, exec, variant](const Dense& A, const Dense& B) {
                      const Outcome outcome = trsm(exec, c.options(variant, 0), 1.0, A, B);
                      SYNCFREE_REQUIRE(outcome.ok(), InvalidMatrix, outcome.reason);
                    }});
  for (const int block : s.blocks)
    list.push_back({"syncfree:recursive@" + std::to_string(block),
                    [c, exec, block](const Dense& A, const Dense& B) {
                      TrsmOptions o = c.options(TrsmVariant::recursive, block);
                      o.check_diagonal = false;
                      trsm(exec, o, 1.0, A, B);
                    }});
  return list;
}

/// Mean microseconds of one `work()` call: the median of timed batches of 20 calls.
template <class Work>
double microseconds_per_call(const Work& work) {
  constexpr int calls = 20;
  const auto batch = [&] {
    for (int k = 0; k < calls; ++k) work();
  };
  return 1e6 / calls * median(time_repeated(batch, 3, 10, 0.05));
}

/// The two primitives every variant is made of, at the default block size: one diagonal block's
/// solve for all right-hand sides, and one block x block product subtracted from a block.
struct PrimitiveCosts {
  int block = 0;
  double diagonal_us = 0, update_us = 0;
};

PrimitiveCosts primitive_costs(const Case& c, const Dense& A, const Dense& B) {
  const std::int64_t n = A.extent(0);
  PrimitiveCosts costs;
  costs.block = int(std::min<std::int64_t>(n, syncfree::default_trsm_block_size));
  const int b = costs.block;
  const impl::TrsmBlocks<ExecSpace, Dense, Dense> blocks(
      ExecSpace(), A, B, c.letters[0] == 'R', c.letters[1] == 'L', c.letters[2] == 'T', false);
  costs.diagonal_us = microseconds_per_call([&] { blocks.solve_diagonal(0, b); });
  if (n >= 2 * b) costs.update_us = microseconds_per_call([&] { blocks.update(b, b, 0, b); });
  return costs;
}

void bench_case(const Settings& s, const Case& c, std::int64_t n, std::int64_t m,
                nlohmann::json& out, MarkdownTable& table) {
  const bool left = c.letters[0] == 'L';
  const Dense A = make_triangle(n, c.letters[1] == 'L');
  const Dense B0 = left ? make_rhs(n, m) : make_rhs(m, n);
  const Dense B("B", B0.extent(0), B0.extent(1)),
      reference("reference", B0.extent(0), B0.extent(1));
  const double flops = double(n) * double(n) * double(m);
  nlohmann::json rows = nlohmann::json::array();
  double baseline_ms = 0, auto_ms = 0, best_ms = 0;
  std::string best;
  bool first = true;
  for (const Method& method : methods(s, c)) {
    std::string status = "success";
    double ms = 0, diff = 0;
    try {
      const auto reset = [&] { Kokkos::deep_copy(B, B0); };
      ms = 1e3 * median(time_repeated([&] { method.solve(A, B); }, 3, 50, s.budget, reset));
      reset();
      method.solve(A, B);
      if (first) {
        Kokkos::deep_copy(reference, B);
        baseline_ms = ms;
      } else {
        diff = difference(B, reference);
        if (!(diff < 1e-10))
          status = "ERROR: differs from " + rows[0]["method"].get<std::string>() + " by " +
                   cell("%.2e", diff);
      }
    } catch (const std::exception& e) {
      status = std::string("ERROR: ") + e.what();
    }
    first = false;
    const double tflops = ms > 0 ? flops / (ms * 1e-3) / 1e12 : 0;
    if (method.name == "syncfree:auto") auto_ms = ms;
    if (method.name.rfind("syncfree:", 0) == 0 && ms > 0 && (best_ms == 0 || ms < best_ms)) {
      best_ms = ms;
      best = method.name;
    }
    std::printf("%s n %ld m %ld %-26s %10.4f ms %7.2f TFLOP/s %s\n", c.letters.c_str(), long(n),
                long(m), method.name.c_str(), ms, tflops, status.c_str());
    std::fflush(stdout);  // a run cut short keeps what it printed
    rows.push_back({{"method", method.name},
                    {"ms", ms},
                    {"tflops", tflops},
                    {"difference", diff},
                    {"status", status}});
  }
  Kokkos::deep_copy(B, B0);
  const PrimitiveCosts costs = primitive_costs(c, A, B);
  std::printf("%s n %ld m %ld one diagonal block %.2f us, one %d x %d block update %.2f us\n",
              c.letters.c_str(), long(n), long(m), costs.diagonal_us, costs.block, costs.block,
              costs.update_us);
  const double speedup = auto_ms > 0 ? baseline_ms / auto_ms : 0;
  const double auto_tflops = auto_ms > 0 ? flops / (auto_ms * 1e-3) / 1e12 : 0;
  table.add_row({c.letters, std::to_string(n), std::to_string(m), cell("%.4f", baseline_ms),
                 cell("%.4f", auto_ms), cell("%.2f", auto_tflops),
                 s.peak_tflops > 0 ? cell("%.0f %%", 100 * auto_tflops / s.peak_tflops) : "",
                 cell("%.2f", speedup), best, cell("%.4f", best_ms)});
  out.push_back({{"case", c.letters},
                 {"n", n},
                 {"rhs", m},
                 {"flops", flops},
                 {"auto_over_baseline", speedup},
                 {"best_syncfree", best},
                 {"diagonal_block_us", costs.diagonal_us},
                 {"block_update_us", costs.update_us},
                 {"methods", rows}});
}

std::vector<std::int64_t> integers(const std::string& text) {
  std::vector<std::int64_t> values;
  for (const auto& item : split_list(text, {})) values.push_back(std::stoll(item));
  return values;
}

}  // namespace
}  // namespace syncfree::bench

int main(int argc, char** argv) {
  using namespace syncfree::bench;
  Kokkos::ScopeGuard guard(argc, argv);
  const PlainArguments arguments = parse_plain_arguments(
      argc, argv, {"out", "cases", "sizes", "rhs", "blocks", "peak_tflops", "budget"});
  Settings s;
#if defined(KOKKOS_ENABLE_CUDA)
  const CublasHandle cublas;
  s.cublas = cublas;
#endif
  s.cases = split_list(arguments.flag("cases"), s.cases);
  if (!arguments.flag("sizes").empty()) s.sizes = integers(arguments.flag("sizes"));
  if (!arguments.flag("rhs").empty()) s.rhs = integers(arguments.flag("rhs"));
  if (!arguments.flag("blocks").empty()) {
    s.blocks.clear();
    for (const auto b : integers(arguments.flag("blocks"))) s.blocks.push_back(int(b));
  }
  if (!arguments.flag("peak_tflops").empty())
    s.peak_tflops = std::stod(arguments.flag("peak_tflops"));
  if (!arguments.flag("budget").empty()) s.budget = std::stod(arguments.flag("budget"));
  for (const auto& c : s.cases)
    SYNCFREE_REQUIRE(c.size() == 3 && (c[0] == 'L' || c[0] == 'R') &&
                         (c[1] == 'L' || c[1] == 'U') && (c[2] == 'N' || c[2] == 'T'),
                     syncfree::InvalidArgument, "bench_trsm: case '", c,
                     "' is not side (L, R), triangle (L, U), op (N, T)");

  const BenchmarkContext context = benchmark_context();
  nlohmann::json j = report_header("trsm", context);
  j["peak_tflops"] = s.peak_tflops;
  j["default_block_size"] = syncfree::default_trsm_block_size;
  j["results"] = nlohmann::json::array();
  const std::string baseline = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible
                                   ? "KokkosBlas"
                                   : "cuBLAS";
  MarkdownTable table({"case", "n", "rhs", baseline + " ms", "SyncFree ms", "TFLOP/s", "of peak",
                       "× " + baseline, "best SyncFree", "its ms"});
  for (const auto& letters : s.cases)
    for (const auto n : s.sizes)
      for (const auto m : s.rhs) bench_case(s, Case{letters}, n, m, j["results"], table);
  const std::string markdown =
      "# Dense TRSM on " + context.device + ", commit " + context.commit + ", " + context.date +
      "\n\nFP64, medians, B overwritten in place (reset outside the timer). SyncFree: "
      "`auto` at the default block size (" +
      std::to_string(syncfree::default_trsm_block_size) +
      "), with its check of the diagonal; TFLOP/s counts m n^2 flops" +
      (s.peak_tflops > 0 ? ", against an FP64 peak of " + cell("%.0f", s.peak_tflops) + " TFLOP/s"
                         : std::string()) +
      ". Best SyncFree: the fastest of every variant and block size.\n\n" + table.str();
  write_report(std::cout, result_path(arguments.flag("out"), context, "trsm"), j, markdown);
  return 0;
}
