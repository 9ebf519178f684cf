#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and LeakSanitizer (debug build).
#
# Usage: scripts/sanitize.sh [extra `swift test` arguments]
#
# Only leaks inside XCTest, the system libcurl and FoundationNetworking's URLSession are
# suppressed (scripts/lsan.supp, with the reasons); a leak anywhere else, including in the Lua
# host, fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1"
swift test --sanitize=address --scratch-path .build-asan "$@"
