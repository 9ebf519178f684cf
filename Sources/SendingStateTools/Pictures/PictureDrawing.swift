import SendingStateHeadless

/// What to draw for a laid-out screen, in screen coordinates: the shapes and texts of each
/// control in its state (a disabled button greys out, a switch that is on is green, a slider is
/// filled up to its value…). The SVG and PNG renderers draw these commands and nothing else.
///
/// ```swift
/// let commands = PictureDrawing.commands(for: ScreenPicture(tree))
/// ```
public enum PictureDrawing {
  /// One drawing command.
  public enum Command: Sendable, Equatable {
    /// A rectangle with rounded corners, filled and/or stroked (a 1-point line inside its edge).
    case rect(ScreenPicture.Frame, radius: Double, fill: PictureStyle.Color?, stroke: PictureStyle.Color?)
    /// A filled circle with an optional outline.
    case circle(x: Double, y: Double, radius: Double, fill: PictureStyle.Color, stroke: PictureStyle.Color?)
    /// A line one point wide.
    case line(x1: Double, y1: Double, x2: Double, y2: Double, color: PictureStyle.Color)
    /// Text fitted to `frame`'s width (already shortened with "…"), centred vertically in it.
    case text(String, frame: ScreenPicture.Frame, size: Double, color: PictureStyle.Color, alignment: Alignment, bold: Bool)
    /// Everything up to the matching ``endGroup`` is drawn with this opacity (a view's `alpha`).
    case beginGroup(opacity: Double)
    /// Ends a group.
    case endGroup
  }

  /// Text alignment in its frame.
  public enum Alignment: Sendable, Equatable {
    /// From the left edge.
    case leading
    /// Centred.
    case center
  }

  /// The commands that draw `picture`, background first: what shows in the budget's height
  /// (``PictureBudget/maxHeight``), at most ``PictureBudget/maxCommands`` of them, with texts
  /// measured from the picture's budget. What they leave out is added to the picture's ``ScreenPicture/cuts``.
  public static func commands(for picture: ScreenPicture) -> [Command] {
    let budget = picture.measure.budget
    let height = min(picture.height, max(0, budget.maxHeight))
    if picture.height > height {
      picture.measure.note(
        .height, at: "screen", "a screen \(Int(picture.height.rounded(.up))) points tall is drawn to \(Int(height)) points")
    }
    var canvas = Canvas(measure: picture.measure, height: height)
    let frame = ScreenPicture.Frame(x: 0, y: 0, width: picture.width, height: height)
    canvas.append(.rect(frame, radius: 0, fill: PictureStyle.background, stroke: nil))
    for child in picture.root.children { canvas.draw(child, originX: 0, originY: 0, path: []) }
    return canvas.commands
  }

  /// A number property, when it is a finite number.
  static func number(_ item: ScreenPicture.Item, _ name: String) -> Double? {
    let value: Double
    switch item[property: name] {
    case .number(let number): value = number
    case .integer(let integer): value = Double(integer)
    default: return nil
    }
    return value.isFinite ? value : nil
  }

  static func flag(_ item: ScreenPicture.Item, _ name: String) -> Bool? {
    if case .bool(let value) = item[property: name] { return value }
    return nil
  }

  static func string(_ item: ScreenPicture.Item, _ name: String) -> String {
    if case .string(let value) = item[property: name] { return value }
    return ""
  }

  /// `value` as a stepper shows it: integers without a fraction, others to two places.
  static func formatted(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e12 { return String(Int64(value)) }
    let hundredths = (value * 100).rounded() / 100
    return "\(hundredths)"
  }

  /// The commands of one picture as they are made, within its budget.
  struct Canvas {
    let measure: PictureMeasure
    /// Where the picture ends: views wholly below are not drawn.
    let height: Double
    var commands: [Command] = []
    /// Whether the commands budget ran out (nothing more is drawn).
    var full = false

    init(measure: PictureMeasure, height: Double) {
      self.measure = measure
      self.height = height
    }

    /// Appends `command`, unless the commands budget ran out (then notes where); whether it did.
    /// (A group's end is appended past the budget: what opened is closed.)
    @discardableResult
    mutating func append(_ command: Command, at place: @autoclosure () -> String = "screen") -> Bool {
      guard !full else { return false }
      guard commands.count < max(1, measure.budget.maxCommands) else {
        full = true
        measure.note(.commands, at: place(), "a picture draws \(measure.budget.maxCommands) commands; views from here on are not drawn")
        return false
      }
      commands.append(command)
      return true
    }

