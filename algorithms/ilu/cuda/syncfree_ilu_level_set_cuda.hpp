// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The level-set ILU factorization on CUDA as a graph: the first factorization records its
/// one launch per level into a CUDA graph; later ones (new values, same plan) replay it with one
/// call. The kernels' arguments are the plan's views, which do not move, so a replay reads the
/// values the plan holds at that time.

#if defined(KOKKOS_ENABLE_CUDA)

#include <memory>

#include "core/syncfree_error.hpp"

namespace syncfree::impl {

struct IluCudaGraph final : IluLaunchRecording {
  cudaGraphExec_t instance = nullptr;
  ~IluCudaGraph() override {
    if (instance) cudaGraphExecDestroy(instance);
  }
};

inline void require_cuda(cudaError_t status, const char* what) {
  SYNCFREE_REQUIRE(status == cudaSuccess, CudaError, "ilu level-set graph: ", what, ": ",
                   cudaGetErrorString(status));
}

template <class Matrix>
struct IluLevelSetLaunch<Kokkos::Cuda, Matrix> {
  static void run(const Kokkos::Cuda& exec, const IluPlanStorage<Matrix>& s, bool replace,
                  int width) {
    const int key = 2 * width + (replace ? 1 : 0);
    const cudaStream_t stream = exec.cuda_stream();
    if (!s.level_set_recording || s.level_set_recording->key != key) {
      s.level_set_recording.reset();
      require_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "begin capture");
      cudaGraph_t graph = nullptr;
      try {
        ilu_factor_level_set(exec, s, replace, width);
      } catch (...) {
        cudaStreamEndCapture(stream, &graph);
        if (graph) cudaGraphDestroy(graph);
        throw;
      }
      require_cuda(cudaStreamEndCapture(stream, &graph), "end capture");
      auto recording = std::make_shared<IluCudaGraph>();
      const cudaError_t status = cudaGraphInstantiate(&recording->instance, graph, 0);
      cudaGraphDestroy(graph);
      require_cuda(status, "instantiate");
      recording->key = key;
      s.level_set_recording = recording;
    }
    const auto& recording = static_cast<const IluCudaGraph&>(*s.level_set_recording);
    require_cuda(cudaGraphLaunch(recording.instance, stream), "launch");
  }
};

}  // namespace syncfree::impl

#endif
