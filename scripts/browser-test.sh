#!/usr/bin/env bash
# Browser tests of `sendingstate preview`: Debian's Chromium and chromedriver, driven by Selenium
# (from PyPI, in a virtual environment under .build-browser/), against the built CLI. Screenshots
# go to .build-browser/screenshots/; --update-screenshots writes the README's, in docs/screenshots/.
#
# Usage: scripts/browser-test.sh [--update-screenshots] [-k NAME]   (after `swift build`;
#        scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh chromium chromium-driver

venv=.build-browser/venv
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==4.50.0"
fi

screenshots=.build-browser/screenshots
if [ "${1:-}" = "--update-screenshots" ]; then
  screenshots=docs/screenshots
  shift
fi

# Selenium finds the browser and driver we name; it must not try to download its own.
export SE_OFFLINE=true
exec "$venv/bin/python" scripts/preview/browser_test.py --binary "$(swift build --show-bin-path)/sendingstate" \
  --screenshots "$screenshots" "$@"
