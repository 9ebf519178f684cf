import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

/// 100,000 random events into each example, with a hot reload every 1,000: the host neither
/// crashes nor drifts, every committed action is handled exactly once, and reloads keep state.
///
/// The oracle for "exactly once": a fresh screen that handles each logged action once, in order,
/// through ``LuaScreen/perform(action:)`` (no views, forwarders, rows or reloads involved) ends
/// in the same state as the soaked screen. An action lost or handled twice anywhere in the
/// event cascade, or state lost by a reload, shows as a different state. `SOAK_EVENTS` sets the
/// count: scripts/test.sh runs 100,000 on their own; a plain `swift test` runs 10,000 beside the
/// other suites.
@Suite("Soak: 100,000 random events into each example, a hot reload every 1,000", .serialized)
@MainActor
struct SoakTests {
  static let events = ProcessInfo.processInfo.environment["SOAK_EVENTS"].flatMap { Int($0) } ?? 10_000
  static let reloadEvery = 1_000

  typealias Generator = SplitMix

  static func options(for example: String) async throws -> LuaScreen.Options {
    guard example.hasPrefix("shop/") else { return .init() }
    return .init(data: try await ServerPayload.load(from: examplePath("shop/payload.json")))
  }

  /// A value a user could give `view` (`nil`: the view takes no value).
  static func value(for view: View, _ random: inout Generator) -> LuaValue? {
    switch view {
    case is Switch: return .boolean(Bool.random(using: &random))
    case let stepper as Stepper: return .integer(Int64(Int.random(in: Int(stepper.minimumValue)...Int(stepper.maximumValue), using: &random)))
    case let slider as Slider: return .number(Double.random(in: Double(slider.minimumValue)...Double(slider.maximumValue), using: &random))
    case is TextField: return .string(["", "a", "milk", "é", "x y"].randomElement(using: &random)!)
    case let segments as SegmentedControl:
      return .integer(Int64(Int.random(in: 1...max(1, segments.segments.count), using: &random)))
    default: return nil
    }
  }

  /// One random event on `driver`'s views: a value set when the view takes one, else a tap.
  static func event(on driver: ScreenDriver, _ random: inout Generator) throws -> LuaScreen.Step? {
    guard let id = driver.views.keys.sorted().randomElement(using: &random), let view = driver.views[id] else { return nil }
    if let value = value(for: view, &random), Bool.random(using: &random) {
      return try driver.set(id, value)
    }
    return try driver.tap(id)
  }

  /// Handling each of `actions` once, from `start` (`nil`: the screen's own initial state),
  /// through `perform` alone, must end in `state`.
  static func expectReplay(
    _ example: String, options: LuaScreen.Options, from start: LuaValue?, _ actions: [LuaValue], gives state: LuaValue,
    seed: UInt64, event: Int
  ) throws {
    var replayOptions = options
    replayOptions.state = start
    let replay = try LuaScreen(path: examplePath(example), options: replayOptions)
    defer { replay.close() }
    for action in actions { try replay.perform(action: action) }
    #expect(
      try replay.readState() == state,
      "seed \(seed), event \(event): handling each logged action once gives another state")
  }

  @Test(arguments: ["counter/counter.lua", "products/products.lua", "tasks/tasks.lua", "shop/shop.lua"])
  func soak(_ example: String) async throws {
    let options = try await Self.options(for: example)
    let seed = UInt64(truncatingIfNeeded: example.utf8.reduce(5381) { $0 &* 33 &+ Int($1) })
    var random = Generator(state: seed)
    var screen = try LuaScreen(path: examplePath(example), options: options)
    // A segment: from the initial state, every committed step's actions, in order. A list that
    // only grows (tasks) would make each event cost more than the last, so past `maxRows` rows
    // a segment ends (checked by replay) and the next starts on a fresh screen.
    let maxRows = 300
    var handled: [LuaValue] = []
    var sinceReload = 0  // where this screen's own action log starts in `handled`
    var committedSteps = 0
    var segments = 1
    for number in 1...Self.events {
      // Other suites' main-actor work (effect results, say) gets its turn.
      if number % 100 == 0 { await Task.yield() }
      if number % Self.reloadEvery == 0 {
        let state = try screen.readState()
        #expect(screen.actionLog == Array(handled[sinceReload...]), "seed \(seed), event \(number): the action log drifted")
        let longest = screen.ids.compactMap { try? screen.view($0) as? ListView }.map(\.numberOfRows).max() ?? 0
        if longest > maxRows {
          try Self.expectReplay(example, options: options, from: nil, handled, gives: state, seed: seed, event: number)
          screen.close()
          screen = try LuaScreen(path: examplePath(example), options: options)
          handled = []
          segments += 1
        } else {
          screen = try screen.reloaded()
          #expect(try screen.readState() == state, "seed \(seed), event \(number): a reload changed the state")
        }
        sinceReload = handled.count
      }
      do {
        let lists = screen.ids.compactMap { try? screen.view($0) as? ListView }.filter { $0.numberOfRows > 0 }
        let step: LuaScreen.Step?
        if let list = lists.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
          let index = Int.random(in: 1...list.numberOfRows, using: &random)
          step = try Self.event(on: try screen.row(list.id!, index), &random)
        } else {
          step = try Self.event(on: screen.driver, &random)
        }
        if let step {
          handled += step.actions
          committedSteps += 1
        }
      } catch is ScriptError {
        // A refused event (a handler's own check, say): nothing committed, nothing logged.
      } catch is ScreenUsageError {
        // A disabled control, say.
      }
    }
    #expect(committedSteps > Self.events / 4, "seed \(seed): too few events committed to mean anything")
    #expect(segments < Self.events / Self.reloadEvery || Self.events < 10 * Self.reloadEvery, "seed \(seed): no reload kept state")
    try Self.expectReplay(
      example, options: options, from: nil, handled, gives: try screen.readState(), seed: seed, event: Self.events)
    screen.close()
  }
}
