"""The chart engine: vl-convert, in a child process started while the inputs load.

vl-convert's first conversion costs ~0.5 s and later ones ~40 ms, and it holds the GIL
while it converts: a child process on another core overlaps that start with loading
and measuring. ``render_charts`` is the only caller of vl-convert, so every chart of
a report is drawn by one engine, with the same bytes in the child as in this process.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any

Spec = dict[str, Any]

VEGA_LITE_VERSION = "5.20"
"""Pinned so that the same spec draws the same bytes whatever vl-convert defaults to."""


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")
"""Characters XML cannot hold: vl-convert aborts the whole process (a Rust panic, not
an exception) when one reaches a chart's text, e.g. an escape code in a run name; and
the line and paragraph separators, which end the string literal of the expression
Vega-Lite builds from a sort order ("Unexpected token ILLEGAL")."""


def printable(value: Any) -> Any:
    """``value`` with every string's control characters replaced by U+FFFD."""
    if isinstance(value, str):
        return _CONTROL.sub("\ufffd", value)
    if isinstance(value, dict):
        return {printable(key): printable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [printable(item) for item in value]
    return value


_WORKER = """
import json, select, signal, sys
sys.path[:] = json.loads(sys.argv[2])  # started without site (-S, ~45 ms sooner): the parent's
import vl_convert
signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it, no traceback here
version, warm_up = sys.argv[1], json.loads(sys.argv[3])
vl_convert.vegalite_to_svg({"data": {"values": []}, "mark": "point"}, vl_version=version)
for spec in warm_up:
    try:
        if select.select([sys.stdin], [], [], 0)[0]:
            break  # the report's specs came: they go first
    except OSError:  # no select on pipes (Windows)
        break
    vl_convert.vegalite_to_svg(spec, vl_version=version)
for line in sys.stdin:
    svg = vl_convert.vegalite_to_svg(json.loads(line), vl_version=version)
    sys.stdout.write(json.dumps(svg) + "\\n")
"""
"""Starts the engine at once and draws the warm-up specs until the report's come, then
draws one spec per input line as one JSON string."""


def _lines(specs: Mapping[str, Spec]) -> list[str]:
    """The specs as the child reads them: one JSON line each, control characters replaced."""
    return [json.dumps(printable(spec)) for spec in specs.values()]


class ChartWorker:
    """vl-convert in a child process, started before the inputs load.

    vl-convert holds the GIL while it converts, so a thread cannot overlap its ~0.5 s
    engine start with loading and measuring; a child process on another core can.
    ``send`` hands it the specs as soon as they are known, and it draws them while
    this process renders the rest. Same library, same bytes. One batch; ``close``
    always.

    The engine's first chart of a kind costs up to twice a later one (its code warms
    up, text is measured at new sizes): ``warm_up`` specs of the report's kinds are
    drawn while the child waits for the report's (~0.3 s on the demo), until they come.
    """

    def __init__(self, warm_up: Sequence[Spec] = ()) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._writer: threading.Thread | None = None
        self._lines: list[str] = []
        command = [sys.executable, "-S", "-c", _WORKER, VEGA_LITE_VERSION]
        # no interpreter to start (an embedded Python): draw in this process instead
        with contextlib.suppress(OSError):
            self._process = subprocess.Popen(
                [*command, json.dumps(sys.path), json.dumps(list(warm_up))],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                # a spec it cannot draw is drawn again here, where the error is reported
                stderr=subprocess.DEVNULL,
            )

    @property
    def sent(self) -> bool:
        """Whether the report's specs have gone to the child (``send`` takes one batch)."""
        return self._writer is not None

    def send(self, specs: Mapping[str, Spec]) -> None:
        """Start drawing ``specs`` (control characters replaced) in the child; once only.

        A thread writes them: large specs would fill the pipe, and the child's SVGs
        its other pipe, before this process reads any.
        """
        if self._process is None or self._process.stdin is None or self._writer is not None:
            return
        self._lines = _lines(specs)
        lines = "".join(line + "\n" for line in self._lines)
        stdin = self._process.stdin

        def write() -> None:
            with contextlib.suppress(OSError):  # the child died: draw() says so
                stdin.write(lines.encode())
                stdin.close()

        self._writer = threading.Thread(target=write, name="reportgen-chart-specs")
        self._writer.start()

    def draw(self, specs: Mapping[str, Spec]) -> dict[str, str] | None:
        """The SVG of each of ``specs`` (sent now if none were), or None when the child
        failed or was sent other specs (then draw in this process).

        Its last line read, the child is not waited for (its engine's teardown took
        ~20 ms): ``close`` ends it.
        """
        self.send(specs)
        if self._process is None or self._process.stdout is None or self._writer is None:
            return None
        drawn = [self._process.stdout.readline() for _ in self._lines]
        self._writer.join()
        if not all(line.endswith(b"\n") for line in drawn) or _lines(specs) != self._lines:
            return None
        return {name: json.loads(svg) for name, svg in zip(specs, drawn, strict=True)}

    def close(self) -> None:
        """End the child: it has drawn, or never will (the command failed before its
        charts, perhaps after they were sent)."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
        if self._writer is not None:
            self._writer.join()  # its write fails at once if the child had not read all
        if process is not None:
            for pipe in (process.stdin, process.stdout):
                # closed by the writer already, or holding what a dead child never read
                with contextlib.suppress(OSError):
                    if pipe is not None:
                        pipe.close()


def render_charts(
    specs: Mapping[str, Spec], *, png: bool = False, worker: ChartWorker | None = None
) -> dict[str, bytes]:
    """Draw every spec: ``<name>.svg`` (and ``<name>.png`` at 2x when asked).

    The only place vl-convert is called (by ``worker`` when given); it is imported here
    only when this process draws or rasterises, not for a worker's SVGs. PNGs are
    rasterised from the SVG: the same bytes as vl-convert's own PNG, ~4x faster than
    drawing the spec again.
    """
    svgs = worker.draw(specs) if worker is not None else None
    if svgs is None or png:
        import vl_convert
    if svgs is None:
        svgs = {
            name: vl_convert.vegalite_to_svg(printable(spec), vl_version=VEGA_LITE_VERSION)
            for name, spec in specs.items()
        }
    drawn: dict[str, bytes] = {}
    for name, svg in svgs.items():
        drawn[f"{name}.svg"] = svg.encode()
        if png:
            drawn[f"{name}.png"] = vl_convert.svg_to_png(svg, scale=2)
    return drawn
