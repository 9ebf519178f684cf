import SendingState
import SendingStateHeadless

// The README's tutorial code, compiled and run by CounterTutorialTests.
// tutorial:begin
/// The counter's state: a value type, owned by a store.
struct Counter: Equatable, Codable {
  var count: Int
}

/// What the counter's senders ask for.
enum CounterAction {
  case increment
  case reset
}

/// The view: a label shows the count, a button asks for more.
final class CounterView: StackView, Configurable, EventForwardingProvider {
  let countLabel = Label(id: "count")
  let plusButton = Button(id: "plus", title: "+")

  init() {
    super.init(id: "counter", axis: .vertical, spacing: 8)
    addSubview(countLabel)
    addSubview(plusButton)
  }

  // State flows in: the configurer is the only code that writes to the views.
  var configurer: (CounterView, Counter) -> Void {
    { view, counter in view.countLabel.text = "\(counter.count)" }
  }

  // Intent flows out: sender → event → actions.
  var eventForwarder: any EventForwardable {
    EventForwarder(plusButton) { _, ctx in
      ctx.control(.touchUpInside) { [CounterAction.increment] }
      ctx.longPressGesture(on: [.began]) { [CounterAction.reset] }
    }
  }
}

/// The handler turns actions into new state. It writes back through the view, which
/// reconfigures itself and updates the store it was bound to.
@MainActor
final class CounterHandler: @MainActor ActionHandlingProvider {
  weak var view: CounterView?

  func handle(action: CounterAction) {
    view?.ss.invalidateState { (counter: Counter) in
      switch action {
      case .increment: Counter(count: counter.count + 1)
      case .reset: Counter(count: 0)
      }
    }
  }
}

/// Wires it together and drives it like a user would; returns what was printed.
@MainActor
func runCounterTutorial() throws -> [String] {
  var output: [String] = []
  let view = CounterView()
  let store = BindingStore<Counter, CounterView>(state: Counter(count: 0))
  let handler = CounterHandler()
  handler.view = view

  store.apply(to: view)  // configures the view with count 0
  view.ss.addActionHandler(to: handler)  // installs the button's callbacks
  let token = store.observe { output.append("store: \($0.count)") }  // prints 0 at once

  view.plusButton.simulateTap()  // → increment → store: 1
  view.plusButton.simulateTap()  // → increment → store: 2
  output.append(view.renderTree().text)

  try view.plusButton.simulateGesture(.longPress)  // → reset → store: 0
  output.append("label: \(view.countLabel.text)")
  token.cancel()
  return output
}
// tutorial:end
