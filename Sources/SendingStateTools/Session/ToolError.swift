import SendingStateLua

/// A failure of a tool command, with the exit code it maps to.
///
/// ```swift
/// throw ToolError.usage("unknown sender id 'plu'")   // exit 2
/// ```
public enum ToolError: Error, Equatable, CustomStringConvertible {
  /// Bad input from the user: unknown id, bad EVENT, missing file (exit code 2).
  case usage(String)
  /// A fault in a script (exit code 1).
  case script(ScriptError)

  /// The process exit code: 2 for usage errors, 1 for script errors.
  public var exitCode: Int32 {
    switch self {
    case .usage: 2
    case .script: 1
    }
  }

  /// The message for standard error.
  public var description: String {
    switch self {
    case .usage(let message): message
    case .script(let error): error.description
    }
  }

  /// The description, and for a script error its Lua traceback (for the error that stops a
  /// command, and for every error with `--verbose`).
  public var fullDescription: String {
    switch self {
    case .usage(let message): message
    case .script(let error): error.fullDescription
    }
  }

  /// The description, and for a script error the traceback's frames in scripts (for the error
  /// that stops a command; `--verbose` shows every frame with ``fullDescription``).
  public var scriptDescription: String {
    switch self {
    case .usage(let message): message
    case .script(let error): error.scriptDescription
    }
  }

  /// The description, with the traceback when `verbose`.
  public func text(verbose: Bool) -> String {
    verbose ? fullDescription : description
  }

  /// Maps any error from the host to a tool error.
  public static func from(_ error: any Error) -> ToolError {
    switch error {
    case let error as ToolError: error
    case let error as ScriptError: .script(error)
    case let error as ScreenUsageError: .usage(error.description)
    case let error as LuaBridgeError: .script(error.scriptError)
    default: .usage("\(error)")
    }
  }
}
