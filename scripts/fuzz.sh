#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of the Lua host (Tests/Fuzz/<target>/).
#
# Usage:
#   scripts/fuzz.sh [SECONDS] [TARGET...]   fuzz each target for SECONDS (default 60), one after
#                                           another, starting from its seed corpus
#   scripts/fuzz.sh --smoke [TARGET...]     CI: the seeds, then a fixed number of runs each from a
#                                           fixed random seed (reproducible)
#   scripts/fuzz.sh --replay [TARGET...]    run each target once over its seeds and findings
#   scripts/fuzz.sh --build                 only build
#
# Targets: value_bridge json_payload screen_loader event_streams pictures plugin_manifests
# fetch_answers preview_messages preview_http cli_arguments (default: all).
# Environment: FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS="-runs=1000000"); FUZZ_ASAN=0
# builds without AddressSanitizer (about three times the executions per second, for the long
# runs: crashes, hangs, running out of memory and broken invariants are still caught; memory
# errors that do not crash and leaks are not), into .build-fuzz-plain.
#
# How it builds: the package's library modules are built by SwiftPM with
# `--sanitize fuzzer --sanitize address` into .build-fuzz (libraries only, so no `main` clashes
# with libFuzzer's), and each target's Swift files are compiled with
# `swiftc -sanitize=fuzzer,address` against those modules and linked with their objects.
# (`pictures` and `plugin_manifests` need the tooling library too: SendingStateTools and what it
# links, built the same way when those targets are asked for.)
# Nothing in Package.swift is involved, so `swift build` is unchanged. The preview and CLI targets
# also need the preview's module and its dependencies (Hummingbird, NIO, NIOEmbedded for an
# in-process channel) and ArgumentParser, built the same way; the CLI target compiles the
# executable's own sources (Sources/SendingStateCLI) into its harness, less their `@main` line,
# so libFuzzer's `main` is the only one.
#
# Every run works on a scratch copy of the seeds (.build-fuzz/work/<target>/corpus), so the
# repository is never written; crashes, leaks, timeouts and out-of-memory inputs land in
# .build-fuzz/work/<target>/ and fail the script.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(value_bridge json_payload screen_loader event_streams pictures plugin_manifests fetch_answers
  preview_messages preview_http cli_arguments)
mode=fuzz
seconds=60
targets=()
for arg in "$@"; do
  case "$arg" in
    --smoke) mode=smoke ;;
    --replay) mode=replay ;;
    --build) mode=build ;;
    -h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *[!0-9]*) targets+=("$arg") ;;
    *) seconds="$arg" ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")

# Folder of each target under Tests/Fuzz.
folder() {
  case "$1" in
    value_bridge) echo ValueBridge ;;
    json_payload) echo JSONPayload ;;
    screen_loader) echo ScreenLoader ;;
    event_streams) echo EventStreams ;;
    pictures) echo Pictures ;;
    plugin_manifests) echo PluginManifests ;;
    fetch_answers) echo FetchAnswers ;;
    preview_messages) echo PreviewMessages ;;
    preview_http) echo PreviewHTTP ;;
    cli_arguments) echo CLIArguments ;;
    *) echo "fuzz.sh: unknown target '$1' (targets: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
  esac
}
for target in "${targets[@]}"; do folder "$target" >/dev/null; done

scripts/bootstrap.sh >/dev/null

SANITIZERS=fuzzer,address
SCRATCH=.build-fuzz
if [ "${FUZZ_ASAN:-1}" = 0 ]; then
  SANITIZERS=fuzzer
  SCRATCH=.build-fuzz-plain
fi
CONFIG=${FUZZ_CONFIG:-release}
BIN="$SCRATCH/$CONFIG"
OUT="$SCRATCH/targets"
COVERAGE=-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

# Whether a target needs the preview's modules (and the CLI's sources).
needs_preview() {
  case "$1" in
    preview_messages | preview_http | cli_arguments) return 0 ;;
    *) return 1 ;;
  esac
}

