#!/usr/bin/env python3
"""Browser tests of `sendingstate preview`, in Debian's Chromium driven by Selenium.

Each test starts the real CLI on a copy of an example (so edits never touch the repository),
opens the page in headless Chromium, and acts as a person would: clicks, types, drags, scrolls,
edits and breaks the script. Screenshots for the README are written to --screenshots.

Usage: browser_test.py --binary .build/debug/sendingstate --screenshots docs/screenshots
The last line is `N passed, N failed`; the exit code is 1 when a test failed.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = None
TESTS = []
WAIT = 10


def test(function):
    TESTS.append(function)
    return function


class Preview:
    """`sendingstate preview` on a copy of an example folder, stopped with a signal."""

    def __init__(self, example, screen, extra=()):
        self.folder = tempfile.mkdtemp(prefix="ss-preview-")
        shutil.copytree(os.path.join(ROOT, "examples", example), os.path.join(self.folder, example))
        self.screen = os.path.join(self.folder, example, screen)
        args = [ARGS.binary, "preview", self.screen] + [a.replace("@EXAMPLE", os.path.join(self.folder, example)) for a in extra]
        # The preview remembers its URL under XDG_CACHE_HOME: this scratch folder, not ~/.cache.
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.folder, "cache"))
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        line = self.process.stdout.readline()
        match = re.search(r"preview: (http://\S+)", line)
        if not match:
            self.process.kill()
            raise AssertionError("no URL from preview: %r %s" % (line, self.process.stderr.read()))
        self.url = match.group(1)

    def path(self, name):
        return os.path.join(os.path.dirname(self.screen), name)

    def stop(self, sig=signal.SIGINT):
        self.process.send_signal(sig)
        try:
            rest, errors = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("preview did not stop within 10 s of %s" % sig.name)
        shutil.rmtree(self.folder, ignore_errors=True)
        # The CLI's watchdog is a last resort: a stop must finish by itself (Chromium's idle
        # preconnected socket once held it for good).
        assert "did not close in time" not in errors, "the stop needed the watchdog: %r" % errors
        return self.process.returncode, rest, errors


def open_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = ARGS.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1120,900",
                 "--force-device-scale-factor=1", "--lang=en-US", "--hide-scrollbars", "--font-render-hinting=none"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(ARGS.chromedriver))


def until(driver, condition, what):
    try:
        return WebDriverWait(driver, WAIT).until(lambda d: condition())
    except Exception:
        raise AssertionError("timed out waiting for " + what)


def view(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def label(driver, selector):
    return view(driver, selector + " > .text").text


def state(driver):
    return json.loads(driver.find_element(By.ID, "state").get_attribute("textContent"))


def ready(driver, preview):
    driver.get(preview.url)
    until(driver, lambda: driver.execute_script("return window.preview && window.preview.connected && window.preview.version >= 0"),
          "the page to connect")
    until(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#screen .v"), "the screen to be drawn")


def shot(driver, name):
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
        driver.find_element(By.TAG_NAME, "body").screenshot(os.path.join(ARGS.screenshots, name))


def edit(path, old, new):
    text = open(path, encoding="utf-8").read()
    assert old in text, "%r not in %s" % (old, path)
    time.sleep(0.05)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace(old, new, 1))


# ---- tests ----------------------------------------------------------------------------------

@test
def counter_tap_changes_the_label(driver):
    preview = Preview("counter", "counter.lua")
    try:
        ready(driver, preview)
        assert label(driver, '[data-id="count"]') == "1"
        assert label(driver, '[data-id="title"]') == "Product"
        view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "2", "the count to become 2")
        until(driver, lambda: "tap plus" in driver.find_element(By.ID, "log").text, "the action log")
        assert "increment" in driver.find_element(By.ID, "log").text
        assert state(driver)["count"] == 2
        assert "count: 1 → 2" in driver.find_element(By.ID, "diff").text
        latency = driver.execute_script("return window.preview.latency")
        assert latency is not None and latency < 1000, latency
        print("    round trip of a tap: %.1f ms" % latency)
        # Minus is disabled at 0: a double tap on the count resets it (a gesture).
        ActionChains(driver).double_click(view(driver, '[data-id="count"]')).perform()
        until(driver, lambda: label(driver, '[data-id="count"]') == "0", "the double tap to reset")
        assert not view(driver, '[data-id="minus"] button').is_enabled()
        assert "gesture count tap taps=2" in driver.find_element(By.ID, "log").text
        # An event that does nothing says why in the log: minus is disabled at 0.
        console = driver.find_element(By.ID, "console-input")
        console.send_keys("tap minus", Keys.ENTER)
        until(driver, lambda: "why: 'minus' is disabled (enabled = false)" in driver.find_element(By.ID, "log").text,
              "the log to say why tap minus did nothing")
        assert label(driver, '[data-id="count"]') == "0"
        for _ in range(3):
            view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "3", "three taps")
        assert view(driver, '[data-id="minus"] button').is_enabled()
        shot(driver, "counter.png")
        # The console takes EVENTs as typed on the command line.
        console.send_keys("tap minus", Keys.ENTER)
        until(driver, lambda: label(driver, '[data-id="count"]') == "2", "the console's tap minus")
    finally:
        code, out, _ = preview.stop(signal.SIGINT)
    assert code == 0 and "preview stopped" in out, (code, out)


@test
def tasks_type_add_and_toggle(driver):
    preview = Preview("tasks", "tasks.lua")
    try:
        ready(driver, preview)
        add = view(driver, '[data-id="add"] button')
        assert not add.is_enabled()
        field = view(driver, '[data-id="draft"] input')
        assert field.get_attribute("placeholder") == "What needs doing?"
        field.click()
        field.send_keys("buy tea")
        until(driver, lambda: state(driver)["draft"] == "buy tea", "the draft in the state")
        until(driver, lambda: add.is_enabled(), "Add to be enabled")
        add.click()
        until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, '[data-id="tasks"] > [data-kind="row"]')) == 1, "a row")
        until(driver, lambda: field.get_attribute("value") == "", "the field to clear")
        field.send_keys("call mum", Keys.ENTER)
        until(driver, lambda: state(driver)["draft"] == "call mum", "the second draft")
        view(driver, '[data-id="add"] button').click()
        until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, '[data-id="tasks"] > [data-kind="row"]')) == 2, "two rows")
        rows = driver.find_elements(By.CSS_SELECTOR, '[data-id="tasks"] > [data-kind="row"]')
        assert rows[0].find_element(By.CSS_SELECTOR, '[data-id="title"] > .text').text == "buy tea"
        assert label(driver, '[data-id="left"]') == "2 left"
        rows[0].find_element(By.CSS_SELECTOR, '[data-id="done"] .switch').click()
        until(driver, lambda: label(driver, '[data-id="left"]') == "1 left", "the switch to tick the task off")
        assert state(driver)["tasks"][0]["done"] is True
        assert rows[0].find_element(By.CSS_SELECTOR, '[data-id="done"] input').is_selected()
        assert "row tasks 1 set done on" in driver.find_element(By.ID, "log").text
        shot(driver, "tasks.png")
        # A secure field is a password input: the browser masks what is typed.
        assert view(driver, '[data-id="draft"] input').get_attribute("type") == "text"
        edit(preview.screen, 'placeholder = "What needs doing?" }', 'placeholder = "What needs doing?", secure = true }')
        until(driver, lambda: view(driver, '[data-id="draft"] input').get_attribute("type") == "password", "a password field")
        view(driver, '[data-id="draft"] input').send_keys("secret")
        until(driver, lambda: state(driver)["draft"] == "secret", "typing into the secure field")
    finally:
        preview.stop()


@test
def products_slider_switch_and_scrolling(driver):
    preview = Preview("products", "products.lua")
    try:
        ready(driver, preview)
        rows = lambda: driver.find_elements(By.CSS_SELECTOR, '[data-id="items"] > [data-kind="row"]')
        assert len(rows()) == 4
        first_name = lambda: rows()[0].find_element(By.CSS_SELECTOR, '[data-id="name"] > .text').text
        assert first_name() == "Green tea"
        slider = rows()[1].find_element(By.CSS_SELECTOR, '[data-id="quantity"] input')
        width = slider.size["width"]
        ActionChains(driver).move_to_element_with_offset(slider, -width // 2 + 4, 0).click_and_hold() \
            .move_by_offset(width * 7 // 10, 0).release().perform()
        until(driver, lambda: state(driver)["items"][1]["quantity"] >= 5, "the dragged slider to set a quantity")
        quantity = state(driver)["items"][1]["quantity"]
        assert "total" in label(driver, '[data-id="summary"]') and "0.00" not in label(driver, '[data-id="summary"]')
        rows()[0].find_element(By.CSS_SELECTOR, '[data-id="favorite"] .switch').click()
        until(driver, lambda: label(driver, '[data-id="summary"]').startswith("1 favorites"), "the favourite switch")
        shot(driver, "products.png")
        # The wheel scrolls the list: later rows come into view (cells are reused).
        the_list = view(driver, '[data-id="items"]')
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(the_list), 0, 40).perform()
        until(driver, lambda: first_name() == "Black tea", "the list to scroll one row")
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(the_list), 0, 2000).perform()
        until(driver, lambda: first_name() == "Earl Grey", "the list to reach its end")
        names = [row.find_element(By.CSS_SELECTOR, '[data-id="name"] > .text').text for row in rows()]
        assert names == ["Earl Grey", "Jasmine", "Sencha", "Pu-erh"], names
        # A row scrolled back into view shows its item's state.
        time.sleep(0.1)
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(the_list), 0, -2000).perform()
        until(driver, lambda: first_name() == "Green tea", "the list to scroll back")
        assert rows()[0].find_element(By.CSS_SELECTOR, '[data-id="favorite"] input').is_selected()
        # Dragging a list scrolls it too.
        ActionChains(driver).click_and_hold(rows()[3].find_element(By.CSS_SELECTOR, '[data-id="price"]')) \
            .move_by_offset(0, -90).release().perform()
        until(driver, lambda: first_name() == "Oolong", "a drag to scroll two rows")
        assert state(driver)["items"][1]["quantity"] == quantity
    finally:
        preview.stop()


@test
def saving_reloads_keeping_state_and_errors_show(driver):
    preview = Preview("counter", "counter.lua")
    try:
        ready(driver, preview)
        view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "2", "the tap")
        driver.execute_script("window.notReloaded = true")
        edit(preview.screen, 'text = "host API " .. ss.version', 'text = "edited on save"')
        until(driver, lambda: label(driver, '[data-id="version"]') == "edited on save", "the reload")
        assert label(driver, '[data-id="count"]') == "2", "state kept"
        assert driver.execute_script("return window.notReloaded") is True, "the page was not refreshed"
        # A broken script: its error with file:line, and the last good version keeps running.
        edit(preview.screen, "view.count.text = tostring(state.count)", "view.count.text = tostring(state.count")
        until(driver, lambda: driver.find_element(By.ID, "error-box").is_displayed(), "the error")
        where = driver.find_element(By.ID, "error-where").text
        assert re.search(r"counter\.lua:\d+", where) or re.search(r"counter\.lua:\d+", driver.find_element(By.ID, "error").text), where
        assert "reload failed" in driver.find_element(By.ID, "status").text
        shot(driver, "error.png")
        view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "3", "the old version to keep running")
        edit(preview.screen, "view.count.text = tostring(state.count", "view.count.text = 'n=' .. tostring(state.count)")
        until(driver, lambda: label(driver, '[data-id="count"]') == "n=3", "the fixed script")
        until(driver, lambda: not driver.find_element(By.ID, "error-box").is_displayed(), "the error to go away")
    finally:
        preview.stop()


@test
def editing_a_required_module_reloads(driver):
    preview = Preview("shop", "shop.lua", ["--data", "@EXAMPLE/payload.json"])
    try:
        ready(driver, preview)
        add = view(driver, '[data-id="matcha"] [data-id="add"] button')
        add.click()
        until(driver, lambda: label(driver, '[data-id="summary"]').startswith("1 in cart"), "unit button (matcha.add)")
        assert "tap matcha.add" in driver.find_element(By.ID, "log").text
        edit(preview.path("units/banner.lua"), "view.title.text = data.title", "view.title.text = 'New: ' .. data.title")
        until(driver, lambda: label(driver, '[data-id="banner1"] [data-id="title"]') == "New: Spring tea sale", "module reload")
        assert label(driver, '[data-id="summary"]').startswith("1 in cart"), "state kept"
        shot(driver, "shop.png")
    finally:
        preview.stop()


@test
def safe_by_default(driver):
    preview = Preview("counter", "counter.lua")
    try:
        url = urllib.parse.urlparse(preview.url)
        token = url.path.strip("/")
        assert url.hostname == "127.0.0.1" and re.fullmatch(r"[0-9a-f]{32}", token), preview.url
        with open(preview.path("logo.png"), "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\n")

        def get(path, host=None):
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
            connection.putrequest("GET", path, skip_host=host is not None)
            if host is not None:
                connection.putheader("Host", host)
            connection.endheaders()
            response = connection.getresponse()
            body = response.read()
            connection.close()
            return response.status, response.getheader("Content-Type"), body

        assert get("/%s/" % token)[0] == 200
        assert get("/")[0] == 404
        assert get("/%s/" % ("0" * 32))[0] == 404
        assert get("/%s/" % token, host="attacker.example:%d" % url.port)[0] == 404, "DNS rebinding"
        assert get("/%s/files/counter.lua" % token)[0] == 404, "scripts are not served"
        assert get("/%s/files/../counter/counter.lua" % token)[0] == 404
        assert get("/%s/files/..%%2f..%%2fetc%%2fpasswd" % token)[0] == 404
        status, kind, _ = get("/%s/files/logo.png" % token)
        assert status == 200 and kind == "image/png", (status, kind)
        os.symlink("/etc/hostname", preview.path("escape.png"))
        assert get("/%s/files/escape.png" % token)[0] == 404, "symlinks out of the folder"
        page = get("/%s/" % token)
        assert b"<script src=\"preview.js\"" in page[2]
    finally:
        code, out, _ = preview.stop(signal.SIGHUP)
    assert code == 0 and "preview stopped" in out, "SIGHUP (the terminal closing) stops it cleanly: %r" % ((code, out),)


@test
def run_png_of_the_counter(driver):
    out = os.path.join(tempfile.mkdtemp(prefix="ss-png-"), "counter.png")
    result = subprocess.run([ARGS.binary, "run", "examples/counter/counter.lua", "--send", "tap plus", "--png", out],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    info = json.loads(subprocess.run([sys.executable, os.path.join(ROOT, "scripts/preview/png_info.py"), out, "2,2"],
                                     capture_output=True, text=True, check=True).stdout)
    print("    run --png of the counter: %d bytes, %dx%d" % (info["bytes"], info["width"], info["height"]))
    assert info["bytes"] < 200_000 and info["width"] == 780 and info["pixels"]["2,2"] == [255, 255, 255], info
    assert info["dark"] > 500, "text is drawn"
    if ARGS.screenshots:
        shutil.copy(out, os.path.join(ARGS.screenshots, "counter-run.png"))


@test
def record_a_session_as_a_spec(driver):
    # Record, use the screen, Save spec: the spec the page gives back passes under
    # `sendingstate test` at once, and fails after a deliberate change to the screen.
    preview = Preview("counter", "counter.lua")
    try:
        ready(driver, preview)
        view(driver, "#record").click()
        until(driver, lambda: driver.find_element(By.ID, "recording").text.startswith("recording: 0 event(s)"),
              "the recording to start")
        for _ in range(2):
            view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "3", "two taps on plus")
        view(driver, '[data-id="minus"] button').click()
        ActionChains(driver).double_click(view(driver, '[data-id="count"]')).perform()
        until(driver, lambda: label(driver, '[data-id="count"]') == "0", "minus, then a double tap to reset")
        # (A double click is two clicks and a double tap: the clicks are recorded too, doing nothing.)
        def recorded():
            match = re.search(r"recording: (\d+) event", driver.find_element(By.ID, "recording").text)
            return match and int(match.group(1)) >= 4
        until(driver, recorded, "four events or more recorded")
        view(driver, "#save-spec").click()
        until(driver, lambda: driver.find_element(By.ID, "spec-box").is_displayed(), "the spec to come back")
        text = driver.find_element(By.ID, "spec-text").get_attribute("textContent")
        link = driver.find_element(By.ID, "spec-download")
        assert link.get_attribute("download") == "counter_spec.lua", link.get_attribute("download")
        assert link.get_attribute("href").startswith("blob:"), link.get_attribute("href")
        assert 'screen:gesture("count", "tap", { taps = 2 })' in text, text
        shot(driver, "preview-record.png")
        spec = preview.path("counter_spec.lua")
        with open(spec, "w") as f:
            f.write(text)
        passing = subprocess.run([ARGS.binary, "test", spec], cwd=os.path.dirname(spec), capture_output=True, text=True)
        assert passing.returncode == 0 and "1 passed, 0 failed" in passing.stdout, passing.stdout + passing.stderr
        edit(preview.screen, "s.count = s.count + 1", "s.count = s.count + 2")
        failing = subprocess.run([ARGS.binary, "test", spec], cwd=os.path.dirname(spec), capture_output=True, text=True)
        assert failing.returncode == 1 and "0 passed, 1 failed" in failing.stdout, failing.stdout + failing.stderr
        print("    a recorded session (%d lines of spec): it passes, and fails once plus adds two" % text.count("\n"))
    finally:
        preview.stop()


@test
def rewind_pause_step_scrub_and_restore(driver):
    # Pause the clock, type a query (its search is debounced: a timer waits), step it, then
    # Next: the search's result is a step of its own. Click the moment of the typing: the phone
    # shows the screen as it was, the panel its state; Restore opens the screen with it again.
    preview = Preview("search", "search.lua", ["--offline"])
    try:
        ready(driver, preview)
        clock = lambda: driver.find_element(By.ID, "clock-now").text
        until(driver, lambda: clock().startswith("clock "), "the clock to show")
        view(driver, "#pause").click()
        until(driver, lambda: clock().endswith("(paused)"), "the clock to pause")
        view(driver, '[data-id="query"] input').send_keys("green")
        until(driver, lambda: state(driver).get("query") == "green", "the query to be typed")
        pending = lambda: driver.find_element(By.ID, "pending").text
        until(driver, lambda: "'search' fetch, debounce 0.300 s" in pending(), "the debounced search to be pending")
        paused_at = float(re.search(r"clock ([\d.]+) s", clock()).group(1))
        step_by = view(driver, "#step-by")
        step_by.clear()
        step_by.send_keys("0.1")
        view(driver, "#step").click()
        until(driver, lambda: abs(float(re.search(r"clock ([\d.]+) s", clock()).group(1)) - paused_at - 0.1) < 0.0015,
              "the clock to move 0.1 s")
        assert state(driver)["phase"] == "loading", state(driver)
        assert "'search' fetch, debounce 0.300 s" in pending(), pending()
        view(driver, "#next").click()
        until(driver, lambda: state(driver).get("phase") == "failed", "the search to fail (offline) at the next timer")
        log = lambda: driver.find_element(By.ID, "log").text
        failed_step = lambda: any(li.text.split("\n")[0].split(" ")[2:3] == ["effect"] and '"type":"failed"' in li.text
                                  for li in driver.find_elements(By.CSS_SELECTOR, "#log li"))
        until(driver, failed_step, "the effect's result as a step of its own")
        until(driver, lambda: 'phase: "loading" → "failed"' in driver.find_element(By.ID, "diff").text, "the Last step to be the newest")
        # The moment the typing made: the past picture, its state, its tree.
        typed = [li for li in driver.find_elements(By.CSS_SELECTOR, "#log li") if "type query" in li.text][-1]
        typed.click()
        until(driver, lambda: view(driver, "#past").is_displayed(), "the past moment's picture")
        assert label(driver, '#past [data-id="status"]') == "Searching…", label(driver, '#past [data-id="status"]')
        assert not view(driver, "#screen").is_displayed()
        assert state(driver)["phase"] == "loading", state(driver)
        assert "label#status" in driver.find_element(By.ID, "moment-tree").get_attribute("textContent")
        assert "Moment #" in view(driver, "#past-banner").text
        shot(driver, "preview-rewind.png")
        # The live screen ran on meanwhile; Restore brings the moment back and drops what followed.
        view(driver, "#restore").click()
        until(driver, lambda: view(driver, "#screen").is_displayed() and "restore #" in log(), "the restore")
        assert not failed_step(), log()
        assert state(driver)["phase"] == "loading", state(driver)
        assert label(driver, '#screen [data-id="status"]') == "Searching…"
        # Its effects were tasks: the restored screen has none pending.
        until(driver, lambda: pending() == "nothing pending", "no effect pending after the restore")
        view(driver, "#pause").click()
        until(driver, lambda: not clock().endswith("(paused)"), "the clock to run again")
        print("    paused, stepped 0.1 s, next timer, scrubbed back, restored")
    finally:
        preview.stop()


@test
def narrow_window_fits(driver):
    # A phone-sized window: nothing is wider than the window (no sideways scrolling of the
    # page), the panel goes under the phone, and the screen still works.
    preview = Preview("counter", "counter.lua")
    try:
        driver.set_window_size(400, 900)
        ready(driver, preview)
        until(driver, lambda: driver.execute_script("return document.documentElement.clientWidth") <= 400, "the narrow window")
        widths = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], "the page is %d px wide in a %d px window" % tuple(widths)
        stage = driver.execute_script("return document.getElementById('stage').getBoundingClientRect().bottom")
        panel = driver.execute_script("return document.getElementById('panel').getBoundingClientRect().top")
        assert panel >= stage, "the panel (top %d) is beside the phone (bottom %d), not under it" % (panel, stage)
        view(driver, '[data-id="plus"] button').click()
        until(driver, lambda: label(driver, '[data-id="count"]') == "2", "the tap in a narrow window")
        shot(driver, "preview-narrow.png")
    finally:
        driver.set_window_size(1120, 900)
        preview.stop()


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("-k", dest="only")
    ARGS = parser.parse_args()
    ARGS.binary = os.path.abspath(ARGS.binary)
    passed = failed = 0
    driver = open_browser()
    try:
        for function in TESTS:
            if ARGS.only and ARGS.only not in function.__name__:
                continue
            started = time.time()
            try:
                function(driver)
                passed += 1
                print("  ✓ %s (%.1f s)" % (function.__name__, time.time() - started), flush=True)
            except Exception:
                failed += 1
                print("  ✗ %s" % function.__name__, flush=True)
                traceback.print_exc()
                if ARGS.screenshots:
                    driver.save_screenshot(os.path.join(tempfile.gettempdir(), "failed-%s.png" % function.__name__))
    finally:
        driver.quit()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
