#!/usr/bin/env bash
# Passes the tests on a fresh machine: installs system dependencies, then runs the whole suite.
#
# Usage: scripts/test.sh [extra `swift test` arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
