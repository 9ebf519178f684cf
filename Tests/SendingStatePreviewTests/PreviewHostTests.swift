import Foundation
import SendingStateTools
import Testing

@testable import SendingStatePreview

/// The label `id`'s text in a `full` message's tree, or in a patch's operations.
private func text(of id: String, in node: [String: Any]) -> String? {
  if node["id"] as? String == id { return (node["p"] as? [String: Any])?["text"] as? String }
  for child in node["c"] as? [[String: Any]] ?? [] {
    if let found = text(of: id, in: child) { return found }
  }
  return nil
}

@Suite("Preview host: events in, patches and the panel out, reloads keeping state")
@MainActor
struct PreviewHostTests {
  @Test("a page gets the whole tree, then only what a tap changed, with the log, state diff and its seq")
  func tapRoundTrip() async throws {
    let host = try PreviewHost(path: repoPath("examples/counter/counter.lua"))
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    let full = try object(await iterator.next())
    #expect(full["type"] as? String == "full")
    #expect(text(of: "count", in: try #require(full["tree"] as? [String: Any])) == "1")

    host.receive(#"{"seq":7,"verb":"tap","id":"plus"}"#, from: client)
    let patch = try object(await iterator.next())
    #expect(patch["type"] as? String == "patch")
    #expect(patch["seq"] as? Int == 7)
    #expect(patch["base"] as? Int == 0 && patch["version"] as? Int == 1)
    let operations = try #require(patch["ops"] as? [[String: Any]])
    #expect(operations.count == 1)  // only the count label changed
    #expect((operations.first?["p"] as? [String: Any])?["text"] as? String == "2")
    let panel = try #require(patch["panel"] as? [String: Any])
    let log = try #require(panel["log"] as? [[String: Any]])
    #expect(log.first?["event"] as? String == "tap plus" && log.first?["actions"] as? [String] == ["increment"])
    #expect(log.first?["why"] as? [String] == [])
    #expect(panel["diff"] as? [String] == ["count: 1 → 2"])
    #expect((panel["state"] as? [String: Any])?["count"] as? Int == 2)
    #expect(panel["error"] is NSNull)
    // A tap that does nothing says why in the log.
    host.receive(#"{"seq":8,"verb":"tap","id":"title"}"#, from: client)
    let silent = try #require(try object(await iterator.next())["panel"] as? [String: Any])
    let entry = try #require((silent["log"] as? [[String: Any]])?.first)
    #expect(entry["actions"] as? [String] == [])
    #expect(entry["why"] as? [String] == ["nothing is registered on 'title': no on(view.title, …) in the screen's events"])
    host.disconnect(client)
    #expect(host.clientCount == 0)
  }

  @Test("a bad event shows its error; an unknown id lists the ids")
  func eventErrors() async throws {
    let host = try PreviewHost(path: repoPath("examples/counter/counter.lua"))
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()
    host.receive(#"{"seq":1,"verb":"tap","id":"plu"}"#, from: client)
    let panel = try #require(try object(await iterator.next())["panel"] as? [String: Any])
    let message = try #require((panel["error"] as? [String: Any])?["message"] as? String)
    #expect(message.contains("no view with id 'plu'") && message.contains("plus"))
    host.receive("{", from: client)
    let bad = try #require(try object(await iterator.next())["panel"] as? [String: Any])
    #expect(((bad["error"] as? [String: Any])?["message"] as? String)?.contains("bad message from the page") == true)
  }

  @Test("reload keeps the state; a broken script shows file:line and the last good version keeps running")
  func reload() async throws {
    let (folder, screen) = try copyExample("counter", screen: "counter.lua")
    defer { try? FileManager.default.removeItem(at: folder) }
    let host = try PreviewHost(path: screen)
    defer { host.session.screen.close() }
    let (_, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()
    host.apply(.tap("plus"))
    let original = try String(contentsOfFile: screen, encoding: .utf8)
    try original.replacingOccurrences(of: "\"host API \" .. ss.version", with: "\"edited\"").write(toFile: screen, atomically: true, encoding: .utf8)
    host.reload()
    let reloaded = try object(await iterator.next())
    let operations = try #require(reloaded["ops"] as? [[String: Any]])
    #expect(operations.contains { ($0["p"] as? [String: Any])?["text"] as? String == "edited" })
    #expect(((reloaded["panel"] as? [String: Any])?["status"] as? String)?.hasPrefix("reloaded counter.lua") == true)
    #expect(host.session.screen.state["count"] == .integer(2))

    try "return {".write(toFile: screen, atomically: true, encoding: .utf8)
    host.reload()
    let broken = try #require(try object(await iterator.next())["panel"] as? [String: Any])
    let error = try #require(broken["error"] as? [String: Any])
    #expect((error["file"] as? String)?.hasSuffix("counter.lua") == true)
    #expect(error["line"] as? Int == 1)
    host.apply(.tap("plus"))
    #expect(host.session.screen.state["count"] == .integer(3))  // the previous version runs on
  }

  @Test("once the server stops, pages are let go and a page that reconnects is refused")
  func stoppingRefusesPages() async throws {
    let host = try PreviewHost(path: repoPath("examples/counter/counter.lua"))
    defer { host.session.screen.close() }
    let (_, messages) = try #require(host.connect())
    #expect(!host.isStopping)
    host.disconnectAll()
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()  // the full tree it was sent on connecting
    #expect(await iterator.next() == nil)  // then its stream ends
    #expect(host.isStopping && host.connect() == nil)
  }

  @Test("scrolling a list moves its window; at most 16 pages; events are rate limited")
  func scrollAndLimits() async throws {
    // A small bucket: each sync redraws the whole tree on the main actor, and 120 of them would
    // hold it for seconds (other tests wait on it).
    let host = try PreviewHost(
      path: repoPath("examples/products/products.lua"), limiter: RateLimiter(perSecond: 1, burst: 8))
    defer {
      host.disconnectAll()
      host.session.screen.close()
    }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()
    host.receive(#"{"seq":1,"scroll":{"list":"items","first":5}}"#, from: client)
    let patch = try object(await iterator.next())
    let operations = try #require(patch["ops"] as? [[String: Any]])
    #expect(operations.contains { ($0["p"] as? [String: Any])?["first"] as? Int == 5 })
    #expect(operations.contains { ($0["p"] as? [String: Any])?["text"] as? String == "Mint" })
    for _ in 1..<PreviewHost.clientLimit { #expect(host.connect() != nil) }
    #expect(host.connect() == nil)
    var limited = false
    for index in 0..<20 {
      host.receive(#"{"seq":\#(index),"sync":true}"#, from: client)
      if let text = await iterator.next(), text.contains("too many events") {
        limited = true
        break
      }
    }
    #expect(limited)
  }
}

@Suite("Preview host: hostile pages")
@MainActor
struct PreviewHostAttackTests {
  @Test("a scroll to the smallest 64-bit integer is refused with a reason (it trapped on first - 1: SIGILL)")
  func scrollToIntMin() async throws {
    let host = try PreviewHost(path: repoPath("examples/products/products.lua"))
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()
    host.receive(#"{"seq":1,"scroll":{"list":"items","first":-9223372036854775808}}"#, from: client)
    let panel = try #require(try object(await iterator.next())["panel"] as? [String: Any])
    let message = try #require((panel["error"] as? [String: Any])?["message"] as? String)
    #expect(message.contains("scroll.first must be 1…1000000000"))
    host.receive(#"{"seq":2,"scroll":{"list":"items","first":1000000000}}"#, from: client)
    let patch = try object(await iterator.next())
    #expect(patch["seq"] as? Int == 2)
  }
}

/// The characters no script may show on the page as they are (an independent list).
private func rawControls(in text: String) -> [String] {
  text.unicodeScalars.filter { scalar in
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }.map { String($0.value, radix: 16) }
}

@Suite("Preview host: a forging screen")
@MainActor
struct PreviewPanelTextTests {
  @Test("the panel's error, log, diff and status show a script's control characters escaped")
  func panelEscapes() async throws {
    let host = try PreviewHost(path: repoPath("Tests/SendingStateToolsTests/Fixtures/hostile/forged_error.lua"))
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    _ = await messages.next()
    host.receive(#"{"seq":1,"verb":"tap","id":"fail"}"#, from: client)
    let failed = try object(await messages.next())
    let panel = try #require(failed["panel"] as? [String: Any])
    let message = try #require((panel["error"] as? [String: Any])?["message"] as? String)
    #expect(rawControls(in: message).isEmpty, "\(rawControls(in: message))")
    #expect(message.contains("\\u{1B}[2K\\u{D}other.lua:1: all fine\\u{202E}eman"), "\(message)")
    let log = try #require(panel["log"] as? [[String: Any]])
    #expect(log.allSatisfy { rawControls(in: ($0["error"] as? String) ?? "").isEmpty })

    host.receive(#"{"seq":2,"verb":"tap","id":"say"}"#, from: client)
    let said = try #require(try object(await messages.next())["panel"] as? [String: Any])
    let diff = try #require(said["diff"] as? [String])
    #expect(!diff.isEmpty && diff.allSatisfy { rawControls(in: $0).isEmpty }, "\(diff)")

    host.receive(#"{"seq":3,"verb":"ta\u001bp","id":"x"}"#, from: client)
    let refused = try #require(try object(await messages.next())["panel"] as? [String: Any])
    let problem = try #require((refused["error"] as? [String: Any])?["message"] as? String)
    #expect(rawControls(in: problem).isEmpty && problem.contains("\\u{1B}"), "\(problem)")
  }
}

@Suite("The page's script inserts screen text as text only, made visible")
struct PreviewScriptTextTests {
  @Test("no HTML insertion, no eval; every text from the screen goes through visible()")
  func onlyText() {
    let source = PreviewScript.source
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "srcdoc", "DOMParser"] {
      #expect(!source.contains(sink), "\(sink)")
    }
    // Each textContent, alt, placeholder and title set from data goes through visible() (or
    // element(), which applies it); the rest are the page's own words or numbers.
    let own = ["el.textContent = text; el.className = kind", "$(\"latency\").textContent = \"round trip \"", "value.textContent = format(v)",
      "$(\"record\").textContent = on ? \"● Record again\" : \"● Record\"",
    ]
    for line in source.split(separator: "\n") where line.contains("textContent =") || line.contains(".alt =") || line.contains(".placeholder =") || line.contains("document.title =") {
      #expect(line.contains("visible(") || own.contains { line.contains($0) }, "\(line)")
    }
    #expect(!source.contains("createTextNode(name"))
  }

  @Test("visible() escapes control characters and bidi controls as the CLI does (run in Node)",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node")))
  func visibleInNode() throws {
    let source = PreviewScript.source
    let start = try #require(source.range(of: "const hidden = "))
    let end = try #require(source.range(of: "preview.visible = visible;"))
    let function = String(source[start.lowerBound..<end.lowerBound])
    let input = "ok\u{1B}[2K\r\u{202E}x\u{85}\u{7F}\n\ttab é 😀\u{2066}\u{200F}"
    let inputJSON = String(decoding: try JSONSerialization.data(withJSONObject: [input]), as: UTF8.self)
    let script = function + "\nprocess.stdout.write(JSON.stringify(visible(\(inputJSON)[0])));"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ss-visible-\(UUID().uuidString).js")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    // popen, not Foundation's Process (whose run() leaks under LeakSanitizer on Linux).
    let stream = try #require(popen("/usr/bin/node '\(file.path)'", "r"))
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, stream)
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    #expect(pclose(stream) == 0)
    let output = try #require(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? String)
    #expect(output == VisibleText.escaped(input))
    #expect(output == "ok\\u{1B}[2K\\u{D}\\u{202E}x\\u{85}\\u{7F}\n\ttab é 😀\\u{2066}\\u{200F}")
  }
}
