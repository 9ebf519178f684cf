import Foundation

/// The port and token a screen's preview had last time, so that its URL stays the same across
/// restarts (an open tab reconnects to it instead of retrying an address that is gone).
///
/// Kept outside the project (the token is a secret: nothing to commit by mistake), one small
/// file per screen in the user's cache folder: `$XDG_CACHE_HOME/sendingstate/preview/` (else
/// `~/.cache/…`), readable by the user only. A file that is missing, unreadable or not what
/// this writes is ignored (a fresh port and token are used, and written).
///
/// ```swift
/// let file = PreviewMemory.file(for: "counter.lua", environment: ProcessInfo.processInfo.environment)
/// let last = file.flatMap(PreviewMemory.load)   // (port: 50123, token: …) or nil
/// ```
package enum PreviewMemory {
  /// The file for the screen at `screenPath` (by its absolute path), or nil when neither
  /// `XDG_CACHE_HOME` nor `HOME` names a folder.
  package static func file(for screenPath: String, environment: [String: String]) -> String? {
    let cache: String
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      cache = xdg
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      cache = home + "/.cache"
    } else {
      return nil
    }
    let absolute = URL(fileURLWithPath: screenPath).standardizedFileURL.path
    // FNV-1a of the path: a file name, not a secret.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in absolute.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let name = String(hash, radix: 16)
    return cache + "/sendingstate/preview/" + String(repeating: "0", count: 16 - name.count) + name + ".json"
  }

  /// The port and token written in `file`, if it holds exactly what ``save(port:token:to:)``
  /// writes (at most 1 KiB).
  package static func load(from file: String) -> (port: Int, token: PreviewToken)? {
    guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 1024), data.count < 1024,
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object.count == 2,
      let port = object["port"] as? Int, (1...65_535).contains(port),
      let text = object["token"] as? String, let token = PreviewToken(parsing: text)
    else { return nil }
    return (port, token)
  }

  /// Writes the port and token to `file` (its folders made as needed, the file readable by the
  /// user only). Failing to write is not an error: the next preview gets a new URL.
  package static func save(port: Int, token: PreviewToken, to file: String) {
    let folder = (file as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let text = #"{"port":\#(port),"token":"\#(token.value)"}"#
    // Written beside and renamed: a reader never sees half a file.
    let scratch = file + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    guard FileManager.default.createFile(atPath: scratch, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else { return }
    if rename(scratch, file) != 0 { unlink(scratch) }
  }

  /// Whether nothing listens on `port` of the IPv4 address `host` now (a remembered port may
  /// have been taken since; another address is not checked: false).
  package static func isFree(port: Int, host: String) -> Bool {
    var address = sockaddr_in()
    guard (1...65_535).contains(port), inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { return false }
    defer { close(socketFD) }
    var yes: Int32 = 1
    setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }
}
