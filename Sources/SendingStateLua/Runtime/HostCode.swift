import CHostCode

/// The host's own code in other languages, built into the binary from the files in
/// `Sources/CHostCode`: the screen kernel's and the sandbox's Lua, the spec host's Lua, the
/// preview page's HTML, CSS and JavaScript, and the templates of `init` and `plugins new`. (They are files so editors, luacheck, busted and
/// reviews see them as code; C23 `#embed` puts their bytes into the binary, so nothing is read
/// from disk at run time.)
package enum HostCode {
  /// The text of the built-in file at `path`, relative to `Sources/CHostCode` (for example
  /// `"kernel/engine.lua"`).
  ///
  /// A path that is not built in is a mistake in our own code, not in a user's input: it stops
  /// the process with the path and what to do.
  package static func text(_ path: String) -> String {
    var size = 0
    guard let bytes = sshc_file(path, &size) else {
      preconditionFailure("Sources/CHostCode/\(path) is not built into the binary; list it in Sources/CHostCode/HostCode.c")
    }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
  }

  /// The paths of every built-in file.
  package static var paths: [String] {
    (0..<sshc_file_count()).compactMap { sshc_file_path($0).map { String(cString: $0) } }
  }
}
