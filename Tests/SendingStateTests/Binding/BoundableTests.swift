import Foundation
import Testing

import SendingState
import SendingStateHeadless

// The seed's own examples (seed 001: "Boundable", "AnyBoundable", "Swift 6 Migration"), written
// against the headless toolkit: `View` stands in for `UITableViewCell`, `Label` for `UILabel`.

// MARK: - Seed types

/// The seed's `MyModel`.
private struct MyModel: Equatable, Sendable {
  var text: String
  var id: Int
}

/// The seed's `MyAction`, with the cases its examples send.
private enum MyAction: Equatable {
  case sendClickLog
  case applyFilter(Int)
  case changeSlider(Double)
  case buttonTapped(Int)
}

/// The seed's `MyInteractor`: handles the actions centrally (here: records them).
private final class MyInteractor: NSObject, ActionHandlingProvider {
  private(set) var received: [MyAction] = []
  func handle(action: MyAction) {
    received.append(action)
  }
}

/// The seed's `MyCell` (sections "Configurable — @MainActor" and "State-aware EventForwarder"):
/// a label set by the configurer, a button whose tap reads the bound state.
private final class MyCell: View, Configurable, EventForwardingProvider {
  let label = Label(id: "label")
  let button = Button(id: "button")
  private(set) var configureCount = 0

  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(label)
    addSubview(button)
  }

  var configurer: (MyCell, MyModel) -> Void {
    { cell, model in
      cell.configureCount += 1
      cell.label.text = model.text
      cell.button.title = "Open \(model.text)"
    }
  }

  var eventForwarder: any EventForwardable {
    EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { (state: MyModel) in
        [MyAction.buttonTapped(state.id)]
      }
    }
  }
}

/// The seed's struct view model ("2) `Boundable` — `Sendable`"), word for word.
private struct MyViewModel: Boundable {
  var contentData: MyModel?
  var binderType: MyCell.Type { MyCell.self }
}

/// The seed's class view model: `@unchecked Sendable`, its mutable state behind a lock.
private final class MyClassViewModel: @unchecked Sendable, Boundable {
  var contentData: MyModel? {
    get { lock.lock(); defer { lock.unlock() }; return _contentData }
    set { lock.lock(); _contentData = newValue; lock.unlock() }
  }

  private let lock = NSLock()
  private var _contentData: MyModel?
  var binderType: MyCell.Type { MyCell.self }
}

/// The seed's `MyViewController` ("Safe binding").
@MainActor
private final class MyViewController {
  let myView = MyCell()

  func bindViewModel(with viewModel: MyViewModel) {
    viewModel.apply(to: myView)
  }
}

/// A section title row: another binder type for the heterogeneous list.
private final class TitleCell: View, Configurable {
  let title = Label(id: "title")

  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(title)
  }

  var configurer: (TitleCell, String) -> Void {
    { cell, text in cell.title.text = text.uppercased() }
  }
}

private struct TitleViewModel: Boundable {
  var contentData: String?
  var binderType: TitleCell.Type { TitleCell.self }
}

/// A settings row with a switch: a third binder type.
private final class ToggleCell: View, Configurable {
  let toggle = Switch(id: "toggle")

  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(toggle)
  }

  var configurer: (ToggleCell, Bool) -> Void {
    { cell, isOn in cell.toggle.isOn = isOn }
  }
}

private struct ToggleViewModel: Boundable {
  var contentData: Bool?
  var binderType: ToggleCell.Type { ToggleCell.self }
}

/// The seed's event-forwarding `MyCell` ("Forward Events, Handle Actions in the Interactor").
private final class FilterCell: View, EventForwardingProvider {
  let button = Button(id: "filter")
  let aView = View(id: "aView")
  let slider = Slider(id: "slider")

  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(button)
    addSubview(aView)
    addSubview(slider)
  }

  var eventForwarder: any EventForwardable {
    SenderGroup {
      EventForwarder(button) { sender, ctx in
        ctx.control([.touchUpInside]) {
          [MyAction.sendClickLog, .applyFilter(sender.tag)]
        }
      }
      EventForwarder(aView) { _, ctx in
        ctx.tapGesture() { [MyAction.sendClickLog] }
      }
      EventForwarder(slider) { sender, ctx in
        ctx.control(.valueChanged) {
          [MyAction.sendClickLog, .changeSlider(sender.value)]
        }
      }
    }
  }
}

