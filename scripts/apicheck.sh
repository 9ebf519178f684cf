#!/usr/bin/env bash
# Runs the test suite against a Lua built with API checks on (LUA_USE_APICHECK): Debian's own
# Lua 5.4 source, built as a drop-in liblua5.4.so.0 whose every C API call asserts its
# arguments (stack slots, indices, types), then loaded in place of the system library with
# LD_LIBRARY_PATH. A misuse of the API by our C shim or Swift code aborts the run.
#
# Usage: scripts/apicheck.sh [extra `swift test` arguments]   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/debian-source.sh
source scripts/debian-source.sh

work=.build/apicheck
debian_source lua5.4 "$work"
library="$work/lib/liblua5.4.so.0"
if [ ! -f "$library" ]; then
  rm -rf "$work/src" && mkdir -p "$work/src" "$work/lib"
  tar -xf "$work"/lua5.4_*.orig.tar.* -C "$work/src" --strip-components=1
  sources=()
  for file in "$work"/src/src/*.c; do
    case "$(basename "$file")" in lua.c | luac.c) ;; *) sources+=("$file") ;; esac
  done
  # Debian's flags (LUA_COMPAT_5_3, LUA_USE_LINUX), plus the API checks; no NDEBUG, so the
  # checks are live asserts.
  # Debian versions the library's symbols (LUA_5.4); so does this one, or the loader complains
  # on stderr of every run.
  echo 'LUA_5.4 { global: *; };' > "$work/lua.map"
  cc -O1 -g -fPIC -shared -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -DLUA_USE_APICHECK \
    -Wl,-soname,liblua5.4.so.0 -Wl,--version-script="$work/lua.map" -o "$library" "${sources[@]}" -lm -ldl
fi
# The checks are compiled in (they are asserts).
objdump -T "$library" | grep __assert_fail >/dev/null || { echo "apicheck: $library has no API checks" >&2; exit 1; }
tests="$(swift build --show-bin-path)/SendingStatePackageTests.xctest"
# The checked library must be the one the tests load.
LD_LIBRARY_PATH="$PWD/$work/lib" ldd "$tests" | grep "$PWD/$work/lib/liblua5.4.so.0" >/dev/null || {
  echo "apicheck: the tests do not load $library" >&2
  exit 1
}
# Debian patches Lua's default module paths (/usr/share/lua/5.4 for busted and luassert); the
# upstream build gets the same paths from the environment.
LUA_PATH_5_4="$(lua5.4 -e 'io.write(package.path)')"
LUA_CPATH_5_4="$(lua5.4 -e 'io.write(package.cpath)')"
export LUA_PATH_5_4 LUA_CPATH_5_4
echo "apicheck: running the suite against $library (LUA_USE_APICHECK)"
# The soak test runs 100,000 events per example in the plain run; 10,000 here, where every
# call is checked and slower.
export SOAK_EVENTS="${SOAK_EVENTS:-10000}"
LD_LIBRARY_PATH="$PWD/$work/lib" swift test --skip-build "$@"
