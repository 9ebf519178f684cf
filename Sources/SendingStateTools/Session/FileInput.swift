import SendingStateLua

/// Files the user points the CLI at (`--state @FILE`, `--events`, a spec's data file, a script
/// to check), read through the host's one reader of outside files: a regular file (never waited
/// on, if it is a FIFO), at most 16 MiB.
///
/// ```swift
/// let bytes = try FileInput.bytes("events.txt", what: "--events file")
/// ```
enum FileInput {
  /// The largest file read (16 MiB, as a script or a JSON text).
  static let maxBytes = 16 << 20

  /// The bytes of the file at `path`, or a usage error naming it and saying what is wrong.
  ///
  /// - Parameter what: the file's role, for the message (`--events file`).
  static func bytes(_ path: String, what: String) throws(ToolError) -> [UInt8] {
    do throws(FileBytes.Refusal) {
      return try FileBytes.read(path, maxBytes: maxBytes, what: "a \(what)")
    } catch {
      throw ToolError.usage("cannot read the \(what) '\(path)': \(error.reason)")
    }
  }
}
