#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# clang-tidy (the checks in .clang-tidy) on the C++ files a change touches: those that differ
# from BASE (default HEAD~1, the last commit's parent) plus uncommitted ones, under core/, ui/
# and app/. Any finding fails (WarningsAsErrors). Needs no build: it configures build-tidy
# (without precompiled headers, which clang cannot read from g++) for its compile commands;
# no source under core/, ui/ or app/ includes generated (moc) code.
#   scripts/tidy.sh [BASE]      e.g. scripts/tidy.sh main~5, or scripts/tidy.sh --all
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-HEAD~1}"
if [ "$base" = "--all" ]; then
  mapfile -t files < <(git ls-files 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp')
else
  git rev-parse -q --verify "$base^{commit}" >/dev/null || base="$(git rev-list --max-parents=0 HEAD)"
  mapfile -t files < <({ git diff --name-only --diff-filter=d "$base" -- 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp'
                          git ls-files --others --exclude-standard -- 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp'; } | sort -u)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "gpuplan: clang-tidy: no C++ file changed since $base"
  exit 0
fi
if [ ! -f build-tidy/compile_commands.json ]; then
  cmake -S . -B build-tidy -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DGPUPLAN_PCH=OFF -DGPUPLAN_UNITY=OFF -DGPUPLAN_ENABLE_CUDA=OFF -DGPUPLAN_BUILD_TESTS=OFF >/dev/null
fi
echo "gpuplan: clang-tidy on ${#files[@]} file(s) changed since $base"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p build-tidy --quiet 2>/dev/null
