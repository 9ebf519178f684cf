#!/usr/bin/env bash
# Builds the DocC documentation of the Swift libraries with swift-docc-plugin, treating every
# documentation warning (a broken symbol link, an unknown parameter…) as an error.
#
# Usage: scripts/docs.sh [OUTPUT]   (default .build/docs; one folder per library)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in SendingState SendingStateHeadless SendingStateLua SendingStatePlugins SendingStateTesting; do
  if ! swift package --disable-sandbox --allow-writing-to-directory "$out" \
    generate-documentation --target "$target" --warnings-as-errors \
    --output-path "$out/$target" >"$log" 2>&1; then
    grep -Ev "^warning: (prohibited flag|'swift-distributed-tracing')|CMakeLists.txt|^\[[0-9]+/[0-9]+\]" "$log" | tail -60
    echo "docs.sh: the documentation of $target does not build cleanly" >&2
    exit 1
  fi
  echo "docs.sh: $target ok ($out/$target)"
done
