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
  /// writes (at most 1 KiB) and is trustworthy: a regular file (not a link, a FIFO or a
  /// device), owned by this user and readable by no one else, in a folder that only this user
  /// may write to. Anything else is ignored: someone who could plant a token there could drive
  /// the preview.
  package static func load(from file: String) -> (port: Int, token: PreviewToken)? {
    guard ownedPrivateFolder((file as NSString).deletingLastPathComponent) else { return nil }
    let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
      info.st_mode & 0o077 == 0, info.st_size < 1024
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: 1024)
    let count = read(descriptor, &bytes, bytes.count)
    guard count > 0, count < 1024,
      let object = try? JSONSerialization.jsonObject(with: Data(bytes[..<count])) as? [String: Any], object.count == 2,
      let port = object["port"] as? Int, (1...65_535).contains(port),
      let text = object["token"] as? String, let token = PreviewToken(parsing: text)
    else { return nil }
    return (port, token)
  }

  /// Writes the port and token to `file`: its folders made as needed (readable by this user
  /// only), the file created new with mode 0600 (never through a link) and renamed into place.
  /// Nothing is written into a folder another user could write to. Failing to write is not an
  /// error: the next preview gets a new URL.
  package static func save(port: Int, token: PreviewToken, to file: String) {
    let folder = (file as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    guard ownedPrivateFolder(folder) else { return }
    let bytes = Array(#"{"port":\#(port),"token":"\#(token.value)"}"#.utf8)
    let scratch = file + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    unlink(scratch)
    let descriptor = open(scratch, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    let written = write(descriptor, bytes, bytes.count)
    close(descriptor)
    // Renamed into place: a reader never sees half a file, and a link at `file` is replaced,
    // not followed.
    if written != bytes.count || rename(scratch, file) != 0 { unlink(scratch) }
  }

  /// Whether `folder` is a directory (not a link) owned by this user that no one else may
  /// write to or read.
  private static func ownedPrivateFolder(_ folder: String) -> Bool {
    var info = stat()
    return lstat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == getuid() && info.st_mode & 0o077 == 0
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
