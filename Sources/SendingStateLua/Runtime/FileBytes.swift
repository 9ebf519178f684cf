import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The one reader of files the host did not write — scripts (through ``ScriptFile``), lockfiles,
/// payloads, start states, events files, the preview's image — with one policy: a **regular
/// file** (a FIFO, a socket, a device or a folder is refused at once, never waited on), at most
/// `maxBytes` long, read once from one open file.
///
/// Foundation's `FileManager.contents(atPath:)` reads a file of any size whole (a sparse 1 TB
/// `plugins.lock` in a downloaded project), leaks its buffer for an empty file (swift-foundation;
/// LeakSanitizer in the plugin fuzz target found it) and cannot say why it failed; here a
/// refusal is a ``Refusal`` whose reason each caller puts in its own error.
///
/// ```swift
/// let bytes = try FileBytes.read("plugins.lock", maxBytes: 1 << 20, what: "a lockfile")
/// ```
package enum FileBytes {
  /// Why a file was not read, in words that complete "cannot read 'PATH': …".
  package struct Refusal: Error, Sendable {
    /// What is wrong and how to fix it.
    package let reason: String
    /// The file was past `maxBytes` (or grew past it while it was read).
    package let tooLarge: Bool
    /// The file (or a link on its path) does not exist.
    package let missing: Bool
  }

  /// The bytes of the regular file at `path`, at most `maxBytes` of them.
  ///
  /// - Parameters:
  ///   - what: the file's role with its article (`a script`, `a lockfile`), for the reasons.
  ///   - followLinks: false refuses a link at the last component (``ScriptFile`` opens a path it
  ///     has already resolved, so a link there now is a change under its feet).
  /// - Throws: ``Refusal``.
  package static func read(_ path: String, maxBytes: Int, what: String, followLinks: Bool = true) throws(Refusal) -> [UInt8] {
    func refuse(_ reason: String, tooLarge: Bool = false, missing: Bool = false) -> Refusal {
      Refusal(reason: reason, tooLarge: tooLarge, missing: missing)
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { throw refuse("no such file", missing: true) }
      throw refuse("it cannot be opened (\(String(cString: strerror(code))))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw refuse("it cannot be read (\(String(cString: strerror(errno))))") }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file (a FIFO, a socket or a device)"
      throw refuse("it is \(kind); \(what) must be a regular file")
    }
    guard status.st_size <= maxBytes else {
      throw refuse("it is \(status.st_size) bytes, more than \(what) may be (\(maxBytes))", tooLarge: true)
    }
    // One byte more than the size: a file that grows while it is read shows it.
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw refuse("it cannot be read (\(String(cString: strerror(errno))))")
      }
      if got == 0 { break }
      count += got
    }
    guard count <= Int(status.st_size) else { throw refuse("it grew while it was read; try again", tooLarge: true) }
    bytes.removeLast(bytes.count - count)
    return bytes
  }
}
