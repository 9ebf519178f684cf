import Foundation
import SendingStateTools
import Testing

@testable import SendingStatePreview

@Suite("Page outboxes: a page's queue is bounded in bytes; a page that falls behind gets the whole screen")
struct PageOutboxTests {
  @Test("messages within the budget come out in order; finishing ends them after the queue")
  func order() async {
    let outbox = PageOutbox(budget: 100) { _ in "full" }
    outbox.push("a")
    outbox.push("bb")
    #expect(outbox.queuedBytes == 3)
    outbox.finish()
    outbox.push("after the end")
    var got: [String] = []
    for await message in outbox { got.append(message) }
    #expect(got == ["a", "bb"])
  }

  @Test("past the budget the queue is dropped and counted; the next read is one fresh full message")
  func fallsBehind() async {
    let outbox = PageOutbox(budget: 10) { dropped in "full after \(dropped.messages) messages, \(dropped.bytes) bytes" }
    outbox.push("12345")
    outbox.push("12345")  // exactly the budget
    #expect(outbox.queuedBytes == 10 && !outbox.isStale)
    outbox.push("x")  // one byte too many
    #expect(outbox.queuedBytes == 0 && outbox.isStale)
    outbox.push("yy")  // while stale: counted, not queued
    #expect(outbox.queuedBytes == 0)
    #expect(outbox.dropped == PageOutbox.Dropped(messages: 4, bytes: 13, times: 1))
    #expect(await outbox.next() == "full after 4 messages, 13 bytes")
    outbox.push("z")
    #expect(await outbox.next() == "z")
  }

  @Test("a message bigger than the whole budget makes the page stale at once (it gets a full message instead)")
  func hugeMessage() async {
    let outbox = PageOutbox(budget: 4) { _ in "full" }
    outbox.push("far too long")
    #expect(outbox.isStale && outbox.queuedBytes == 0)
    #expect(await outbox.next() == "full")
  }

  @Test("a reader waiting for a message is woken by a push, and ends when its task is cancelled")
  func waiting() async {
    let outbox = PageOutbox(budget: 100) { _ in "full" }
    let reader = Task { await outbox.next() }
    try? await Task.sleep(for: .milliseconds(20))
    outbox.push("hello")
    #expect(await reader.value == "hello")
    let cancelled = Task { await outbox.next() }
    cancelled.cancel()
    #expect(await cancelled.value == nil)
  }
}

@Suite("Preview host: a page that never reads")
@MainActor
struct SlowPageTests {
  @Test("a page that never reads holds at most its budget; when it reads it gets the screen as it is, and what was dropped")
  func neverReads() async throws {
    let host = try PreviewHost(path: repoPath("Tests/SendingStateToolsTests/Fixtures/hostile/big_labels.lua"))
    defer {
      host.disconnectAll()
      host.session.screen.close()
    }
    let (client, messages) = try #require(host.connect())
    for _ in 0..<40 {
      host.apply(.tap("grow"))
      host.refresh()
      #expect(messages.queuedBytes <= PreviewHost.pageBudget)
    }
    let dropped = try #require(host.dropped(for: client))
    #expect(dropped.times >= 1 && dropped.messages >= 1)
    let full = try object(await messages.next())
    #expect(full["type"] as? String == "full")
    #expect(full["version"] as? Int == host.version)
    let status = try #require((full["panel"] as? [String: Any])?["status"] as? String)
    #expect(status.contains("this page fell behind") && status.contains("updates"), "\(status)")
    #expect((full["panel"] as? [String: Any])?["state"].flatMap { ($0 as? [String: Any])?["n"] as? Int } == 40)
    // Then patches again, building on that version.
    host.apply(.tap("grow"))
    host.refresh()
    let patch = try object(await messages.next())
    #expect(patch["type"] as? String == "patch" && patch["base"] as? Int == full["version"] as? Int)
  }

  @Test("a tree with a 4 MiB string in 60 labels: each value is cut, showing its length")
  func cutValues() async throws {
    let host = try PreviewHost(path: repoPath("Tests/SendingStateToolsTests/Fixtures/hostile/big_labels.lua"))
    defer {
      host.disconnectAll()
      host.session.screen.close()
    }
    let (_, messages) = try #require(host.connect())
    let text = try #require(await messages.next())
    #expect(text.utf8.count < 60 * (PreviewTree.valueLimit + 300) + 100_000)
    #expect(text.contains("… (4194305 bytes; cut at 4096)"))
  }

  @Test("past the tree's value budget, strings are replaced by a note of their length")
  func valueBudget() {
    var budget = 5_000
    let long = String(repeating: "y", count: 30_000)
    let first = PreviewTree.json(.string(long), budget: &budget)
    #expect(first.hasSuffix("… (30000 bytes; cut at 4224)\""))
    #expect(budget == 5_000 - (PreviewTree.valueLimit + 128))
    let second = PreviewTree.json(.string(long), budget: &budget)
    #expect(second == "\"… (30000 bytes: left out, the screen's text is over the preview's 1 MiB)\"")
    #expect(PreviewTree.json(.strings(["a", long]), budget: &budget) == "[\"a\",\(second)]")
  }
}
