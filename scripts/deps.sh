#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Installs the Debian 12 packages gpuplan needs, only those that are missing (idempotent).
# Sourced by run.sh, test.sh and fuzz.sh; run as root (or as a user with sudo).
#
# The lists were found by trying on a fresh minbase Debian 12 root (scripts/fresh-debian.sh,
# the test stage `fresh`), not by guessing; apt installs without Recommends, so everything a
# step calls is named here, even where another package merely recommends it.
set -euo pipefail

# What ./scripts/run.sh needs: the compiler, CMake and Ninja, Qt 6 (Qt Charts needs
# Qt6OpenGL's CMake files, which qt6-base-dev only recommends), Qt's SQLite and PostgreSQL
# drivers (the library file, and a team library on a server), Random123 (the simulation's
# Philox generator) and yaml-cpp (the cluster configuration's YAML).
GPUPLAN_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite libqt6sql6-psql libgl1-mesa-dev
  librandom123-dev libyaml-cpp-dev
)

# What ./scripts/test.sh needs beyond that: Python with PyYAML (the cluster-config export
# is read back), poppler-utils (pdfinfo, pdftotext for the report and slides), clang and its
# runtime (libFuzzer, the fuzz stage), clang-format and clang-tidy (the main stage's format
# check and lint), appstream and desktop-file-utils (metainfo and desktop entry validation),
# file (CPack's .deb generator calls it), lld (links the suite's executables in half the time),
# PostgreSQL 15 (tst_teamlibrary starts a throwaway server of its own), Slurm and munge (tst_sweep
# starts a single-node Slurm and runs a sweep as a job array), Prometheus (tst_checkplan backfills
# recorded DCGM-exporter output with promtool and serves it on 127.0.0.1), python3-jsonschema
# (tst_clusterobjects checks the DRA and HAMi exports against published schemas).
GPUPLAN_TEST_PACKAGES=(
  python3 python3-yaml python3-jsonschema poppler-utils clang libclang-rt-14-dev clang-format clang-tidy appstream desktop-file-utils
  file lld postgresql-15 slurm-wlm munge prometheus
)

gpuplan_install_deps() {
  local extra=("$@") missing=() pkg
  for pkg in "${GPUPLAN_PACKAGES[@]}" "${extra[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "gpuplan: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "gpuplan: run as root to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Configures (once) and builds a build directory: gpuplan_build DIR [cmake args...]
gpuplan_build() {
  local dir="$1"; shift
  local src
  src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
  fi
  cmake --build "$dir" --parallel "$(nproc)"
}
