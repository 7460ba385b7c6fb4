# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Precompiled headers (docs/testing.md: the test command's build time). GPUPLAN_PCH=OFF builds
# without them (clang-tidy, or to check that every file includes what it uses).
option(GPUPLAN_PCH "Precompile the Qt and standard headers each target shares" ON)
function(gpuplan_pch target kind)
    if(GPUPLAN_PCH)
        target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${PROJECT_SOURCE_DIR}/cmake/pch/${kind}.h>")
    endif()
endfunction()
