"""`reportgen merge --min` gates the merged means as `reportgen report --min` gates its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import merge_reports
from reportgen.cli import cli
from reportgen.errors import UsageError
from reportgen.load.inputs.config import rules_from_options
from tests.scale.test_merge import write_shard


def shards(tmp_path: Path) -> list[Path]:
    # hit@1 over q1..q4 = (1 + 1 + 0 + 0) / 4 = 0.5
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0), "q2": ("scored", 1.0)})
    b = write_shard(tmp_path / "b", {"q3": ("scored", 0.0), "q4": ("scored", 0.0)})
    return [a, b]


@pytest.mark.parametrize(("minimum", "passed"), [("0.5", True), ("0.51", False)])
def test_the_minimum_is_checked_on_the_merged_mean(
    tmp_path: Path, minimum: str, passed: bool
) -> None:
    gate = rules_from_options((f"hit@1={minimum}",), (), False)
    result = merge_reports(shards(tmp_path), tmp_path / "out", gate=gate)
    assert result.report["gate"]["passed"] is passed
    assert (result.failure is None) is passed
    done = CliRunner().invoke(
        cli, ["merge", *map(str, shards(tmp_path / "cli")), "--out", str(tmp_path / "o2"),
              "--min", f"hit@1={minimum}"],
    )  # fmt: skip
    assert done.exit_code == (0 if passed else 1), done.output
    assert (tmp_path / "o2" / "report.json").is_file()  # written before the gate fails


def test_without_rules_there_is_no_gate_and_max_drop_is_refused(tmp_path: Path) -> None:
    # values only (no merge/): a max-drop rule needs the baseline a whole report compares
    assert merge_reports(shards(tmp_path), tmp_path / "out").report["gate"] is None
    with pytest.raises(UsageError, match="--max-drop needs the whole report"):
        merge_reports(
            shards(tmp_path / "again"),
            tmp_path / "out2",
            gate=rules_from_options((), ("hit@1=0.1",), False),
        )
    assert not (tmp_path / "out2").exists()
