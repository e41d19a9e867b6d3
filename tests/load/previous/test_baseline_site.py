"""A published site as the baseline: built by the real `publish`, never a written history.

Which version is chosen (newest on the same gold set, else the newest, or the one
named), what the report says about the choice, and older histories that carry a
``path`` per entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.cli import cli
from reportgen.errors import InputError
from reportgen.load.previous.baseline import load_baseline
from reportgen.site.publish import publish

QUESTIONS = [f"q{i}" for i in range(6)]


def write_gold(path: Path, extra: int = 0) -> Path:
    """Gold set A (extra=0) or a different one (extra>0 adds questions)."""
    rows = [{"id": q, "kind": "k", "gold": [f"c{q[1:]}"]} for q in QUESTIONS]
    rows += [{"id": f"x{i}", "kind": "k", "gold": [f"cx{i}"]} for i in range(extra)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def write_run(path: Path, found: int) -> Path:
    """A run that finds the gold chunk of the first ``found`` questions."""
    rows = [
        {"id": q, "chunks": [f"c{q[1:]}" if i < found else "zz", "yy"]}
        for i, q in enumerate(QUESTIONS)
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def report_folder(tmp: Path, version: str, epoch: int, gold_extra: int, found: int) -> Path:
    """A report written by make_report, created at ``epoch``."""
    folder = tmp / f"in-{version}"
    folder.mkdir()
    gold = write_gold(folder / "gold.jsonl", gold_extra)
    run = write_run(folder / "m.jsonl", found)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", str(epoch))
        outputs = ReportOutputs(folder / "out", formats=())
        inputs = ReportInputs(gold, [("m", run)])
        make_report(ReportRequest(inputs, outputs, ReportSettings(version=version)))
    return folder / "out"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """v9 and v10 on gold set A (v10 newer), then v11 on gold set B, all published."""
    tmp = tmp_path_factory.mktemp("site")
    site = tmp / "site"
    for version, epoch, extra, found in (
        ("v10", 1_700_000_200, 0, 4),
        ("v9", 1_700_000_100, 0, 3),  # published after v10, created before it
        ("v11", 1_700_000_300, 2, 5),
    ):
        publish(report_folder(tmp, version, epoch, extra, found), site)
    return site


def current(tmp: Path, extra: int = 0) -> tuple[Path, Path]:
    folder = tmp / "now"
    folder.mkdir(exist_ok=True)
    return write_gold(folder / "gold.jsonl", extra), write_run(folder / "m.jsonl", 2)


def fingerprint(site: Path, version: str) -> str:
    return str(json.loads((site / version / "report.json").read_text())["gold"]["fingerprint"])


def test_the_site_writes_no_path_and_is_read_as_a_baseline(site: Path) -> None:
    lines = [json.loads(line) for line in (site / "history.jsonl").read_text().splitlines()]
    assert all("path" not in line for line in lines)
    gold_a = fingerprint(site, "v10")
    for given in (site, site / "history.jsonl"):
        baseline = load_baseline(given, gold_fingerprint=gold_a)
        assert baseline.report["version"] == "v10"  # newest on gold A; v11 is on gold B
        assert baseline.path == site / "v10" / "report.json"
        assert baseline.selection == {
            "site": str(site),
            "rule": "same_gold",
            "versions": 3,
            "newer": ["v11"],
        }
    version_folder = load_baseline(site / "v9", gold_fingerprint=gold_a)
    assert version_folder.report["version"] == "v9" and version_folder.selection is None


def test_no_version_on_this_gold_set_takes_the_newest(site: Path) -> None:
    baseline = load_baseline(site, gold_fingerprint="0000000000000000")
    assert baseline.report["version"] == "v11"
    assert baseline.selection is not None and baseline.selection["rule"] == "newest"
    assert baseline.selection["newer"] == []


def test_a_label_picks_a_version_and_an_unknown_one_lists_them(site: Path) -> None:
    baseline = load_baseline(site, gold_fingerprint=fingerprint(site, "v10"), version="v9")
    assert baseline.report["version"] == "v9"
    assert baseline.selection is not None
    assert baseline.selection["rule"] == "requested"
    assert baseline.selection["newer"] == ["v11", "v10"]
    with pytest.raises(InputError) as error:
        load_baseline(site, version="v8")
    assert str(error.value) == (
        f"{site}: no version 'v8' here; the versions it holds, newest first: v11, v10, v9. "
        "Fix: pass one of them to --baseline-version."
    )
    with pytest.raises(InputError, match="this report is version 'v9', not 'v10'"):
        load_baseline(site / "v9", version="v10")


def test_the_report_says_which_version_it_compared_with(site: Path, tmp_path: Path) -> None:
    gold, run = current(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["report", str(gold), f"m={run}", "--baseline", str(site), "--out", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    sentence = (
        f"v10 is the newest of the 3 versions on {site} measured on this report's gold set; "
        "newer, passed over: v11."
    )
    assert (
        f"Baseline: v10 (2023-11-14T22:16:40Z), read from {site / 'v10' / 'report.json'}. "
        + sentence
    ) in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["baseline"]["version"] == "v10"
    assert report["baseline"]["selection"]["rule"] == "same_gold"
    for name in ("index.html", "report.md", "summary.md"):
        text = (out / name).read_text()
        assert "v10 is the newest of the 3 versions on" in text, name
        assert "newer, passed over: v11" in text, name


def test_baseline_version_on_the_command_line(site: Path, tmp_path: Path) -> None:
    gold, run = current(tmp_path)
    out = tmp_path / "out"
    args = ["report", str(gold), f"m={run}", "--out", str(out), "--format", "md"]
    chosen = CliRunner().invoke(cli, [*args, "--baseline", str(site), "--baseline-version", "v9"])
    assert chosen.exit_code == 0, chosen.output
    assert "v9 was chosen with --baseline-version among the 3 versions" in chosen.output
    missing = CliRunner().invoke(cli, [*args, "--baseline", str(site), "--baseline-version", "v1"])
    assert missing.exit_code == 2
    assert "no version 'v1' here; the versions it holds, newest first: v11, v10, v9" in (
        missing.output
    )
    alone = CliRunner().invoke(cli, [*args, "--baseline-version", "v9"])
    assert alone.exit_code == 2 and "--baseline-version" in alone.output
    assert "Traceback" not in missing.output + alone.output


def test_a_newer_gold_set_is_refused_or_intersected_by_on_gold_change(
    site: Path, tmp_path: Path
) -> None:
    gold, run = current(tmp_path, extra=3)  # a third gold set: the newest (v11) is chosen
    args = ["report", str(gold), f"m={run}", "--baseline", str(site), "--out", str(tmp_path / "o")]
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 2
    assert f"{site / 'v11' / 'report.json'}: the baseline was measured on gold set" in (
        refused.output
    )
    shared = CliRunner().invoke(cli, [*args, "--on-gold-change", "intersect", "--format", "md"])
    assert shared.exit_code == 0, shared.output
    assert "v11 is the newest of the 3 versions" in shared.output
    assert "none was measured on this report's gold set" in shared.output


def rewrite_history(site: Path, target: Path, change) -> Path:  # type: ignore[no-untyped-def]
    """A copy of a real site whose history lines were changed by ``change``."""
    import shutil

    shutil.copytree(site, target)
    lines = (target / "history.jsonl").read_text().splitlines()
    entries = [change(number, json.loads(line)) for number, line in enumerate(lines, start=1)]
    (target / "history.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return target


def test_older_histories_with_a_path_or_without_gold_still_read(site: Path, tmp_path: Path) -> None:
    def older(number: int, entry: dict[str, object]) -> dict[str, object]:
        entry.pop("gold")  # written before publish recorded the gold set
        return {
            **entry,
            "path": f"{entry['version']}/report.json" if number == 1 else entry["version"],
        }

    old = rewrite_history(site, tmp_path / "old", older)
    baseline = load_baseline(old, gold_fingerprint=fingerprint(site, "v10"))
    assert baseline.report["version"] == "v10"
    assert baseline.selection is not None and baseline.selection["rule"] == "same_gold"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda entry: {**entry, "path": "../../etc"},
            "the entry's path '../../etc' leads outside the site",
        ),
        (lambda entry: {**entry, "path": "/etc"}, "the entry's path '/etc' leads outside the site"),
        (lambda entry: {**entry, "version": "../up"}, "cannot name a folder of the site"),
        (lambda entry: {**entry, "version": "CON"}, "is a device name on Windows"),
        (lambda entry: {**entry, "version": 7}, "the version is not text"),
    ],
)
def test_unsafe_history_entries_are_refused_naming_the_line(  # type: ignore[no-untyped-def]
    site: Path, tmp_path: Path, change, problem: str
) -> None:
    bad = rewrite_history(site, tmp_path / "bad", lambda n, e: change(e) if n == 2 else e)
    with pytest.raises(InputError) as error:
        load_baseline(bad, gold_fingerprint=fingerprint(site, "v10"))
    message = str(error.value)
    assert message.startswith(f"{bad / 'history.jsonl'}:2: ") and problem in message
    assert message.index(problem) < message.index(". Fix: ")


def test_a_missing_version_folder_names_the_history_line(site: Path, tmp_path: Path) -> None:
    import shutil

    broken = rewrite_history(site, tmp_path / "broken", lambda n, e: e)
    shutil.rmtree(broken / "v10")
    with pytest.raises(InputError) as error:
        load_baseline(broken, gold_fingerprint=fingerprint(site, "v10"))
    assert str(error.value).startswith(f"{broken / 'history.jsonl'}:1: version v10's report")


def test_a_site_without_its_history_reads_every_version_folder(site: Path, tmp_path: Path) -> None:
    bare = rewrite_history(site, tmp_path / "bare", lambda n, e: e)
    (bare / "history.jsonl").unlink()
    baseline = load_baseline(bare, gold_fingerprint=fingerprint(site, "v9"))
    assert baseline.report["version"] == "v10"
    assert baseline.selection == {
        "site": str(bare),
        "rule": "same_gold",
        "versions": 3,
        "newer": ["v11"],
    }


def test_pruned_versions_are_never_the_baseline(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for version, epoch in (("v1", 1_700_000_100), ("v2", 1_700_000_200)):
        publish(report_folder(tmp_path, version, epoch, 0, 3), site, keep=1)
    gold_a = fingerprint(site, "v2")
    publish(report_folder(tmp_path, "v3", 1_700_000_300, 2, 3), site, keep=1)  # prunes v2
    assert sorted(p.name for p in site.iterdir()) == [
        "history-archive.jsonl",
        "history.jsonl",
        "index.html",
        "v3",
    ]
    baseline = load_baseline(site, gold_fingerprint=gold_a)
    assert baseline.report["version"] == "v3"  # v1 and v2, on gold A, have no folder left
    assert baseline.selection is not None
    assert baseline.selection["rule"] == "newest" and baseline.selection["versions"] == 1
    with pytest.raises(InputError, match=r"version .v2. was pruned \(publish --keep\): its folder"):
        load_baseline(site, version="v2")


def _move_out(site: Path, relative: str, outside: Path) -> None:
    """Move ``site/relative`` to ``outside`` and leave a link to it in its place."""
    import shutil

    outside.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(site / relative, outside)
    (site / relative).symlink_to(outside)


@pytest.mark.parametrize(
    ("linked", "history"),
    [
        ("v10", True),  # a version folder
        ("v10/report.json", True),
        ("v10/per_question.csv", True),
        ("history.jsonl", True),
        ("v10", False),  # a site without a history: every */report.json
    ],
)
def test_links_out_of_the_site_are_refused(
    site: Path, tmp_path: Path, linked: str, history: bool
) -> None:
    copy = rewrite_history(site, tmp_path / "copy", lambda n, e: e)
    if not history:
        (copy / "history.jsonl").unlink()
    _move_out(copy, linked, tmp_path / "outside" / linked)
    gold_a = fingerprint(site, "v10")
    with pytest.raises(InputError) as error:
        load_baseline(copy, gold_fingerprint=gold_a)
    message = str(error.value)
    assert f"{linked} is a symbolic link" in message, message
    assert "Fix: " in message
    gold, run = current(tmp_path)
    args = ["report", str(gold), f"m={run}", "--baseline", str(copy), "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and f"{linked} is a symbolic link" in result.output, result.output


def test_a_linked_history_given_itself_is_refused(site: Path, tmp_path: Path) -> None:
    copy = rewrite_history(site, tmp_path / "copy", lambda n, e: e)
    _move_out(copy, "history.jsonl", tmp_path / "elsewhere.jsonl")
    with pytest.raises(InputError, match=r"history\.jsonl is a symbolic link"):
        load_baseline(copy / "history.jsonl")


def test_an_old_history_path_through_a_link_is_refused(site: Path, tmp_path: Path) -> None:
    copy = rewrite_history(
        site, tmp_path / "copy", lambda n, e: {**e, "path": f"old/{e['version']}"}
    )
    (tmp_path / "outside").mkdir()
    for version in ("v9", "v10", "v11"):
        (copy / version).rename(tmp_path / "outside" / version)
    (copy / "old").symlink_to(tmp_path / "outside")
    with pytest.raises(InputError) as error:
        load_baseline(copy, gold_fingerprint=fingerprint(site, "v10"))
    assert "old is a symbolic link" in str(error.value)
