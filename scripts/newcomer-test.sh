#!/usr/bin/env bash
# The README's first steps as a newcomer takes them, outside this repository: install the CLI
# with scripts/install.sh into a scratch prefix, put it on PATH, `sendingstate init` a project in
# an empty folder, run its screen, pass its spec, check it, get a coverage report, then break a
# spec with a syntax error and see that error with its file:line beside the other file's results.
#
# Usage: scripts/newcomer-test.sh   (scripts/test.sh runs it)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "newcomer-test.sh: $1" >&2
  exit 1
}

"$root/scripts/install.sh" --prefix "$scratch/prefix" > "$scratch/install.log" 2>&1 ||
  { cat "$scratch/install.log" >&2; fail "scripts/install.sh failed"; }
[ -x "$scratch/prefix/bin/sendingstate" ] || fail "install.sh did not install prefix/bin/sendingstate"
grep -q "is not on your PATH" "$scratch/install.log" || fail "install.sh did not say that its bin folder is not on PATH"
# It carries the Swift runtime and Foundation (Package.swift links the release CLI statically):
# it runs without the toolchain, and starts without resolving the Swift libraries' symbols.
# (ldd's output is read whole first: with pipefail, `ldd | grep -q` fails when grep stops early.)
linked="$(ldd "$scratch/prefix/bin/sendingstate")"
if grep -q "libswift\|libFoundation" <<<"$linked"; then
  fail "the installed CLI links the toolchain's Swift libraries: $(grep "libswift\|libFoundation" <<<"$linked" | head -3)"
fi
export PATH="$scratch/prefix/bin:$PATH"

mkdir "$scratch/home"
cd "$scratch/home"
if git rev-parse --git-dir > /dev/null 2>&1; then
  fail "the scratch folder $scratch/home is inside a git repository; it must be outside this one"
fi

sendingstate init hello > /dev/null
cd hello
sendingstate test > "$scratch/test.out" 2>&1 || { cat "$scratch/test.out" >&2; fail "the new project's spec fails"; }
grep -q "2 passed, 0 failed" "$scratch/test.out" || { cat "$scratch/test.out" >&2; fail "expected 2 passed"; }
said="$(sendingstate run screen.lua --send 'tap plus' --send 'tap plus')"
[[ "$said" == *'label#count text="2"'* ]] || fail "run screen.lua --send 'tap plus' twice should show count 2: $said"
sendingstate check > /dev/null || fail "check finds problems in the new project"
luacheck --no-color --quiet . || fail "luacheck finds problems in the new project"

# Coverage: a per-file summary, and LCOV that genhtml (Debian's lcov) renders.
sendingstate test --coverage > "$scratch/coverage.out" 2>&1 || { cat "$scratch/coverage.out" >&2; fail "test --coverage failed"; }
grep -qE "^screen\.lua +[0-9]+ +0 +100\.00%" "$scratch/coverage.out" ||
  { cat "$scratch/coverage.out" >&2; fail "expected screen.lua fully covered in the summary"; }
grep -qx "SF:screen.lua" coverage/lcov.info || fail "coverage/lcov.info does not name screen.lua"
if command -v genhtml > /dev/null; then
  genhtml --quiet coverage/lcov.info --output-directory "$scratch/html" > /dev/null 2>&1 || fail "genhtml cannot render coverage/lcov.info"
  [ -f "$scratch/html/index.html" ] || fail "genhtml wrote no index.html"
fi
rm -rf coverage

# A spec with a syntax error: its error with file:line, and the other spec's results still shown.
printf 'describe("broken", function()\n  it("never runs", function(\n  end)\nend)\n' > spec/broken_spec.lua
if sendingstate test > "$scratch/broken.out" 2>&1; then
  cat "$scratch/broken.out" >&2
  fail "a spec with a syntax error must fail the run"
fi
for expected in "spec/broken_spec.lua:3:" "the counter › counts taps" "2 passed, 1 failed"; do
  grep -qF "$expected" "$scratch/broken.out" || { cat "$scratch/broken.out" >&2; fail "expected '$expected'"; }
done

# Uninstall removes exactly the binary.
"$root/scripts/install.sh" --uninstall --prefix "$scratch/prefix" > /dev/null
[ ! -e "$scratch/prefix/bin/sendingstate" ] || fail "--uninstall left the binary"
echo "newcomer-test.sh: install, init, run, test, check, coverage and a broken spec behave as the README says"
