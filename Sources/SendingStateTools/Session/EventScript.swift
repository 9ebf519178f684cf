import Foundation

/// Reads an events file: one EVENT a line; blank lines and lines starting with `#` are skipped.
///
/// ```text
/// # add two, then reset
/// tap plus
/// tap plus
/// gesture count tap taps=2
/// ```
public enum EventScript {
  /// The commands of the file at `path`; a bad line is a usage error naming `path:line`.
  public static func commands(inFile path: String) throws -> [EventCommand] {
    let bytes = try FileInput.bytes(path, what: "--events file")
    return try commands(in: String(decoding: bytes, as: UTF8.self), name: path)
  }

  /// The commands of `text` (named `name` in errors).
  public static func commands(in text: String, name: String) throws -> [EventCommand] {
    var commands: [EventCommand] = []
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      do {
        commands.append(try EventCommand(parsing: line))
      } catch {
        throw ToolError.usage("\(name):\(offset + 1): \(ToolError.from(error).description)")
      }
    }
    return commands
  }
}
