"""The "Wrote ..." line names the report's folder, counts chart files, and gives any
file written outside the folder (--junit) by its path."""

from __future__ import annotations

from pathlib import Path

from reportgen.render.terminal import written_line


def test_a_junit_file_beside_the_folder_is_named_apart() -> None:
    files = [Path("h/report.json"), Path("h/index.html"), Path("h/charts/a.svg")]
    files += [Path("h/charts/b.svg"), Path("h.xml")]
    assert written_line(files) == (
        "Wrote h/: report.json, index.html, charts/ (2 files); also h.xml"
    )


def test_the_folder_alone() -> None:
    files = [Path("out/report.json"), Path("out/per_question.csv")]
    assert written_line(files) == "Wrote out/: report.json, per_question.csv"
    assert written_line([]) == "Wrote nothing."
