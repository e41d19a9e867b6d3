"""action/publish.sh: the site's branch checked out, published to, pushed, retried.

The origin is a bare repository on disk (file://), the reports come from the real CLI
and `reportgen publish` is the real one; a rejected push is a real one too: a wrapper
publishes another version to the origin between the checkout and the push, as a
second job merging at the same moment would.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
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


def stand_in_publish(tmp_path: Path, before: str = "") -> Path:
    """A fast `reportgen publish`: adds the report's folder name to history.jsonl and a
    folder of its own, as the real one does, so that jobs race on git alone; ``before``
    is shell run first (a racing job)."""
    command = tmp_path / "bin" / "reportgen"
    command.parent.mkdir(parents=True, exist_ok=True)
    command.write_text(
        f"#!/usr/bin/env bash\nset -eu\n{before}\n"
        '[ "$1" = publish ] && [ "$3" = --site ]\n'
        'version=$(basename "$2")\n'
        'mkdir -p "$4/$version" && cp "$2/report.json" "$4/$version/"\n'
        'printf \'{"version": "%s"}\\n\' "$version" >>"$4/history.jsonl"\n'
    )
    command.chmod(0o755)
    return command


@pytest.mark.slow  # it waits out a 4-second budget
@pytest.mark.hand_made_reports  # the stand-in publish's report.json is one
def test_rejections_until_the_time_budget_stop_with_exit_3(tmp_path: Path, origin: Path) -> None:
    for version in ("v1", "v2"):
        (tmp_path / version).mkdir()
        (tmp_path / version / "report.json").write_text(json.dumps({"version": version}))
    publish(tmp_path, tmp_path / "v1", stand_in_publish(tmp_path))
    report = tmp_path / "v2"
    # Before every attempt's publish, someone else moves the branch on.
    git("clone", "-q", "-b", "gh-pages", str(origin), str(tmp_path / "mover"))
    mover = f'git -C "{tmp_path / "mover"}" -c user.name=x -c user.email=x@x'
    racer = stand_in_publish(
        tmp_path / "racer", f"{mover} commit -q --allow-empty -m race && {mover} push -q"
    )
    started = time.monotonic()
    done, out = publish(
        tmp_path, report, racer, PUBLISH_TIMEOUT="4", PUBLISH_BACKOFF_MS="50",
        PUBLISH_BACKOFF_MAX_MS="200",
    )  # fmt: skip
    took = time.monotonic() - started
    assert done.returncode == 3, done.stdout + done.stderr
    attempts = int(re.findall(r"was rejected for 4s \((\d+) attempts: other jobs", done.stdout)[0])
    assert "Fix: re-run the job, or raise publish-timeout." in done.stdout
    # It is time, not a count, that stops it: it tried until the budget was (nearly) spent.
    assert done.stdout.count("::warning::Another job published") == attempts - 1 >= 1
    assert took >= 3.0  # bash counts whole seconds
    assert out == {} and history(origin) == ["v1"]


@pytest.mark.hand_made_reports  # the stand-in publish's report.json is one
@pytest.mark.slow  # 20 real publishers racing: ~45 s on 2 cores, minutes when they are busy
def test_twenty_concurrent_publishers_all_land(tmp_path: Path, origin: Path) -> None:
    command = stand_in_publish(tmp_path)
    jobs = []
    for number in range(20):
        job = tmp_path / f"job{number}"
        report = job / f"v{number}"
        report.mkdir(parents=True)
        (report / "report.json").write_text(json.dumps({"version": f"v{number}"}))
        (job / "temp").mkdir()
        (job / "output").touch()
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(job),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "RUNNER_TEMP": str(job / "temp"),
            "GITHUB_OUTPUT": str(job / "output"),
            "GITHUB_SERVER_URL": f"file://{tmp_path / 'server'}",
            "GITHUB_REPOSITORY": "acme/rag.git",
            "GITHUB_SHA": f"{number:040x}",
            "BRANCH": "gh-pages",
            "REPORT_DIR": str(report),
            "REPORTGEN": str(command),
            "REPORTGEN_PYTHON": sys.executable,
            "PUBLISH_BACKOFF_MS": "100",
            "PUBLISH_BACKOFF_MAX_MS": "2000",
        }
        started = subprocess.Popen(
            ["bash", str(PUBLISH)], env=env, cwd=job, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        jobs.append(started)
    results = [(job.wait(timeout=900), job.stdout.read() if job.stdout else "") for job in jobs]
    failed = [text for code, text in results if code != 0]
    assert failed == [], "\n\n".join(failed)
    assert sorted(history(origin)) == sorted(f"v{n}" for n in range(20))
    assert {f"v{n}/report.json" for n in range(20)} <= set(branch_files(origin))
    assert sum("::warning::Another job published" in text for _, text in results) > 0


def refusing_origin(origin: Path, message: str) -> None:
    """The origin answers every push as GitHub does to a rule: ``message`` and a refusal."""
    hook = origin / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\necho '{message}' >&2\nexit 1\n")
    hook.chmod(0o755)


@pytest.mark.hand_made_reports  # the stand-in publish's report.json is one
@pytest.mark.parametrize(
    ("message", "says"),
    [
        (
            "error: GH006: Protected branch update failed for refs/heads/gh-pages.",
            "::error::'gh-pages' is a protected branch: GitHub stopped this job's attempt to "
            "push to it. Fix: let github-actions push to it",
        ),
        (
            "error: GH013: Repository rule violations found for refs/heads/gh-pages.",
            "::error::A repository ruleset stopped this job's attempt to push to 'gh-pages'. "
            "Fix: exclude 'gh-pages' from the ruleset",
        ),
    ],
)
def test_a_rule_that_refuses_the_push_is_named_and_not_retried(
    tmp_path: Path, origin: Path, message: str, says: str
) -> None:
    report = tmp_path / "v1"
    report.mkdir()
    (report / "report.json").write_text('{"version": "v1"}')
    refusing_origin(origin, message)
    done, out = publish(tmp_path, report, stand_in_publish(tmp_path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert says in done.stdout
    assert "Another job published" not in done.stdout
    assert out == {}


def git_answering(tmp_path: Path, answers: list[str]) -> str:
    """A PATH whose `git push` fails as GitHub over HTTPS would, once per line of
    ``answers`` (then pushes for real): what 403 and 5xx look like from git."""
    folder = tmp_path / "fake-git"
    folder.mkdir()
    (folder / "answers").write_text("".join(line + "\n" for line in answers))
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True)
    wrapper = folder / "git"
    wrapper.write_text(
        "#!/usr/bin/env bash\n"
        'for arg in "$@"; do\n'
        '  if [ "$arg" = push ] && [ -s "' + str(folder / "answers") + '" ]; then\n'
        '    line=$(head -n 1 "' + str(folder / "answers") + '")\n'
        '    sed -i 1d "' + str(folder / "answers") + '"\n'
        '    echo "$line" >&2; exit 128\n'
        "  fi\n"
        "done\n"
        f'exec "{real.stdout.strip()}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"


@pytest.mark.hand_made_reports  # the stand-in publish's report.json is one
def test_a_token_that_may_not_push_is_named_and_not_retried(tmp_path: Path, origin: Path) -> None:
    report = tmp_path / "v1"
    report.mkdir()
    (report / "report.json").write_text('{"version": "v1"}')
    path = git_answering(
        tmp_path,
        [
            "remote: Permission to acme/rag.git denied to github-actions[bot]. fatal: unable to "
            "access 'https://github.com/acme/rag/': The requested URL returned error: 403"
        ],
    )
    done, _ = publish(tmp_path, report, stand_in_publish(tmp_path), PATH=path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "::error::The token may not push to 'gh-pages' (permission denied)." in done.stdout
    assert "Fix: give the job `permissions: contents: write`" in done.stdout


@pytest.mark.slow  # it waits out a 1-second budget
@pytest.mark.hand_made_reports  # the stand-in publish's report.json is one
def test_a_server_error_is_retried_then_said_to_be_the_servers(
    tmp_path: Path, origin: Path
) -> None:
    report = tmp_path / "v1"
    report.mkdir()
    (report / "report.json").write_text('{"version": "v1"}')
    error = (
        "error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502 "
        "fatal: the remote end hung up unexpectedly"
    )
    # Twice, then it works: retried, published.
    fast = {"PUBLISH_BACKOFF_MS": "50", "PUBLISH_TIMEOUT": "5"}
    path = git_answering(tmp_path, [error, error])
    done, out = publish(tmp_path, report, stand_in_publish(tmp_path), PATH=path, **fast)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("::warning::GitHub answered with a server error (5xx)") == 2
    assert "Published v1 on 'gh-pages' (attempt 3)." in done.stdout
    assert history(origin) == ["v1"]
    # Always: the budget runs out, and the error says it is the server.
    other = tmp_path / "again"
    other.mkdir()
    path = git_answering(other, [error] * 1000)
    done, out = publish(
        tmp_path, report, stand_in_publish(other), PATH=path, PUBLISH_TIMEOUT="1",
        PUBLISH_BACKOFF_MS="50", REPORT_DIR=str(report),
    )  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    assert "::error::GitHub's server kept failing (5xx) for 1s" in done.stdout
    assert "nothing is wrong on your side" in done.stdout
    assert out == {}


@pytest.mark.parametrize(
    "branch", ["gh-pages;touch x", "gh pages", "gh-pages\n::error::forged", "-x"]
)
def test_a_branch_name_git_cannot_use_stops_at_once_with_exit_2(
    tmp_path: Path, origin: Path, reports: dict[str, Path], branch: str
) -> None:
    started = time.monotonic()
    done, out = publish(
        tmp_path, reports["v1"], reportgen_command(tmp_path), BRANCH=branch, PUBLISH_TIMEOUT="60"
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert time.monotonic() - started < 10  # not retried for the time budget
    [line] = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert line.startswith("::error::baseline-branch ") and "is not a name git can give" in line
    assert "Fix: give the branch that holds the site" in line
    assert out == {} and not (tmp_path / "x").exists()
    assert not git("--git-dir", str(origin), "for-each-ref").strip()  # nothing pushed


@pytest.mark.slow  # three real publishes
def test_the_site_size_warns_as_an_annotation_and_a_site_past_the_limit_is_not_pushed(
    tmp_path: Path, origin: Path, reports: dict[str, Path]
) -> None:
    command = reportgen_command(tmp_path)
    done, _ = publish(tmp_path, reports["v1"], command, GITHUB_ACTIONS="true")
    assert done.returncode == 0, done.stdout + done.stderr
    # what Pages serves is counted: the checkout's .git (as large again) is not
    site = tmp_path / "runner-temp" / "reportgen-site"
    served = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and ".git" not in p.parts)
    budget = served * 1.2 / 1_000_000
    done, _ = publish(
        tmp_path, reports["v2"], command, GITHUB_ACTIONS="true",
        PUBLISH_ARGS=f"--max-site-mb\n{budget}\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    [warning] = [line for line in done.stdout.splitlines() if line.startswith("::warning")]
    assert warning.startswith("::warning title=reportgen publish::the site holds ")
    assert f"over --max-site-mb {budget:g}" in warning and "prune v1" in warning
    assert history(origin) == ["v1", "v2"]
    pushed = branch_files(origin)
    done, _ = publish(tmp_path, reports["v3"], command, PUBLISH_ARGS=f"--site-limit-mb\n{budget}\n")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "past --site-limit-mb" in done.stderr and "nothing was changed" in done.stderr
    assert "::error::reportgen publish stopped with exit code 2" in done.stdout
    assert history(origin) == ["v1", "v2"] and branch_files(origin) == pushed
