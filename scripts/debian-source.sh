#!/usr/bin/env bash
# Sourced by scripts that need a Debian source package's upstream tarball.
#
#   debian_source PACKAGE CACHE_DIR   leaves CACHE_DIR/PACKAGE_VERSION.orig.tar.* (fetched once)
#
# Needs a deb-src entry for Debian's archive: when there is none and we are root, one is added
# beside /etc/apt/sources.list.d/debian.sources (the same archive, Types: deb-src).
debian_source() {
  local package="$1" cache="$2"
  mkdir -p "$cache"
  if ls "$cache/$package"_*.orig.tar.* >/dev/null 2>&1; then return 0; fi
  if ! apt-get source --tar-only --print-uris "$package" 2>/dev/null | grep -q "orig.tar"; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "$(basename "$0"): no deb-src entry for $package; add one (Types: deb-src) and run apt-get update" >&2
      return 1
    fi
    if [ -f /etc/apt/sources.list.d/debian.sources ] && [ ! -f /etc/apt/sources.list.d/sendingstate-src.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/sendingstate-src.sources
    fi
    apt-get update -qq
  fi
  local attempt
  for attempt in 1 2 3; do
    if (cd "$cache" && apt-get source --tar-only -qq "$package" >/dev/null 2>&1); then return 0; fi
    sleep "$attempt"
  done
  echo "$(basename "$0"): could not fetch the source of $package" >&2
  return 1
}
