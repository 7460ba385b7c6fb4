#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# The README's commands on a machine nobody has touched (the test stage `fresh`,
# docs/testing.md): a minbase Debian 12 root (debootstrap, only git and ca-certificates),
# this checkout cloned into it with ../shared beside it, then inside it, as root and
# without a display, ./scripts/run.sh and ./scripts/test.sh.
#
#   scripts/fresh-debian.sh
#
# Environment:
#   GPUPLAN_FRESH_CACHE          where the root's tarball is kept (default ~/.cache/gpuplan)
#   GPUPLAN_FRESH_MAX_AGE_DAYS   rebuild the tarball when it is older (default 7)
#   GPUPLAN_FRESH_TEST_STAGES    the stages of test.sh run inside (default "main fuzz"; empty:
#                                run.sh only). asan and tsan build with the same g++ and its
#                                sanitizer runtimes (libgcc-12-dev), so they need no package
#                                the main stage does not.
#   GPUPLAN_FRESH_FUZZ_SECONDS   seconds per fuzz target inside (default 10)
#   GPUPLAN_FRESH_KEEP=1         keep the root afterwards (its path is printed)
#   GPUPLAN_FRESH_COMMAND        run this command line in /work/main inside instead (to look
#                                into a failure: e.g. "./scripts/run.sh; bash -i" is no use in
#                                CI, but "apt-get install -y foo && ./scripts/run.sh" is)
#
# It clones what is committed (HEAD), as CI sees it. Mounts (/proc, /sys, /dev) exist only in
# a private mount namespace (unshare), so they vanish with it on every exit path and the
# clean-up never reaches through them; the root itself is removed on exit.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
cache="${GPUPLAN_FRESH_CACHE:-$HOME/.cache/gpuplan}"
max_age="${GPUPLAN_FRESH_MAX_AGE_DAYS:-7}"
stages="${GPUPLAN_FRESH_TEST_STAGES-main fuzz}"
fuzz_seconds="${GPUPLAN_FRESH_FUZZ_SECONDS:-10}"
tarball="$cache/debian12-minbase.tar.gz"
log="$src/build-fresh.log"

say() { echo "fresh: $*"; }
die() { echo "fresh: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts)"
[ ! -e /.gpuplan-fresh-root ] || die "already inside a fresh root; not nesting another"
for tool in unshare chroot git tar; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed"
done
if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap \
    || die "could not install debootstrap"
fi

# The mirror the host's apt uses, so the new root reaches the same packages.
mirror="$(grep -hoE '^(deb[[:space:]]+|URIs:[[:space:]]*)https?://[^[:space:]]+/debian/?' \
            /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
          | head -1 | sed -E 's/^(deb|URIs:)[[:space:]]*//' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

work="$(mktemp -d /var/tmp/gpuplan-fresh.XXXXXX)"
child=""
cleanup() {
  local rc=$?
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  if [ "${GPUPLAN_FRESH_KEEP:-0}" = 1 ]; then
    say "kept the root in $work/root"
  else
    rm -rf --one-file-system "$work"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$SECONDS
mkdir -p "$cache"
if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mtime "+$max_age")" ]; then
  say "reusing $tarball (built $(date -r "$tarball" '+%Y-%m-%d %H:%M'), rebuilt after $max_age days)"
else
  say "building a minbase Debian 12 root from $mirror"
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$work/build" "$mirror" \
    > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; die "debootstrap"; }
  rm -rf "$work/build/var/cache/apt/archives/"*.deb
  tar -C "$work/build" -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
  rm -rf --one-file-system "$work/build"
fi
root="$work/root"
mkdir -p "$root"
tar -C "$root" -xzf "$tarball"
touch "$root/.gpuplan-fresh-root"

# apt's sources, configuration and keys, and name resolution, as on the host (debootstrap's
# own sources.list would name the mirror twice).
rm -f "$root/etc/apt/sources.list"
for d in sources.list.d apt.conf.d preferences.d trusted.gpg.d auth.conf.d; do
  if [ -d "/etc/apt/$d" ]; then
    mkdir -p "$root/etc/apt/$d"
    cp -a "/etc/apt/$d/." "$root/etc/apt/$d/"
  fi
done
[ -f /etc/apt/sources.list ] && cp -a /etc/apt/sources.list "$root/etc/apt/sources.list"
for k in $(grep -hoE 'Signed-By:[[:space:]]*/[^[:space:]]+|signed-by=/[^] ]+' /etc/apt/sources.list \
             /etc/apt/sources.list.d/* 2>/dev/null | sed -E 's/^(Signed-By:[[:space:]]*|signed-by=)//'); do
  [ -f "$k" ] && [ ! -f "$root$k" ] && mkdir -p "$root$(dirname "$k")" && cp -a "$k" "$root$k"
done
for f in resolv.conf hosts; do
  [ -e "/etc/$f" ] && cp -L "/etc/$f" "$root/etc/$f"
done

# The checkout (what is committed) and ../shared beside it.
mkdir -p "$root/work"
git clone --quiet --no-hardlinks "$src" "$root/work/main"
say "cloned $(git -C "$root/work/main" log -1 --format='%h %s' | cut -c1-72)"
if [ -d "$src/../shared" ]; then
  cp -a "$src/../shared" "$root/work/shared"
fi
say "root ready in $((SECONDS - start)) s"

inner="cd /work/main && ./scripts/run.sh"
if [ -n "$stages" ]; then
  inner="$inner && GPUPLAN_TEST_STAGES='$stages' GPUPLAN_FUZZ_SECONDS=$fuzz_seconds ./scripts/test.sh"
fi
if [ -n "${GPUPLAN_FRESH_COMMAND:-}" ]; then
  inner="cd /work/main && $GPUPLAN_FRESH_COMMAND"
fi
say "running as root, without a display: $inner"
run_start=$SECONDS
set +e
setsid unshare --mount --propagation private -- bash -c '
  set -e
  r="$1"; shift
  mount -t proc proc "$r/proc"
  mount -t sysfs -o ro sysfs "$r/sys" 2>/dev/null || true
  mount --bind /dev "$r/dev"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" 2>/dev/null || true
  mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
  exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
' fresh "$root" "$inner" > >(tee "$log") 2>&1 &
child=$!
wait "$child"
rc=$?
child=""
set -e
# Let tee finish writing the log before it is read.
sleep 1
if [ $rc -ne 0 ]; then
  echo "fresh: what the log names as missing or failing:" >&2
  grep -E "Could not find|could not be found|not available|command not found|No such file|Unable to locate|^E: |FAIL|Failed|error:" \
    "$log" | grep -v '^--' | sort -u | head -20 >&2 || true
  die "'$inner' exited $rc in a fresh Debian 12 root after $((SECONDS - run_start)) s (log: $log)"
fi
say "passed: '$inner' in a fresh Debian 12 root, $((SECONDS - run_start)) s ($((SECONDS - start)) s in all)"
