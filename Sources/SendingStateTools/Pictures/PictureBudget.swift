/// The limits of one screen picture: the PNG and SVG pictures and the preview page's layout
/// (``ScreenPicture``) are host work a screen's render tree decides, so each step is bounded.
///
/// | Budget | Default | Past it |
/// |---|---|---|
/// | ``maxViews`` | 10,000 views laid out (a screen's own limit) | later views are left out |
/// | ``maxDepth`` | 64 nested views | deeper views are left out |
/// | ``maxTextCharacters`` | 512 characters of one text | the text is cut with "…" |
/// | ``maxSegments`` | 64 segments of one segmented control | later segments are left out |
/// | ``maxTextWork`` | 4,000,000 characters measured per picture | later texts are not drawn |
/// | ``maxHeight`` | 8,000 points drawn | the picture is cut at the bottom |
/// | ``maxCommands`` | 50,000 drawing commands | later views are not drawn |
/// | ``maxSVGBytes`` | 8 MiB of SVG | later elements are left out |
///
/// Each cut is counted in ``ScreenPicture/cuts`` with what was cut and where (the view's path),
/// and `sendingstate run --png`/`--svg` print them as warnings. A phone screen is 390 points
/// wide: no text longer than ``maxTextCharacters`` can show whole on it, so for real screens the
/// cuts change nothing but the time a hostile tree could take (a 4 MiB label took a second to
/// measure, each time it was measured). The PNG surface is at most 780 × 16,000 pixels (twice
/// the screen's 390 points by ``maxHeight``, about 50 MB), and translucent views' groups hold at
/// most as many pixels again.
///
/// ```swift
/// var budget = PictureBudget()
/// budget.maxViews = 500
/// let picture = ScreenPicture(tree, budget: budget)
/// picture.cuts   // [views: 1,200 views, 700 left out (at root › list › row)]
/// ```
public struct PictureBudget: Sendable, Equatable {
  /// Views laid out and drawn, containers included (default 10,000, a screen's `maxViews`).
  public var maxViews = 10_000
  /// How deeply views nest (default 64).
  public var maxDepth = 64
  /// Characters (Unicode scalars) of one text measured and drawn (default 512).
  public var maxTextCharacters = 512
  /// Segments of one segmented control (default 64).
  public var maxSegments = 64
  /// Characters measured (each text counts at least ``minimumTextWork``) per picture (default
  /// 4,000,000: about a second of pango here). The layout, which measures every view, may spend
  /// half; the drawing, which fits the texts that show, the rest.
  public var maxTextWork = 4_000_000
  /// Points of height drawn (default 8,000).
  public var maxHeight = 8_000.0
  /// Drawing commands (shapes and texts) per picture (default 50,000).
  public var maxCommands = 50_000
  /// Bytes of one SVG document (default 8 MiB).
  public var maxSVGBytes = 8 << 20

  /// What measuring one text costs at least, in characters (a layout has a fixed cost).
  public static let minimumTextWork = 16

  /// The default budget.
  public init() {}
}