/// Builds view models off the main actor, as a network layer would.
private actor Catalog {
  func viewModel(for id: Int) -> MyViewModel {
    MyViewModel(contentData: MyModel(text: "Tea #\(id)", id: id))
  }
}

// MARK: - Tests

@Suite("Seed 001: Boundable, AnyBoundable, Boundable — Sendable, sender.tag")
@MainActor
struct BoundableTests {
  @Test("Boundable: a view model configures its view (safe binding)")
  func boundableConfiguresItsView() {
    let controller = MyViewController()
    controller.bindViewModel(with: MyViewModel(contentData: MyModel(text: "Tea", id: 1)))
    #expect(controller.myView.label.text == "Tea")
    #expect(controller.myView.button.title == "Open Tea")
    #expect(controller.myView.configureCount == 1)
    #expect(controller.myView.ss.state() == MyModel(text: "Tea", id: 1))

    controller.bindViewModel(with: MyViewModel(contentData: MyModel(text: "Coffee", id: 2)))
    #expect(controller.myView.label.text == "Coffee")
    #expect(controller.myView.configureCount == 2)
  }

  @Test("Boundable: apply(to:) sends the state to the view's senders, read at tap time")
  func boundableStateReachesSenders() {
    let cell = MyCell()
    let interactor = MyInteractor()
    cell.ss.addActionHandler(to: interactor)
    MyViewModel(contentData: MyModel(text: "Tea", id: 7)).apply(to: cell)
    let senderState: MyModel? = cell.button.ss.state()
    #expect(senderState == MyModel(text: "Tea", id: 7))
    cell.button.simulateTap()
    MyViewModel(contentData: MyModel(text: "Coffee", id: 8)).apply(to: cell)
    cell.button.simulateTap()
    #expect(interactor.received == [.buttonTapped(7), .buttonTapped(8)])
  }

  @Test("Boundable: nil contentData leaves the view as it was")
  func boundableNilContentDoesNothing() {
    let cell = MyCell()
    MyViewModel(contentData: nil).apply(to: cell)
    #expect(cell.configureCount == 0)
    #expect(cell.label.text == "")
    #expect(cell.ss.state() == nil)

    MyViewModel(contentData: MyModel(text: "Tea", id: 1)).apply(to: cell)
    MyViewModel(contentData: nil).apply(to: cell)
    #expect(cell.configureCount == 1)
    #expect(cell.label.text == "Tea")
    #expect(cell.ss.state() == MyModel(text: "Tea", id: 1))
  }

  @Test("Boundable — Sendable: a struct view model built in an actor is applied on the main actor")
  func sendableStructCrossesActorBoundary() async {
    let fromActor = await Catalog().viewModel(for: 3)
    let fromDetachedTask = await Task.detached {
      MyViewModel(contentData: MyModel(text: "Tea #4", id: 4))
    }.value
    let first = MyCell()
    let second = MyCell()
    fromActor.apply(to: first)
    fromDetachedTask.apply(to: second)
    #expect(first.label.text == "Tea #3")
    #expect(second.label.text == "Tea #4")
  }

  @Test("Boundable — Sendable: the class view model with a lock takes concurrent writes")
  func sendableClassWithLock() async throws {
    let viewModel = MyClassViewModel()
    await withTaskGroup(of: Void.self) { group in
      for id in 1...100 {
        group.addTask { viewModel.contentData = MyModel(text: "Tea #\(id)", id: id) }
      }
    }
    let last = try #require(viewModel.contentData)
    #expect((1...100).contains(last.id))

    let cell = MyCell()
    viewModel.apply(to: cell)
    #expect(cell.label.text == "Tea #\(last.id)")

    // Erased, the class is read when applied: a later write is what the view shows.
    let erased = viewModel.eraseToAnyBoundable()
    viewModel.contentData = MyModel(text: "Coffee", id: 0)
    erased.apply(to: cell)
    #expect(cell.label.text == "Coffee")
  }

