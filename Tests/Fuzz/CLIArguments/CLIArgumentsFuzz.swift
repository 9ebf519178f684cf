// Fuzz target: the CLI's arguments and the EVENT grammar.
//
// The CLI's command types live in the executable target (Sources/SendingStateCLI); scripts/
// fuzz.sh compiles those sources into this harness without their `@main` line, so the harness
// drives the real `SendingStateCommand.parseAsRoot` (argument-parser, every subcommand, every
// option, each command's `validate()`), not a copy.
//
// The first byte picks the mode:
// - argument lists, from a vocabulary of commands, options and odd values (paths of one
//   character, `.`, `-`, slashes; numbers at the edges; EVENTs; JSON), or raw words;
// - one EVENT line (`EventCommand(parsing:)`);
// - an events file (`EventScript.commands(in:name:)`).
//
// Invariants:
// - no crash: parsing either gives a command or an error argument-parser can describe (its
//   message and exit code are computed too), and what a command does with its arguments before
//   touching files does not trap: every path is normalized (`PathText.argument`) into a shape
//   Foundation's path functions take (they are called on it), EVENTs parse or throw a usage
//   error, `--settle` is in its range and converts to a duration, `--state` JSON decodes or
//   throws a usage error, grants parse or throw;
// - an EVENT that parses reads back from its description as the same command; a refusal is a
//   usage error with a message.
import ArgumentParser
import Foundation
import SendingStateLua
import SendingStatePlugins
import SendingStateTools

@_cdecl("LLVMFuzzerTestOneInput")
public func cliArgumentsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  switch input.below(8) {
  case 0, 1: checkEvent(line: input.bool() ? String(decoding: input.rest(), as: UTF8.self) : Vocabulary.event(&input))
  case 2: checkEventScript(String(decoding: input.rest(), as: UTF8.self))
  default:
    let words = input.bool() ? Vocabulary.rawWords(&input) : Vocabulary.arguments(&input)
    if fuzzVerbose { fuzzLog("arguments: \(words.map(\.debugDescription))") }
    MainActor.assumeIsolated { checkArguments(words) }
  }
  return 0
}

/// One EVENT line: parses, or is refused as a usage error; what parses round-trips.
func checkEvent(line: String) {
  let command: EventCommand
  do {
    command = try EventCommand(parsing: line)
  } catch let error as ToolError {
    guard case .usage(let message) = error, !message.isEmpty else { fuzzFail("EVENT '\(line)' refused with \(error)") }
    return
  } catch {
    fuzzFail("EVENT '\(line)' threw \(type(of: error)): \(error)")
  }
  if case .row(_, let index, _) = command { fuzzCheck(EventCommand.rowRange.contains(index), "row index \(index)") }
  let description = command.description
  do {
    let again = try EventCommand(parsing: description)
    fuzzCheck(again == command, "'\(line)' parses as \(command), its description '\(description)' as \(again)")
  } catch {
    fuzzFail("the description '\(description)' of '\(line)' does not parse: \(error)")
  }
}

/// An events file: its commands, or a usage error naming its line.
func checkEventScript(_ text: String) {
  do {
    _ = try EventScript.commands(in: text, name: "fuzz.txt")
  } catch let error as ToolError {
    guard case .usage(let message) = error, message.hasPrefix("fuzz.txt:") else { fuzzFail("events file refused with \(error)") }
  } catch {
    fuzzFail("EventScript threw \(type(of: error)): \(error)")
  }
}

/// Checks a path as a command would get it.
func checkPath(_ path: String, _ what: String) {
  fuzzCheck(path == PathText.argument(path), "\(what) '\(path)' is not normalized")
  // Foundation trapped on one-character names and their trailing slashes: these must not.
  _ = (path as NSString).deletingLastPathComponent
  _ = (path as NSString).lastPathComponent
  let folder = PathText.folder(of: path)
  fuzzCheck(!folder.isEmpty, "the folder of '\(path)' is empty")
  _ = PathText.name(of: path)
}

