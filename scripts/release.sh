#!/usr/bin/env bash
# Builds the binary people install: optimised, with the Swift runtime and
# FoundationEssentials linked in (--static-swift-stdlib; nothing imports the
# whole of Foundation, so no ICU data comes with it), so it runs on a machine
# with no Swift toolchain and starts without the dynamic loader resolving
# their symbols; then stripped of its symbol tables. The system's SQLite, libxml2
# and libcrypto stay shared (libsqlite3-0, libxml2 and libssl3 on Debian).
# Prints the binary's size and, on its last line, its path.
#
#   scripts/release.sh              # build, strip, print the path
#   install -m 755 "$(scripts/release.sh | tail -1)" /usr/local/bin/evidence
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

swift build -c release --product evidence --static-swift-stdlib >&2
built="$(swift build -c release --product evidence --static-swift-stdlib --show-bin-path)/evidence"
out="${RELEASE_OUT:-.build/release-binary}"
mkdir -p "$out"
strip --strip-all -o "$out/evidence" "$built"
size=$(stat -c %s "$out/evidence")
echo "evidence $("$out/evidence" --version 2>/dev/null || true): $(python3 -c "print('%.1f' % ($size / 1048576))") MB, stripped" >&2
ldd "$out/evidence" | sed 's/^/  /' >&2
echo "$PWD/$out/evidence"
