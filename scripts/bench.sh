#!/usr/bin/env bash
# Runs the benchmarks in a release build and prints medians and ratios measured in one run.
#
# Usage: scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product SendingStateBenchmarks
# Pin to one core when possible, so the ratios are not skewed by the other core's load.
if command -v taskset >/dev/null 2>&1; then
  taskset -c 0 .build/release/SendingStateBenchmarks
else
  .build/release/SendingStateBenchmarks
fi
