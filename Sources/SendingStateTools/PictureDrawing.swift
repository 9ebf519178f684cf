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

  /// The commands that draw `picture`, background first.
  public static func commands(for picture: ScreenPicture) -> [Command] {
    var commands: [Command] = [.rect(picture.root.frame, radius: 0, fill: PictureStyle.background, stroke: nil)]
    for child in picture.root.children { draw(child, originX: 0, originY: 0, into: &commands) }
    return commands
  }

  static func number(_ item: ScreenPicture.Item, _ name: String) -> Double? {
    switch item[property: name] {
    case .number(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
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

  static func draw(_ item: ScreenPicture.Item, originX: Double, originY: Double, into commands: inout [Command]) {
    guard !item.isHidden else { return }
    let frame = ScreenPicture.Frame(x: originX + item.frame.x, y: originY + item.frame.y, width: item.frame.width, height: item.frame.height)
    let alpha = max(0, min(1, number(item, "alpha") ?? 1))
    if alpha < 1 { commands.append(.beginGroup(opacity: alpha)) }
    let size = PictureStyle.textSize
    func text(_ string: String, in box: ScreenPicture.Frame, color: PictureStyle.Color, alignment: Alignment, textSize: Double = size) {
      let fitted = PictureFont.fitted(string, width: max(0, box.width), size: textSize)
      guard !fitted.isEmpty else { return }
      commands.append(.text(fitted, frame: box, size: textSize, color: color, alignment: alignment, bold: false))
    }
    let enabled = flag(item, "enabled") ?? true
    switch item.kind {
    case "label":
      text(string(item, "text"), in: frame, color: PictureStyle.ink, alignment: .leading)
    case "button":
      let selected = flag(item, "selected") ?? false
      let fill = !enabled ? PictureStyle.quietFill : selected ? PictureStyle.tint : PictureStyle.tintFill
      let ink = !enabled ? PictureStyle.disabledInk : selected ? PictureStyle.background : PictureStyle.tint
      commands.append(.rect(frame, radius: PictureStyle.cornerRadius, fill: fill, stroke: nil))
      text(string(item, "title"), in: inset(frame, by: 6), color: ink, alignment: .center)
    case "switch":
      drawSwitch(frame, on: flag(item, "isOn") ?? false, enabled: enabled, into: &commands)
    case "slider":
      drawSlider(item, frame, enabled: enabled, into: &commands)
    case "stepper":
      drawStepper(item, frame, enabled: enabled, into: &commands)
    case "segmented":
      drawSegments(item, frame, enabled: enabled, into: &commands)
    case "textfield":
      commands.append(.rect(frame, radius: PictureStyle.cornerRadius, fill: enabled ? PictureStyle.background : PictureStyle.quietFill, stroke: PictureStyle.border))
      let typed = string(item, "text")
      // A secure field shows a dot per character, as phones do.
      let content = flag(item, "secure") == true ? String(repeating: "\u{2022}", count: typed.count) : typed
      let box = inset(frame, by: 10)
      if content.isEmpty {
        text(string(item, "placeholder"), in: box, color: PictureStyle.secondaryInk, alignment: .leading)
      } else {
        text(content, in: box, color: enabled ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .leading)
      }
    case "image":
      commands.append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.imageFill, stroke: nil))
      let name = string(item, "image")
      text(name.isEmpty ? "image" : name, in: inset(frame, by: 4), color: PictureStyle.secondaryInk, alignment: .center, textSize: PictureStyle.smallTextSize)
    case "list":
      commands.append(.rect(frame, radius: 10, fill: PictureStyle.background, stroke: PictureStyle.separator))
      let rows = number(item, "rows") ?? 0
      if rows == 0 {
        text("No rows", in: frame, color: PictureStyle.secondaryInk, alignment: .center, textSize: PictureStyle.smallTextSize)
      }
      let visible = item.children.filter { !$0.isHidden }
      for row in visible.dropLast() {
        let y = frame.y + row.frame.y + row.frame.height
        commands.append(.line(x1: frame.x + PictureStyle.rowInsetX, y1: y, x2: frame.x + frame.width, y2: y, color: PictureStyle.separator))
      }
      let first = number(item, "first") ?? 1
      if rows > Double(visible.count), rows > 0, frame.height > 12 {
        // A scroll indicator: where the visible rows are among all of them.
        let track = frame.height - 8
        let length = max(8, track * Double(visible.count) / rows)
        let top = frame.y + 4 + (track - length) * min(1, (first - 1) / max(1, rows - Double(visible.count)))
        commands.append(.rect(.init(x: frame.x + frame.width - 6, y: top, width: 3, height: length), radius: 1.5, fill: PictureStyle.border, stroke: nil))
      }
    default:
      break
    }
    for child in item.children { draw(child, originX: frame.x, originY: frame.y, into: &commands) }
    if alpha < 1 { commands.append(.endGroup) }
  }

  static func inset(_ frame: ScreenPicture.Frame, by amount: Double) -> ScreenPicture.Frame {
    .init(x: frame.x + amount, y: frame.y, width: max(0, frame.width - 2 * amount), height: frame.height)
  }

  static func drawSwitch(_ frame: ScreenPicture.Frame, on: Bool, enabled: Bool, into commands: inout [Command]) {
    let track = ScreenPicture.Frame(x: frame.x, y: frame.y + (frame.height - PictureStyle.switchHeight) / 2, width: PictureStyle.switchWidth, height: PictureStyle.switchHeight)
    if !enabled { commands.append(.beginGroup(opacity: 0.45)) }
    commands.append(.rect(track, radius: track.height / 2, fill: on ? PictureStyle.switchOn : PictureStyle.quietFill, stroke: on ? nil : PictureStyle.border))
    let radius = track.height / 2 - 2
    let centerX = on ? track.x + track.width - 2 - radius : track.x + 2 + radius
    commands.append(.circle(x: centerX, y: track.y + track.height / 2, radius: radius, fill: PictureStyle.background, stroke: PictureStyle.border))
    if !enabled { commands.append(.endGroup) }
  }

  static func drawSlider(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, into commands: inout [Command]) {
    let low = number(item, "min") ?? 0
    let high = number(item, "max") ?? 1
    let value = number(item, "value") ?? low
    let fraction = high > low ? max(0, min(1, (value - low) / (high - low))) : 0
    let knob = 12.0
    let centerY = frame.y + frame.height / 2
    let start = frame.x + knob
    let length = max(0, frame.width - 2 * knob)
    if !enabled { commands.append(.beginGroup(opacity: 0.45)) }
    commands.append(.rect(.init(x: start, y: centerY - 2, width: length, height: 4), radius: 2, fill: PictureStyle.border, stroke: nil))
    commands.append(.rect(.init(x: start, y: centerY - 2, width: length * fraction, height: 4), radius: 2, fill: PictureStyle.tint, stroke: nil))
    commands.append(.circle(x: start + length * fraction, y: centerY, radius: knob, fill: PictureStyle.background, stroke: PictureStyle.border))
    if !enabled { commands.append(.endGroup) }
  }

  static func drawStepper(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, into commands: inout [Command]) {
    let value = number(item, "value") ?? 0
    let third = frame.width / 3
    commands.append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.quietFill, stroke: nil))
    let canDecrease = enabled && value > (number(item, "min") ?? -Double.infinity)
    let canIncrease = enabled && value < (number(item, "max") ?? Double.infinity)
    let size = PictureStyle.textSize + 3
    commands.append(.text("−", frame: .init(x: frame.x, y: frame.y, width: third, height: frame.height), size: size, color: canDecrease ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: false))
    commands.append(.text(PictureFont.fitted(formatted(value), width: third, size: PictureStyle.smallTextSize), frame: .init(x: frame.x + third, y: frame.y, width: third, height: frame.height), size: PictureStyle.smallTextSize, color: enabled ? PictureStyle.secondaryInk : PictureStyle.disabledInk, alignment: .center, bold: false))
    commands.append(.text("+", frame: .init(x: frame.x + 2 * third, y: frame.y, width: third, height: frame.height), size: size, color: canIncrease ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: false))
  }

  static func drawSegments(_ item: ScreenPicture.Item, _ frame: ScreenPicture.Frame, enabled: Bool, into commands: inout [Command]) {
    guard case .strings(let segments) = item[property: "segments"], !segments.isEmpty else { return }
    let selected = Int(number(item, "selectedIndex") ?? 0) - 1
    commands.append(.rect(frame, radius: PictureStyle.cornerRadius, fill: PictureStyle.quietFill, stroke: nil))
    let width = frame.width / Double(segments.count)
    for (index, title) in segments.enumerated() {
      let box = ScreenPicture.Frame(x: frame.x + Double(index) * width, y: frame.y, width: width, height: frame.height)
      if index == selected {
        commands.append(.rect(.init(x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4), radius: PictureStyle.cornerRadius - 1, fill: PictureStyle.background, stroke: PictureStyle.border))
      } else if index > 0, index - 1 != selected {
        commands.append(.line(x1: box.x, y1: box.y + 8, x2: box.x, y2: box.y + box.height - 8, color: PictureStyle.border))
      }
      let fitted = PictureFont.fitted(title, width: max(0, box.width - 8), size: PictureStyle.textSize, bold: index == selected)
      commands.append(.text(fitted, frame: box, size: PictureStyle.textSize, color: enabled ? PictureStyle.ink : PictureStyle.disabledInk, alignment: .center, bold: index == selected))
    }
  }
}
