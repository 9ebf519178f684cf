import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The one writer for everything the CLI prints on standard output and standard error.
///
/// - Script-controlled text is made visible first (``VisibleText``): no control character or
///   bidi override from a script reaches the terminal, so none can erase or reorder the
///   `file:line` printed before it. Only the writer's own colour codes (a ``Label``) are sent
///   as they are.
/// - A failed write (a full disk, a closed pipe) is remembered (``failed``), not a crash:
///   Foundation's `FileHandle.write(_:)` trapped on both (`run … > /dev/full` died with SIGILL).
/// - Each line is written at once (no buffer), so a pipe sees it immediately.
///
/// ```swift
/// Console.line("3 scripts checked, no problems")
/// Console.line(message, to: .errors, label: .error)   // "error: …", red on a terminal
/// ```
public enum Console {
  /// A standard stream.
  public enum Stream: Sendable {
    /// Standard output.
    case output
    /// Standard error.
    case errors

    var descriptor: Int32 { self == .output ? 1 : 2 }

    /// Whether colour is allowed on this stream (see ``Terminal``).
    public var colored: Bool { self == .output ? Terminal.colorOnStandardOutput : Terminal.colorOnStandardError }
  }

  /// A coloured word before a line (`error:`, `warning:`).
  public struct Label: Sendable {
    /// The word.
    public var text: String
    /// Its colour on a terminal.
    public var color: Terminal.Color

    /// Creates a label.
    public init(_ text: String, _ color: Terminal.Color) {
      self.text = text
      self.color = color
    }

    /// `error:` in red.
    public static let error = Label("error:", .red)
    /// `warning:` in yellow.
    public static let warning = Label("warning:", .yellow)
  }

  private static let failures = Mutex<[String]>([])

  /// Writes `text` and a newline to `stream`, made visible, after `label`.
  public static func line(_ text: String, to stream: Stream = .output, label: Label? = nil) {
    var out = ""
    if let label { out = Terminal.paint(label.text, label.color, enabled: stream.colored) + " " }
    out += VisibleText.escaped(text) + "\n"
    raw(out, to: stream)
  }

  /// Writes `text` as it is: only for the CLI's own terminal control (the line editor's
  /// redraws), never for text a script controls.
  public static func raw(_ text: String, to stream: Stream = .output) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(stream.descriptor, base + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno))
        failures.withLock { $0.append("cannot write to standard \(stream == .output ? "output" : "error"): \(reason)") }
        return
      }
      offset += written
    }
  }

  /// The writes that failed so far, one reason each (empty when all went through).
  public static var failed: [String] { failures.withLock { $0 } }

  /// Opens `/dev/null` on any of the standard descriptors that is closed (`sendingstate … >&-`),
  /// so no file the process opens later takes descriptor 1 or 2 and receives its output.
  public static func prepareStandardStreams() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 {
      let opened = open("/dev/null", O_RDWR)
      if opened >= 0, opened != descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
    }
  }
}
