#!/usr/bin/env bash
# Installs the system dependencies of SendingState for Linux, idempotently.
#
# Usage: scripts/bootstrap.sh [MORE-DEBIAN-PACKAGES…]
#
# Does nothing when everything is already present. Otherwise runs
# `apt-get update` once, then installs the missing Debian packages with
# --no-install-recommends (as root, or through sudo when it is available).
set -euo pipefail

# Lua and its tools (the interpreter, busted, luassert, luacheck); libcurl for fetches; OpenSSL's
# libcrypto for plugin lockfile hashes; cairo, pango and DejaVu Sans for screen pictures (run
# --png/--svg, the preview's layout); callers add their own (scripts/browser-test.sh adds
# chromium and chromium-driver).
packages=(liblua5.4-dev libcurl4-openssl-dev libssl-dev pkg-config binutils lua5.4 lua-busted lua-luassert lua-check libcairo2-dev libpango1.0-dev
  fonts-dejavu-core "$@")

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "bootstrap: missing packages: ${missing[*]}" >&2
  echo "bootstrap: run this script as root (or install sudo) so it can apt-get install them" >&2
  exit 1
fi

echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: done" >&2
