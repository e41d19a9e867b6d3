"""Reports written in an earlier format_version stay readable; a newer one is refused.

Version 2 capped ``hygiene.stale.questions``; baselines, shards and the versions of a
published site written before it are version 1, and must still be read (a site
accumulates versions over months).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, make_report, merge_reports
from reportgen.errors import InputError
from reportgen.load.previous.baseline import load_baseline
from reportgen.load.previous.published import load_report_dir
from reportgen.load.previous.shards import load_shard
from reportgen.schema import FORMAT_VERSION, READABLE_FORMAT_VERSIONS
from reportgen.site.publish import publish

pytestmark = pytest.mark.hand_made_reports  # report.json files rewritten in other versions

GOLD = [{"id": f"q{i}", "kind": "plain", "gold": [f"c{i}"]} for i in range(4)]
RUN = {f"q{i}": [f"c{i}" if i % 2 else "x", "y"] for i in range(4)}


def written(folder: Path, version: int) -> Path:
    """A real report folder, its report.json relabelled as format ``version``."""
    folder.mkdir(parents=True)
    gold = folder / "gold.jsonl"
    gold.write_text("".join(json.dumps(q) + "\n" for q in GOLD))
    run = folder / "run.jsonl"
    run.write_text("".join(json.dumps({"id": q, "chunks": c}) + "\n" for q, c in RUN.items()))
    out = folder / "out"
    make_report(ReportRequest(ReportInputs(gold, [("r", run)]), ReportOutputs(out, formats=())))
    path = out / "report.json"
    report = json.loads(path.read_text())
    assert report["format_version"] == FORMAT_VERSION == 2
    path.write_text(json.dumps({**report, "format_version": version}))
    return out


def test_this_version_and_the_previous_one_are_readable() -> None:
    assert READABLE_FORMAT_VERSIONS == (1, 2)


@pytest.mark.parametrize("version", READABLE_FORMAT_VERSIONS)
def test_an_earlier_report_is_a_baseline_a_shard_and_a_site_version(
    tmp_path: Path, version: int
) -> None:
    out = written(tmp_path / "old", version)
    assert load_baseline(out).report["format_version"] == version
    shard = load_shard(out)
    assert shard.report is not None and shard.report["format_version"] == version
    assert merge_reports([out], tmp_path / "merged").report["format_version"] == FORMAT_VERSION
    assert load_report_dir(out)["format_version"] == version
    publish(out, tmp_path / "site")
    assert (tmp_path / "site" / "history.jsonl").is_file()


def test_a_baseline_of_version_1_is_compared_with(tmp_path: Path) -> None:
    old = written(tmp_path / "old", 1)
    shutil.copytree(tmp_path / "old", tmp_path / "now")
    gold, run = tmp_path / "now" / "gold.jsonl", tmp_path / "now" / "run.jsonl"
    inputs = ReportInputs(gold, [("r", run)], baseline=old)
    result = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "now" / "out2")))
    assert result.report["baseline"]["comparisons"][0]["run"] == "r"


@pytest.mark.parametrize("version", [3, 0])
def test_a_format_this_reportgen_cannot_read_is_refused(tmp_path: Path, version: int) -> None:
    out = written(tmp_path / "new", version)
    for read in (load_baseline, load_shard, load_report_dir):
        with pytest.raises(InputError) as caught:
            read(out)
        assert f"format_version {version}: this reportgen reads 1 and 2" in caught.value.problem
        assert "upgrade reportgen" in caught.value.fix