build() {
  local started=$SECONDS
  # The modules the targets use, instrumented for coverage and checked by AddressSanitizer.
  # NB: with optimization (whole-module) swiftc drops the coverage that `-sanitize=fuzzer`
  # implies, so the coverage kinds libFuzzer reads are named explicitly.
  # (Skipped when nothing under Sources/ changed since: SwiftPM rebuilds everything whenever
  # files are added under Tests/, fuzz sources included.)
  local stamp="$BIN/Modules/SendingStateLua.swiftmodule"
  if [ ! -f "$stamp" ] || [ -n "$(find Sources Package.swift -newer "$stamp" -print -quit)" ]; then
    swift build -c "$CONFIG" --target SendingStateLua --scratch-path "$SCRATCH" \
      $(printf -- '--sanitize %s ' ${SANITIZERS//,/ }) -Xswiftc "$COVERAGE" 2>&1 | grep -E "error:|Build" || true
  fi
  [ -f "$BIN/Modules/SendingStateLua.swiftmodule" ] || { echo "fuzz.sh: building the modules failed" >&2; exit 1; }
  # The tooling library, for the targets that draw pictures.
  local tools=0 target
  for target in "${targets[@]}"; do [ "$target" = pictures ] || [ "$target" = plugin_manifests ] && tools=1; done
  local toolsStamp="$BIN/Modules/SendingStateTools.swiftmodule"
  if [ $tools = 1 ] && { [ ! -f "$toolsStamp" ] || [ -n "$(find Sources Package.swift -newer "$toolsStamp" -print -quit)" ]; }; then
    swift build -c "$CONFIG" --target SendingStateTools --scratch-path "$SCRATCH" \
      $(printf -- '--sanitize %s ' ${SANITIZERS//,/ }) -Xswiftc "$COVERAGE" 2>&1 | grep -E "error:|Build" || true
    [ -f "$toolsStamp" ] || { echo "fuzz.sh: building SendingStateTools failed" >&2; exit 1; }
  fi
  local preview=0
  for target in "${targets[@]}"; do needs_preview "$target" && preview=1; done
  if [ $preview = 1 ]; then
    local pstamp="$BIN/Modules/SendingStatePreview.swiftmodule"
    if [ ! -f "$pstamp" ] || [ -n "$(find Sources Package.swift -newer "$pstamp" -print -quit)" ]; then
      for module in SendingStatePreview ArgumentParser NIOEmbedded; do
        swift build -c "$CONFIG" --target "$module" --scratch-path "$SCRATCH" \
          $(printf -- '--sanitize %s ' ${SANITIZERS//,/ }) -Xswiftc "$COVERAGE" 2>&1 | grep -E "error:|Build" || true
      done
    fi
    [ -f "$pstamp" ] || { echo "fuzz.sh: building the preview's modules failed" >&2; exit 1; }
    # The CLI's sources without `@main` (see the header).
    mkdir -p "$SCRATCH/cli-sources"
    local file copy
    for file in Sources/SendingStateCLI/*.swift; do
      copy="$SCRATCH/cli-sources/$(basename "$file")"
      # (Rewritten only when changed, so the target is not recompiled for nothing.)
      sed '/^@main$/d' "$file" >"$copy.new"
      if cmp -s "$copy.new" "$copy"; then rm "$copy.new"; else mv "$copy.new" "$copy"; fi
    done
    for copy in "$SCRATCH"/cli-sources/*.swift; do
      [ -f "Sources/SendingStateCLI/$(basename "$copy")" ] || rm "$copy"
    done
  fi
  local objects=() toolObjects=()
  local module
  for module in SendingState SendingStateHeadless SendingStateLua CLuaShim CFetch CHostCode; do
    objects+=("$BIN/$module.build"/*.o)
  done
  if [ $tools = 1 ]; then
    for module in SendingStatePlugins SendingStateTools CPicture; do
      toolObjects+=("$BIN/$module.build"/*.o)
    done
  fi
  mkdir -p "$OUT"
  local sources binary linked extra
  for target in "${targets[@]}"; do
    sources=(Tests/Fuzz/Common/*.swift "Tests/Fuzz/$(folder "$target")"/*.swift)
    linked=("${objects[@]}")
    extra=()
    if needs_preview "$target"; then
      # Every module built (the preview's whole dependency graph; no executable is built here).
      mapfile -t linked < <(find "$BIN/" -path '*.build/*' -name '*.o' | sort)
      # `package` declarations are visible to modules of the same package name, which SwiftPM
      # derives from the checkout's folder name.
      extra=(-package-name "$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9_\n' '_')"
        $(pkg-config --libs libcrypto) -ldl)
      # The C modules' maps and include folders, as SwiftPM gave them to the preview's module.
      mapfile -t cflags < <(grep -F "\"-module-name\",\"SendingStatePreview\"" "$SCRATCH/$CONFIG.yaml" | head -1 |
        grep -o '"-Xcc","[^"]*"' | sed 's/^"-Xcc","\(.*\)"$/-Xcc\n\1/')
      extra+=("${cflags[@]}")
      [ "$target" = cli_arguments ] && sources+=("$SCRATCH"/cli-sources/*.swift)
    fi
    binary="$OUT/$target"
    if [ "$target" = pictures ] || [ "$target" = plugin_manifests ]; then
      linked+=("${toolObjects[@]}")
      extra=(-Xcc -fmodule-map-file="$BIN/CPicture.build/module.modulemap" -I Sources/CPicture/include
        -Xcc -fmodule-map-file=Sources/CCrypto/module.modulemap $(pkg-config --cflags libcrypto))
    fi
    if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" "${linked[@]}" -newer "$binary" 2>/dev/null | head -1)" ]; then
      continue
    fi
    echo "fuzz.sh: compiling $target"
    swiftc -sanitize=$SANITIZERS "$COVERAGE" -use-ld=lld -parse-as-library -swift-version 6 -O -g \
      -warnings-as-errors \
      -I "$BIN/Modules" -I Sources/CLua -I Sources/CLuaShim/include $(pkg-config --cflags lua5.4) \
      -Xcc -fmodule-map-file="$BIN/CLuaShim.build/module.modulemap" \
      -Xcc -fmodule-map-file="$BIN/CFetch.build/module.modulemap" -I Sources/CFetch/include \
      -Xcc -fmodule-map-file="$BIN/CHostCode.build/module.modulemap" -I Sources/CHostCode/include \
      "${extra[@]}" "${sources[@]}" "${linked[@]}" $(pkg-config --libs lua5.4) \
      -module-name "Fuzz_$target" -o "$binary"
  done
  echo "fuzz.sh: built in $((SECONDS - started)) s"
}

build
[ "$mode" = build ] && exit 0

export SWIFT_DETERMINISTIC_HASHING=1
# Swift's own crash backtracer reads the stack in ways AddressSanitizer reports; libFuzzer and
# the sanitizer print the stack themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
# The project's suppressions (toolchain and system libraries only).
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"

# Runs of each target in the smoke (about 8 s each on this project's 2-core machine).
smoke_runs() {
  case "$1" in
    value_bridge) echo 4000 ;;
    json_payload) echo 5000 ;;
    screen_loader) echo 1800 ;;
    event_streams) echo 250 ;;
    pictures) echo 3000 ;;
    plugin_manifests) echo 2000 ;;
    fetch_answers) echo 1500 ;;
    preview_messages) echo 1500 ;;
    preview_http) echo 3000 ;;
    cli_arguments) echo 3000 ;;
  esac
}

failed=()
run() {
  local target=$1 duration=$2
  local dir
  dir="Tests/Fuzz/$(folder "$target")"
  local work="$SCRATCH/work/$target"
  rm -rf "$work/corpus"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp "$dir"/seeds/* "$work/corpus/" 2>/dev/null || true
  local log="$work/fuzz.log"
  # Longest input: a screen script can be long; bytes for decisions and JSON stay short (deep
  # JSON is slow to decode: FINDINGS.md 3).
  local max_len=1024
  [ "$target" = screen_loader ] && max_len=8192
  [ "$target" = json_payload ] && max_len=2048
  [ "$target" = fetch_answers ] && max_len=2048
  # A page's message may be 16 KiB (the limit itself must be reachable); argument lists are long.
  [ "$target" = preview_messages ] && max_len=17000
  [ "$target" = cli_arguments ] && max_len=4096
  # Per-input leak checks (libFuzzer re-runs an input under LeakSanitizer whenever it ends with
  # more allocations than frees, and scans the whole heap) cost 10x in long runs; those check
  # leaks once, at exit. The smoke and replays check every input.
  local leaks=1
  [ "$mode" = fuzz ] && [ -z "${FUZZ_LEAKS_PER_INPUT:-}" ] && leaks=0
  local flags=(-timeout=10 -rss_limit_mb=4096 -max_len=$max_len -print_final_stats=1 -detect_leaks=$leaks
    -artifact_prefix="$work/artifacts/" ${FUZZ_ARGS:-})
  local status=0
  if [ "$mode" = replay ]; then
    local inputs=("$dir"/seeds/*)
    [ -d "$dir/findings" ] && inputs+=("$dir"/findings/*)
    FUZZ_INCLUDE_KNOWN=1 "$OUT/$target" "${flags[@]}" "${inputs[@]}" >"$log" 2>&1 || status=$?
  elif [ "$mode" = smoke ]; then
    # Reproducible: a fixed seed and a fixed number of runs (not a time), so CI judges the same
    # inputs on a fast machine and a slow one.
    "$OUT/$target" "${flags[@]}" -seed=1 -runs="$(smoke_runs "$target")" "$work/corpus" >"$log" 2>&1 || status=$?
  else
    "$OUT/$target" "${flags[@]}" -max_total_time="$duration" "$work/corpus" >"$log" 2>&1 || status=$?
  fi
  local summary
  summary=$(grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|Done [0-9]+ runs)" "$log" | tr '\n' ' ')
  if [ $status -ne 0 ] || grep -qE "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|FUZZ INVARIANT BROKEN" "$log"; then
    echo "fuzz.sh: $target FAILED (exit $status); log: $log"
    grep -E "ERROR:|FUZZ INVARIANT BROKEN|Fatal error|Test unit written|SUMMARY" "$log" | head -20
    failed+=("$target")
  else
    echo "fuzz.sh: $target ok: $summary"
  fi
}

for target in "${targets[@]}"; do
  case "$mode" in
    smoke) run "$target" 0 ;;
    replay) run "$target" 0 ;;
    fuzz) run "$target" "$seconds" ;;
  esac
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: failures in: ${failed[*]}" >&2
  exit 1
fi
