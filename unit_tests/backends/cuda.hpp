// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once
#include <Kokkos_Core.hpp>

#define SYNCFREE_TEST_EXECSPACE Kokkos::Cuda
#define SYNCFREE_TEST_DEVICE Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>
#define SYNCFREE_TEST_BACKEND_NAME "cuda"
