import SendingState
import Testing

@testable import SendingStateHeadless

@Suite("View hierarchy and interactivity")
@MainActor
struct ViewTests {
  @Test("children are ordered; moving a view detaches it from its old parent")
  func hierarchy() {
    let root = View(id: "root")
    let a = Label(id: "a")
    let b = Label(id: "b")
    let other = View(id: "other")
    root.addSubview(a)
    root.addSubview(b)
    root.insertSubview(other, at: 0)
    #expect(root.subviews.map(\.id) == ["other", "a", "b"])
    other.addSubview(a)
    #expect(root.subviews.map(\.id) == ["other", "b"])
    #expect(a.superview === other)
    a.removeFromSuperview()
    #expect(a.superview == nil && other.subviews.isEmpty)
  }

  @Test("view(withID:) searches depth-first; allViews lists the subtree in order")
  func lookup() {
    let root = StackView(id: "root")
    let inner = StackView(id: "inner")
    let deep = Button(id: "deep")
    root.addSubview(inner)
    inner.addSubview(deep)
    root.addSubview(Label(id: "after"))
    #expect(root.view(withID: "deep") === deep)
    #expect(root.view(withID: "missing") == nil)
    #expect(root.allViews.map(\.id) == ["root", "inner", "deep", "after"])
  }

  @Test("interaction needs the view and its ancestors visible, opaque enough and enabled")
  func interactivity() {
    let root = View()
    let child = Button()
    root.addSubview(child)
    #expect(child.isInteractive)
    root.isHidden = true
    #expect(!child.isInteractive)
    root.isHidden = false
    root.alpha = 0.005
    #expect(!child.isInteractive)
    root.alpha = 0.5
    child.isEnabled = false
    #expect(!child.isInteractive)
  }

  @Test("tag is 0 until set, like UIView.tag, and stays out of the render tree")
  func tag() {
    let root = View(id: "root")
    let button = Button(id: "b", title: "Go")
    root.addSubview(button)
    #expect(root.tag == 0 && button.tag == 0)
    let before = root.renderTree().text
    button.tag = 42
    root.tag = -1
    #expect(button.tag == 42 && root.tag == -1)
    #expect(root.renderTree().text == before)
  }

  @Test("gesture recognizers attach to one view at a time")
  func gestureAttachment() {
    let a = View()
    let b = View()
    let tap = TapGestureRecognizer()
    a.addGestureRecognizer(tap)
    #expect(tap.view === a && a.gestureRecognizers.count == 1)
    b.addGestureRecognizer(tap)
    #expect(a.gestureRecognizers.isEmpty && tap.view === b)
    a.removeGestureRecognizer(tap)  // not attached to a: ignored
    #expect(b.gestureRecognizers.count == 1)
    b.removeGestureRecognizer(tap)
    #expect(tap.view == nil && b.gestureRecognizers.isEmpty)
  }

  @Test("views are SendingState hosts with their own side storage")
  func hostsAndStorage() {
    let label = Label()
    #expect(label.ss.base === label)
    #expect(label.sideStorage !== Label().sideStorage)
    #expect(label.sideStorage === label.sideStorage)
  }
}
