#!/usr/bin/env bash
# Compiles the README's Swift as a user's package would: outside this repository, a package whose
# Package.swift is the README's "Add SendingState to your package" example (between
# `<!-- package:begin -->` and `<!-- package:end -->`), depending on this checkout by path, with
# one more executable target per Swift snippet (`<!-- snippet: NAME -->` before its ```swift
# block): the snippet (after the products' imports) is its main.swift, Tests/ReadmeSnippets/NAME.swift declares what it uses
# (`tea`, `ProductCell`…). Every ```swift block of the README is either such a snippet or inside
# the tutorial markers (the tests compile those); a block with neither fails the script, and so
# does any warning in a snippet.
#
# Usage: scripts/readme-snippets.sh   (scripts/test.sh runs it)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
readme="$root/README.md"
contexts="$root/Tests/ReadmeSnippets"

# README_SNIPPETS_SCRATCH=DIR keeps the package (and its build) there, for quicker reruns.
if [ -n "${README_SNIPPETS_SCRATCH:-}" ]; then
  mkdir -p "$README_SNIPPETS_SCRATCH"
  scratch="$(cd "$README_SNIPPETS_SCRATCH" && pwd)"
  rm -rf "$scratch/SendingState" "$scratch/MyApp/ReadmeSnippets" "$scratch/MyApp/Package.swift"
else
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
fi
fail() {
  echo "readme-snippets.sh: $1" >&2
  exit 1
}

# The user's package, beside a link named as the README's path dependency expects.
ln -s "$root" "$scratch/SendingState"
app="$scratch/MyApp"
mkdir -p "$app/Sources/MyApp" "$app/Tests/MyAppTests"
# The versions this checkout resolved, when it has resolved them (CI: the same packages twice).
if [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" "$app/Package.resolved"; fi
awk '/^<!-- package:begin -->$/ { on = 1; next } /^<!-- package:end -->$/ { on = 0 } on' "$readme" |
  sed '/^```/d' > "$app/Package.swift"
grep -q 'Package(' "$app/Package.swift" || fail "no Package.swift between <!-- package:begin --> and <!-- package:end -->"
cat > "$app/Sources/MyApp/main.swift" <<'EOF'
import SendingState
import SendingStateHeadless
import SendingStateLua
import SendingStatePlugins

print("MyApp builds against SendingState")
EOF
cat > "$app/Tests/MyAppTests/MyAppTests.swift" <<'EOF'
import SendingStateTesting
import Testing

@Test func builds() {}
EOF

# The snippets, each its own target (they may reuse names), and a check that none is missed.
python3 - "$readme" "$contexts" "$app" <<'EOF'
import os, re, sys
readme, contexts, app = sys.argv[1:4]
lines = open(readme, encoding="utf-8").read().split("\n")
names, in_tutorial, pending, problems = [], False, None, []
i = 0
while i < len(lines):
    line = lines[i]
    if re.match(r"^<!-- (store-)?tutorial:begin -->$", line): in_tutorial = True
    if re.match(r"^<!-- (store-)?tutorial:end -->$", line): in_tutorial = False
    m = re.match(r"^<!-- snippet: ([a-z][a-z0-9-]*) -->$", line)
    if m: pending = m.group(1)
    if line == "```swift":
        j = i + 1
        while j < len(lines) and lines[j] != "```": j += 1
        if j == len(lines):
            print(f"README.md:{i + 1}: a ```swift block that is never closed", file=sys.stderr)
            sys.exit(1)
        body = "\n".join(lines[i + 1:j]) + "\n"
        inside_package = any(l == "<!-- package:begin -->" for l in lines[max(0, i - 2):i])
        if pending:
            name = pending
            if name in names: problems.append(f"README.md:{i + 1}: snippet name '{name}' used twice")
            names.append(name)
            target = "Snippet" + "".join(part.capitalize() for part in name.split("-"))
            folder = os.path.join(app, "ReadmeSnippets", target)
            os.makedirs(folder)
            # The products' imports, as the README's text around each snippet assumes.
            header = "".join(f"import {m}\n" for m in ("SendingState", "SendingStateHeadless", "SendingStateLua", "SendingStatePlugins"))
            open(os.path.join(folder, "main.swift"), "w", encoding="utf-8").write(header + body)
            context = os.path.join(contexts, name + ".swift")
            if not os.path.exists(context):
                problems.append(f"README.md:{i + 1}: snippet '{name}' has no {os.path.relpath(context, os.path.dirname(readme))}")
            else:
                open(os.path.join(folder, "Context.swift"), "w", encoding="utf-8").write(open(context, encoding="utf-8").read())
        elif not in_tutorial and not inside_package:
            problems.append(f"README.md:{i + 1}: a ```swift block with no <!-- snippet: NAME --> line before it "
                            "(add one and Tests/ReadmeSnippets/NAME.swift with what it uses)")
        pending = None
        i = j
    i += 1
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
with open(os.path.join(app, "Package.swift"), "a", encoding="utf-8") as package:
    package.write("\n// Added by scripts/readme-snippets.sh: one target per README snippet.\n")
    package.write("for target in [" + ", ".join('"Snippet' + "".join(p.capitalize() for p in n.split("-")) + '"' for n in names) + "] {\n")
    package.write('  package.targets.append(.executableTarget(name: target, dependencies: package.targets[0].dependencies,'
                  ' path: "ReadmeSnippets/\\(target)"))\n}\n')
print(f"readme-snippets.sh: {len(names)} snippets: {', '.join(names)}")
EOF
for context in "$contexts"/*.swift; do
  name="$(basename "$context" .swift)"
  grep -q "^<!-- snippet: $name -->$" "$readme" || fail "Tests/ReadmeSnippets/$name.swift belongs to no README snippet"
done

log="$scratch/build.log"
if ! (cd "$app" && swift build --build-tests > "$log" 2>&1); then
  grep -E "error:|warning:" "$log" | grep -v "swift-distributed-tracing" | head -40 >&2 || tail -40 "$log" >&2
  fail "the README's package or one of its snippets does not compile"
fi
if grep -F "warning:" "$log" | grep -F -e "$app/ReadmeSnippets/" -e "$app/Sources/" -e "$app/Tests/"; then
  fail "the README's Swift has warnings (above)"
fi
(cd "$app" && swift run --skip-build MyApp) | grep -q "MyApp builds against SendingState" || fail "MyApp did not run"
# The native-plugin snippet runs as well: a package of the user's writes a Swift native plugin
# and loads it through the products alone; the screen it opens requires the plugin's module and
# fails to load unless the Swift function answers.
mkdir -p "$scratch/run/app"
cat > "$scratch/run/app/home.lua" <<'LUA'
local greeting = require "greeting"
local said = greeting.hello("you")
if said ~= "hello, you" then error("greeting.hello said " .. tostring(said), 0) end
return {
  state = { said = said },
  layout = function(ui) return ui.label { id = "said" } end,
  configure = function(view, state) view.said.text = state.said end,
}
LUA
snippets_bin="$(cd "$app" && swift build --show-bin-path)"
(cd "$scratch/run" && "$snippets_bin/SnippetNativePlugin") > "$scratch/native.log" 2>&1 ||
  { cat "$scratch/native.log" >&2; fail "the native-plugin snippet did not load its plugin into a screen"; }
echo "readme-snippets.sh: the README's package and every Swift snippet compile, with no warnings; the native plugin loads"
