"""The README's Python example runs and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_shows_the_python_api_and_it_runs() -> None:
    (body,) = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.S | re.M)
    assert "reportgen.evaluate(" in body
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(body, "README.md", "exec"), {})
    said = re.findall(r"print\(.*\)\s+#\s+(.+)$", body, re.M)
    assert printed.getvalue().splitlines() == said


def test_the_readme_first_two_commands_stay() -> None:
    text = README.read_text()
    assert text.index("pip install . && reportgen demo --out demo-report") < text.index(
        'pip install -e ".[test]" && pytest'
    )
