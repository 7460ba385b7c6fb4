# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Warnings for every gpuplan target: -Wall -Wextra -Wpedantic, and -Werror in CI.
function(gpuplan_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
        $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${GPUPLAN_WERROR}>>:-Werror>)
endfunction()
