"""Every number of a slice equals the number of a report on the gold set filtered to
that slice (SPEC.md, Slices): the string field lang, the list field tags, two runs,
every measure at every k, n and the intervals, compared exactly as report.json has them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.analyse.slices.slice_data import filtered_gold, write_slice_data

SLICES = [
    ("lang", "en"),
    ("lang", "de"),
    ("lang", "(missing)"),
    ("tags", "billing"),
    ("tags", "refunds"),
    ("tags", "shipping"),
    ("tags", "(missing)"),
    ("level", "2"),
]


def _report(gold: Path, paths: dict[str, Path], out: Path, *options: str) -> dict:
    args = ["report", str(gold), f"a={paths['a']}", f"b={paths['b']}", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--format", "json", "--quiet", *options])
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text())


@pytest.fixture(scope="module")
def sliced(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict[str, Path], Path]:
    folder = tmp_path_factory.mktemp("slices")
    paths = write_slice_data(folder)
    options = ["--slice-by", "lang", "--slice-by", "tags", "--slice-by", "level"]
    return _report(paths["gold"], paths, folder / "all", *options), paths, folder


@pytest.mark.parametrize(("field", "value"), SLICES)
def test_a_slice_is_the_report_on_its_questions(
    sliced: tuple[dict, dict[str, Path], Path], field: str, value: str
) -> None:
    whole, paths, folder = sliced
    name = f"{field}-{value}".replace("(", "").replace(")", "")
    gold = folder / f"{name}.jsonl"
    kept = filtered_gold(paths["gold"], gold, field, value)
    alone = _report(gold, paths, folder / name)
    assert alone["gold"]["questions"] == kept
    for run in ("a", "b"):
        part = whole["runs"][run]["by_slice"][field][value]
        assert part["questions"] == kept
        assert part["n"] == alone["runs"][run]["n"]
        assert part["means"] == alone["runs"][run]["means"]  # every measure, every k: exact
        assert part["intervals"] == alone["runs"][run]["intervals"]


def test_a_list_field_puts_a_question_in_each_of_its_slices(
    sliced: tuple[dict, dict[str, Path], Path],
) -> None:
    whole, paths, _ = sliced
    tagged = [json.loads(line) for line in paths["gold"].read_text().splitlines()]
    counts = whole["slices"]["questions"]["tags"]
    for tag in ("billing", "refunds", "shipping", "account"):
        assert counts[tag] == sum(tag in record.get("tags", []) for record in tagged)
    assert counts["(missing)"] == sum(not record.get("tags") for record in tagged)
    assert sum(counts.values()) > len(tagged)  # two tags: counted in both


@pytest.mark.parametrize(
    ("field", "value"), [("lang", "de"), ("tags", "billing"), ("tags", "(missing)")]
)
def test_a_slice_s_four_cells_are_the_report_on_its_questions(
    tmp_path: Path, field: str, value: str
) -> None:
    paths = write_slice_data(tmp_path)
    lines = paths["gold"].read_text().splitlines()
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text(
        "".join(
            json.dumps({"id": json.loads(line)["id"], "run": "a", "correct": i % 3 != 0}) + "\n"
            for i, line in enumerate(lines)
        )
    )
    judged = ["--verdicts", str(verdicts)]
    whole = _report(paths["gold"], paths, tmp_path / "all", *judged, "--slice-by", field)
    gold = tmp_path / "slice.jsonl"
    filtered_gold(paths["gold"], gold, field, value)
    alone = _report(gold, paths, tmp_path / "alone", *judged)["attribution"]["a"]
    part = whole["attribution"]["a"]["by_slice"][field][value]
    for key in ("n", "cells", "shares", "focus", "pass_rate"):
        assert part[key] == alone[key], key
    assert part["unanswerable"] == {
        outcome: alone["unanswerable"][outcome] for outcome in ("declined", "answered", "unknown")
    }
