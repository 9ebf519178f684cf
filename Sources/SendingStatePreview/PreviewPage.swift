import SendingStateLua
import SendingStateTools

/// The preview page's document and stylesheet: a phone frame on the left where
/// ``PreviewScript`` draws the screen as real HTML controls at ``ScreenPicture``'s frames, and a
/// side panel with the errors, the action log, the last step's state changes, the state, and a
/// console for typing EVENTs.
///
/// Colours and sizes are ``PictureStyle``'s, so the page and `run --png` look alike.
enum PreviewPage {
  /// The HTML document (no inline script or style: the content security policy forbids them).
  static let html = HostCode.text("preview/page.html")

  /// The stylesheet.
  static let css = """
    :root {
      --ink: \(PictureStyle.ink.css); --secondary: \(PictureStyle.secondaryInk.css); --tint: \(PictureStyle.tint.css);
      --tint-fill: \(PictureStyle.tintFill.css); --disabled: \(PictureStyle.disabledInk.css);
      --quiet: \(PictureStyle.quietFill.css); --border: \(PictureStyle.border.css); --separator: \(PictureStyle.separator.css);
      --on: \(PictureStyle.switchOn.css); --image: \(PictureStyle.imageFill.css); --radius: \(Int(PictureStyle.cornerRadius))px;
      --text: \(Int(PictureStyle.textSize))px; --small: \(Int(PictureStyle.smallTextSize))px;
      --font: "\(PictureFont.family)", sans-serif; --screen-width: \(Int(PictureStyle.screenWidth))px;
      --label-height: \(Int(PictureStyle.labelHeight))px; --switch-width: \(Int(PictureStyle.switchWidth))px;
      --switch-height: \(Int(PictureStyle.switchHeight))px; --switch-offset: -\(Int(PictureStyle.switchHeight) / 2)px;
    }

    """ + HostCode.text("preview/page.css")
}