    mutating func draw(_ item: ScreenPicture.Item, originX: Double, originY: Double, path: [String]) {
      guard !item.isHidden, !full else { return }
      let frame = ScreenPicture.Frame(x: originX + item.frame.x, y: originY + item.frame.y, width: item.frame.width, height: item.frame.height)
      guard frame.y < height else { return }  // below the picture (its children too)
      let here = path + [ScreenPicture.component(kind: item.kind, id: item.id)]
      let place = { ScreenPicture.path(here) }
      let alpha = max(0, min(1, number(item, "alpha") ?? 1))
      let grouped = alpha < 1 && append(.beginGroup(opacity: alpha), at: place())
      let size = PictureStyle.textSize
      let measure = self.measure
      func text(_ string: String, in box: ScreenPicture.Frame, color: PictureStyle.Color, alignment: Alignment, textSize: Double = size) {
        let fitted = measure.fitted(string, width: max(0, box.width), size: textSize, at: place())
        guard !fitted.isEmpty else { return }
        append(.text(fitted, frame: box, size: textSize, color: color, alignment: alignment, bold: false), at: place())
      }
      let enabled = flag(item, "enabled") ?? true
      switch item.kind {
      case "label":
        text(string(item, "text"), in: frame, color: PictureStyle.ink, alignment: .leading)
      case "button":
        let selected = flag(item, "selected") ?? false
        let fill = !enabled ? PictureStyle.quietFill : selected ? PictureStyle.tint : PictureStyle.tintFill
        let ink = !enabled ? PictureStyle.disabledInk : selected ? PictureStyle.background : PictureStyle.tint
        append(.rect(frame, radius: PictureStyle.cornerRadius, fill: fill, stroke: nil), at: place())
        text(string(item, "title"), in: inset(frame, by: 6), color: ink, alignment: .center)
      case "switch":
        drawSwitch(frame, on: flag(item, "isOn") ?? false, enabled: enabled, at: place())
      case "slider":
        drawSlider(item, frame, enabled: enabled, at: place())
      case "stepper":
        drawStepper(item, frame, enabled: enabled, at: place())
      case "segmented":
        drawSegments(item, frame, enabled: enabled, at: place())
      case "textfield":
        append(
          .rect(frame, radius: PictureStyle.cornerRadius, fill: enabled ? PictureStyle.background : PictureStyle.quietFill, stroke: PictureStyle.border),
          at: place())
        let typed = string(item, "text")
        // A secure field shows a dot per character, as phones do (no more dots than a text may have).
        let content =
          flag(item, "secure") == true
          ? String(repeating: "\u{2022}", count: typed.prefix(measure.budget.maxTextCharacters + 1).count) : typed
        let box = inset(frame, by: 10)
        if content.isEmpty {
          text(string(item, "placeholder"), in: box, color: PictureStyle.secondaryInk, alignment: .leading)
        } else {
          text(content, in: box, color: enabled ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .leading)
        }
      case "image":
        append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.imageFill, stroke: nil), at: place())
        let name = string(item, "image")
        text(name.isEmpty ? "image" : name, in: inset(frame, by: 4), color: PictureStyle.secondaryInk, alignment: .center, textSize: PictureStyle.smallTextSize)
      case "list":
        append(.rect(frame, radius: 10, fill: PictureStyle.background, stroke: PictureStyle.separator), at: place())
        let rows = max(0, number(item, "rows") ?? 0)
        if rows == 0 {
          text("No rows", in: frame, color: PictureStyle.secondaryInk, alignment: .center, textSize: PictureStyle.smallTextSize)
        }
        let visible = item.children.filter { !$0.isHidden }
        for row in visible.dropLast() {
          let y = frame.y + row.frame.y + row.frame.height
          guard y < height, !full else { break }
          append(.line(x1: frame.x + PictureStyle.rowInsetX, y1: y, x2: frame.x + frame.width, y2: y, color: PictureStyle.separator), at: place())
        }
        let first = number(item, "first") ?? 1
        if rows > Double(visible.count), frame.height > 12 {
          // A scroll indicator: where the visible rows are among all of them.
          let track = frame.height - 8
          let length = max(8, track * Double(visible.count) / rows)
          let position = max(0, min(1, (first - 1) / max(1, rows - Double(visible.count))))
          let top = frame.y + 4 + (track - length) * position
          append(.rect(.init(x: frame.x + frame.width - 6, y: top, width: 3, height: length), radius: 1.5, fill: PictureStyle.border, stroke: nil), at: place())
        }
      default:
        break
      }
      for child in item.children { draw(child, originX: frame.x, originY: frame.y, path: here) }
      if grouped { commands.append(.endGroup) }  // always closes what it opened, even past the budget
    }

    mutating func drawSwitch(_ frame: ScreenPicture.Frame, on: Bool, enabled: Bool, at place: @autoclosure () -> String) {
      let track = ScreenPicture.Frame(x: frame.x, y: frame.y + (frame.height - PictureStyle.switchHeight) / 2, width: PictureStyle.switchWidth, height: PictureStyle.switchHeight)
      let grouped = !enabled && append(.beginGroup(opacity: 0.45), at: place())
      append(.rect(track, radius: track.height / 2, fill: on ? PictureStyle.switchOn : PictureStyle.quietFill, stroke: on ? nil : PictureStyle.border), at: place())
      let radius = track.height / 2 - 2
      let centerX = on ? track.x + track.width - 2 - radius : track.x + 2 + radius
      append(.circle(x: centerX, y: track.y + track.height / 2, radius: radius, fill: PictureStyle.background, stroke: PictureStyle.border), at: place())
      if grouped { commands.append(.endGroup) }
    }

    mutating func drawSlider(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, at place: @autoclosure () -> String) {
      let low = number(item, "min") ?? 0
      let high = number(item, "max") ?? 1
      let value = number(item, "value") ?? low
      let fraction = high > low ? max(0, min(1, (value - low) / (high - low))) : 0
      let knob = 12.0
      let centerY = frame.y + frame.height / 2
      let start = frame.x + knob
      let length = max(0, frame.width - 2 * knob)
      let grouped = !enabled && append(.beginGroup(opacity: 0.45), at: place())
      append(.rect(.init(x: start, y: centerY - 2, width: length, height: 4), radius: 2, fill: PictureStyle.border, stroke: nil), at: place())
      append(.rect(.init(x: start, y: centerY - 2, width: length * fraction, height: 4), radius: 2, fill: PictureStyle.tint, stroke: nil), at: place())
      append(.circle(x: start + length * fraction, y: centerY, radius: knob, fill: PictureStyle.background, stroke: PictureStyle.border), at: place())
      if grouped { commands.append(.endGroup) }
    }

    mutating func drawStepper(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, at place: @autoclosure () -> String) {
      let value = number(item, "value") ?? 0
      let third = frame.width / 3
      append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.quietFill, stroke: nil), at: place())
      let canDecrease = enabled && value > (number(item, "min") ?? -Double.infinity)
      let canIncrease = enabled && value < (number(item, "max") ?? Double.infinity)
      let size = PictureStyle.textSize + 3
      append(.text("−", frame: .init(x: frame.x, y: frame.y, width: third, height: frame.height), size: size, color: canDecrease ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: false), at: place())
      let shown = measure.fitted(formatted(value), width: third, size: PictureStyle.smallTextSize, at: place())
      append(.text(shown, frame: .init(x: frame.x + third, y: frame.y, width: third, height: frame.height), size: PictureStyle.smallTextSize, color: enabled ? PictureStyle.secondaryInk : PictureStyle.disabledInk, alignment: .center, bold: false), at: place())
      append(.text("+", frame: .init(x: frame.x + 2 * third, y: frame.y, width: third, height: frame.height), size: size, color: canIncrease ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: false), at: place())
    }

    mutating func drawSegments(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, at place: @autoclosure () -> String) {
      guard case .strings(let all) = item[property: "segments"], !all.isEmpty else { return }
      let segments = ScreenPicture.segments(all, measure: measure, place: place())
      guard !segments.isEmpty else { return }
      // The selected segment, from 1 (a number that is not a segment's selects none).
      let selectedNumber = number(item, "selectedIndex") ?? 0
      let selected = selectedNumber >= 1 && selectedNumber <= Double(segments.count) ? Int(selectedNumber) - 1 : -1
      append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.quietFill, stroke: nil), at: place())
      let width = frame.width / Double(segments.count)
      for (index, title) in segments.enumerated() {
        guard !full else { return }
        let box = ScreenPicture.Frame(x: frame.x + Double(index) * width, y: frame.y, width: width, height: frame.height)
        if index == selected {
          append(.rect(.init(x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4), radius: PictureStyle.cornerRadius - 1, fill: PictureStyle.background, stroke: PictureStyle.border), at: place())
        } else if index > 0, index - 1 != selected {
          append(.line(x1: box.x, y1: box.y + 8, x2: box.x, y2: box.y + box.height - 8, color: PictureStyle.border), at: place())
        }
        let fitted = measure.fitted(title, width: max(0, box.width - 8), size: PictureStyle.textSize, bold: index == selected, at: place())
        guard !fitted.isEmpty else { continue }
        append(.text(fitted, frame: box, size: PictureStyle.textSize, color: enabled ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: index == selected), at: place())
      }
    }
  }

  static func inset(_ frame: ScreenPicture.Frame, by amount: Double) -> ScreenPicture.Frame {
    .init(x: frame.x + amount, y: frame.y, width: max(0, frame.width - 2 * amount), height: frame.height)
  }
}
