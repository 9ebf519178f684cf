import Dispatch
import Foundation
import Synchronization

/// Ends the process when a stop signal's graceful shutdown takes too long.
///
/// `preview` stops on SIGINT, SIGTERM and SIGHUP by letting pages go and closing the server
/// gracefully; after `PreviewServer.Configuration.stopGrace` the server is cancelled, which
/// closes every connection. A stop once hung for good on a connection that never sent a request
/// (a browser's preconnect: see ``UnansweredConnectionGuard``, which fixed it). This is the last resort
/// behind both, for a cause not yet seen: a terminal that Ctrl-C does not free is worse than a
/// dropped page, so after the grace period `expired` runs (the CLI says it stopped and exits
/// with status 0, as a clean stop). The CLI installs it around `PreviewServer.run`; the server
/// itself does not, so a process that hosts a preview in-process keeps its own signal handling.
///
/// (`@unchecked Sendable`: the signal sources are set once, in `init`, and only cancelled after,
/// which dispatch allows from any thread; the flag is atomic.)
package final class StopWatchdog: @unchecked Sendable {
  /// Whether the shutdown finished (a class, so the signal handlers can hold it).
  private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
  }

  private let finished = Flag()
  private let sources: [any DispatchSourceSignal]

  /// Watches `signals`; each one, once seen, gives the shutdown `grace` to finish before
  /// `expired` runs (on a queue of its own).
  package init(
    signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], grace: Duration, expired: @escaping @Sendable () -> Void
  ) {
    let queue = DispatchQueue(label: "sendingstate.preview.watchdog")
    let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
    let finished = self.finished
    var made: [any DispatchSourceSignal] = []
    for signal in signals {
      let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
      source.setEventHandler {
        queue.asyncAfter(deadline: .now() + seconds) {
          guard !finished.value.load(ordering: .acquiring) else { return }
          expired()
        }
      }
      source.resume()
      made.append(source)
    }
    sources = made
  }

  /// The shutdown finished: nothing more to watch.
  package func finish() {
    finished.value.store(true, ordering: .releasing)
    for source in sources { source.cancel() }
  }
}
