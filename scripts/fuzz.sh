#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time,
# as many at once as there are cores:
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60; GPUPLAN_FUZZ_SECONDS also works)
# Seeds: data/ and tests/fuzz/seeds, plus every input kept in tests/fuzz/regressions.
# A crash stops the run; its input is left in build-fuzz/artifacts/TARGET/ to be fixed and
# then copied into tests/fuzz/regressions/TARGET/, where every test build runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
gpuplan_install_deps clang libclang-rt-14-dev
seconds="${1:-${GPUPLAN_FUZZ_SECONDS:-60}}"
build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g1" \
    -DGPUPLAN_FUZZ=ON -DGPUPLAN_BUILD_TESTS=OFF
fi
cmake --build "$build" --parallel "$(nproc)" --target fuzz_scenario fuzz_trace fuzz_catalog fuzz_cluster

seed_dirs() {
  case "$1" in
    scenario) echo tests/fuzz/regressions/scenario; find data/samples -name '*.json' -size -150k ;;
    catalog) echo tests/fuzz/regressions/catalog data/catalog data/models ;;
    trace) echo tests/fuzz/regressions/trace tests/fuzz/seeds/trace ;;
    cluster) echo tests/fuzz/regressions/cluster tests/data/cluster/kubernetes/cluster.json tests/data/cluster/slurm ;;
  esac
}

export GPUPLAN_DATA_DIR="$PWD/data"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fuzz_one() { # fuzz_one TARGET: runs it; 0, or 1 with what it found
  local target="$1" corpus="$build/corpus/$1" artifacts="$build/artifacts/$1/" dict=() input
  mkdir -p "$corpus" "$artifacts"
  # shellcheck disable=SC2046
  cp -n $(find $(seed_dirs "$target") -type f ! -name '.*') "$corpus"/ 2>/dev/null || true
  [ "$target" != trace ] && dict=(-dict=tests/fuzz/json.dict)
  echo "== fuzz_$target for ${seconds}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  if ! "$build/tests/fuzz/fuzz_$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=20 \
       -rss_limit_mb=4096 -max_len=131072 -print_final_stats=1 -artifact_prefix="$artifacts" \
       > "$build/fuzz_$target.log" 2>&1; then
    echo "fuzz_$target FOUND A CRASH: input in $artifacts, log in $build/fuzz_$target.log" >&2
    grep -E "ERROR|SUMMARY|invariant|runtime error" "$build/fuzz_$target.log" | head -20 >&2 || true
    input="$(ls -t "$artifacts" 2>/dev/null | head -1)"
    if [ -n "$input" ]; then
      echo "reproduce it:  GPUPLAN_DATA_DIR=\"\$PWD/data\" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $build/tests/fuzz/fuzz_$target $artifacts$input" >&2
      echo "once fixed, keep it:  cp $artifacts$input tests/fuzz/regressions/$target/  (every build then runs it)" >&2
    fi
    return 1
  fi
  echo "== fuzz_$target: $(grep -E "stat::number_of_executed_units" "$build/fuzz_$target.log" | tail -1)"
}

# The targets run side by side (each fuzzer is one process on one core), nproc at a time.
status=0
pids=()
for target in scenario trace catalog cluster; do
  fuzz_one "$target" &
  pids+=("$!")
  if [ ${#pids[@]} -ge "$(nproc)" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit $status
