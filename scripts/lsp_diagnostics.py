#!/usr/bin/env python3
"""Asks a Lua language server (emmylua_ls) over stdio LSP for the diagnostics of some files.

Usage: lsp_diagnostics.py SERVER ROOT FILE... [--library DIR]... [--timeout SECONDS] [--json]

Starts SERVER (the emmylua_ls binary) with ROOT as the workspace (and each DIR as one more
workspace folder: definitions the files may use, not checked themselves), waits until the server has
loaded the workspace, opens each FILE (a path relative to ROOT, or absolute), waits until the
server has published diagnostics for every one of them, shuts the server down, and prints one
line per diagnostic:

    path:line:col: code: message      (line and column from 1; path as given)

or, with --json, a JSON list of {"file", "line", "col", "code", "severity", "message"}.
Exits 0 with the diagnostics (whatever they are), 2 if the server does not answer in time or
dies. LSP_TRACE=1 prints what the server sends to stderr. Python 3 standard library only:
scripts/typecheck.sh runs it.
"""

import json
import os
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading
import time


def read_messages(stream, inbox):
    """Reads LSP messages (Content-Length framed JSON) from stream into inbox; None at EOF."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                inbox.put(None)
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii", "replace").partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        if length is None:
            continue
        body = stream.read(length)
        if len(body) < length:
            inbox.put(None)
            return
        inbox.put(json.loads(body.decode("utf-8")))


class Server:
    def __init__(self, command, cwd, deadline):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self.inbox = queue.Queue()
        self.deadline = deadline
        self.next_id = 0
        self.diagnostics = {}        # uri -> the latest published list
        self.progress = {}           # token -> "begin" | "end"
        self.answers = {}            # id -> the answer to our request
        threading.Thread(target=read_messages, args=(self.process.stdout, self.inbox),
                         daemon=True).start()

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        try:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()
        except OSError:
            fail("the server exited (it could not be sent " + message.get("method", "an answer") + ")")

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        wanted = self.next_id
        self.wait(lambda: wanted in self.answers, "the answer to " + method)
        return self.answers.pop(wanted)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def answer(self, message):
        """Answers a request from the server: configuration (no settings beyond the project's
        own config files), progress tokens and registrations (accepted)."""
        method = message["method"]
        if method == "workspace/configuration":
            result = [None for _ in message.get("params", {}).get("items", [])]
        else:
            result = None
        self.send({"id": message["id"], "result": result})

    def handle(self, message):
        """Takes one message from the server."""
        if os.environ.get("LSP_TRACE"):
            print("<- " + json.dumps(message)[:300], file=sys.stderr)
        method = message.get("method")
        if method is not None and "id" in message:
            self.answer(message)
        elif method is None and "id" in message:
            self.answers[message["id"]] = message
        elif method == "textDocument/publishDiagnostics":
            params = message["params"]
            self.diagnostics[params["uri"]] = params["diagnostics"]
        elif method == "$/progress":
            params = message["params"]
            kind = params.get("value", {}).get("kind")
            if kind in ("begin", "end"):
                self.progress[str(params.get("token"))] = kind

    def wait(self, done, what, detail=None):
        """Handles messages until done() is true; fails at the deadline (saying detail())."""
        while not done():
            left = self.deadline - time.monotonic()
            if left <= 0:
                fail("timed out waiting for " + what + (": " + detail() if detail else ""))
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                fail("the server exited while waiting for " + what)
            self.handle(message)


class Failure(Exception):
    pass


def fail(why):
    raise Failure(why)


def main(argv):
    timeout = 120.0
    as_json = False
    libraries = []
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--timeout":
            timeout = float(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--library":
            libraries.append(pathlib.Path(argv[i + 1]).resolve())
            i += 2
            continue
        if argv[i] == "--json":
            as_json = True
        else:
            args.append(argv[i])
        i += 1
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    server_path, root, files = args[0], pathlib.Path(args[1]).resolve(), args[2:]
    for name in files:
        if not (root / name).is_file():
            print(f"lsp_diagnostics.py: no file {name} in {root}", file=sys.stderr)
            return 2

    try:
        server = Server([server_path], str(root), time.monotonic() + timeout)
    except OSError as error:
        print(f"lsp_diagnostics.py: cannot start {server_path}: {error}", file=sys.stderr)
        return 2
    try:
        found = check(server, root, files, libraries)
    except Failure as failure:
        server.stderr.seek(0)
        said = server.stderr.read().decode("utf-8", "replace").strip()
        print("lsp_diagnostics.py: " + str(failure), file=sys.stderr)
        if said:
            print("lsp_diagnostics.py: the server said: " + said[-2000:], file=sys.stderr)
        return 2
    finally:
        if server.process.poll() is None:
            server.process.kill()
        server.process.wait()
    found.sort(key=lambda d: (d["file"], d["line"], d["col"], d["code"]))
    if as_json:
        print(json.dumps(found, indent=1))
    else:
        for d in found:
            message = d["message"].replace("\n", " ").strip()
            print(f'{d["file"]}:{d["line"]}:{d["col"]}: {d["code"]}: {message}')
    return 0


def check(server, root, files, libraries):
    """The diagnostics of files, in a session with the server."""
    server.request("initialize", {
        "processId": os.getpid(),
        "clientInfo": {"name": "sendingstate-typecheck"},
        "rootUri": root.as_uri(),
        "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}
                             for folder in [root] + libraries],
        "capabilities": {
            "workspace": {"configuration": True, "workspaceFolders": True},
            "window": {"workDoneProgress": True},
            "textDocument": {"publishDiagnostics": {}},
        },
    })
    server.notify("initialized", {})

    # The server indexes the workspace (types/ with it) under a progress token; a file opened
    # before that ends may be checked against half the types. Wait for every progress that
    # began to end.
    server.wait(lambda: server.progress and all(k == "end" for k in server.progress.values()),
                "the workspace to load")

    opened = {}
    for name in files:
        path = pathlib.Path(name) if os.path.isabs(name) else root / name
        uri = path.resolve().as_uri()
        opened[uri] = name
        server.diagnostics.pop(uri, None)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "lua", "version": 1,
            "text": path.read_text(encoding="utf-8")}})

    def missing():
        return [name for uri, name in opened.items() if uri not in server.diagnostics]
    server.wait(lambda: not missing(), "diagnostics for every opened file",
                detail=lambda: "none came for " + ", ".join(missing()))

    server.request("shutdown", None)
    server.notify("exit", None)
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass

    found = []
    for uri, name in opened.items():
        for d in server.diagnostics[uri]:
            start = d["range"]["start"]
            found.append({"file": name, "line": start["line"] + 1,
                          "col": start["character"] + 1, "code": str(d.get("code", "")),
                          "severity": d.get("severity"), "message": d["message"]})
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
