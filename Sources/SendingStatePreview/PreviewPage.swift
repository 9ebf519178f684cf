import SendingStateTools

/// The preview page's document and stylesheet: a phone frame on the left where
/// ``PreviewScript`` draws the screen as real HTML controls at ``ScreenPicture``'s frames, and a
/// side panel with the errors, the action log, the last step's state changes, the state, and a
/// console for typing EVENTs.
///
/// Colours and sizes are ``PictureStyle``'s, so the page and `run --png` look alike.
enum PreviewPage {
  /// The HTML document (no inline script or style: the content security policy forbids them).
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>SendingState preview</title>
    <link rel="stylesheet" href="preview.css">
    <script src="preview.js" defer></script>
    </head>
    <body>
    <main id="stage">
      <header id="title"><strong id="screen-name">…</strong> <span id="connection" class="pending">connecting…</span></header>
      <div id="phone"><div id="screen" aria-label="screen"></div></div>
      <p id="hint">Click, type, drag; double-click for a double tap, hold for a long press, right-click for every gesture and event.</p>
    </main>
    <aside id="panel">
      <section id="error-box" hidden><h2>Error</h2><p id="error-where"></p><pre id="error"></pre></section>
      <p id="status" hidden></p>
      <section><h2>Actions <span id="latency"></span></h2><ol id="log"></ol></section>
      <section><h2>Last step</h2><ul id="diff"><li class="quiet">no changes yet</li></ul></section>
      <section><h2>State</h2><pre id="state"></pre></section>
      <section id="warnings-box" hidden><h2>Warnings</h2><ul id="warnings"></ul></section>
      <section><h2>Console</h2>
        <form id="console"><input id="console-input" autocomplete="off" spellcheck="false" placeholder="an EVENT, e.g. tap plus"></form>
      </section>
    </aside>
    <div id="menu" role="menu" hidden></div>
    </body>
    </html>

