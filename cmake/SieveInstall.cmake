# `cmake --install` of the plugin: its public headers, the static library `sieve` with the static library
# it links (embedded SPIR-V), and a CMake package so that a host writes
#   find_package(sieve CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE sieve::sieve)
# Included last by the top-level CMakeLists.txt, when every target's link interface is final.

# Off by default when Sieve is a subproject (add_subdirectory, FetchContent) of a host's build.
option(SIEVE_INSTALL "Install the plugin's headers, libraries and CMake package" ${PROJECT_IS_TOP_LEVEL})
if(NOT SIEVE_INSTALL)
  return()
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SIEVE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/sieve)

# Headers: only the public surface (sieve/sieve.h includes exactly these; the in-tree helpers beside them
# in passes/include are for this repository's hosts, tests and bench). They include "sieve/x.h" (below
# include/) and "shared/x.h" (the layouts a host fills and reads, below include/sieve/shaders/, the
# install interface of sieve_shared_headers).
set(SIEVE_PUBLIC_HEADERS sieve.h plugin.h culling.h geometry_pass.h result.h device.h view.h depth_format.h
                          cull_tests.h cluster.h cluster_mesh_pass.h)
list(TRANSFORM SIEVE_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/passes/include/sieve/)
install(FILES ${SIEVE_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sieve)
install(FILES ${PROJECT_SOURCE_DIR}/shaders/shared/common.h ${PROJECT_SOURCE_DIR}/shaders/shared/scene.h
              ${PROJECT_SOURCE_DIR}/shaders/shared/draw.h ${PROJECT_SOURCE_DIR}/shaders/shared/cull_tests.h
              ${PROJECT_SOURCE_DIR}/shaders/shared/cull_state.h
              ${PROJECT_SOURCE_DIR}/shaders/shared/material.h ${PROJECT_SOURCE_DIR}/shaders/shared/shadow.h
              ${PROJECT_SOURCE_DIR}/shaders/shared/cluster.h ${PROJECT_SOURCE_DIR}/shaders/shared/cull.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sieve/shaders/shared)

# Everything in sieve's link closure that is built here. A static library exports its private
# dependencies too (as $<LINK_ONLY:...>), so sieve_spirv belongs to the export set.
set(SIEVE_EXPORTED_TARGETS sieve sieve_spirv sieve_shared_headers)
set_target_properties(sieve_spirv PROPERTIES EXPORT_NAME spirv)
set_target_properties(sieve_shared_headers PROPERTIES EXPORT_NAME shared_headers)

# Walks sieve's link interface and turns every imported target in it into the lines that recreate it
# in the consumer's project. A dependency added later without a line here is reported at configure
# time (and the consumer-package test fails), instead of producing a package that cannot be used.
set(SIEVE_PACKAGE_DEPENDENCIES "")
# A pkg-config module behind an imported target PkgConfig::<prefix>: looked up again by the config,
# which reports a missing one as "not found" rather than stopping the consumer's configure step.
macro(sieve_package_pkgconfig prefix module package)
  string(APPEND SIEVE_PACKAGE_DEPENDENCIES
    "find_dependency(PkgConfig)\n"
    "pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${module})\n"
    "if(NOT ${prefix}_FOUND)\n"
    "  string(APPEND _sieve_missing \" ${module} (apt-get install -y ${package})\")\n"
    "endif()\n")
endmacro()
set(SIEVE_PACKAGE_SEEN "")
function(sieve_package_walk target)
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT links)
    return()
  endif()
  foreach(item ${links})
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(NOT TARGET ${item} OR item IN_LIST SIEVE_PACKAGE_SEEN)
      continue()  # plain libraries (dl) are written into the export as they are
    endif()
    list(APPEND SIEVE_PACKAGE_SEEN ${item})
    get_target_property(aliased ${item} ALIASED_TARGET)
    if(aliased)
      set(item ${aliased})
    endif()
    get_target_property(imported ${item} IMPORTED)
    if(NOT imported)
      if(NOT item IN_LIST SIEVE_EXPORTED_TARGETS)
        message(WARNING "sieve links ${item}, which SieveInstall.cmake does not install")
      endif()
      sieve_package_walk(${item})
    elseif(item MATCHES "^Vulkan::")
      # find_dependency(Vulkan) is always written (the public headers include the Vulkan headers).
    elseif(item STREQUAL "Threads::Threads")
      string(APPEND SIEVE_PACKAGE_DEPENDENCIES "find_dependency(Threads)\n")
    elseif(item STREQUAL "PkgConfig::SIEVE_IMGUI")
      sieve_package_pkgconfig(SIEVE_IMGUI imgui libimgui-dev)
    elseif(item STREQUAL "PkgConfig::SIEVE_SHADERC")
      sieve_package_pkgconfig(SIEVE_SHADERC shaderc libshaderc-dev)
    elseif(item STREQUAL "meshoptimizer::meshoptimizer")
      string(APPEND SIEVE_PACKAGE_DEPENDENCIES "find_dependency(meshoptimizer CONFIG)\n")
    else()
      message(WARNING "sieve links the imported target ${item}; teach cmake/SieveInstall.cmake to find it "
                      "again in sieveConfig.cmake")
    endif()
  endforeach()
  set(SIEVE_PACKAGE_DEPENDENCIES "${SIEVE_PACKAGE_DEPENDENCIES}" PARENT_SCOPE)
  set(SIEVE_PACKAGE_SEEN "${SIEVE_PACKAGE_SEEN}" PARENT_SCOPE)
endfunction()
sieve_package_walk(sieve)

install(TARGETS ${SIEVE_EXPORTED_TARGETS}
  EXPORT sieveTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT sieveTargets
  NAMESPACE sieve::
  DESTINATION ${SIEVE_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/sieveConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sieveConfig.cmake
  INSTALL_DESTINATION ${SIEVE_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sieveConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sieveConfig.cmake ${PROJECT_BINARY_DIR}/sieveConfigVersion.cmake
  DESTINATION ${SIEVE_INSTALL_CMAKEDIR})
