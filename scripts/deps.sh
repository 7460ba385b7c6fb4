#!/usr/bin/env bash
# Installs the Debian 12 packages gpuplan needs, only those that are missing (idempotent).
# Sourced by run.sh and test.sh; run as root (or with sudo available).
set -euo pipefail

GPUPLAN_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev libqt6sql6-sqlite libgl1-mesa-dev
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
