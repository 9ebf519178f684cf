"use strict";
(() => {
  const base = location.pathname.replace(/[^/]*$/, "");
  const screen = document.getElementById("screen");
  const $ = (id) => document.getElementById(id);
  const preview = window.preview = { version: -1, updates: 0, latency: null, connected: false, seq: 0 };
  const sentAt = new Map();
  const typing = new Map();
  let socket = null;
  let tree = null;
  let suppressClick = false;

  // ---- connection -------------------------------------------------------------------
  function connect() {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws");
    socket.onopen = () => { preview.connected = true; connection("connected", "ok"); };
    socket.onclose = () => {
      preview.connected = false;
      connection("disconnected: is `sendingstate preview` still running? retrying…", "down");
      setTimeout(connect, 1500);
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
  }
  function connection(text, kind) { const el = $("connection"); el.textContent = text; el.className = kind; }
  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { status("not connected", true); return null; }
    message.seq = ++preview.seq;
    sentAt.set(message.seq, performance.now());
    socket.send(JSON.stringify(message));
    return message.seq;
  }

  function receive(message) {
    if (message.type === "full") {
      // A full message may follow dropped updates (a page that read too slowly): answers
      // still awaited will not come.
      sentAt.clear();
      for (const [key, seq] of typing) if (seq !== -1) typing.delete(key);
      tree = message.tree;
      preview.version = message.version;
      screen.replaceChildren(build(tree));
      screen.style.height = tree.f[3] + "px";
      // (A restore sends every page the whole screen: a past moment shown before is gone.)
      backToNow();
      panel(message.panel, true);
    } else if (message.type === "patch") {
      if (message.ops.length) {
        if (message.base !== preview.version) { send({ sync: true }); return; }
        for (const op of message.ops) patch(op);
        preview.version = message.version;
      }
      panel(message.panel, false);
    } else if (message.type === "spec") {
      showSpec(message.name, message.text);
    } else if (message.type === "moment") {
      showMoment(message.moment);
    }
    if (message.seq != null && sentAt.has(message.seq)) {
      preview.latency = performance.now() - sentAt.get(message.seq);
      sentAt.delete(message.seq);
      $("latency").textContent = "round trip " + preview.latency.toFixed(1) + " ms";
      for (const [key, seq] of typing) if (seq === message.seq) typing.delete(key);
    }
    preview.updates += 1;
  }

  // ---- drawing ----------------------------------------------------------------------
  // Text from the screen, with its control characters and bidi controls shown escaped (as
  // the CLI shows them), so no script can hide or reorder what the page says.
  const hidden = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
  function visible(text) {
    return String(text).replace(hidden, (c) => "\\u{" + c.codePointAt(0).toString(16).toUpperCase() + "}");
  }
  preview.visible = visible;
  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = visible(text);
    return el;
  }

  function build(node) {
    const el = element("div", "v");
    el.dataset.kind = node.k;
    switch (node.k) {
      case "label": el.append(element("span", "text")); break;
      case "button": el.append(element("button")); break;
      case "switch": {
        const wrap = element("label", "switch");
        const input = element("input");
        input.type = "checkbox";
        input.setAttribute("role", "switch");
        wrap.append(input, element("span", "track"), element("span", "knob"));
        el.append(wrap);
        break;
      }
      case "slider": { const input = element("input"); input.type = "range"; input.step = "any"; el.append(input); break; }
      case "stepper": {
        const box = element("div", "stepper");
        const minus = element("button", "minus", "−");
        const plus = element("button", "plus", "+");
        box.append(minus, element("span", "value"), plus);
        el.append(box);
        break;
      }
      case "segmented": el.append(element("div", "segments")); break;
      case "textfield": { const input = element("input"); input.type = "text"; input.autocomplete = "off"; el.append(input); break; }
      case "list": el.append(element("div", "indicator"), element("div", "empty", "No rows")); break;
    }
    update(el, node);
    for (const child of node.c) el.append(build(child));
    return el;
  }

  const number = (value, fallback) => (typeof value === "number" ? value : fallback);
  function format(value) { return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100); }

  function update(el, node) {
    el._node = node;
    if (node.id) el.dataset.id = node.id; else delete el.dataset.id;
    const [x, y, w, h] = node.f;
    Object.assign(el.style, { left: x + "px", top: y + "px", width: w + "px", height: h + "px" });
    const p = node.p;
    el.hidden = p.hidden === true;
    el.style.opacity = typeof p.alpha === "number" ? String(p.alpha) : "";
    const enabled = p.enabled !== false;
    el.classList.toggle("disabled", !enabled);
    switch (node.k) {
      case "label": el.firstElementChild.textContent = visible(p.text ?? ""); break;
      case "button": {
        const button = el.firstElementChild;
        button.textContent = visible(p.title ?? "");
        button.disabled = !enabled;
        button.classList.toggle("selected", p.selected === true);
        break;
      }
      case "switch": {
        const input = el.querySelector("input");
        input.checked = p.isOn === true;
        input.disabled = !enabled;
        el.firstElementChild.classList.toggle("disabled", !enabled);
        break;
      }
      case "slider": {
        const input = el.firstElementChild;
        input.min = number(p.min, 0); input.max = number(p.max, 1);
        if (!input._dragging) input.value = number(p.value, 0);
        input.disabled = !enabled;
        break;
      }
      case "stepper": {
        const [minus, value, plus] = el.firstElementChild.children;
        const v = number(p.value, 0);
        value.textContent = format(v);
        minus.disabled = !enabled || v <= number(p.min, -Infinity);
        plus.disabled = !enabled || v >= number(p.max, Infinity);
        break;
      }
      case "segmented": {
        const box = el.firstElementChild;
        const segments = Array.isArray(p.segments) ? p.segments : [];
        if (box.children.length !== segments.length || segments.some((s, i) => box.children[i].textContent !== visible(s))) {
          box.replaceChildren(...segments.map((title, i) => { const b = element("button", "", title); b.dataset.index = i + 1; return b; }));
        }
        [...box.children].forEach((b, i) => { b.classList.toggle("selected", i + 1 === p.selectedIndex); b.disabled = !enabled; });
        break;
      }
      case "textfield": {
        const input = el.firstElementChild;
        input.type = p.secure === true ? "password" : "text";
        input.placeholder = visible(p.placeholder ?? "");
        input.disabled = !enabled;
        if (!typing.has(keyOf(el)) && input.value !== (p.text ?? "")) input.value = p.text ?? "";
        break;
      }
      case "image": {
        const name = typeof p.image === "string" ? p.image : "";
        if (el._image !== name) {
          el._image = name;
          el.replaceChildren();
          if (/^[\w./-]+\.(png|jpe?g|gif|webp)$/i.test(name) && !name.split("/").some((part) => part === ".." || part.startsWith("."))) {
            const img = element("img");
            img.alt = visible(name);
            img.onerror = () => el.replaceChildren(document.createTextNode(visible(name)));
            img.src = base + "files/" + name.split("/").map(encodeURIComponent).join("/");
            el.append(img);
          } else {
            el.append(document.createTextNode(visible(name || "image")));
          }
        }
        break;
      }
      case "list": {
        const rows = number(p.rows, 0), first = number(p.first, 1), visible = number(p.visible, 0);
        const indicator = el.querySelector(":scope > .indicator");
        const track = Math.max(0, h - 8);
        const length = rows > 0 ? Math.max(8, track * visible / rows) : 0;
        indicator.hidden = !(rows > visible && rows > 0);
        indicator.style.height = length + "px";
        indicator.style.top = 4 + (track - length) * Math.min(1, (first - 1) / Math.max(1, rows - visible)) + "px";
        el.querySelector(":scope > .empty").hidden = rows !== 0;
        break;
      }
    }
  }

  function kids(el) { return [...el.children].filter((child) => child.classList.contains("v")); }
  function at(path) {
    let el = screen.firstElementChild;
    for (const index of path) el = kids(el)[index];
    return el;
  }
  function patch(op) {
    if (op.op === "tree") {
      const fresh = build(op.node);
      if (op.path.length === 0) { screen.replaceChildren(fresh); } else { at(op.path).replaceWith(fresh); }
      if (op.path.length === 0) screen.style.height = op.node.f[3] + "px";
    } else if (op.op === "node") {
      const el = at(op.path);
      update(el, { k: op.k, id: op.id, p: op.p, f: op.f, c: [] });
      if (op.path.length === 0) screen.style.height = op.f[3] + "px";
    }
  }

  // ---- interaction ------------------------------------------------------------------
  const view = (target) => target.closest(".v");
  function rowOf(el) {
    const row = el.closest('.v[data-kind="row"]');
    if (!row) return null;
    const list = row.parentElement.closest('.v[data-kind="list"]');
    if (!list || !list.dataset.id || typeof row._node.p.index !== "number") return null;
    return [list.dataset.id, row._node.p.index];
  }
  // Views of a server-driven unit are addressed as UNIT.ID.
  function address(el) {
    const unit = el.parentElement && el.parentElement.closest('.v[data-kind="unit"][data-id]');
    return unit ? unit.dataset.id + "." + el.dataset.id : el.dataset.id;
  }
  function keyOf(el) { const row = rowOf(el); return (row ? row.join(":") + ":" : "") + (el.dataset.id ? address(el) : ""); }
  function drive(el, verb, extra) {
    if (!el.dataset.id) { status("this " + el.dataset.kind + " has no id: give it an id in layout to drive it", true); return null; }
    const message = Object.assign({ verb, id: address(el) }, extra || {});
    const row = rowOf(el);
    if (row) message.row = row;
    return send(message);
  }
  const controls = new Set(["button", "switch", "slider", "stepper", "segmented", "textfield"]);
  // The view a gesture lands on: the innermost one with an id that is not a control.
  function gestureTarget(target) {
    let el = view(target);
    while (el && (!el.dataset.id || controls.has(el.dataset.kind))) {
      if (controls.has(el.dataset.kind)) return null;
      el = el.parentElement && el.parentElement.closest(".v");
    }
    return el;
  }

  screen.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const el = view(event.target);
    if (!el) return;
    const button = event.target.closest("button");
    if (el.dataset.kind === "button" && button) { drive(el, "tap"); return; }
    if (el.dataset.kind === "stepper" && button) {
      const p = el._node.p;
      const step = number(p.step, 1) * (button.classList.contains("plus") ? 1 : -1);
      const next = Math.min(number(p.max, Infinity), Math.max(number(p.min, -Infinity), number(p.value, 0) + step));
      drive(el, "set", { value: String(next) });
      return;
    }
    if (el.dataset.kind === "segmented" && button) { drive(el, "set", { value: button.dataset.index }); return; }
    if (controls.has(el.dataset.kind)) return;
    const target = gestureTarget(event.target);
    if (target && event.detail <= 1) drive(target, "tap");
  });
  screen.addEventListener("dblclick", (event) => {
    const target = gestureTarget(event.target);
    if (target) drive(target, "gesture", { kind: "tap", params: { taps: "2" } });
  });
  screen.addEventListener("change", (event) => {
    const el = view(event.target);
    if (el.dataset.kind === "switch") { drive(el, "set", { value: event.target.checked ? "on" : "off" }); }
    if (el.dataset.kind === "slider") {
      event.target._dragging = false;
      clearTimeout(sliderTimer);
      sliderTimer = null;
      if (event.target._sent !== event.target.value) { event.target._sent = event.target.value; drive(el, "set", { value: event.target.value }); }
    }
  });
  let sliderTimer = null;
  screen.addEventListener("input", (event) => {
    const el = view(event.target);
    if (el.dataset.kind === "slider") {
      event.target._dragging = true;
      const input = event.target;
      if (!sliderTimer) sliderTimer = setTimeout(() => { sliderTimer = null; input._sent = input.value; drive(el, "set", { value: input.value }); }, 60);
    }
    if (el.dataset.kind === "textfield") {
      const key = keyOf(el);
      clearTimeout(el._timer);
      typing.set(key, -1);
      el._timer = setTimeout(() => typeNow(el), 150);
    }
  });
  function typeNow(el) {
    clearTimeout(el._timer);
    const seq = drive(el, "type", { value: el.firstElementChild.value });
    if (seq === null) typing.delete(keyOf(el)); else typing.set(keyOf(el), seq);
  }
  screen.addEventListener("keydown", (event) => {
    const el = view(event.target);
    if (el && el.dataset.kind === "textfield" && event.key === "Enter") {
      if (typing.get(keyOf(el)) === -1) typeNow(el);
      drive(el, "send", { kind: "primaryActionTriggered" });
    }
  });
  screen.addEventListener("focusout", (event) => {
    const el = view(event.target);
    if (el && el.dataset.kind === "textfield" && typing.get(keyOf(el)) === -1) typeNow(el);
  });

  // Long presses, swipes, pans on views; drags and the wheel scroll lists.
  let press = null;
  screen.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || controls.has((view(event.target) || {}).dataset?.kind)) return;
    const target = gestureTarget(event.target);
    const list = event.target.closest('.v[data-kind="list"]');
    press = { x: event.clientX, y: event.clientY, t: performance.now(), target, list, moved: false, long: false };
    if (target) {
      target.classList.add("pressed");
      press.timer = setTimeout(() => {
        if (press && !press.moved) { press.long = true; drive(target, "gesture", { kind: "longPress" }); }
      }, 600);
    }
  });
  screen.addEventListener("pointermove", (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 10) press.moved = true;
  });
  window.addEventListener("pointerup", (event) => {
    if (!press) return;
    const p = press;
    press = null;
    clearTimeout(p.timer);
    if (p.target) p.target.classList.remove("pressed");
    if (p.long) { suppressClick = true; return; }
    if (!p.moved) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const dx = event.clientX - p.x, dy = event.clientY - p.y;
    const speed = Math.hypot(dx, dy) / Math.max(1, performance.now() - p.t);
    if (p.list && Math.abs(dy) > Math.abs(dx) && (!p.target || p.target.closest('.v[data-kind="list"]') === p.list)) {
      const rowHeight = rowHeightOf(p.list);
      scrollList(p.list, -Math.round(dy / rowHeight) || (dy < 0 ? 1 : -1));
      return;
    }
    if (!p.target) return;
    if (speed > 0.5) {
      const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
      drive(p.target, "gesture", { kind: "swipe", params: { direction } });
    } else {
      drive(p.target, "gesture", { kind: "pan", params: { x: String(Math.round(dx)), y: String(Math.round(dy)) } });
    }
  });
  function rowHeightOf(list) {
    const row = kids(list)[0];
    return row ? Math.max(20, row._node.f[3]) : 44;
  }
  function scrollList(list, delta) {
    const p = list._node.p;
    const first = number(p.first, 1) + delta;
    const last = Math.max(1, number(p.rows, 0) - number(p.visible, 0) + 1);
    const target = Math.max(1, Math.min(last, first));
    if (target !== number(p.first, 1) && list.dataset.id) send({ scroll: { list: list.dataset.id, first: target } });
  }
  // The wheel moves a list by as many rows as it scrolled (at least one), gathered over 40 ms.
  let wheelSum = 0, wheelTimer = null;
  screen.addEventListener("wheel", (event) => {
    const list = event.target.closest('.v[data-kind="list"]');
    if (!list) return;
    event.preventDefault();
    wheelSum += event.deltaY;
    if (wheelTimer) return;
    wheelTimer = setTimeout(() => {
      wheelTimer = null;
      const rows = Math.round(wheelSum / rowHeightOf(list)) || Math.sign(wheelSum);
      wheelSum = 0;
      if (rows) scrollList(list, rows);
    }, 40);
  }, { passive: false });

  // Right-click: every gesture and control event.
  const menu = $("menu");
  const gestures = [
    ["tap", "tap", {}], ["double tap", "tap", { taps: "2" }], ["long press", "longPress", {}],
    ["swipe left", "swipe", { direction: "left" }], ["swipe right", "swipe", { direction: "right" }],
    ["swipe up", "swipe", { direction: "up" }], ["swipe down", "swipe", { direction: "down" }],
    ["pan", "pan", { x: "40", y: "0" }], ["pinch", "pinch", { scale: "2" }], ["rotation", "rotation", { rotation: "0.5" }],
    ["screen edge", "screenEdge", { edges: "left" }], ["hover", "hover", {}],
  ];
  const controlEvents = ["touchDown", "touchUpInside", "touchUpOutside", "valueChanged", "editingDidBegin",
    "editingChanged", "editingDidEnd", "primaryActionTriggered"];
  screen.addEventListener("contextmenu", (event) => {
    let el = view(event.target);
    while (el && !el.dataset.id) el = el.parentElement && el.parentElement.closest(".v");
    if (!el) return;
    event.preventDefault();
    const items = [element("div", "heading", el.dataset.kind + " " + el.dataset.id)];
    for (const [title, kind, params] of gestures) {
      const b = element("button", "", "gesture " + title);
      b.onclick = () => { hideMenu(); drive(el, "gesture", { kind, params }); };
      items.push(b);
    }
    if (controls.has(el.dataset.kind)) {
      items.push(element("div", "heading", "control events"));
      for (const name of controlEvents) {
        const b = element("button", "", "send " + name);
        b.onclick = () => { hideMenu(); drive(el, "send", { kind: name }); };
        items.push(b);
      }
    }
    menu.replaceChildren(...items);
    menu.hidden = false;
    menu.style.left = event.clientX + "px";
    menu.style.top = event.clientY + "px";
  });
  function hideMenu() { menu.hidden = true; }
  document.addEventListener("click", (event) => { if (!menu.contains(event.target)) hideMenu(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideMenu(); });

  $("console").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("console-input");
    if (input.value.trim()) send({ line: input.value.trim() });
    input.value = "";
  });

  // ---- recording --------------------------------------------------------------------
  // Record restarts the screen from its state on a clock the preview moves; Save spec brings
  // back the spec recorded so far, shown here and offered as a download.
  $("record").addEventListener("click", () => send({ record: "start" }));
  $("save-spec").addEventListener("click", () => send({ record: "save" }));
  $("stop-record").addEventListener("click", () => send({ record: "stop" }));
  let specURL = null;
  function showSpec(name, text) {
    $("spec-text").textContent = visible(text);
    if (specURL) URL.revokeObjectURL(specURL);
    specURL = URL.createObjectURL(new Blob([text], { type: "text/x-lua" }));
    const link = $("spec-download");
    link.href = specURL;
    link.download = name;
    link.textContent = "download " + visible(name);
    $("spec-box").hidden = false;
  }
  function recording(data) {
    const on = data.recording != null;
    $("save-spec").disabled = !on;
    $("stop-record").disabled = !on;
    $("record").textContent = on ? "● Record again" : "● Record";
    const said = on ? "recording: " + data.recording.events + " event(s)" + (data.recording.stopped ? " (stopped: " + data.recording.stopped + ")" : "") : "";
    $("recording").textContent = visible(said);
  }

  // ---- panel ------------------------------------------------------------------------
  function status(text, bad) {
    const el = $("status");
    el.hidden = !text;
    el.textContent = visible(text || "");
    el.style.background = bad ? "#ffe5e3" : "";
  }
  function panel(data, full) {
    lastPanel = data;
    $("screen-name").textContent = visible(data.name);
    document.title = visible(data.name) + " · SendingState preview";
    const box = $("error-box");
    box.hidden = !data.error;
    if (data.error) {
      $("error-where").textContent = visible(data.error.file ? data.error.file + (data.error.line ? ":" + data.error.line : "") : "");
      $("error").textContent = visible(data.error.message);
    }
    if (data.status) status(data.status, data.status.startsWith("reload failed"));
    const log = $("log");
    if (full) log.replaceChildren();
    for (const entry of data.log) {
      const li = element("li", entry.error ? "failed" : "");
      // Each step that made a moment opens it (its state, tree and picture) when clicked.
      if (typeof entry.moment === "number") {
        li.dataset.moment = entry.moment;
        li.append(element("span", "moment", "#" + entry.moment + (typeof entry.time === "number" ? " " + entry.time.toFixed(3) + "s " : " ")));
        li.addEventListener("click", () => askMoment(entry.moment));
      }
      li.append(element("span", "event", entry.event));
      li.append(element("span", "actions", entry.error ? "  ✗ " + entry.error.split("\n")[0] : "  → " + (entry.actions.join(", ") || "(no actions)")));
      // Why the event did nothing (disabled, nothing registered, filtered, no action returned).
      for (const reason of entry.why || []) li.append(element("span", "why", "why: " + reason));
      log.append(li);
    }
    while (log.children.length > 200) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
    if (!viewing && (data.log.length || full)) showDiff(data.diff);
    if (!viewing) renderState(data.state, data.diff);
    rewind(data);
    recording(data);
    const warnings = $("warnings");
    $("warnings-box").hidden = data.warnings.length === 0;
    warnings.replaceChildren(...data.warnings.map((w) => element("li", "", w)));
  }
  function showDiff(lines) {
    $("diff").replaceChildren(...(lines.length ? lines.map((line) => element("li", "", line)) : [element("li", "quiet", "no state changes")]));
  }
  function renderState(state, diff) {
    const changed = new Set(diff.map((line) => line.replace(/^[+-] /, "").split(/[:.[]/)[0]));
    const pre = $("state");
    pre.replaceChildren();
    const text = JSON.stringify(state, null, 2) || "null";
    for (const line of text.split("\n")) {
      const match = /^  "([^"]+)":/.exec(line);
      const span = element("span", match && changed.has(match[1]) ? "changed" : "", line + "\n");
      pre.append(span);
    }
  }

  // ---- rewind -----------------------------------------------------------------------
  // The timeline of moments (scrub or click a log line to see one: its picture in the phone,
  // its state and tree in the panel; the screen itself runs on), restoring one, and the
  // screen's clock: paused, stepped, resumed, with what waits on it.
  let lastPanel = null, viewing = null, timelineIds = [], clock = null, scrubTimer = null;
  const past = $("past");
  function askMoment(id) { send({ moment: id }); }
  function showMoment(moment) {
    viewing = moment;
    past.replaceChildren(build(moment.tree));
    past.style.height = moment.tree.f[3] + "px";
    past.hidden = false;
    screen.hidden = true;
    const banner = $("past-banner");
    banner.hidden = false;
    banner.textContent = visible("Moment #" + moment.id + " at " + moment.time.toFixed(3) + " s — " + moment.cause + " (the screen runs on; this is how it was)");
    $("moment-label").textContent = visible("#" + moment.id + " " + moment.kind + ": " + moment.cause);
    $("moment-actions").hidden = false;
    $("restore").disabled = !moment.restorable;
    $("moment-tree-box").hidden = false;
    $("moment-tree").textContent = visible(moment.text);
    const index = timelineIds.indexOf(moment.id);
    if (index >= 0) $("scrub").value = index;
    for (const li of $("log").children) li.classList.toggle("viewed", li.dataset.moment === String(moment.id));
    showDiff(moment.diff);
    renderState(moment.state, moment.diff);
  }
  function backToNow() {
    if (!viewing) return;
    viewing = null;
    past.hidden = true;
    past.replaceChildren();
    screen.hidden = false;
    $("past-banner").hidden = true;
    $("moment-actions").hidden = true;
    $("moment-tree-box").hidden = true;
    $("moment-label").textContent = visible("");
    for (const li of $("log").querySelectorAll(".viewed")) li.classList.remove("viewed");
    if (lastPanel) { showDiff(lastPanel.diff); renderState(lastPanel.state, lastPanel.diff); rewind(lastPanel); }
  }
  $("now").addEventListener("click", backToNow);
  $("restore").addEventListener("click", () => { if (viewing) send({ restore: viewing.id }); });
  $("scrub").addEventListener("input", (event) => {
    const id = timelineIds[Number(event.target.value)];
    if (id === undefined) return;
    // (Gathered over 80 ms: dragging sends the moment it rests on, not every one it passes.)
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(() => {
      if (id === timelineIds[timelineIds.length - 1] && viewing) backToNow(); else askMoment(id);
    }, 80);
  });
  $("pause").addEventListener("click", () => send({ clock: clock && clock.paused ? "resume" : "pause" }));
  $("step").addEventListener("click", () => send({ clock: "step", by: Number($("step-by").value) }));
  $("next").addEventListener("click", () => send({ clock: "next" }));
  function seconds(value) { return typeof value === "number" ? value.toFixed(3) : "?"; }
  function rewind(data) {
    if (data.timeline) {
      timelineIds = data.timeline.ids;
      const scrub = $("scrub");
      scrub.max = Math.max(0, timelineIds.length - 1);
      if (!viewing) scrub.value = scrub.max;
      if (!viewing) $("moment-label").textContent = visible(timelineIds.length + " moment(s), " + Math.ceil(data.timeline.bytes / 1024) + " KiB (at most " + data.timeline.limit + ", " + (data.timeline.byteLimit >> 20) + " MiB)");
    }
    if (data.clock) {
      clock = Object.assign({}, data.clock, { at: performance.now() });
      $("pause").textContent = visible(clock.paused ? "▶ Resume" : "⏸ Pause");
      $("step").disabled = !clock.paused;
      $("next").disabled = !clock.paused || clock.next == null;
      $("pause").disabled = !clock.virtual;
      showClock();
    }
    if (data.pending) {
      const items = data.pending.map((entry) => {
        if (entry.more) return element("li", "quiet", "… " + entry.more + " more");
        const name = entry.kind === "throttle" ? "throttle window" : "#" + entry.number;
        let text = name + (entry.id != null ? " '" + entry.id + "'" : "") + (entry.kind === "throttle" ? "" : " " + (entry.effect || entry.kind));
        if (entry.debounce != null) text += ", debounce " + seconds(entry.debounce) + " s";
        if (entry.window != null) text += " of " + seconds(entry.window) + " s, a " + entry.waiting + " waits for its end";
        text += entry.due != null ? (entry.kind === "throttle" ? " · ends " : " · due ") + seconds(entry.due) + " s" : " · not on the clock";
        return element("li", "", text);
      });
      $("pending").replaceChildren(...(items.length ? items : [element("li", "quiet", "nothing pending")]));
    }
  }
  // The clock as the page shows it: the server's time, moved on with real time while it runs.
  function showClock() {
    if (!clock) return;
    const now = clock.paused ? clock.now : clock.now + (performance.now() - clock.at) / 1000;
    $("clock-now").textContent = visible("clock " + seconds(now) + " s" + (clock.paused ? " (paused)" : ""));
  }
  setInterval(showClock, 100);

  connect();
})();

