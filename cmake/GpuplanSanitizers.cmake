# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# GPUPLAN_SANITIZE: "address,undefined" or "thread" builds every target with those
# sanitizers (scripts/test.sh runs the suite under both; docs/testing.md). The CUDA backend
# is left out of sanitized builds: nvcc's device code cannot be instrumented.
set(GPUPLAN_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined or thread")
if(GPUPLAN_SANITIZE)
    set(_gp_san_flags -fsanitize=${GPUPLAN_SANITIZE} -fno-omit-frame-pointer)
    if(GPUPLAN_SANITIZE MATCHES "undefined")
        # An undefined-behaviour report fails the test instead of scrolling by.
        list(APPEND _gp_san_flags -fno-sanitize-recover=undefined)
    endif()
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_gp_san_flags}>")
    add_link_options(${_gp_san_flags})
    message(STATUS "gpuplan: sanitizers ${GPUPLAN_SANITIZE}")
endif()
