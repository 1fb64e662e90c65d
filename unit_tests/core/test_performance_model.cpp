// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "algorithms/jacobi/syncfree_jacobi_cost.hpp"
#include "algorithms/krylov/syncfree_krylov_cost.hpp"
#include "algorithms/spai/syncfree_spai_cost.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_device_parameters.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_spmv_cost.hpp"
#include "core/syncfree_triangle_features.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

DeviceParameters h200() { return default_device_parameters("NVIDIA H200", "Cuda"); }

/// What `work` throws as E ("" and a failure where it throws nothing).
template <class E, class Work>
std::string thrown_message(const Work& work) {
  try {
    work();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

std::string write_temporary(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(DeviceParameters, JsonRoundTripKeepsEveryField) {
  auto p = h200();
  p.source = "a test";
  const auto q = device_parameters_from_json(to_json(p));
  EXPECT_EQ(q.device, p.device);
  EXPECT_EQ(q.backend, p.backend);
  EXPECT_EQ(q.source, "a test");
  EXPECT_EQ(q.copy_bandwidth, p.copy_bandwidth);
  EXPECT_EQ(q.gather_bandwidth, p.gather_bandwidth);
  EXPECT_EQ(q.gather_bandwidth_l2, p.gather_bandwidth_l2);
  EXPECT_EQ(q.launch_latency, p.launch_latency);
  EXPECT_EQ(q.dependent_load_latency, p.dependent_load_latency);
  EXPECT_EQ(q.dependency_hop, p.dependency_hop);
  EXPECT_EQ(q.block_barrier, p.block_barrier);
  EXPECT_EQ(q.host_sync, p.host_sync);
  EXPECT_EQ(q.atomic_rate, p.atomic_rate);
  EXPECT_EQ(q.l2_bytes, p.l2_bytes);
  EXPECT_EQ(q.multiprocessors, p.multiprocessors);
  EXPECT_EQ(q.resident_threads, p.resident_threads);
}

TEST(DeviceParameters, BadJsonNamesTheField) {
  EXPECT_THROW(device_parameters_from_json("not json"), InvalidArgument);
  auto text = to_json(h200());
  const auto without = [&](const std::string& field) {
    auto j = text;
    const auto at = j.find("\"" + field + "\"");
    const auto end = j.find('\n', at);
    return j.erase(at, end - at + 1);
  };
  EXPECT_NE(thrown_message<InvalidArgument>([&] {
              device_parameters_from_json(without("dependency_hop"));
            }).find("\"dependency_hop\" is missing"),
            std::string::npos);
  auto negative = text;
  const auto at = negative.find("\"launch_latency\": ") + 18;
  negative.insert(at, "-");
  EXPECT_NE(thrown_message<InvalidArgument>([&] {
              device_parameters_from_json(negative);
            }).find("\"launch_latency\" is -"),
            std::string::npos);
  EXPECT_NE(thrown_message<InvalidArgument>([&] {
              read_device_parameters(testing::TempDir() + "no-such-calibration.json");
            }).find("no-such-calibration.json"),
            std::string::npos);
}

TEST(DeviceParameters, ShippedDefaultsAndConservativeOnesSaySo) {
  for (const auto& p : shipped_device_parameters()) {
    EXPECT_EQ(p.source.rfind("shipped", 0), 0u) << p.device;
    EXPECT_NO_THROW(device_parameters_from_json(to_json(p))) << p.device;
  }
  EXPECT_EQ(h200().source.rfind("shipped", 0), 0u);
  const auto unknown = default_device_parameters("a GPU from 2031", "Cuda");
  EXPECT_NE(unknown.source.find("conservative"), std::string::npos);
  EXPECT_NE(unknown.source.find("a GPU from 2031"), std::string::npos);
  EXPECT_NO_THROW(device_parameters_from_json(to_json(unknown)));
  const auto host = default_device_parameters("host", "Serial");
  EXPECT_NE(host.source.find("conservative"), std::string::npos);
}

TEST(DeviceParameters, CalibrationFileIsUsedOnlyForItsDevice) {
  auto p = h200();
  p.source = "calibrated here";
  p.dependency_hop = 1.25e-6;
  const auto path = write_temporary("calibration.json", to_json(p));
  const auto used = impl::device_parameters("NVIDIA H200", "Cuda", path.c_str());
  EXPECT_EQ(used.source, "calibrated here");
  EXPECT_EQ(used.dependency_hop, 1.25e-6);
  EXPECT_EQ(impl::device_parameters("NVIDIA H100 80GB HBM3", "Cuda", path.c_str()).source,
            default_device_parameters("NVIDIA H100 80GB HBM3", "Cuda").source);
  EXPECT_EQ(impl::device_parameters("NVIDIA H200", "Serial", path.c_str()).backend, "Serial");
  // The running device: a file of another device is not used.
  EXPECT_EQ(device_parameters(ExecSpace()).backend, ExecSpace::name());
}

TEST(DeviceParameters, RunningDeviceReadsItsCalibration) {
  const char* path = std::getenv("SYNCFREE_DEVICE_PARAMETERS");
  if (!path) GTEST_SKIP() << "SYNCFREE_DEVICE_PARAMETERS names no calibration file";
  const auto file = read_device_parameters(path);
  const auto used = device_parameters(ExecSpace());
  if (file.device == device_name(ExecSpace()) && file.backend == ExecSpace::name())
    EXPECT_EQ(used.source, file.source);
  else
    EXPECT_EQ(used.source,
              default_device_parameters(device_name(ExecSpace()), ExecSpace::name()).source);
}

TEST(TriangleFeatures, HandDrawnDag) {
  // Row 2 depends on 0; row 3 on 1 and 2; row 4 on 0. Levels {0, 1}, {2, 4}, {3}.
  const auto A = to_host(matrix_from_triplets<M>(5, 5,
                                                 {{0, 0, 1},
                                                  {1, 1, 1},
                                                  {2, 0, 1},
                                                  {2, 2, 1},
                                                  {3, 1, 1},
                                                  {3, 2, 1},
                                                  {3, 3, 1},
                                                  {4, 0, 1},
                                                  {4, 4, 1}}));
  const auto f = triangle_features(A, Triangle::lower);
  EXPECT_EQ(f.rows, 5);
  EXPECT_EQ(f.entries, 9);
  EXPECT_EQ(f.levels, 3);
  EXPECT_EQ(f.longest_row, 3);
  EXPECT_EQ(f.critical_path_entries, 6);  // rows 0 (1 entry), 2 (2), 3 (3)
  EXPECT_DOUBLE_EQ(f.near_share, 1.0);
  EXPECT_EQ(f.rows_by_length[0], 2);  // 1 entry
  EXPECT_EQ(f.rows_by_length[1], 3);  // 2 or 3 entries
  EXPECT_EQ(f.levels_by_width[0], 1);
  EXPECT_EQ(f.levels_by_width[1], 2);
  EXPECT_EQ(f.rows_by_level_width[1], 4);
  EXPECT_DOUBLE_EQ(f.level_waves(1), 5);
  EXPECT_DOUBLE_EQ(f.level_waves(100), 3);
  // Its upper triangle (entries of the lower one skipped) is diagonal: one level.
  const auto u = triangle_features(A, Triangle::upper);
  EXPECT_EQ(u.levels, 1);
  EXPECT_EQ(u.entries, 5);
  EXPECT_EQ(u.critical_path_entries, 1);
}

TEST(TriangleFeatures, LevelsAgreeWithTheLevelSets) {
  for (const char* spec : {"poisson2d:20", "banded:500:40:6", "poisson3d27:8"}) {
    const auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    for (const auto triangle : {Triangle::lower, Triangle::upper}) {
      const auto f = triangle_features(to_host(A), triangle);
      const auto sets = compute_level_sets(ExecSpace(), A, triangle);
      EXPECT_EQ(f.levels, sets.num_levels) << spec;
      EXPECT_EQ(f.rows, A.numRows());
      long rows = 0;
      for (const auto r : f.rows_by_level_width) rows += r;
      EXPECT_EQ(rows, A.numRows()) << spec;
    }
  }
}

/// Levels of `width` rows each, rows of `row` entries (the diagonal included).
TriangleFeatures uniform_levels(long levels, long width, long row) {
  TriangleFeatures f;
  f.rows = levels * width;
  f.entries = f.rows * row;
  f.levels = levels;
  f.longest_row = row;
  f.critical_path_entries = levels * row;
  f.levels_by_width[impl::feature_bucket(width)] = levels;
  f.rows_by_level_width[impl::feature_bucket(width)] = f.rows;
  return f;
}

TEST(SptrsvCost, LongerChainsAndSlowerHopsCostMore) {
  const auto f = uniform_levels(100, 10, 3);
  const auto twice = uniform_levels(200, 10, 3);
  auto slow = h200();
  slow.dependency_hop *= 10;
  slow.dependent_load_latency *= 10;
  for (const auto a : sptrsv_algorithms) {
    if (!impl::sptrsv_cost_modeled(a)) continue;
    const auto p = impl::predict_sptrsv_solve(h200(), f, a);
    EXPECT_GT(p.seconds, h200().launch_latency) << to_string(a);
    EXPECT_GT(impl::predict_sptrsv_solve(h200(), twice, a).seconds, p.seconds) << to_string(a);
    EXPECT_GT(impl::predict_sptrsv_solve(slow, f, a).seconds, p.seconds) << to_string(a);
    EXPECT_EQ(p.bound(), "dependency steps") << to_string(a);  // 10-row levels: latency
  }
  // A launch per level.
  EXPECT_GT(impl::predict_sptrsv_solve(h200(), f, SptrsvAlgorithm::level_set).seconds,
            100 * h200().launch_latency);
  // Chain order: 4 chain levels instead of 100 levels.
  EXPECT_LT(impl::predict_sptrsv_solve(h200(), f, SptrsvAlgorithm::sync_free_thread, 4).seconds,
            impl::predict_sptrsv_solve(h200(), f, SptrsvAlgorithm::sync_free_thread).seconds);
  EXPECT_THROW(impl::predict_sptrsv_solve(h200(), f, SptrsvAlgorithm::wavefront), InvalidArgument);
}

TEST(SptrsvCost, WideLevelsAreBoundByThroughput) {
  const auto f = uniform_levels(4, 1'000'000, 5);
  const auto p = impl::predict_sptrsv_solve(h200(), f, SptrsvAlgorithm::multirow);
  EXPECT_EQ(p.bound(), "level throughput");
  EXPECT_NE(p.describe().find("level throughput"), std::string::npos);
}

TEST(SptrsvCost, LevelSetReplacesSyncFreeOnlyOnFewWideLevelsOfShortRows) {
  const auto thread = SptrsvAlgorithm::sync_free_thread;
  // A multicolor 2-D mesh: 6 colors of 166,000 rows of 3 entries.
  EXPECT_TRUE(impl::level_set_clearly_faster(h200(), uniform_levels(6, 166'000, 3), thread, 0));
  // A mesh in its own order: thousands of narrow levels.
  EXPECT_FALSE(impl::level_set_clearly_faster(h200(), uniform_levels(2500, 240, 9), thread, 0));
  // Long rows: a thread walking a row alone is not trusted to the model.
  EXPECT_FALSE(impl::level_set_clearly_faster(h200(), uniform_levels(6, 166'000, 40), thread, 0));
  // Only sync_free_thread is replaced (the other choices were made by structure or row length).
  EXPECT_FALSE(impl::level_set_clearly_faster(h200(), uniform_levels(6, 166'000, 3),
                                              SptrsvAlgorithm::alap_packed, 0));
  EXPECT_FALSE(impl::level_set_clearly_faster(h200(), uniform_levels(6, 166'000, 3),
                                              SptrsvAlgorithm::wavefront, 0));
}

TEST(SptrsvCost, StorageFeaturesAreTheTrianglesWhereTheyAreExact) {
  const auto T = extract_triangle(
      ExecSpace(), generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson2d:30")),
      Triangle::lower, Diagonal::stored);
  SptrsvPlan<M> plan({Triangle::lower, Diagonal::stored, SptrsvAlgorithm::level_set});
  sptrsv_analyze(ExecSpace(), plan, T);
  const auto f = impl::sptrsv_storage_features(impl::sptrsv_plan_storage(plan));
  const auto exact = triangle_features(to_host(T), Triangle::lower);
  EXPECT_EQ(f.rows, exact.rows);
  EXPECT_EQ(f.entries, exact.entries);
  EXPECT_EQ(f.levels, exact.levels);
  EXPECT_EQ(f.longest_row, exact.longest_row);
  EXPECT_EQ(f.levels_by_width, exact.levels_by_width);
  EXPECT_EQ(f.rows_by_level_width, exact.rows_by_level_width);
}

TEST(SptrsvPredict, EveryModeledAlgorithmFastestFirst) {
  const auto A = extract_triangle(
      ExecSpace(), generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson2d:30")),
      Triangle::upper, Diagonal::stored);
  SptrsvOptions options;
  options.triangle = Triangle::upper;
  const auto predictions = sptrsv_predict(ExecSpace(), A, options, h200());
  ASSERT_EQ(predictions.size(), 6u);
  for (std::size_t k = 1; k < predictions.size(); ++k)
    EXPECT_LE(predictions[k - 1].solve.seconds, predictions[k].solve.seconds);
  // The triangle is validated: a zero diagonal entry is refused as by an analysis.
  const auto B = matrix_from_triplets<M>(2, 2, {{0, 0, 1}, {1, 0, 1}, {1, 1, 0}});
  EXPECT_THROW(sptrsv_predict(ExecSpace(), B, {}, h200()), InvalidMatrix);
}

TEST(SpmvFeatures, CountTheSectorsOfXEachWarpReads) {
  // 40 rows: row i reads x_i and x_{(8 i) mod 40}. Warp 0 (rows 0-31) reads x_0..x_31 (sectors
  // 0-7) and multiples of 8 (sectors 0, 2, 4, 6, 8): 9 sectors; warp 1 (rows 32-39) reads
  // x_32..x_39 (sectors 8, 9) and x_16, x_24, x_32, ... (sectors 0, 2, 4, 6, 8): 6 sectors.
  std::vector<Triplet> t;
  for (int i = 0; i < 40; ++i) {
    t.push_back({i, i, 2});
    if ((8 * i) % 40 != i) t.push_back({i, (8 * i) % 40, -1});
  }
  const auto f = spmv_features(to_host(matrix_from_triplets<M>(40, 40, t)));
  EXPECT_EQ(f.rows, 40);
  EXPECT_EQ(f.cols, 40);
  EXPECT_EQ(f.entries, long(t.size()));
  EXPECT_DOUBLE_EQ(f.x_sectors, 9 + 6);
}

TEST(SpmvCost, ScatteredColumnsAndMoreBytesCostMore) {
  SpmvFeatures grid{1'000'000, 1'000'000, 7'000'000, 250'000};
  auto scattered = grid;
  scattered.x_sectors = 7'000'000;
  const auto csr = predict_spmv(h200(), grid, SpmvFormat::csr);
  EXPECT_GT(csr.seconds, h200().launch_latency);
  EXPECT_EQ(csr.bound(), "streaming");
  EXPECT_GT(predict_spmv(h200(), scattered, SpmvFormat::csr).seconds, csr.seconds);
  // The stencil format streams no column indices.
  EXPECT_LT(predict_spmv(h200(), grid, SpmvFormat::stencil).seconds, csr.seconds);
  EXPECT_THROW(predict_spmv(h200(), grid, SpmvFormat::automatic), InvalidArgument);
}

TEST(SpmvCost, ValuesReadInFloatStreamFewerBytes) {
  SpmvFeatures doubles{1'000'000, 1'000'000, 7'000'000, 250'000};
  auto floats = doubles;
  floats.value_bytes = 4;
  for (const auto format : {SpmvFormat::csr, SpmvFormat::stencil}) {
    const auto d = predict_spmv(h200(), doubles, format), f = predict_spmv(h200(), floats, format);
    EXPECT_LT(f.seconds, d.seconds);
    EXPECT_EQ(f.terms[0].seconds, d.terms[0].seconds);  // the launch
  }
}

double sum_of_terms(const Prediction& p) {
  double sum = 0;
  for (const auto& t : p.terms) sum += t.seconds;
  return sum;
}

TEST(PreconditionerCost, FsaiIsItsTwoProductsAndJacobiOnePass) {
  const SpmvFeatures G{1'000'000, 1'000'000, 4'000'000, 250'000};
  const auto fsai = predict_fsai_apply(h200(), G, SpmvFormat::csr, G, SpmvFormat::stencil);
  EXPECT_DOUBLE_EQ(fsai.seconds, predict_spmv(h200(), G, SpmvFormat::csr).seconds +
                                     predict_spmv(h200(), G, SpmvFormat::stencil).seconds);
  EXPECT_DOUBLE_EQ(sum_of_terms(fsai), fsai.seconds);
  EXPECT_DOUBLE_EQ(predict_spai_apply(h200(), G, SpmvFormat::csr).seconds,
                   predict_spmv(h200(), G, SpmvFormat::csr).seconds);
  const auto jacobi = predict_jacobi_apply(h200(), 1'000'000);
  EXPECT_GT(jacobi.seconds, h200().launch_latency);
  EXPECT_LT(jacobi.seconds, predict_jacobi_apply(h200(), 2'000'000).seconds);
}

// An iteration is its products and applications plus the solver's own passes and launches:
// BiCGStab makes two of each, GMRES's passes grow with the restart length, TFQMR has no formula.
TEST(KrylovCost, AnIterationAddsTheSolversPassesToItsProductsAndApplications) {
  const long n = 1'000'000;
  const auto product = predict_spmv(h200(), {n, n, 7 * n, 250'000}, SpmvFormat::csr);
  const auto apply = predict_jacobi_apply(h200(), n);
  const auto cg = predict_krylov_iteration(h200(), KrylovSolver::cg, n, product, apply);
  EXPECT_GT(cg.seconds, product.seconds + apply.seconds);
  EXPECT_DOUBLE_EQ(sum_of_terms(cg), cg.seconds);
  EXPECT_GT(predict_krylov_iteration(h200(), KrylovSolver::bicgstab, n, product, apply).seconds,
            cg.seconds + product.seconds + apply.seconds);
  EXPECT_LT(predict_krylov_iteration(h200(), KrylovSolver::gmres, n, product, apply, 10).seconds,
            predict_krylov_iteration(h200(), KrylovSolver::gmres, n, product, apply, 50).seconds);
  EXPECT_THROW(predict_krylov_iteration(h200(), KrylovSolver::tfqmr, n, product, apply),
               NotSupported);
  EXPECT_THROW(predict_krylov_iteration(h200(), KrylovSolver::gmres, n, product, apply, 0),
               InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
