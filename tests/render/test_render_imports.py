"""The pages are rebuilt from report.json alone (`reportgen render`): no module of
reportgen/render imports the analyses, the measuring, the loaders or the report's
assembly, at the top or inside a function; what a page needs is in report.json."""

from __future__ import annotations

import ast
from pathlib import Path

import reportgen.render

RENDER = Path(reportgen.render.__file__).parent
FORBIDDEN = ("reportgen.analyse", "reportgen.measure", "reportgen.load", "reportgen.report")


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def test_no_render_module_imports_what_report_json_replaces() -> None:
    modules = sorted(RENDER.rglob("*.py"))
    assert len(modules) > 10  # the views are in
    wrong = [
        f"{path.relative_to(RENDER)}: {name}"
        for path in modules
        for name in sorted(imported(path))
        if name.startswith(FORBIDDEN)
    ]
    assert wrong == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from reportgen.analyse.cutoff import analyse\n")
    assert "reportgen.analyse.cutoff.analyse" in imported(module)