    """

  /// The stylesheet.
  static let css = """
    :root {
      --ink: \(PictureStyle.ink.css); --secondary: \(PictureStyle.secondaryInk.css); --tint: \(PictureStyle.tint.css);
      --tint-fill: \(PictureStyle.tintFill.css); --disabled: \(PictureStyle.disabledInk.css);
      --quiet: \(PictureStyle.quietFill.css); --border: \(PictureStyle.border.css); --separator: \(PictureStyle.separator.css);
      --on: \(PictureStyle.switchOn.css); --image: \(PictureStyle.imageFill.css); --radius: \(Int(PictureStyle.cornerRadius))px;
      --text: \(Int(PictureStyle.textSize))px; --small: \(Int(PictureStyle.smallTextSize))px;
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; display: flex; gap: 24px; align-items: flex-start; padding: 20px; background: #e9e9ee;
      color: var(--ink); font: 13px "\(PictureFont.family)", sans-serif; }
    #stage { flex: none; }
    #title { margin: 0 0 10px 6px; font-size: 15px; }
    #connection { font-size: 12px; color: var(--secondary); margin-left: 8px; }
    #connection.ok::before { content: "● "; color: var(--on); }
    #connection.down::before { content: "● "; color: #ff3b30; }
    #phone { width: \(Int(PictureStyle.screenWidth) + 20)px; min-height: 660px; max-height: 86vh; overflow: hidden auto;
      background: #fff; border: 10px solid #1c1c1e; border-radius: 40px; }
    #screen { position: relative; width: \(Int(PictureStyle.screenWidth))px; min-height: 640px;
      font: var(--text) "\(PictureFont.family)", sans-serif; user-select: none; }
    #hint { width: \(Int(PictureStyle.screenWidth) + 20)px; color: var(--secondary); font-size: 12px; }
    .v { position: absolute; }
    .v[hidden] { display: none; }
    .v[data-kind="label"] > .text { display: block; line-height: \(Int(PictureStyle.labelHeight))px; white-space: pre;
      overflow: hidden; text-overflow: ellipsis; }
    .v[data-kind="label"], .v[data-kind="image"], .v[data-kind="stack"], .v[data-kind="row"], .v[data-kind="view"] { cursor: default; }
    .v.pressed { outline: 2px solid var(--tint-fill); outline-offset: 1px; }
    .v button, .v input { font: inherit; margin: 0; }
    .v[data-kind="button"] > button { width: 100%; height: 100%; border: 0; border-radius: var(--radius); padding: 0 6px;
      background: var(--tint-fill); color: var(--tint); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; }
    .v[data-kind="button"] > button.selected { background: var(--tint); color: #fff; }
    .v[data-kind="button"] > button:disabled { background: var(--quiet); color: var(--disabled); cursor: not-allowed; }
    .v[data-kind="button"] > button:active:not(:disabled) { filter: brightness(0.92); }
    .switch { position: absolute; left: 0; top: 50%; margin-top: -\(Int(PictureStyle.switchHeight) / 2)px;
      width: \(Int(PictureStyle.switchWidth))px; height: \(Int(PictureStyle.switchHeight))px; cursor: pointer; }
    .switch input { position: absolute; inset: 0; width: 100%; height: 100%; opacity: 0; cursor: pointer; }
    .switch .track { position: absolute; inset: 0; border-radius: 16px; background: var(--quiet); border: 1px solid var(--border);
      transition: background .15s; pointer-events: none; }
    .switch .knob { position: absolute; top: 2px; left: 2px; width: 27px; height: 27px; border-radius: 50%; background: #fff;
      border: 1px solid var(--border); transition: left .15s; pointer-events: none; }
    .switch input:checked ~ .track { background: var(--on); border-color: var(--on); }
    .switch input:checked ~ .knob { left: 22px; }
    .switch input:disabled, .v[data-kind="slider"] input:disabled { cursor: not-allowed; }
    .switch.disabled, .v[data-kind="slider"].disabled { opacity: .45; }
    .v[data-kind="slider"] input { width: 100%; height: 100%; accent-color: var(--tint); cursor: pointer; }
    .stepper { display: flex; height: 100%; border-radius: var(--radius); background: var(--quiet); overflow: hidden; }
    .stepper button { flex: 1; border: 0; background: transparent; font-size: 18px; color: var(--ink); cursor: pointer; }
    .stepper button:disabled { color: var(--disabled); cursor: not-allowed; }
    .stepper span { flex: 1; align-self: center; text-align: center; font-size: var(--small); color: var(--secondary); }
    .segments { display: flex; height: 100%; padding: 2px; border-radius: var(--radius); background: var(--quiet); }
    .segments button { flex: 1 1 0; min-width: 0; border: 1px solid transparent; border-radius: calc(var(--radius) - 1px);
      background: transparent; color: var(--ink); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; }
    .segments button.selected { background: #fff; border-color: var(--border); font-weight: bold; }
    .segments button:disabled { color: var(--disabled); cursor: not-allowed; }
    .v[data-kind="textfield"] input { width: 100%; height: 100%; padding: 0 10px; border: 1px solid var(--border);
      border-radius: var(--radius); background: #fff; color: var(--ink); outline: none; }
    .v[data-kind="textfield"] input:focus { border-color: var(--tint); box-shadow: 0 0 0 2px var(--tint-fill); }
    .v[data-kind="textfield"] input::placeholder { color: var(--secondary); }
    .v[data-kind="textfield"] input:disabled { background: var(--quiet); color: var(--disabled); }
    .v[data-kind="image"] { border-radius: var(--radius); background: var(--image); overflow: hidden; display: flex;
      align-items: center; justify-content: center; font-size: var(--small); color: var(--secondary); }
    .v[data-kind="image"] img { width: 100%; height: 100%; object-fit: cover; }
    .v[data-kind="list"] { border: 1px solid var(--separator); border-radius: 10px; overflow: hidden; background: #fff; }
    .v[data-kind="list"] > .empty { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
      color: var(--secondary); font-size: var(--small); }
    .v[data-kind="list"] > .indicator { position: absolute; right: 3px; width: 3px; border-radius: 2px; background: var(--border); }
    .v[data-kind="row"] { border-bottom: 1px solid var(--separator); }
    .v[data-kind="row"]:last-of-type { border-bottom: 0; }
    #panel { flex: 1; min-width: 320px; max-width: 640px; display: flex; flex-direction: column; gap: 10px; }
    #panel section { background: #fff; border-radius: 10px; padding: 8px 12px; }
    #panel h2 { margin: 0 0 6px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--secondary); }
    #latency { text-transform: none; font-weight: normal; float: right; }
    #error-box { border: 2px solid #ff3b30; }
    #error-box h2 { color: #ff3b30; }
    #error-where { margin: 0 0 4px; font-weight: bold; font-family: monospace; }
    #error { margin: 0; white-space: pre-wrap; font-size: 12px; max-height: 180px; overflow: auto; }
    #status { margin: 0; padding: 6px 12px; border-radius: 8px; background: #e3f6e8; }
    #log { margin: 0; padding-left: 28px; max-height: 190px; overflow: auto; font-family: monospace; font-size: 12px; }
    #log li.failed { color: #c4261d; }
    #log .actions { color: var(--secondary); }
    #diff { margin: 0; padding-left: 18px; font-family: monospace; font-size: 12px; }
    #diff .quiet, #warnings { color: var(--secondary); }
    #state { margin: 0; max-height: 260px; overflow: auto; font-size: 12px; }
    #state .changed { background: #fff3bf; }
    #console-input { width: 100%; padding: 6px 8px; font: 12px monospace; border: 1px solid var(--border); border-radius: 6px; }
    #menu { position: fixed; z-index: 10; background: #fff; border: 1px solid var(--border); border-radius: 8px; padding: 4px 0;
      box-shadow: 0 6px 20px rgba(0,0,0,.15); font-size: 13px; max-height: 70vh; overflow: auto; }
    #menu button { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 4px 14px; font: inherit; cursor: pointer; }
    #menu button:hover { background: var(--tint-fill); }
    #menu .heading { padding: 4px 14px; color: var(--secondary); font-size: 11px; text-transform: uppercase; }

    """
}
