import SendingStateLua

/// The Lua side of `sendingstate test`: busted 2.1.1's own modules, assembled as its
/// command-line runner assembles them, inside one trusted Lua state.
///
/// Specs are the team's own code, so they run with the full standard libraries, the real
/// `require` (`package.path` and `package.cpath`, busted's `--lpath`/`--cpath`) and Debian's
/// `lua-busted` and `lua-luassert`. Screens opened with `ss.open` run in their own sandboxed
/// runtimes. What differs from `busted`'s runner, and why:
/// - everything the suite prints goes through the host (`prims.write`), so `--output` documents
///   stay clean and a test's output can be shown with that test;
/// - the run is a coroutine: `screen:settle()` yields to the host, which awaits the screens'
///   effects and resumes it;
/// - each test body, hook and block body has a wall-clock deadline (`--timeout`): the episode
///   deadline of the C shim's limits (``SpecLimits``), so it holds in coroutines, through `pcall`
///   and in library functions that loop in C, and an endless loop fails that test alone;
/// - `os.exit` is an error at its line, and a call whose error a spec caught still fails the test
///   or hook that made it: the host prints the closing line and picks the exit code, so no spec
///   can end the run, least of all as a success.
enum SpecHost {
  /// A chunk called with `(prims, argv, settings)`; returns `step(reply)`, which resumes the run
  /// and returns `{ "settle", handle, seconds }` requests, then `{ "done", counts }`, or
  /// `{ "usage", message }` when the arguments or `.busted` are wrong.
  static let source = HostCode.text("spec/host.lua")
}
