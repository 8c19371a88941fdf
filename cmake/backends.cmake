# Finds each GPU backend's toolchain and defines WINNOW_WITH_<API> (ON when found), so a backend
# folder only has to read its option. Each sets WINNOW_<API>_WHY: what was found or what is missing.
include(CheckLanguage)

# OpenGL: EGL and GL through glvnd, and glad2 from tools/setup.sh to generate the loader.
set(WINNOW_GLAD_PYTHON "${PROJECT_SOURCE_DIR}/build/venv/bin/python" CACHE FILEPATH
    "Python with glad2 installed (tools/setup.sh makes build/venv)")
find_package(OpenGL QUIET COMPONENTS OpenGL EGL)
if(NOT OpenGL_OpenGL_FOUND OR NOT OpenGL_EGL_FOUND)
  set(WINNOW_GL_WHY "no EGL/OpenGL development files (libegl-dev, libgl-dev)")
elseif(NOT EXISTS "${WINNOW_GLAD_PYTHON}")
  set(WINNOW_GL_WHY "no glad2 at ${WINNOW_GLAD_PYTHON} (run tools/setup.sh)")
else()
  set(WINNOW_GL_FOUND ON)
  set(WINNOW_GL_WHY "EGL + OpenGL (glvnd), glad2")
endif()

# Vulkan: loader, headers and glslc to compile the compute shaders.
find_package(Vulkan QUIET COMPONENTS glslc)
if(NOT Vulkan_FOUND)
  set(WINNOW_VULKAN_WHY "no Vulkan loader/headers (libvulkan-dev)")
elseif(NOT Vulkan_glslc_FOUND)
  set(WINNOW_VULKAN_WHY "no glslc (shaderc)")
else()
  set(WINNOW_VULKAN_FOUND ON)
  set(WINNOW_VULKAN_WHY "Vulkan ${Vulkan_VERSION}, glslc")
endif()

# CUDA: CMake's CUDA language (nvcc on PATH, or CUDACXX).
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  set(WINNOW_CUDA_FOUND ON)
  set(WINNOW_CUDA_WHY "${CMAKE_CUDA_COMPILER}")
else()
  set(WINNOW_CUDA_WHY "no CUDA compiler (nvcc not on PATH, CUDACXX unset)")
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  # sm_90 (H100/H200) always; plus this machine's GPU when it has one.
  execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)
  if(no_gpu EQUAL 0)
    set(CMAKE_CUDA_ARCHITECTURES "90;native")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "90")
  endif()
endif()

option(WINNOW_WITH_GL "Build the OpenGL backend (gl/)" ${WINNOW_GL_FOUND})
option(WINNOW_WITH_VULKAN "Build the Vulkan backend (vulkan/)" ${WINNOW_VULKAN_FOUND})
option(WINNOW_WITH_CUDA "Build the CUDA backend (cuda/)" ${WINNOW_CUDA_FOUND})

# Why each GPU backend is not built ("" when it is): the top-level loop and the summary both read it.
set(WINNOW_BACKENDS_SUMMARY "")
foreach(api gl vulkan cuda)
  string(TOUPPER ${api} API)
  if(WINNOW_WITH_${API})
    set(WINNOW_${API}_REASON "")
    list(APPEND WINNOW_BACKENDS_SUMMARY "${api}: built (${WINNOW_${API}_WHY})")
  else()
    if(WINNOW_${API}_FOUND)
      set(WINNOW_${API}_REASON "WINNOW_WITH_${API}=OFF")
    else()
      set(WINNOW_${API}_REASON "${WINNOW_${API}_WHY}")
    endif()
    list(APPEND WINNOW_BACKENDS_SUMMARY "${api}: not built (${WINNOW_${API}_REASON})")
  endif()
endforeach()
