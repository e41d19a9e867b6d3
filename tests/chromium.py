"""A small headless-Chromium driver for tests: open a page, collect what went wrong.

It speaks the DevTools protocol over ``--remote-debugging-pipe`` (JSON messages ending
in NUL on file descriptors 3 and 4), so it needs no websocket client and no port.
Records console errors, uncaught exceptions, log errors (CSP violations land there)
and every network request, and takes full-page screenshots.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
TIMEOUT = 30.0


def available() -> bool:
    return Path(CHROMIUM).is_file()


@dataclass
class PageVisit:
    """What happened while a page loaded."""

    url: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    @property
    def outside_requests(self) -> list[str]:
        """Requests for anything but the page itself and data: URIs."""
        return [u for u in self.requests if u != self.url and not u.startswith("data:")]


def _high_fd(fd: int) -> int:
    """A copy of ``fd`` numbered 10 or more, so that moving it to 3 or 4 clobbers nothing."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Chromium:
    """One headless browser; ``open`` visits a page in a fresh tab."""

    def __init__(self) -> None:
        self._profile = tempfile.mkdtemp(prefix="reportgen-chromium-")
        to_child_read, self._to_child = (_high_fd(fd) for fd in os.pipe())
        self._from_child, from_child_write = (_high_fd(fd) for fd in os.pipe())

        def wire() -> None:
            os.dup2(to_child_read, 3)
            os.dup2(from_child_write, 4)

        self._process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4, to_child_read, from_child_write),
        )
        os.close(to_child_read)
        os.close(from_child_write)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []

    def _send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> Any:
        """Send a command and wait for its answer; events met meanwhile are kept."""
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._receive(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._events.append(message)

    def _wait_for(self, method: str, session: str) -> None:
        for index, event in enumerate(self._events):
            if event.get("method") == method and event.get("sessionId") == session:
                del self._events[index]
                return
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._receive(deadline)
            self._events.append(message)
            if message.get("method") == method and message.get("sessionId") == session:
                return

    def open(
        self,
        path: Path,
        *,
        width: int = 1366,
        height: int = 768,
        screenshot: Path | None = None,
        top: int = 0,
        max_height: int = 12000,
        fragment: str = "",
    ) -> PageVisit:
        """Load ``path`` from file:// (``fragment``: a ``#...`` part to load it with),
        record errors and requests, optionally screenshot it."""
        page = path.resolve().as_uri()
        url = page + fragment
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.call(f"{domain}.enable", session=session)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=session,
        )
        self._events.clear()
        self.call("Page.navigate", {"url": url}, session=session)
        self._wait_for("Page.loadEventFired", session)
        self.call("Runtime.evaluate", {"expression": "1"}, session=session)  # drain events
        visit = PageVisit(url=page)  # the request for the page carries no fragment
        for event in self._events:
            if event.get("sessionId") != session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.requestWillBeSent":
                visit.requests.append(params["request"]["url"])
            elif method == "Runtime.exceptionThrown":
                visit.errors.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                visit.errors.append(json.dumps(params["args"])[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                visit.errors.append(params["entry"]["text"])
        if screenshot is not None:
            metrics = self.call("Page.getLayoutMetrics", session=session)
            size = metrics["cssContentSize"]
            clip = {
                "x": 0,
                "y": top,
                "width": max(width, size["width"]),
                "height": min(size["height"] - top, max_height),
                "scale": 1,
            }
            shot = self.call(
                "Page.captureScreenshot",
                {"format": "png", "captureBeyondViewport": True, "clip": clip},
                session=session,
            )
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            screenshot.write_bytes(base64.b64decode(shot["data"]))
        self._session = session
        return visit

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the last page opened."""
        result = self.call(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, self._session
        )
        return result["result"].get("value")

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close")
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_child)
        os.close(self._from_child)
        shutil.rmtree(self._profile, ignore_errors=True)
