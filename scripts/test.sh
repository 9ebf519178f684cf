#!/usr/bin/env bash
# Passes the tests on a fresh machine: installs system dependencies, checks the C shim with
# strict warnings, builds with warnings as errors, then runs the whole suite.
#
# Usage: scripts/test.sh [extra `swift test` arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh

# Our C code, with the warning set of Lua's own developer build.
cc -fsyntax-only -std=c99 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
  -Wstrict-prototypes -Werror $(pkg-config --cflags lua5.4) -ISources/CLuaShim/include \
  Sources/CLuaShim/LuaShim.c
cc -fsyntax-only -std=c99 -Wall -Wextra -Wundef -Werror $(pkg-config --cflags lua5.4) -x c Sources/CLua/CLua.h

# Zero warnings in our Swift code (we have no package dependencies yet, so all code is ours).
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
