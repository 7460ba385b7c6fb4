#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start: install what is missing, build the programs (not the tests), and start the
# workbench on the bundled sample library. Without a display, say so and run the headless
# main job instead: evaluate every bundled sample and write its report.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
gpuplan_install_deps
gpuplan_build build -DGPUPLAN_BUILD_TESTS=OFF

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/app/gpuplan "$@"
fi
echo "gpuplan: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the headless main job instead."
echo
build/app/gpuplan-cli validate data/samples/*.json
echo
build/app/gpuplan-cli summary
build/app/gpuplan-cli summary --json > build/samples-summary.json
echo "gpuplan: wrote build/samples-summary.json"
