# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# What keeps the build short on two cores (docs/testing.md, "Build time").
#
# Precompiled headers: GPUPLAN_PCH=OFF builds without them (clang-tidy, or to check that every
# file includes what it uses).
option(GPUPLAN_PCH "Precompile the Qt and standard headers each target shares" ON)
function(gpuplan_pch target kind)
    if(GPUPLAN_PCH)
        target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${PROJECT_SOURCE_DIR}/cmake/pch/${kind}.h>")
    endif()
endfunction()

# Unity builds: each library's sources compiled in batches of sixteen, so the headers they share
# are read and their templates instantiated once a batch instead of once a file. Helpers in
# anonymous namespaces must therefore have names that differ across a library's files.
# GPUPLAN_UNITY=OFF compiles file by file (clang-tidy's compile commands need single files).
option(GPUPLAN_UNITY "Compile each library's sources in batches (unity build)" ON)
set(CMAKE_UNITY_BUILD ${GPUPLAN_UNITY})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)

# LLVM's linker where it is installed (the test command installs it): the suite links forty
# executables against the same static libraries, and lld does that in about half the time of
# the default linker. GPUPLAN_LLD=OFF keeps the default.
find_program(GPUPLAN_LLD_PROGRAM ld.lld)
if(GPUPLAN_LLD_PROGRAM)
    option(GPUPLAN_LLD "Link with LLVM's lld" ON)
else()
    set(GPUPLAN_LLD OFF)
endif()
if(GPUPLAN_LLD)
    add_link_options("$<$<LINK_LANGUAGE:CXX>:-fuse-ld=lld>")
endif()
