"""action/publish.sh: the site's branch checked out, published to, pushed, retried.

The origin is a bare repository on disk (file://), the reports come from the real CLI
and `reportgen publish` is the real one; a rejected push is a real one too: a wrapper
publishes another version to the origin between the checkout and the push, as a
second job merging at the same moment would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PUBLISH = REPO / "action" / "publish.sh"
QUESTIONS = [f"q{i}" for i in range(4)]


def git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
    )  # fmt: skip
    return done.stdout


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Report folders v1, v2 and v3 of one tiny gold set, from the real CLI."""
    folder = tmp_path_factory.mktemp("reports")
    (folder / "gold.jsonl").write_text(
        "".join(json.dumps({"id": q, "gold": [f"c{q}"]}) + "\n" for q in QUESTIONS)
    )
    (folder / "run.jsonl").write_text(
        "".join(json.dumps({"id": q, "chunks": [f"c{q}"]}) + "\n" for q in QUESTIONS)
    )
    made = {}
    for version in ("v1", "v2", "v3"):
        subprocess.run(
            [sys.executable, "-m", "reportgen", "report", "gold.jsonl", "m=run.jsonl",
             "--out", version, "--version", version, "-q", "--format", "html,md"],
            cwd=folder, check=True, env={**os.environ, "PYTHONPATH": str(REPO)},
        )  # fmt: skip
        made[version] = folder / version
    return made


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """An empty bare repository, as GITHUB_SERVER_URL/GITHUB_REPOSITORY reach it."""
    bare = tmp_path / "server" / "acme" / "rag.git"
    bare.mkdir(parents=True)
    git("init", "-q", "--bare", str(bare))
    return bare


def reportgen_command(tmp_path: Path, before: str = "") -> Path:
    """`reportgen` running this checkout; ``before`` is shell run first (a racing job)."""
    command = tmp_path / "bin" / "reportgen"
    command.parent.mkdir(parents=True, exist_ok=True)
    command.write_text(
        f"#!/usr/bin/env bash\nset -e\n{before}\n"
        f'PYTHONPATH="{REPO}" exec "{sys.executable}" -m reportgen "$@"\n'
    )
    command.chmod(0o755)
    return command


def publish(
    tmp_path: Path, report: Path, command: Path, **extra: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    output = tmp_path / "output"
    output.write_text("")
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_SERVER_URL": f"file://{tmp_path / 'server'}",
        "GITHUB_REPOSITORY": "acme/rag.git",
        "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
        "BRANCH": "gh-pages",
        "TOKEN": "",
        "REPORT_DIR": str(report),
        "PUBLISH_ARGS": "",
        "REPORTGEN": str(command),
        "REPORTGEN_PYTHON": sys.executable,
        **extra,
    }
    done = subprocess.run(
        ["bash", str(PUBLISH)], env=env, capture_output=True, text=True, check=False, cwd=tmp_path
    )
    lines = output.read_text().splitlines()
    return done, dict(line.split("=", 1) for line in lines if line)


def branch_files(origin: Path) -> list[str]:
    return git("--git-dir", str(origin), "ls-tree", "-r", "--name-only", "gh-pages").split()


def history(origin: Path) -> list[str]:
    text = git("--git-dir", str(origin), "show", "gh-pages:history.jsonl")
    return [json.loads(line)["version"] for line in text.splitlines() if line.strip()]


def test_the_first_publication_starts_the_branch_and_the_next_one_adds_to_it(
    tmp_path: Path, origin: Path, reports: dict[str, Path]
) -> None:
    command = reportgen_command(tmp_path)
    first, out = publish(tmp_path, reports["v1"], command)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "No branch 'gh-pages' yet: this publication starts it." in first.stdout
    assert out == {
        "site-dir": str(tmp_path / "runner-temp" / "reportgen-site"),
        "published-version": "v1",
    }
    assert (Path(out["site-dir"]) / "v1" / "index.html").is_file()
    second, _ = publish(tmp_path, reports["v2"], command)
    assert second.returncode == 0, second.stdout + second.stderr
    assert history(origin) == ["v1", "v2"]
    files = branch_files(origin)
    assert {".nojekyll", "index.html", "history.jsonl", "v1/index.html", "v2/index.html"} <= set(
        files
    )
    log = git("--git-dir", str(origin), "log", "--format=%an|%s", "gh-pages").splitlines()
    assert log == [
        "github-actions[bot]|Publish report v2 (0123456789abcdef0123456789abcdef01234567)",
        "github-actions[bot]|Publish report v1 (0123456789abcdef0123456789abcdef01234567)",
    ]


@pytest.mark.slow  # several real publishes, and the retries wait
def test_a_push_rejected_because_another_job_published_first_is_redone_on_top(
    tmp_path: Path, origin: Path, reports: dict[str, Path]
) -> None:
    publish(tmp_path, reports["v1"], reportgen_command(tmp_path))
    # Once, between this job's checkout and its push, another job publishes v3.
    other = tmp_path / "other"
    racer = reportgen_command(
        other,
        f'if [ ! -e "{other}/done" ]; then touch "{other}/done"; '
        f'RUNNER_TEMP="{other}" GITHUB_OUTPUT=/dev/null REPORT_DIR="{reports["v3"]}" '
        f'REPORTGEN="{reportgen_command(other / "plain")}" bash "{PUBLISH}" >/dev/null; fi',
    )
    done, out = publish(tmp_path, reports["v2"], racer)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::warning::Another job published to 'gh-pages' first; publishing again" in done.stdout
    assert "Published v2 on 'gh-pages' (attempt 2)." in done.stdout
    assert history(origin) == ["v1", "v3", "v2"]
    assert {"v1/index.html", "v2/index.html", "v3/index.html"} <= set(branch_files(origin))
    assert out["published-version"] == "v2"


@pytest.mark.slow  # several real publishes, and the retries wait
def test_five_rejections_stop_with_exit_3(
    tmp_path: Path, origin: Path, reports: dict[str, Path]
) -> None:
    publish(tmp_path, reports["v1"], reportgen_command(tmp_path))
    # Before every attempt's publish, someone else moves the branch on.
    mover = tmp_path / "mover"
    git("clone", "-q", "-b", "gh-pages", str(origin), str(mover))
    racer = reportgen_command(
        tmp_path / "racer",
        f'git -C "{mover}" -c user.name=x -c user.email=x@x commit -q --allow-empty -m race '
        f'&& git -C "{mover}" push -q origin gh-pages',
    )
    done, out = publish(tmp_path, reports["v2"], racer, PUBLISH_ARGS="")
    assert done.returncode == 3
    assert "::error::The push to 'gh-pages' was rejected 5 times" in done.stdout
    assert done.stdout.count("::warning::Another job published") == 4
    assert out == {} and history(origin) == ["v1"]


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ({"BRANCH": ""}, "::error::publish: true needs baseline-branch"),
        ({"REPORT_DIR": "/nonexistent"}, "::error::There is no report to publish"),
        (
            {"PUBLISH_ARGS": "--no-such-option"},
            "::error::reportgen publish stopped with exit code 2",
        ),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path, origin: Path, reports: dict[str, Path], extra: dict[str, str], says: str
) -> None:
    done, out = publish(tmp_path, reports["v1"], reportgen_command(tmp_path), **extra)
    assert done.returncode == 2, done.stdout + done.stderr
    assert says in done.stdout
    assert out == {}
    assert git("--git-dir", str(origin), "branch", "--list") == ""
