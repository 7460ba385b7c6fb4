#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Install what is missing, then build and run every test, in five stages (docs/testing.md):
#   main      the format check, the regular build (-Werror, CUDA where nvcc is), the whole suite,
#             packaging, and clang-tidy on the C++ files the last commit changed
#   asan      AddressSanitizer + UndefinedBehaviorSanitizer build, the whole suite
#   tsan      ThreadSanitizer build, the tests that evaluate and simulate in the background
#   fuzz      libFuzzer (clang) on the scenario, trace and catalog readers, bounded in time
#             (GPUPLAN_FUZZ_SECONDS per target, default 15 here, the targets side by side)
#   fresh     a fresh minbase Debian 12 root: run.sh and test.sh there (scripts/fresh-debian.sh)
# GPUPLAN_TEST_STAGES="main asan" runs some of them; GPUPLAN_SKIP_FRESH=1 leaves out the
# fresh stage (CI runs it); GPUPLAN_TIDY_BASE (default HEAD~1) is what clang-tidy diffs against.
# Arguments go to the main stage's ctest (e.g. -R tst_store).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
gpuplan_install_deps "${GPUPLAN_TEST_PACKAGES[@]}"
stages="${GPUPLAN_TEST_STAGES:-main asan tsan fuzz fresh}"
if [ "${GPUPLAN_SKIP_FRESH:-0}" = 1 ]; then
  stages="${stages//fresh/}"
fi
jobs="$(nproc)"
export QT_QPA_PLATFORM=offscreen
summary=()
timed() { # timed NAME COMMAND...: runs it and notes how long it took
  local name="$1" start=$SECONDS; shift
  "$@"
  summary+=("$name: $((SECONDS - start)) s")
}
sanitizer_flags=(-DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g1" -DGPUPLAN_ENABLE_CUDA=OFF -DGPUPLAN_BUILD_TESTS=ON)

for stage in $stages; do
  case "$stage" in
    main)
      timed "format" scripts/format.sh --check
      # -g1 (line tables: file and line in a backtrace) instead of -g: a quarter less to compile.
      timed "main build" gpuplan_build build-test -DGPUPLAN_WERROR=ON -DGPUPLAN_BUILD_TESTS=ON \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
      timed "main tests" ctest --test-dir build-test --output-on-failure --parallel "$jobs" "$@"
      timed "clang-tidy" scripts/tidy.sh "${GPUPLAN_TIDY_BASE:-HEAD~1}" ;;
    asan)
      export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
      export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
      export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
      timed "asan build" gpuplan_build build-asan -DGPUPLAN_SANITIZE=address,undefined "${sanitizer_flags[@]}"
      timed "asan tests" ctest --test-dir build-asan --output-on-failure --parallel "$jobs"
      unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS ;;
    tsan)
      # The tests whose work runs on other threads: the simulation's worker threads, the
      # workbench's background evaluation, simulation and trade-off matrix, autosave, and the
      # replay sweeps of the CLI that tst_sweepdialog starts (built here too).
      tsan_tests=(tst_simulation tst_mainwindow tst_workbench tst_properties tst_recovery tst_replay tst_replaydialog tst_jobsearch tst_sweepdialog)
      # die_after_fork=0: the recovery tests start and kill child processes (QProcess forks and
      # execs) while the thread pool runs; TSan would otherwise stop at the fork.
      export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:die_after_fork=0:suppressions=$PWD/tests/sanitizers/tsan.supp"
      if [ ! -f build-tsan/build.ninja ]; then
        cmake -S . -B build-tsan -G Ninja -DGPUPLAN_SANITIZE=thread "${sanitizer_flags[@]}"
      fi
      timed "tsan build" cmake --build build-tsan --parallel "$jobs" --target "${tsan_tests[@]}" crashchild gpuplan-cli
      timed "tsan tests" ctest --test-dir build-tsan --output-on-failure --parallel "$jobs" \
        -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\$"
      unset TSAN_OPTIONS ;;
    fuzz)
      timed "fuzz" scripts/fuzz.sh "${GPUPLAN_FUZZ_SECONDS:-15}" ;;
    fresh)
      timed "fresh Debian 12 root" scripts/fresh-debian.sh ;;
    *)
      echo "unknown stage '$stage' (main, asan, tsan, fuzz, fresh)" >&2; exit 2 ;;
  esac
done
printf 'gpuplan tests passed:'; printf ' [%s]' "${summary[@]}"; echo
