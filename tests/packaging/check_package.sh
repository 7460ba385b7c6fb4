#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Packaging test (ctest: tst_packaging): `cmake --install` lays everything out in the
# standard places, the installed programs find their data there, the desktop entry and the
# AppStream metainfo validate, the icon exists at the hicolor sizes, and CPack makes a .deb
# that depends on Debian's Qt 6 packages.   check_package.sh BUILD_DIR CPACK
set -euo pipefail
build="$1"
cpack="$2"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The install tree.
DESTDIR="$stage/root" cmake --install "$build" --prefix /usr > "$stage/install.log"
root="$stage/root/usr"
for f in bin/gpuplan bin/gpuplan-cli \
         share/gpuplan/catalog/gpus.json share/gpuplan/models/llama3-70b.json \
         share/gpuplan/samples/01-dgx-h100-three-tenants.json \
         share/applications/org.gpuplan.gpuplan.desktop \
         share/metainfo/org.gpuplan.gpuplan.metainfo.xml \
         share/icons/hicolor/scalable/apps/gpuplan.svg \
         share/doc/gpuplan/README.md share/doc/gpuplan/user-guide.md share/doc/gpuplan/copyright; do
  [ -e "$root/$f" ] || fail "cmake --install did not install $f"
done
[ -x "$root/bin/gpuplan" ] && [ -x "$root/bin/gpuplan-cli" ] || fail "programs are not executable"
for f in $(cd "$stage/root" && find . -type f | sed 's|^\./||'); do
  case "$f" in usr/bin/*|usr/share/gpuplan/*|usr/share/applications/*|usr/share/metainfo/*|usr/share/icons/hicolor/*|usr/share/doc/gpuplan/*) ;;
    *) fail "installed outside the standard places: /$f" ;;
  esac
done
[ ! -e "$root/bin/crashchild" ] || fail "a test helper was installed"

# 2. Icons at the standard sizes, each PNG exactly that size.
for size in 16 22 24 32 48 64 128 256 512; do
  png="$root/share/icons/hicolor/${size}x${size}/apps/gpuplan.png"
  [ -f "$png" ] || fail "no ${size}x${size} icon"
  dims=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$png")
  [ "$dims" = "${size}x${size}" ] || fail "$png is $dims"
done

# 3. Desktop entry and AppStream metainfo.
desktop-file-validate "$root/share/applications/org.gpuplan.gpuplan.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net --pedantic "$root/share/metainfo/org.gpuplan.gpuplan.metainfo.xml" \
  || fail "appstreamcli validate"
grep -q '<launchable type="desktop-id">org.gpuplan.gpuplan.desktop</launchable>' \
  "$root/share/metainfo/org.gpuplan.gpuplan.metainfo.xml" || fail "metainfo does not launch the desktop entry"

# 4. The installed programs find their data beside them (no GPUPLAN_DATA_DIR), and the
#    workbench starts on its seeded library.
home="$stage/home"
mkdir -p "$home"
env -u GPUPLAN_DATA_DIR HOME="$home" XDG_DATA_HOME="$home/data" "$root/bin/gpuplan-cli" validate \
  "$root/share/gpuplan/samples/02-mixed-sharing-lab.json" > "$stage/validate.log" || fail "installed gpuplan-cli validate"
env -u GPUPLAN_DATA_DIR HOME="$home" XDG_DATA_HOME="$home/data" QT_QPA_PLATFORM=offscreen \
  "$root/bin/gpuplan" --screenshot "$stage/shot.png" || fail "installed gpuplan did not start"
[ -s "$stage/shot.png" ] || fail "installed gpuplan took no screenshot"
env -u GPUPLAN_DATA_DIR HOME="$home" XDG_DATA_HOME="$home/data" "$root/bin/gpuplan-cli" library list \
  > "$stage/library.log" || fail "installed gpuplan-cli library list"
grep -q "6 scenario(s)" "$stage/library.log" || fail "the installed workbench did not seed its library with the 6 samples"

# 5. The Debian package.
(cd "$stage" && "$cpack" --config "$build/CPackConfig.cmake" -B "$stage/deb" > "$stage/cpack.log" 2>&1) \
  || { cat "$stage/cpack.log" >&2; fail "cpack"; }
deb=$(ls "$stage"/deb/gpuplan_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no gpuplan_*_amd64.deb"
depends=$(dpkg-deb -f "$deb" Depends)
for pkg in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6sql6 libqt6sql6-sqlite libqt6svg6 qt6-qpa-plugins libc6 libstdc++6; do
  grep -qx "$pkg" <<< "$(tr ',' '\n' <<< "$depends" | sed 's/^ *//; s/ .*//')" || fail "the .deb does not depend on $pkg (Depends: $depends)"
done
[ "$(dpkg-deb -f "$deb" Package)" = gpuplan ] || fail "package name"
[ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ] || fail "architecture"
# Names into a file first: with pipefail, `awk | grep -q` fails whenever grep's early exit
# kills awk with SIGPIPE before it has written the whole listing.
dpkg-deb -c "$deb" | awk '{print $6}' > "$stage/contents"
for f in ./usr/bin/gpuplan ./usr/bin/gpuplan-cli ./usr/share/metainfo/org.gpuplan.gpuplan.metainfo.xml \
         ./usr/share/applications/org.gpuplan.gpuplan.desktop ./usr/share/icons/hicolor/256x256/apps/gpuplan.png \
         ./usr/share/gpuplan/catalog/gpus.json ./usr/share/doc/gpuplan/copyright; do
  grep -qxF "$f" "$stage/contents" || fail "the .deb lacks $f"
done
# 6. The licence: GPL-3.0-or-later in the .deb's copyright file (DEP-5) and the metainfo.
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/gpuplan/copyright > "$stage/copyright"
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$stage/copyright" \
  || fail "the .deb's copyright file is not in the DEP-5 format"
grep -qx 'License: GPL-3+' "$stage/copyright" || fail "the .deb's copyright file does not say GPL-3+"
grep -q '<project_license>GPL-3.0-or-later</project_license>' \
  "$root/share/metainfo/org.gpuplan.gpuplan.metainfo.xml" || fail "metainfo project_license is not GPL-3.0-or-later"
echo "ok: install tree, icons, desktop entry, metainfo, installed programs, $(basename "$deb") ($(du -h "$deb" | cut -f1); Depends: $depends)"
