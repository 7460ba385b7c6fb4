#!/usr/bin/env bash
# Install what is missing, build with warnings as errors, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
gpuplan_install_deps python3 python3-yaml poppler-utils
gpuplan_build build-test -DGPUPLAN_WERROR=ON -DGPUPLAN_BUILD_TESTS=ON
cd build-test
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" "$@"