  @Test("AnyBoundable: heterogeneous lists bound in a loop")
  func anyBoundableListInALoop() {
    let items: [AnyBoundable] = [
      TitleViewModel(contentData: "Drinks").eraseToAnyBoundable(),
      MyViewModel(contentData: MyModel(text: "Tea", id: 1)).eraseToAnyBoundable(),
      ToggleViewModel(contentData: true).eraseToAnyBoundable(),
      MyViewModel(contentData: nil).eraseToAnyBoundable(),
    ]
    let title = TitleCell()
    let tea = MyCell()
    let toggle = ToggleCell()
    let empty = MyCell()
    let cells: [View] = [title, tea, toggle, empty]

    for (item, cell) in zip(items, cells) {
      item.apply(to: cell)
    }

    #expect(title.title.text == "DRINKS")
    #expect(tea.label.text == "Tea")
    #expect(toggle.toggle.isOn)
    #expect(empty.configureCount == 0)
    #expect(empty.label.text == "")
    #expect(
      items.map { ObjectIdentifier($0.binderType) }
        == [TitleCell.self, MyCell.self, ToggleCell.self, MyCell.self].map { ObjectIdentifier($0) })
    #expect(items[0].contentData as? String == "Drinks")
    #expect(items[1].contentData as? MyModel == MyModel(text: "Tea", id: 1))
    #expect(items[3].contentData == nil)
  }

  @Test("AnyBoundable: a view of another type is skipped; tryApply says why")
  func anyBoundableWrongViewType() {
    let item = TitleViewModel(contentData: "Drinks").eraseToAnyBoundable()
    let cell = MyCell()
    item.apply(to: cell)
    item.apply(to: "not a view")
    #expect(cell.configureCount == 0)
    #expect(cell.label.text == "")
    #expect(cell.ss.state() == nil)

    #expect(throws: BindingStoreError.binderTypeMismatch(expected: "\(TitleCell.self)", actual: "\(MyCell.self)")) {
      try item.tryApply(to: cell)
    }
    // nil data is not an error: nothing to show.
    let title = TitleCell()
    #expect(throws: Never.self) { try TitleViewModel(contentData: nil).eraseToAnyBoundable().tryApply(to: title) }
    #expect(title.title.text == "")
  }

  @Test("AnyBoundable: item.apply(to: cell) then attach(to:) on a reused cell, as in cellForItemAt")
  func anyBoundableReusedCell() {
    let interactor = MyInteractor()
    let actionHandler = AnyActionHandlingProvider(interactor)
    let items = (1...3).map { MyViewModel(contentData: MyModel(text: "Tea #\($0)", id: $0)).eraseToAnyBoundable() }
    let reused = MyCell()
    for item in items {
      item.apply(to: reused)
      let cell: View = reused
      if let aCell = cell as? (any View & EventForwardingProvider) {
        actionHandler.attach(to: aCell)
      }
      reused.button.simulateTap()
    }
    #expect(reused.label.text == "Tea #3")
    #expect(interactor.received == [.buttonTapped(1), .buttonTapped(2), .buttonTapped(3)])
  }

  @Test("sender.tag in an event forwarder")
  func senderTagInEventForwarder() throws {
    let cell = FilterCell()
    let interactor = MyInteractor()
    cell.ss.addActionHandler(to: interactor)
    #expect(cell.button.tag == 0)

    cell.button.tag = 3
    cell.button.simulateTap()
    cell.button.tag = 5  // read at event time, not when the handler was added
    cell.button.simulateTap()
    #expect(interactor.received == [.sendClickLog, .applyFilter(3), .sendClickLog, .applyFilter(5)])

    cell.slider.simulateValue(0.5)
    try cell.aView.simulateGesture(.tap)
    #expect(interactor.received.suffix(3) == [.sendClickLog, .changeSlider(0.5), .sendClickLog])
  }
}
