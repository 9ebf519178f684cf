import CCrypto
import Foundation
import SendingStateLua

/// Content hashes of plugin folders, for lockfiles: SHA-256 (OpenSSL's) over every file of
/// the folder in a fixed order, so any change to any file — a byte, a name, a new or removed
/// file — changes the hash.
///
/// ```swift
/// let hash = try PluginDigest.folder("plugins/rating")   // 64 hex digits
/// ```
public enum PluginDigest {
  /// The most files a plugin folder may hold, and the most bytes in all (hashing reads them).
  public static let maxFiles = 1_000
  /// The most bytes in all a plugin folder may hold.
  public static let maxBytes = 16 << 20

  /// The SHA-256 of `bytes`, in lower-case hex.
  public static func sha256(_ bytes: some Collection<UInt8>) -> String {
    let hasher = Hasher256()
    hasher.update(Array(bytes))
    return hasher.finish()
  }

  /// The hash of the folder: for each regular file under it (hidden ones skipped: `.git`,
  /// editor files), sorted by path relative to the folder, the path, a NUL, the size in
  /// decimal, a NUL and the bytes — all through one SHA-256.
  ///
  /// - Throws: ``PluginError`` when the folder cannot be read, holds more than ``maxFiles``
  ///   files or ``maxBytes`` bytes, or holds a link that leads outside it.
  public static func folder(_ folder: String, plugin: String? = nil) throws(PluginError) -> String {
    try hashed(folder, plugin: plugin).hash
  }

  /// The hash of the folder (see ``folder(_:plugin:)``) and the bytes it was made from, by path
  /// relative to the folder — so the host can run exactly what it checked.
  public static func hashed(_ folder: String, plugin: String? = nil) throws(PluginError) -> (hash: String, files: [String: Data]) {
    let name = plugin ?? (folder as NSString).lastPathComponent
    func problem(_ message: String) -> PluginError {
      PluginError(plugin: name, file: folder, message: message)
    }
    let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
    guard let walker = FileManager.default.enumerator(atPath: folder) else {
      throw problem("cannot read the plugin folder \(folder)")
    }
    var files: [String] = []
    var sizes: [String: Int] = [:]
    var total = 0
    while let relative = walker.nextObject() as? String {
      if (relative as NSString).lastPathComponent.hasPrefix(".") {
        walker.skipDescendants()
        continue
      }
      let path = (folder as NSString).appendingPathComponent(relative)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
      let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
      guard resolved == root || resolved.hasPrefix(root + "/") else {
        throw problem("\(relative) leads outside the plugin folder (to \(resolved)); a plugin's files live inside it")
      }
      if isFolder.boolValue { continue }
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      guard attributes?[.type] as? FileAttributeType == .typeRegular else {
        throw problem("\(relative) is not a regular file; a plugin folder holds its scripts only")
      }
      sizes[relative] = (attributes?[.size] as? Int) ?? 0
      total += sizes[relative]!
      if total > maxBytes { throw problem("more than \(maxBytes) bytes in \(folder); a plugin folder holds its scripts only") }
      files.append(relative)
      if files.count > maxFiles { throw problem("more than \(maxFiles) files in \(folder); a plugin folder holds its scripts only") }
    }
    let hasher = Hasher256()
    var read = 0
    var contents: [String: Data] = [:]
    for relative in files.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
      // (Sizes were checked before reading; a file that grew or changed kind since is refused.)
      let bytes: Data
      do throws(FileBytes.Refusal) {
        bytes = Data(
          try FileBytes.read((folder as NSString).appendingPathComponent(relative), maxBytes: maxBytes - read, what: "a plugin's files"))
      } catch {
        throw problem("cannot read \(relative) in \(folder): \(error.reason)")
      }
      read += bytes.count
      if read > maxBytes { throw problem("more than \(maxBytes) bytes in \(folder); a plugin folder holds its scripts only") }
      hasher.update(Array(relative.utf8) + [0] + Array(String(bytes.count).utf8) + [0])
      hasher.update(Array(bytes))
      contents[relative] = bytes
    }
    return (hasher.finish(), contents)
  }
}

/// One SHA-256 through OpenSSL's EVP interface (its context freed with it).
private final class Hasher256 {
  private let context: OpaquePointer

  init() {
    context = EVP_MD_CTX_new()
    EVP_DigestInit_ex(context, EVP_sha256(), nil)
  }

  deinit { EVP_MD_CTX_free(context) }

  func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
  }

  func finish() -> String {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    EVP_DigestFinal_ex(context, &digest, &length)
    return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
  }
}
