import SendingStateLua

/// `--output terminal` (the default of `sendingstate test`): a busted output handler that prints
/// each spec file, then one line per test as it ends, with what the test printed under it.
///
/// ```text
/// examples/tasks/tasks_spec.lua
///   ✓ tasks › adds a typed task
///   ✗ tasks › cannot add an empty task
///       examples/tasks/tasks_spec.lua:25: Expected objects to be the same.
///   - tasks › later (pending)
/// ```
///
/// Built on busted's `busted.outputHandlers.base`, like busted's own terminals; colours only when
/// the host says so (a terminal, and `NO_COLOR` unset). The closing line is the host's.
enum SpecTerminalOutput {
  /// A chunk returning `function(prims, settings)`, which returns busted's handler factory.
  static let source = HostCode.text("spec/terminal_output.lua")
}
