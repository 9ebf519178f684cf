#!/usr/bin/env bash
# Runs real pure-Lua libraries' own busted suites, unmodified, with stock busted 2.1.1 (Lua 5.4)
# and with `sendingstate test`, from each library's root, and fails unless both pass the same
# number of tests. The libraries are Debian's source packages of luassert, say and mediator
# (their upstream tarballs, fetched with `apt-get source --tar-only`).
#
# Usage: scripts/library-suites.sh [path/to/sendingstate]
#
# Needs a deb-src entry for Debian's archive: when there is none and we are root, one is added
# beside /etc/apt/sources.list.d/debian.sources (the same archive, Types: deb-src). Sources are
# cached in .build/library-suites, so later runs need no network.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
binary="$(cd "$(dirname "${1:-$(swift build --show-bin-path)/sendingstate}")" && pwd)/sendingstate"
cache="$root/.build/library-suites"
packages=(lua-luassert lua-say lua-mediator)
mkdir -p "$cache"

fetch() {
  local package="$1"
  if ls "$cache/$package"_*.orig.tar.gz >/dev/null 2>&1; then return 0; fi
  if ! apt-get source --tar-only --print-uris "$package" 2>/dev/null | grep -q "orig.tar"; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "library-suites: no deb-src entry for $package; add one (Types: deb-src) and run apt-get update" >&2
      return 1
    fi
    if [ -f /etc/apt/sources.list.d/debian.sources ] && [ ! -f /etc/apt/sources.list.d/sendingstate-src.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/sendingstate-src.sources
    fi
    apt-get update -qq
  fi
  local attempt
  for attempt in 1 2 3; do
    if (cd "$cache" && apt-get source --tar-only -qq "$package" >/dev/null 2>&1); then return 0; fi
    sleep "$attempt"
  done
  echo "library-suites: could not fetch the source of $package" >&2
  return 1
}

# The passed count of each runner's closing line.
busted_passed() { sed -n 's/^\([0-9]*\) success.*/\1/p' | tail -1; }
ours_passed() { sed -n 's/^\([0-9]*\) passed, .*/\1/p' | tail -1; }

status=0
for package in "${packages[@]}"; do
  fetch "$package"
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
