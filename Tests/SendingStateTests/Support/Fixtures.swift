import Foundation
import SendingState
import SendingStateHeadless

// MARK: - Actions and handlers

enum TestAction: Equatable {
  case buttonTapped(Int)
  case sendClickLog
  case custom(String)
}

/// Records every action it handles, in order.
final class RecordingHandler<Action>: ActionHandlingProvider {
  private(set) var received: [Action] = []
  func handle(action: Action) {
    received.append(action)
  }
}

/// Counts instances alive, to prove releases.
final class LifeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var alive: Int { lock.withLock { value } }
  func increment() { lock.withLock { value += 1 } }
  func decrement() { lock.withLock { value -= 1 } }
}

/// A class-typed input whose lifetime tests observe through `weak` references.
final class ClassInput {
  let name: String
  init(_ name: String) { self.name = name }
}

struct Model: Equatable, Codable {
  var value: Int
}

// MARK: - Binders

/// A Configurable headless view that records its configurer calls.
final class RecordingView<Input>: View, Configurable {
  var calls: [Input] = []
  var stateSeenInConfigurer: [Input?] = []
  var onConfigure: ((RecordingView<Input>, Input) -> Void)?

  var configurer: (RecordingView<Input>, Input) -> Void {
    { view, input in
      view.calls.append(input)
      view.stateSeenInConfigurer.append(view.ss.state())
      view.onConfigure?(view, input)
    }
  }
}

/// A Configurable object with no side storage (upstream: not an NSObject).
final class PlainConfigurable: Configurable {
  var calls: [String] = []
  var configurer: (PlainConfigurable, String) -> Void {
    { object, input in object.calls.append(input) }
  }
}

/// A view with a button and a label sender, whose tree is supplied by a closure.
final class ForwardingView<Input>: View, Configurable, EventForwardingProvider {
  let button = Button(id: "button")
  let other = Button(id: "other")
  let plainSubview = Label(id: "plain")
  var configureCount = 0
  var senderStatesDuringConfigure: [Input?] = []
  var tree: (ForwardingView<Input>) -> any EventForwardable = { view in
    EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.sendClickLog] } }
  }

  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(button)
    addSubview(other)
    addSubview(plainSubview)
  }

  var configurer: (ForwardingView<Input>, Input) -> Void {
    { view, _ in
      view.configureCount += 1
      view.senderStatesDuringConfigure.append(view.button.ss.state())
    }
  }

  var eventForwarder: any EventForwardable { tree(self) }
}

/// A Configurable with a custom size.
final class SizedView: View, Configurable {
  var configurer: (SizedView, String) -> Void { { _, _ in } }
  nonisolated static func size(with input: String?, constrainedTo parentSize: LayoutSize?) -> LayoutSize? {
    LayoutSize(width: parentSize?.width ?? 0, height: Double(input?.count ?? 0) * 10)
  }
}
