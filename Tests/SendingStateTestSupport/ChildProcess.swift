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
/// let status = await child.wait()
/// print(child.output)
/// ```
///
/// NB: waiting is `async` and blocks a thread of its own: on Linux the cooperative pool and
/// dispatch's global queues share one thread per core (two here), and the main queue drains on
/// them too, so a blocking wait there would starve other tests, the main actor included.
public final class ChildProcess: @unchecked Sendable {
  /// The child's process id.
  public let pid: pid_t
  private let input: FileHandle
  private let stdout: Collector
  private let stderr: Collector
  private let lock = NSLock()
  private var status: Int32?
  private static let spawning = NSLock()

  /// Starts `executable` with `arguments` in `directory`.
  public init(executable: String, arguments: [String], directory: String) throws {
    // One spawn at a time: between `pipe` and `fcntl` a concurrent spawn could inherit our ends.
    ChildProcess.spawning.lock()
    defer { ChildProcess.spawning.unlock() }
    var pipes = [[Int32]](repeating: [0, 0], count: 3)
    for index in 0..<3 {
      guard pipe(&pipes[index]) == 0 else { throw POSIXError(.EMFILE) }
      // Close-on-exec, so a child spawned by another test meanwhile does not inherit our ends
      // (it would hold the pipe open and our reader would never see the end of file).
      for fd in pipes[index] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
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
    stdout = Collector(descriptor: pipes[1][0])
    stderr = Collector(descriptor: pipes[2][0])
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
  public func wait() async -> Int32 {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: self.blockingWait()) }.start()
    }
  }

  private func blockingWait() -> Int32 {
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
  public func waitFor(stderr useErrors: Bool = false, timeout: TimeInterval = 10, _ condition: (String) -> Bool) async
    -> Bool
  {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(useErrors ? errors : output) { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return condition(useErrors ? errors : output)
  }

  private func decode(_ raw: Int32) -> Int32 {
    // WIFEXITED / WEXITSTATUS, spelled out (the macros are not imported).
    (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  /// Collects a pipe's output as it arrives, on a thread of its own that blocks in `read(2)`.
  ///
  /// NB: not `FileHandle.readabilityHandler`: on Linux its dispatch source can still be armed on
  /// the descriptor when the handle closes it, and libdispatch's event loop then crashes the
  /// whole test process (seen as a segfault in `_dispatch_event_loop_drain`).
  final class Collector: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(descriptor: Int32) {
      self.descriptor = descriptor
      let thread = Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
          let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
          if count < 0, errno == EINTR { continue }
          guard count > 0 else { break }
          lock.withLock { data.append(contentsOf: buffer[0..<count]) }
        }
        done.signal()
      }
      thread.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits until the child closed its end (end of file), then closes ours.
    func finish() {
      let already = lock.withLock { () -> Bool in
        defer { finished = true }
        return finished
      }
      guard !already else { return }
      done.wait()
      Glibc.close(descriptor)
    }
  }
}
