#!/usr/bin/env bash
# Runs real pure-Lua libraries' own busted suites, unmodified, with stock busted 2.1.1 (Lua 5.4)
# and with `sendingstate test`, from each library's root, and fails unless both pass the same
# number of tests. The libraries are Debian's source packages of luassert, say and mediator
# (their upstream tarballs, fetched with `apt-get source --tar-only`).
#
# Usage: scripts/library-suites.sh [path/to/sendingstate]
#
# Sources come through scripts/debian-source.sh (which needs a deb-src entry) and are cached in
# .build/library-suites, so later runs need no network.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
binary="$(cd "$(dirname "${1:-$(swift build --show-bin-path)/sendingstate}")" && pwd)/sendingstate"
cache="$root/.build/library-suites"
packages=(lua-luassert lua-say lua-mediator)

# shellcheck source=scripts/debian-source.sh
source scripts/debian-source.sh

# The passed count of each runner's closing line.
busted_passed() { sed -n 's/^\([0-9]*\) success.*/\1/p' | tail -1; }
ours_passed() { sed -n 's/^\([0-9]*\) passed, .*/\1/p' | tail -1; }

status=0
for package in "${packages[@]}"; do
  debian_source "$package" "$cache"
  work="$(mktemp -d)"
  tar -xzf "$cache/$package"_*.orig.tar.gz -C "$work"
  library="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)"
  expected="$(cd "$library" && lua5.4 /usr/bin/busted -o plainTerminal 2>&1 | busted_passed || true)"
  actual="$(cd "$library" && "$binary" test 2>&1 | ours_passed || true)"
  if [ -n "$expected" ] && [ "$expected" = "$actual" ] && [ "$expected" -gt 0 ]; then
    echo "library-suites: $package: $actual passed, as with busted 2.1.1"
  else
    echo "library-suites: $package: busted 2.1.1 passed '${expected}', sendingstate test passed '${actual}'" >&2
    (cd "$library" && "$binary" test 2>&1 | tail -20) >&2
    status=1
  fi
  rm -rf "$work"
done

# Our own suite in busted's full style must give stock busted the same TAP.
if ! diff <(lua5.4 /usr/bin/busted -o TAP spec/busted_style_spec.lua) <("$binary" test -o TAP spec/busted_style_spec.lua 2>/dev/null); then
  echo "library-suites: spec/busted_style_spec.lua: TAP differs from busted 2.1.1's" >&2
  status=1
else
  echo "library-suites: spec/busted_style_spec.lua: the same TAP as busted 2.1.1"
fi
exit "$status"
