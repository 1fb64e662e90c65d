# SPDX-License-Identifier: BSD-3-Clause
# Installs the headers, the library and a CMake package: find_package(SyncFree) gives
# SyncFree::syncfree (and SyncFree::tpetra on the Trilinos path), with Kokkos and Kokkos Kernels found again the way this build found them.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SYNCFREE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/SyncFree)

install(TARGETS syncfree EXPORT SyncFreeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY core algorithms DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncfree
        FILES_MATCHING PATTERN "*.hpp")
if(TARGET syncfree_tpetra)
  install(TARGETS syncfree_tpetra EXPORT SyncFreeTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY adapters DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncfree
          FILES_MATCHING PATTERN "*.hpp")
endif()
install(FILES ${PROJECT_BINARY_DIR}/include/core/syncfree_config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncfree/core)
install(EXPORT SyncFreeTargets NAMESPACE SyncFree:: DESTINATION ${SYNCFREE_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/SyncFreeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/SyncFreeConfig.cmake INSTALL_DESTINATION ${SYNCFREE_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/SyncFreeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/SyncFreeConfig.cmake
              ${PROJECT_BINARY_DIR}/SyncFreeConfigVersion.cmake
              cmake/syncfree_dependencies.cmake
        DESTINATION ${SYNCFREE_INSTALL_CMAKEDIR})
