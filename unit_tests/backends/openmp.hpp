// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once
#include <Kokkos_Core.hpp>

#define SYNCFREE_TEST_EXECSPACE Kokkos::OpenMP
#define SYNCFREE_TEST_DEVICE Kokkos::Device<Kokkos::OpenMP, Kokkos::HostSpace>
#define SYNCFREE_TEST_BACKEND_NAME "openmp"
