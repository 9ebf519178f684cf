#!/usr/bin/env bash
# Lists the public API of the library products' Swift modules (the `products:` of Package.swift:
# not the CLI, the tools library, test support or the C modules) and compares it with the
# checked-in api/public-api.txt, so that the API grows, or breaks, only as a reviewed decision:
# a change to a public declaration shows in a pull request as a change to that file.
#
# The list comes from SwiftPM's symbol graphs (`swift package dump-symbol-graph`, public and open
# symbols only, so `package` declarations are not in it), made into sorted text by
# scripts/public_api.py: one line per symbol (module, kind, path, declaration) and one per
# conformance and superclass. It reuses the debug build.
#
# Usage: scripts/public-api.sh            compare; on a difference print it and exit 1
#        scripts/public-api.sh --update   rewrite api/public-api.txt
set -euo pipefail
cd "$(dirname "$0")/.."

update=false
case "${1:-}" in
  "") ;;
  --update) update=true ;;
  *) echo "usage: scripts/public-api.sh [--update]" >&2; exit 2 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# SwiftPM writes the graphs beside the debug folder; stale ones (a removed module) go first.
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
rm -rf "$graphs"
if ! swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members \
  > "$work/dump.log" 2>&1; then
  cat "$work/dump.log" >&2
  echo "public-api.sh: swift package dump-symbol-graph failed" >&2
  exit 1
fi
swift package describe --type json > "$work/package.json"
python3 scripts/public_api.py "$work/package.json" "$graphs" > "$work/public-api.txt"

if $update; then
  mkdir -p api
  cp "$work/public-api.txt" api/public-api.txt
  echo "public-api.sh: wrote api/public-api.txt ($(grep -cv '^#' api/public-api.txt) lines)"
  exit 0
fi
if ! diff -u --label api/public-api.txt --label "the public API now" \
  "$(if [[ -f api/public-api.txt ]]; then echo api/public-api.txt; else echo /dev/null; fi)" \
  "$work/public-api.txt"; then
  echo "public-api.sh: the public API differs from api/public-api.txt; if the change is intended," \
    "run scripts/public-api.sh --update and commit api/public-api.txt" >&2
  exit 1
fi
echo "public-api.sh: the public API matches api/public-api.txt"
