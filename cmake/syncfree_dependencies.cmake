# SPDX-License-Identifier: BSD-3-Clause
#
# Finds Kokkos and Kokkos Kernels on one of two paths and hides their differences behind
# SyncFree::kokkos (Kokkos + Kokkos Kernels) and, on the Trilinos path, SyncFree::trilinos
# (Tpetra, Belos, Ifpack2 and MPI):
#
#  1. Standalone Kokkos 4.6+ and Kokkos Kernels 4.7+ (for example built with CUDA), chosen when
#     Kokkos_ROOT or KokkosKernels_ROOT is given, or when no Trilinos is found.
#  2. Trilinos (Debian 12's 13.2 packages: Kokkos 3.4, Serial backend). Its quirks are absorbed here:
#     the imported Kokkos::kokkos target carries a bogus include directory (/usr/lib/include), so
#     we use Trilinos_INCLUDE_DIRS / Trilinos_LIBRARIES instead; its headers need MPI; and its
#     Kokkos forbids C++ extensions.
#
# Sets SYNCFREE_DEPENDENCY_SOURCE (standalone|trilinos), SYNCFREE_KOKKOS_VERSION and
# SYNCFREE_HAVE_TPETRA. This file is installed and included again by SyncFreeConfig.cmake.

include_guard(GLOBAL)
set(CMAKE_CXX_EXTENSIONS OFF)

if(DEFINED Kokkos_ROOT OR DEFINED KokkosKernels_ROOT OR DEFINED ENV{Kokkos_ROOT})
  set(_syncfree_try_trilinos OFF)
else()
  set(_syncfree_try_trilinos ON)
endif()
if(SYNCFREE_DEPENDENCY_SOURCE STREQUAL "standalone")
  set(_syncfree_try_trilinos OFF)
endif()

set(SYNCFREE_HAVE_TPETRA OFF)
if(_syncfree_try_trilinos)
  find_package(Trilinos QUIET COMPONENTS KokkosKernels OPTIONAL_COMPONENTS Tpetra Belos Ifpack2)
endif()

if(_syncfree_try_trilinos AND Trilinos_FOUND)
  set(SYNCFREE_DEPENDENCY_SOURCE trilinos)
  find_package(MPI REQUIRED COMPONENTS CXX)
  set(SYNCFREE_KOKKOS_VERSION "Trilinos ${Trilinos_VERSION}")

  # Kokkos and Kokkos Kernels alone: their libraries in Trilinos' link order.
  set(_syncfree_kokkos_libs)
  foreach(_lib trilinos_kokkoskernels trilinos_kokkosalgorithms trilinos_kokkoscontainers
               trilinos_kokkoscore)
    if(${_lib} IN_LIST Trilinos_LIBRARIES)
      list(APPEND _syncfree_kokkos_libs ${_lib})
    endif()
  endforeach()
  if(NOT TARGET SyncFree::kokkos)
    add_library(SyncFree::kokkos INTERFACE IMPORTED)
    set_target_properties(SyncFree::kokkos PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${Trilinos_INCLUDE_DIRS};${Trilinos_TPL_INCLUDE_DIRS}"
      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${Trilinos_INCLUDE_DIRS};${Trilinos_TPL_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES "${_syncfree_kokkos_libs};MPI::MPI_CXX")
  endif()

  set(_syncfree_missing)
  foreach(_pkg Tpetra Belos Ifpack2)
    if(NOT ";${Trilinos_PACKAGE_LIST};" MATCHES ";${_pkg};")
      list(APPEND _syncfree_missing ${_pkg})
    endif()
  endforeach()
  if(NOT _syncfree_missing)
    set(SYNCFREE_HAVE_TPETRA ON)
    if(NOT TARGET SyncFree::trilinos)
      add_library(SyncFree::trilinos INTERFACE IMPORTED)
      set_target_properties(SyncFree::trilinos PROPERTIES
        INTERFACE_LINK_LIBRARIES "SyncFree::kokkos;${Trilinos_LIBRARIES};${Trilinos_TPL_LIBRARIES}")
    endif()
  else()
    message(STATUS "SyncFree: Trilinos lacks ${_syncfree_missing}; the Tpetra adapters are off")
  endif()
else()
  set(SYNCFREE_DEPENDENCY_SOURCE standalone)
  find_package(Kokkos 4.6 REQUIRED)
  find_package(KokkosKernels 4.7 REQUIRED)
  set(SYNCFREE_KOKKOS_VERSION "${Kokkos_VERSION}, Kokkos Kernels ${KokkosKernels_VERSION}")
  if(NOT TARGET SyncFree::kokkos)
    add_library(SyncFree::kokkos INTERFACE IMPORTED)
    set_target_properties(SyncFree::kokkos PROPERTIES
      INTERFACE_LINK_LIBRARIES "Kokkos::kokkos;Kokkos::kokkoskernels")
  endif()
  if(Kokkos_ENABLE_CUDA)
    find_package(CUDAToolkit REQUIRED)
  endif()
endif()

# SCOTCH (optional; Debian's libscotch-dev) for the nested-dissection ordering: SyncFree::scotch
# and SYNCFREE_HAVE_SCOTCH when found and SYNCFREE_ENABLE_SCOTCH is on.
set(SYNCFREE_HAVE_SCOTCH OFF)
if(NOT DEFINED SYNCFREE_ENABLE_SCOTCH OR SYNCFREE_ENABLE_SCOTCH)
  find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch)
  find_library(SCOTCH_LIBRARY scotch)
  find_library(SCOTCH_ERR_LIBRARY scotcherr)
  if(SCOTCH_INCLUDE_DIR AND SCOTCH_LIBRARY AND SCOTCH_ERR_LIBRARY)
    set(SYNCFREE_HAVE_SCOTCH ON)
    if(NOT TARGET SyncFree::scotch)
      add_library(SyncFree::scotch INTERFACE IMPORTED)
      set_target_properties(SyncFree::scotch PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${SCOTCH_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "${SCOTCH_LIBRARY};${SCOTCH_ERR_LIBRARY}")
    endif()
  endif()
endif()

# SuiteSparse's BTF (optional; Debian's libsuitesparse-dev) for the maximum transversal of
# permute_to_zero_free_diagonal: SyncFree::btf and SYNCFREE_HAVE_BTF when found and
# SYNCFREE_ENABLE_BTF is on. The static library is preferred: nothing to carry at run time.
set(SYNCFREE_HAVE_BTF OFF)
if(NOT DEFINED SYNCFREE_ENABLE_BTF OR SYNCFREE_ENABLE_BTF)
  find_path(BTF_INCLUDE_DIR btf.h PATH_SUFFIXES suitesparse)
  find_library(BTF_LIBRARY NAMES libbtf.a btf)
  if(BTF_INCLUDE_DIR AND BTF_LIBRARY)
    set(SYNCFREE_HAVE_BTF ON)
    if(NOT TARGET SyncFree::btf)
      add_library(SyncFree::btf INTERFACE IMPORTED)
      set_target_properties(SyncFree::btf PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${BTF_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "${BTF_LIBRARY}")
    endif()
  endif()
endif()
