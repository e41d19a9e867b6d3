"""The site's lock never reaches outside the site: a link, a folder or a pipe at its
place is refused (exit 2), and the wait is always a finite number of seconds."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import ReportOutputs, ReportSettings, demo_request, make_report
from reportgen.cli import cli
from reportgen.errors import InputError, UsageError
from reportgen.site.lock import LOCK_NAME, site_lock
from reportgen.site.publish import publish


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    make_report(demo_request(ReportOutputs(folder), ReportSettings(version="v1")))
    return folder


def test_a_lock_that_is_a_link_is_refused_and_its_target_untouched(
    report: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / LOCK_NAME).symlink_to(victim)
    result = CliRunner().invoke(cli, ["publish", str(report), "--site", str(site)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: {site / LOCK_NAME}: a symbolic link")
    assert "Fix: remove it" in result.output
    assert victim.read_text() == "keep me\n"
    assert sorted(p.name for p in site.iterdir()) == [LOCK_NAME]  # nothing published


def test_a_dangling_link_creates_nothing_where_it_points(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    target = tmp_path / "elsewhere" / "created"
    target.parent.mkdir()
    (site / LOCK_NAME).symlink_to(target)
    with pytest.raises(InputError, match="a symbolic link"), site_lock(site, timeout=0):
        pass
    assert not target.exists()


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_lock_that_is_no_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    if kind == "folder":
        (site / LOCK_NAME).mkdir()
    else:
        os.mkfifo(site / LOCK_NAME)
    with pytest.raises(InputError, match="not a regular file") as caught, site_lock(site, 0):
        pass
    assert "Fix: remove it" in str(caught.value)
    assert (site / LOCK_NAME).exists()  # not ours to remove


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e999", "soon"])
def test_lock_timeout_takes_finite_seconds_only(report: Path, tmp_path: Path, value: str) -> None:
    site = tmp_path / "s"
    result = CliRunner().invoke(
        cli, ["publish", str(report), "--site", str(site), "--lock-timeout", value]
    )
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: --lock-timeout {value}: "), result.output
    assert "Fix: " in result.output and "Traceback" not in result.output
    assert not site.exists()


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_publish_refuses_a_wait_that_is_not_finite(
    report: Path, tmp_path: Path, value: float
) -> None:
    with pytest.raises(UsageError, match="--lock-timeout"):
        publish(report, tmp_path / "s", lock_timeout=value)
    assert not (tmp_path / "s").exists()
