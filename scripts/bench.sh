#!/usr/bin/env bash
# Runs the benchmarks in a release build and prints medians and ratios measured in one run.
#
# Usage:
#   scripts/bench.sh                      every case, 7 rounds (a few minutes), and each ratio
#                                         also by callgrind's instructions (a few more minutes)
#   scripts/bench.sh --quick              every case, 2 short rounds, the instructions from few
#                                         iterations (CI runs this; it never judges, it keeps
#                                         the cases and the callgrind pass working)
#   scripts/bench.sh --instructions       only the ratios, by instructions (for a noisy machine)
#   scripts/bench.sh --instructions CASE  one case under callgrind: instructions per operation;
#                                         CASE is a case's name as printed
#   scripts/bench.sh --heap               the Lua heap of an open counter screen (B5), alone
#   scripts/bench.sh --rss [--taps N]     RSS over 1,000,000 taps (N) of one screen in one process
#   scripts/bench.sh --only CASE --iterations N --profile-lua
#                                         one case's Lua VM instructions by Lua function (the
#                                         kernel's are kernel.engine:LINE / kernel.state:LINE),
#                                         counted by the limits' hook
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh >/dev/null
swift build -c release --product SendingStateBenchmarks 2>&1 | grep -E "error|warning: .*/(Sources|Tests)/|Compiling|Build" | tail -1
binary=.build/release/SendingStateBenchmarks

# The callgrind pass: instructions per operation of every case a ratio names, in one process
# (setting the cases up once). A dump is written at the end of each measuredRun; the binary
# runs each case for 1 and then N + 1 iterations and prints "case<TAB>N" in that order, so dump
# 2k+1 and 2k+2 are case k's pair. Writes "case<TAB>instructions" lines to the file $1.
# Temporary files and folders, removed when the script exits (however it exits).
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
instruction_pass() {
  scripts/bootstrap.sh valgrind >/dev/null
  local stripped="$scratch/bench-stripped" dumps="$scratch/dumps" runs="$scratch/runs" log="$scratch/callgrind.log"
  mkdir -p "$dumps"
  objcopy --strip-debug "$binary" "$stripped"
  chmod +x "$stripped"
  # (--dump-after takes the symbol as it is, no wildcards.)
  local symbol
  symbol="$(nm "$stripped" | awk '/measuredRun/ && !found { print $3; found = 1 }')"  # (no early exit: nm would get SIGPIPE)
  if ! LD_LIBRARY_PATH=.build/release valgrind --tool=callgrind --callgrind-out-file="$dumps/out" \
    --collect-atstart=no --toggle-collect='*measuredRun*' --dump-after="$symbol" "$stripped" \
    --instruction-runs "${@:2}" >"$runs" 2>"$log"; then
    grep -v '^==\|dwarf' "$log" | tail -20 >&2
    echo "bench.sh: the callgrind pass failed (above)" >&2
    return 1
  fi
  local k=0 name n base total
  : >"$1"
  while IFS=$'\t' read -r name n; do
    [ -n "$n" ] || continue  # (a line the binary printed that is not a case and its N)
    base="$(sed -n 's/^summary: \([0-9]*\)/\1/p' "$dumps/out.$((2 * k + 1))")"
    total="$(sed -n 's/^summary: \([0-9]*\)/\1/p' "$dumps/out.$((2 * k + 2))")"
    printf '%s\t%s\n' "$name" "$(( (total - base) / n ))" >>"$1"
    k=$((k + 1))
  done <"$runs"
}

if [ "${1:-}" = "--instructions" ] && [ -z "${2:-}" ]; then
  counts="$scratch/counts"
  instruction_pass "$counts"
  column -t -s $'\t' "$counts"
  echo
  "$binary" --instructions-file "$counts" --ratios-only
  exit 0
fi

if [ "${1:-}" = "--instructions" ]; then
  name="${2:?--instructions needs a case name}"
  iterations="${3:-2000}"
  scripts/bootstrap.sh valgrind >/dev/null
  # Valgrind cannot read this toolchain's DWARF, so it profiles a copy without debug sections
  # (symbols stay); the malloc interposer library is found beside the binary.
  stripped="$scratch/one-stripped"
  objcopy --strip-debug "$binary" "$stripped"
  chmod +x "$stripped"
  out="$scratch/one.out"
  # Only the case's own iterations are counted (measuredRun in the benchmarks' main.swift):
  # setting up every case costs ~4 billion instructions and varies by tens of millions from run
  # to run, more than 2,000 iterations of a plain-Lua floor.
  count() {
    LD_LIBRARY_PATH=.build/release valgrind --tool=callgrind --callgrind-out-file="$out" \
      --collect-atstart=no --toggle-collect='*measuredRun*' "$stripped" \
      --only "$name" --iterations "$1" >/dev/null 2>&1
    sed -n 's/^summary: \([0-9]*\)/\1/p' "$out"
  }
  # Two runs, so what a case does once (its first call's caches, allocations) cancels out.
  base="$(count 1)"
  total="$(count "$((iterations + 1))")"
  echo "$name: $(( (total - base) / iterations )) instructions per operation (callgrind, $iterations iterations)"
  rm -f "$stripped" "$out"
  exit 0
fi

if [ "${1:-}" = "--heap" ] || [ "${1:-}" = "--rss" ]; then
  "$binary" "$@"
  exit 0
fi

# B5's cold start compares the CLI (release) with a Swift + Foundation hello process.
cold=()
if [ -z "${1:-}" ] || [ "${1:-}" = "--quick" ]; then
  built=1
  for product in BenchHello sendingstate; do
    if ! swift build -c release --product "$product" >/tmp/bench-build.log 2>&1; then
      grep -E "error" /tmp/bench-build.log | head -5
      echo "bench.sh: the release $product did not build; B5's cold start is left out" >&2
      built=0
    fi
  done
  if [ "$built" = 1 ]; then
    # The CLI as scripts/install.sh installs it: without its debug information.
    installed="$scratch/sendingstate"
    strip --strip-debug -o "$installed" .build/release/sendingstate
    chmod +x "$installed"
    cold=(--hello .build/release/BenchHello --cli "$installed")
  fi
fi
# Each ratio by instructions too (a quick run counts few iterations: it keeps the pass working).
counted=()
if [ -z "${1:-}" ] || [ "${1:-}" = "--quick" ]; then
  counts="$scratch/counts"
  if [ "${1:-}" = "--quick" ]; then
    instruction_pass "$counts" --quick --iterations 20
  else
    instruction_pass "$counts"
  fi
  counted=(--instructions-file "$counts")
fi
# Pin to one core when possible, so the ratios are not skewed by the other core's load.
if command -v taskset >/dev/null 2>&1; then
  taskset -c 0 "$binary" "$@" "${cold[@]}" "${counted[@]}"
else
  "$binary" "$@" "${cold[@]}" "${counted[@]}"
fi
