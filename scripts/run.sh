#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Quick start: install what is missing, build the programs (not the tests), and start the
# workbench on the bundled sample library. Without a display, say so and run the headless
# main job instead: the KPIs of every bundled sample (printed, and as JSON in
# build/samples-summary.json) and each sample's six-page PDF report with its charts and
# tables in build/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
gpuplan_install_deps
gpuplan_build build -DGPUPLAN_BUILD_TESTS=OFF
cli=build/app/gpuplan-cli
echo "gpuplan: built $("$cli" --version | head -1); $("$cli" --version | sed -n 2p)"

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/app/gpuplan "$@"
fi
echo "gpuplan: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the headless main job instead."
echo
"$cli" summary
"$cli" summary --json > build/samples-summary.json
echo "gpuplan: wrote build/samples-summary.json"
mkdir -p build/reports
# The report renders offscreen; Qt wants a private runtime folder, which a root shell without a
# desktop session lacks.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  mkdir -p -m 700 build/runtime
  export XDG_RUNTIME_DIR="$PWD/build/runtime"
fi
for sample in data/samples/*.json; do
  name="$(basename "$sample" .json)"
  "$cli" report "$sample" -o "build/reports/$name.pdf" --charts "build/reports/$name" > /dev/null
  echo "gpuplan: wrote build/reports/$name.pdf (six pages) and its charts and tables in build/reports/$name/"
done
