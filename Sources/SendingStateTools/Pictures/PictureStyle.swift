/// The look of screen pictures and of the preview page: sizes and colours of a phone's
/// controls, in points (CSS pixels).
///
/// The preview page's stylesheet uses the same numbers (it receives frames from
/// ``ScreenPicture`` and colours named like these), so a PNG and the page look alike.
///
/// ```swift
/// PictureStyle.buttonHeight   // 36
/// PictureStyle.tint.css       // "#007aff"
/// ```
public enum PictureStyle {
  /// An RGB colour.
  public struct Color: Sendable, Hashable {
    /// Channels, 0…255.
    public var red, green, blue: UInt8

    /// A colour from `0xRRGGBB`.
    public init(_ hex: UInt32) {
      red = UInt8((hex >> 16) & 0xff)
      green = UInt8((hex >> 8) & 0xff)
      blue = UInt8(hex & 0xff)
    }

    /// `#rrggbb`.
    public var css: String {
      "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
  }

  /// The width of the phone screen.
  public static let screenWidth = 390.0
  /// The inset of the screen's content from its edges.
  public static let margin = 16.0
  /// Text size of labels and controls.
  public static let textSize = 15.0
  /// Text size of small captions (stepper value, image names, empty lists).
  public static let smallTextSize = 12.0
  /// The height of a label's line.
  public static let labelHeight = 20.0
  /// Button height; horizontal padding around a title; minimum width.
  public static let buttonHeight = 36.0, buttonPadding = 14.0, buttonMinWidth = 44.0
  /// Switch size.
  public static let switchWidth = 51.0, switchHeight = 31.0
  /// Slider height and minimum width.
  public static let sliderHeight = 31.0, sliderMinWidth = 120.0
  /// Stepper size (minus, value, plus).
  public static let stepperWidth = 120.0, stepperHeight = 32.0
  /// Segmented control height, padding around a segment title, minimum segment width.
  public static let segmentHeight = 32.0, segmentPadding = 12.0, segmentMinWidth = 48.0
  /// Text field height and minimum width.
  public static let fieldHeight = 36.0, fieldMinWidth = 140.0
  /// Image placeholder size.
  public static let imageSize = 64.0
  /// Insets of a list row's content; height of an empty list.
  public static let rowInsetX = 12.0, rowInsetY = 6.0, emptyListHeight = 44.0
  /// Corner radius of buttons, fields, steppers and segments.
  public static let cornerRadius = 8.0

  /// Text.
  public static let ink = Color(0x1c1c1e)
  /// Placeholders and captions.
  public static let secondaryInk = Color(0x8e8e93)
  /// The accent colour: button titles, slider fill, selected buttons.
  public static let tint = Color(0x007aff)
  /// A tinted button's fill.
  public static let tintFill = Color(0xdceaff)
  /// Disabled titles.
  public static let disabledInk = Color(0xaeaeb2)
  /// Disabled fills, switch and stepper backgrounds.
  public static let quietFill = Color(0xeeeef0)
  /// Borders and slider tracks.
  public static let border = Color(0xc7c7cc)
  /// Row separators and list borders.
  public static let separator = Color(0xe0e0e5)
  /// A switch that is on.
  public static let switchOn = Color(0x34c759)
  /// The screen.
  public static let background = Color(0xffffff)
  /// Images without a file.
  public static let imageFill = Color(0xe5e5ea)
}