@MainActor
func checkArguments(_ words: [String]) {
  let command: any ParsableCommand
  do {
    command = try SendingStateCommand.parseAsRoot(words)
  } catch {
    // What main() prints and returns for it.
    let message = SendingStateCommand.fullMessage(for: error)
    let code = SendingStateCommand.exitCode(for: error)
    _ = VisibleText.escaped(message)
    if fuzzVerbose { fuzzLog("refused (\(code.rawValue)): \(message.prefix(200))") }
    return
  }
  if fuzzVerbose { fuzzLog("parsed: \(type(of: command))") }
  switch command {
  case let run as SendingStateCommand.Run:
    checkScreen(run.screen)
    for event in run.events { checkEvent(line: event) }
    run.eventsFile.map { checkPath($0, "--events") }
    run.svg.map { checkPath($0, "--svg") }
    run.png.map { checkPath($0, "--png") }
    fuzzCheck(ScreenSession.settleRange.contains(run.settle), "--settle \(run.settle) passed validation")
    _ = ScreenSession.duration(seconds: run.settle)
  case let repl as SendingStateCommand.Repl: checkScreen(repl.screen)
  case let preview as SendingStateCommand.Preview:
    checkScreen(preview.screen)
    _ = (0...65_535).contains(preview.port)
  case let check as SendingStateCommand.Check:
    for path in check.paths where path != "." { checkPath(path, "check") }
    for path in check.pluginFlags.plugins { checkPath(path, "--plugin") }
    _ = try? check.pluginFlags.parsedGrants()
  case let initialize as SendingStateCommand.Init: if initialize.folder != "." { checkPath(initialize.folder, "init") }
  case let stubs as SendingStateCommand.Stubs:
    if stubs.out != "." { checkPath(stubs.out, "--out") }
    for path in stubs.plugins { checkPath(path, "--plugin") }
  case let list as SendingStateCommand.Plugins.List:
    list.screen.map { checkPath($0, "plugins list") }
    for path in list.plugins { checkPath(path, "--plugin") }
  case let check as SendingStateCommand.Plugins.Check: for path in check.folders { checkPath(path, "plugins check") }
  case let new as SendingStateCommand.Plugins.New: if new.folder != "." { checkPath(new.folder, "--in") }
  case let lock as SendingStateCommand.Plugins.Lock:
    checkPath(lock.screen, "plugins lock")
    for path in lock.plugins { checkPath(path, "--plugin") }
  case let test as SendingStateCommand.Test:
    fuzzCheck(test.timeout >= 0 && test.timeout.isFinite, "--timeout \(test.timeout) passed validation")
    fuzzCheck(test.settle >= 0 && test.settle.isFinite, "--settle \(test.settle) passed validation")
  default: break
  }
}

/// The options every screen command shares.
func checkScreen(_ options: ScreenOptions) {
  checkPath(options.screen, "the screen")
  for root in options.roots { checkPath(root, "--root") }
  for plugin in options.pluginFlags.plugins { checkPath(plugin, "--plugin") }
  _ = try? options.pluginFlags.parsedGrants()
  if let state = options.state, !state.hasPrefix("@") {
    do {
      _ = try JSONInput.value(fromArgument: state, name: "--state")
    } catch let error as ToolError {
      guard case .usage = error else { fuzzFail("--state refused with \(error)") }
    } catch {
      fuzzFail("--state threw \(type(of: error)): \(error)")
    }
  }
}

/// Words for argument lists.
enum Vocabulary {
  static let commands = ["run", "test", "check", "repl", "stubs", "init", "preview", "plugins", "help", "list", "new", "lock", ""]
  static let options = [
    "--send", "--events", "--format", "--settle", "--svg", "--png", "--watch", "-v", "--verbose", "--state", "--data", "--root",
    "--plugin", "--grant", "--locked", "--host", "--port", "--timeout", "--seed", "--shuffle", "-o", "--output", "-p", "--pattern",
    "--filter", "-t", "--tags", "--in", "--out", "--help", "-h", "--version", "--generate-completion-script", "--", "-",
    "--send=tap plus", "--settle=1e400", "--port=-1", "-vv", "--list", "-l",
  ]
  static let values = [
    ".", "..", "/", "-", "", " ", "a", "a/", "./", "//", "a//", "./.", "d/.", "é", "e\u{301}", "x.lua", "examples/counter/counter.lua",
    "1e400", "-1e400", "nan", "inf", "-1", "-0", "1e300", "9223372036854775807", "-9223372036854775808", "99999999999999999999",
    "0x10", "65536", "tap plus", "row items 0 tap x", "row items 9223372036854775807 tap x", "type q \"a \\\"b\\\"\"", "gesture c swipe =",
    "{", "{\"count\":1}", "[[[[[[", "@", "@.", "json", "xml", "screen:net=", ":", "x:timers,,", "bash", "zsh", "\u{1B}[2K", "\u{202E}",
  ]

  static func arguments(_ input: inout FuzzBytes) -> [String] {
    var words: [String] = []
    if input.below(8) != 0 { words.append(input.pick(commands)) }
    if words.first == "plugins" { words.append(input.pick(["list", "check", "new", "lock", "x"])) }
    for _ in 0..<input.below(10) {
      switch input.below(6) {
      case 0, 1: words.append(input.pick(options))
      case 2, 3: words.append(input.pick(values))
      case 4: words.append(input.string(maxLength: 16))
      default: words.append(String(repeating: input.pick(["a", "/", "é", "9"]), count: input.below(3_000)))
      }
    }
    return words
  }

  /// Words split from the input at NUL bytes (which no argument can hold).
  static func rawWords(_ input: inout FuzzBytes) -> [String] {
    input.rest().split(separator: 0, omittingEmptySubsequences: false).prefix(32).map { String(decoding: $0, as: UTF8.self) }
  }

  static func event(_ input: inout FuzzBytes) -> String {
    let verbs = ["tap", "send", "set", "type", "gesture", "row", "jump", ""]
    var words: [String] = [input.pick(verbs)]
    for _ in 0..<input.below(7) {
      switch input.below(5) {
      case 0: words.append(input.pick(verbs))
      case 1: words.append(input.pick(["1", "0", "-1", "1000000000", "1000000001", "items", "k=v", "=v", "k=", "a=b=c", "\"", "'", "\\"]))
      case 2: words.append("\"" + input.string() + "\"")
      default: words.append(input.string())
      }
    }
    return words.joined(separator: input.pick([" ", "  ", "\t"]))
  }
}
