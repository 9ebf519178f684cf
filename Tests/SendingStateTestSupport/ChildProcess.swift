import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with `posix_spawn`, with pipes for stdin, stdout and stderr.
///
/// Tests use it instead of Foundation's `Process` (whose `run()` leaks a weak-reference side
/// table on Linux, which LeakSanitizer would report). Output is collected as it arrives, so a
/// child that writes a lot to one pipe never blocks.
///
/// ```swift
/// let child = try ChildProcess(executable: binary, arguments: ["run", "screen.lua"], directory: root)
/// let status = child.wait()
/// print(child.output)
/// ```
public final class ChildProcess: @unchecked Sendable {
  /// The child's process id.
  public let pid: pid_t
  private let input: FileHandle
  private let stdout: Collector
  private let stderr: Collector
  private let lock = NSLock()
  private var status: Int32?

  /// Starts `executable` with `arguments` in `directory`.
  public init(executable: String, arguments: [String], directory: String) throws {
    var pipes = [[Int32]](repeating: [0, 0], count: 3)
    for index in 0..<3 {
      guard pipe(&pipes[index]) == 0 else { throw POSIXError(.EMFILE) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
    for fd in pipes.flatMap({ $0 }) { posix_spawn_file_actions_addclose(&actions, fd) }
    // `cd "$0" && exec "$@"`: the directory and arguments are positional parameters (no
    // quoting), and exec keeps the pid, so signals reach the program itself.
    let argv = (["sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, "/bin/sh", &actions, nil, argv, environ)
    close(pipes[0][0])
    close(pipes[1][1])
    close(pipes[2][1])
    guard result == 0 else {
      [pipes[0][1], pipes[1][0], pipes[2][0]].forEach { close($0) }
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)
    }
    pid = child
    input = FileHandle(fileDescriptor: pipes[0][1], closeOnDealloc: true)
    stdout = Collector(FileHandle(fileDescriptor: pipes[1][0], closeOnDealloc: true))
    stderr = Collector(FileHandle(fileDescriptor: pipes[2][0], closeOnDealloc: true))
  }

  /// Writes `text` to the child's stdin and closes it.
  public func send(_ text: String) {
    input.write(Data(text.utf8))
    try? input.close()
  }

  /// Closes the child's stdin.
  public func closeInput() {
    try? input.close()
  }

  /// What the child wrote to stdout so far.
  public var output: String { stdout.text }
  /// What the child wrote to stderr so far.
  public var errors: String { stderr.text }

  /// Whether the child is still running.
  public var isRunning: Bool {
    lock.withLock {
      if status != nil { return false }
      var raw: Int32 = 0
      if waitpid(pid, &raw, WNOHANG) == pid {
        status = decode(raw)
        return false
      }
      return true
    }
  }

  /// Asks the child to stop (SIGTERM).
  public func terminate() {
    kill(pid, SIGTERM)
  }

  /// Waits for the child to exit and for its output to be read; returns its exit status.
  @discardableResult
  public func wait() -> Int32 {
    let code: Int32 = lock.withLock {
      if let status { return status }
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
      status = decode(raw)
      return status!
    }
    stdout.finish()
    stderr.finish()
    return code
  }

  /// Waits (bounded) until `condition` holds for the stdout (or stderr) text so far.
  public func waitFor(stderr useErrors: Bool = false, timeout: TimeInterval = 10, _ condition: (String) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(useErrors ? errors : output) { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return condition(useErrors ? errors : output)
  }

  private func decode(_ raw: Int32) -> Int32 {
    // WIFEXITED / WEXITSTATUS, spelled out (the macros are not imported).
    (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  /// Collects a pipe's output as it arrives.
  final class Collector: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var data = Data()
    private var finished = false

    init(_ handle: FileHandle) {
      self.handle = handle
      handle.readabilityHandler = { [weak self] handle in
        let chunk = handle.availableData
        self?.lock.withLock { self?.data.append(chunk) }
      }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    func finish() {
      let already = lock.withLock { () -> Bool in
        defer { finished = true }
        return finished
      }
      guard !already else { return }
      handle.readabilityHandler = nil
      let rest = handle.readDataToEndOfFile()
      lock.withLock { data.append(rest) }
    }
  }
}
