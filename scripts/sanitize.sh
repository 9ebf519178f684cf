#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and LeakSanitizer (debug build).
#
# Usage: scripts/sanitize.sh [extra `swift test` arguments]
#
# Only leaks inside XCTest and fontconfig are suppressed (scripts/lsan.supp, with the reasons); a
# leak anywhere else, including in the Lua host and its fetches through libcurl, fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1"
# Tests that measure peak memory skip their ceiling under ASan (quarantine and shadow memory).
export SENDINGSTATE_SANITIZED=1
# Serially: ASan makes the CPU-bound tests (pattern oracles, attacks that run to their deadline)
# several times slower, and on Linux the main actor drains on the same one-thread-per-core pool,
# so in a parallel run main-actor tests waited 10 s and more behind them and their own time
# limits ran out. Serial is also faster here (about 45 s of tests against 3 minutes).
# The soak test runs 100,000 events per example in the plain run; 10,000 here, where every
# call is checked and slower.
export SOAK_EVENTS="${SOAK_EVENTS:-10000}"
swift test --sanitize=address --scratch-path .build-asan --no-parallel "$@"
