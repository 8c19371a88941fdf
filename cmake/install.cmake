# `cmake --install` puts the winnow CLI, the libraries, their public headers and a CMake package in
# place, so that another project can
#   find_package(winnow REQUIRED COMPONENTS gl vulkan cuda)
#   target_link_libraries(app PRIVATE winnow::backends)   # or winnow::common, winnow::gl, …
# The libraries are static: their private dependencies that must be linked (libspng, the CUDA
# runtime, the Vulkan loader, oneTBB) are found again by winnowConfig.cmake; header-only ones and the
# warning flags are build-tree only ($<BUILD_INTERFACE:…> where they are linked).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WINNOW_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/winnow)

# A library of the package: exported as winnow::<name>, its include/ folder (when it has one) installed.
function(winnow_install_library target name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  install(TARGETS ${target} EXPORT winnowTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endfunction()

# Called once every target exists (end of the top-level CMakeLists.txt).
function(winnow_install_package)
  install(EXPORT winnowTargets NAMESPACE winnow:: DESTINATION ${WINNOW_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/winnowConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/winnowConfig.cmake INSTALL_DESTINATION ${WINNOW_INSTALL_CMAKEDIR})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/winnowConfigVersion.cmake COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/winnowConfig.cmake ${PROJECT_BINARY_DIR}/winnowConfigVersion.cmake
          DESTINATION ${WINNOW_INSTALL_CMAKEDIR})
endfunction()
