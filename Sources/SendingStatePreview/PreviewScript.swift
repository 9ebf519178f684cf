import SendingStateLua

/// The preview page's script: draws the laid-out tree as HTML controls, turns clicks, typing,
/// drags and gestures into EVENT messages over the WebSocket, applies the host's patches, and
/// fills the side panel. `window.preview` exposes the version and the last round trip's
/// latency for browser tests.
///
/// Text from the screen is only ever inserted as text (`textContent`, attributes, text nodes;
/// never as HTML), through `visible()`, which shows control characters and bidi controls
/// escaped (`\u{1B}`), as the CLI's `Console` does — except a text field's value, which is the
/// screen's data and goes back to it as typed.
enum PreviewScript {
  /// The script (served as `preview.js`).
  static let source = HostCode.text("preview/preview.js")
}
