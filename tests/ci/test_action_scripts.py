"""The action's scripts, run as GitHub would run them: inputs in INPUT_*, outputs to files.

A stand-in `reportgen` records its arguments and exits with a chosen code, to test how
inputs become arguments and how exit codes become the gate; the real CLI then runs once
on the bundled example.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ci.action_runner import read_outputs

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "action"
SHA = "0123456789abcdef0123456789abcdef01234567"


def outputs(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT as the runner reads it (NAME=VALUE lines and NAME<<DELIMITER blocks)."""
    return read_outputs(path)


def run_script(
    name: str, tmp_path: Path, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    out = tmp_path / "github_output"
    out.touch()
    full = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(out),
        "REPORTGEN_PYTHON": sys.executable,
        **env,
    }
    (tmp_path / "runner").mkdir(exist_ok=True)
    done = subprocess.run(
        ["bash", str(ACTION / name)],
        cwd=tmp_path,
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )
    return done, outputs(out)


@pytest.fixture
def fake_reportgen(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """Writes its arguments one per line to argv.txt, a report folder (its report.json
    is $FAKE_REPORT when given), and exits $FAKE_EXIT."""
    request.applymarker(pytest.mark.hand_made_reports)  # its report.json is a stand-in
    script = tmp_path / "fake-reportgen"
    script.write_text(
        "#!/usr/bin/env bash\n"
        'printf "%s\\n" "$@" > "$RUNNER_TEMP/argv.txt"\n'
        'report=${FAKE_REPORT:-}; [ -n "$report" ] || report=\'{"version": "v9"}\'\n'
        'mkdir -p out && printf "%s" "$report" > out/report.json\n'
        "echo '<!-- reportgen -->' > out/summary.md && echo '<html>' > out/index.html\n"
        'exit "${FAKE_EXIT:-0}"\n'
    )
    script.chmod(0o755)
    return script


def inputs(**values: str) -> dict[str, str]:
    base = {"INPUT_GOLD": "gold set.jsonl", "INPUT_RUNS": "a=runs/a.trec", "INPUT_OUT": "out"}
    base.update({"INPUT_" + key.upper(): value for key, value in values.items()})
    return base


def test_inputs_become_arguments(tmp_path: Path, fake_reportgen: Path) -> None:
    env = inputs(
        runs="  bm25=runs/bm 25.trec\n\n dense=runs/dense.jsonl  \n",
        verdicts="verdicts.jsonl",
        k="1,5",
        context_k="5",
        baseline="site",
        on_gold_change="intersect",
        baseline_commit="b" * 40,
        baseline_fallback="newest",
        commit="c" * 40,
        junit="junit.xml",
        min="recall@5=0.8\nhit@5=0.9\n",
        max_drop="mrr@5=0.02",
        significant_only="true",
        version="pr-7",
        report_url="https://github.com/o/r/actions/runs/9",
        args="--trec-eval\n--relevance-threshold\n2",
        github_summary="true",
    )
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 0, done.stderr
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert argv == [
        "report", "gold set.jsonl", "bm25=runs/bm 25.trec", "dense=runs/dense.jsonl",
        "--out", "out", "--verdicts", "verdicts.jsonl", "--k", "1,5", "--context-k", "5",
        "--baseline", "site", "--on-gold-change", "intersect", "--baseline-commit", "b" * 40,
        "--baseline-fallback", "newest", "--commit", "c" * 40, "--junit", "junit.xml",
        "--version", "pr-7",
        "--report-url", "https://github.com/o/r/actions/runs/9",
        "--min", "recall@5=0.8", "--min", "hit@5=0.9", "--max-drop", "mrr@5=0.02",
        "--significant-only", "--github-summary", "--trec-eval", "--relevance-threshold", "2",
    ]  # fmt: skip


def test_empty_inputs_add_nothing(tmp_path: Path, fake_reportgen: Path) -> None:
    # on-gold-change (the action's default: intersect) and the baseline's commit only
    # matter with a baseline; a push that starts a branch has an all-zero "before".
    env = inputs(
        github_summary="false", significant_only="false", on_gold_change="intersect",
        baseline_commit="b" * 40,
    )  # fmt: skip
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 0, done.stderr
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert argv == ["report", "gold set.jsonl", "a=runs/a.trec", "--out", "out"]


def test_input_text_is_never_run_as_code(tmp_path: Path, fake_reportgen: Path) -> None:
    env = inputs(runs="$(touch pwned)\n`touch pwned`", version="x; touch pwned")
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "pwned").exists()
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert "$(touch pwned)" in argv and "x; touch pwned" in argv


def test_outputs_after_a_passed_gate(tmp_path: Path, fake_reportgen: Path) -> None:
    done, out = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **inputs()})
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out"
    assert out == {
        "report-dir": str(folder),
        "gate": "passed",
        "summary-path": str(folder / "summary.md"),
        "html-path": str(folder / "index.html"),
        "version": "v9",
        "commit": "",
    }


@pytest.mark.parametrize(
    ("fail_on_gate", "code"),
    [("true", 1), ("false", 0), ("True", 1), ("FALSE", 0), (" false\n", 0)],
)
def test_a_failed_gate(tmp_path: Path, fake_reportgen: Path, fail_on_gate: str, code: int) -> None:
    env = {"REPORTGEN": str(fake_reportgen), "FAKE_EXIT": "1", **inputs(fail_on_gate=fail_on_gate)}
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == code
    assert out["gate"] == "failed"
    assert "The quality gate failed" in done.stdout


@pytest.mark.parametrize(
    ("code", "says"),
    [
        (2, "::error::reportgen stopped with exit code 2 (bad input or usage"),
        (3, "::error::reportgen stopped with exit code 3 (an internal error"),
        (137, "::error::reportgen stopped with exit code 137"),
    ],
)
def test_no_report_stops_without_outputs(
    tmp_path: Path, fake_reportgen: Path, code: int, says: str
) -> None:
    env = {"REPORTGEN": str(fake_reportgen), "FAKE_EXIT": str(code), **inputs()}
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == code
    assert out == {}
    assert says in done.stdout


def test_booleans_are_read_in_any_case(tmp_path: Path, fake_reportgen: Path) -> None:
    env = inputs(github_summary="False", significant_only="TRUE", comment="True", publish="false")
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 0, done.stdout + done.stderr
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert "--significant-only" in argv and "--github-summary" not in argv


@pytest.mark.parametrize("name", ["fail_on_gate", "github_summary", "comment", "publish"])
def test_a_boolean_that_is_neither_true_nor_false_stops(
    tmp_path: Path, fake_reportgen: Path, name: str
) -> None:
    """ "yes" would otherwise be read as false: a failed gate passing the step unseen."""
    done, out = run_script(
        "report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **inputs(**{name: "yes"})}
    )
    assert done.returncode == 2 and out == {}
    input_name = name.replace("_", "-")
    assert f"::error::The action's input {input_name} is 'yes': it must be true or false." in (
        done.stdout
    )
    assert not (tmp_path / "runner" / "argv.txt").exists()


def test_a_line_break_in_out_cannot_add_outputs(tmp_path: Path, fake_reportgen: Path) -> None:
    env = inputs(out="out\nhtml-path=/etc/passwd")
    done, out = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 2 and out == {}
    assert "::error::The action's input out holds a line break" in done.stdout


def test_outputs_are_written_so_no_value_can_start_a_line(
    tmp_path: Path, fake_reportgen: Path
) -> None:
    """Each output is a NAME<<DELIMITER block, whatever its value holds."""
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **inputs()})
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "github_output").read_text()
    assert re.fullmatch(r"(([\w-]+)<<(ghadelimiter_\d+)\n[^\n]*\n\3\n)+", text), text


def test_a_gold_set_change_is_said_in_a_notice(tmp_path: Path, fake_reportgen: Path) -> None:
    change = {
        "changes_detected": True,
        "shared_questions": 4,
        "left_out": {
            "only_in_baseline": {"count": 1},
            "only_in_this_report": {"count": 2},
            "changed": {"count": 0},
        },
    }
    report = {"version": "v9", "baseline": {"version": "v1", "gold_change": change}}
    env = {"REPORTGEN": str(fake_reportgen), "FAKE_REPORT": json.dumps(report), **inputs()}
    done, _ = run_script("report.sh", tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "::notice::The gold set changed since baseline v1: compared on the 4 questions both "
        "share (left out: 1 removed, 2 added, 0 changed).\n" in done.stdout
    )


def test_the_real_cli_on_the_bundled_example(tmp_path: Path) -> None:
    shim = tmp_path / "reportgen"
    shim.write_text(f'#!/usr/bin/env bash\nexec "{sys.executable}" -m reportgen "$@"\n')
    shim.chmod(0o755)
    example = REPO / "reportgen" / "examples" / "helpcentre"
    step_summary = tmp_path / "step_summary.md"
    env = {
        "REPORTGEN": str(shim),
        "PYTHONPATH": str(REPO),
        "GITHUB_SHA": SHA,
        "GITHUB_STEP_SUMMARY": str(step_summary),
        "GIT_DIR": os.devnull,
        "INPUT_GOLD": str(example / "gold.jsonl"),
        "INPUT_RUNS": f"keyword={example / 'runs' / 'keyword.trec'}\n"
        f"rerank={example / 'runs' / 'rerank.jsonl'}\n",
        "INPUT_OUT": "reportgen-report",
        "INPUT_K": "1,5",
        "INPUT_VERDICTS": str(example / "verdicts.jsonl"),
        "INPUT_GITHUB_SUMMARY": "true",
        "INPUT_MAX_DROP": "recall@5=0.02",
        "INPUT_REPORT_URL": "https://github.com/o/r/actions/runs/9",
    }
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out["gate"] == "passed"
    # the first run: no baseline, so the max-drop rule is skipped, with a notice
    assert "\n::notice::No baseline, so 1 max-drop rule was skipped and passed: " in done.stdout
    assert "· [full report](https://github.com/o/r/actions/runs/9)\n" in step_summary.read_text()
    assert out["version"] == "0123456"
    report = json.loads((Path(out["report-dir"]) / "report.json").read_text())
    assert report["version"] == "0123456"
    assert report["attribution"]["rerank"]["k"] == 5
    assert Path(out["html-path"]).read_text().lstrip().lower().startswith("<!doctype html")
    assert step_summary.read_text() == Path(out["summary-path"]).read_text()
    assert "rerank, top 5:" in done.stdout


@pytest.fixture
def site_remote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Path:
    """A repository with a gh-pages branch holding a published site, served as file://."""
    request.applymarker(pytest.mark.hand_made_reports)  # its v1/report.json is a stand-in
    monkeypatch.delenv("GIT_DIR")
    work = tmp_path / "work"
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    work.mkdir()
    subprocess.run([*git, "init", "-q", "-b", "gh-pages"], check=True)
    (work / "history.jsonl").write_text('{"version": "v1"}\n')
    (work / "v1").mkdir()
    (work / "v1" / "report.json").write_text("{}\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "v1"], check=True)
    return work


def fetch_env(remote: Path, branch: str) -> dict[str, str]:
    return {
        "BRANCH": branch,
        "TOKEN": "",
        "GITHUB_SERVER_URL": f"file://{remote.parent}",
        "GITHUB_REPOSITORY": remote.name,
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def test_the_published_site_becomes_the_baseline(tmp_path: Path, site_remote: Path) -> None:
    done, out = run_script("fetch-site.sh", tmp_path, fetch_env(site_remote, "gh-pages"))
    assert done.returncode == 0, done.stderr
    site = Path(out["site"])
    assert (site / "history.jsonl").read_text() == '{"version": "v1"}\n'
    assert (site / "v1" / "report.json").exists()
    assert not (site / ".git").exists()


def test_no_site_yet_is_a_notice_not_a_failure(tmp_path: Path, site_remote: Path) -> None:
    done, out = run_script("fetch-site.sh", tmp_path, fetch_env(site_remote, "pages-data"))
    assert done.returncode == 0, done.stderr
    assert out == {}
    assert "::notice::No branch 'pages-data' yet" in done.stdout


@pytest.mark.parametrize(
    ("code", "meaning"),
    [
        ("2", "bad input or usage"),
        ("3", "an internal error, a bug in reportgen"),
        ("130", "interrupted"),
    ],
)
def test_each_failure_code_is_named(
    tmp_path: Path, fake_reportgen: Path, code: str, meaning: str
) -> None:
    env = {"REPORTGEN": str(fake_reportgen), "FAKE_EXIT": code, **inputs()}
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == int(code) and out == {}
    assert f"::error::reportgen stopped with exit code {code} ({meaning}" in done.stdout


def test_an_unreadable_repository_stops_instead_of_skipping_the_baseline(
    tmp_path: Path, site_remote: Path
) -> None:
    """Going on without the baseline would silently pass every max-drop rule."""
    env = {**fetch_env(site_remote, "gh-pages"), "GITHUB_REPOSITORY": "no-such-repository"}
    done, out = run_script("fetch-site.sh", tmp_path, env)
    assert done.returncode == 3
    assert out == {}
    assert "::error::Cannot read file://" in done.stdout and "::notice::" not in done.stdout


@pytest.mark.parametrize("branch", ["gh-pages;touch x", "-x", "gh pages\n::error::forged"])
def test_a_branch_name_git_cannot_use_stops_the_baseline_fetch_with_exit_2(
    tmp_path: Path, site_remote: Path, branch: str
) -> None:
    done, out = run_script("fetch-site.sh", tmp_path, fetch_env(site_remote, branch))
    assert done.returncode == 2 and out == {}
    [line] = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert line.startswith("::error::baseline-branch ") and "Fix: give the branch" in line


NEVER_EMPTY = {"args"}
"""Arrays that always hold something when expanded (report.sh's args starts with two)."""


@pytest.mark.parametrize("script", sorted(ACTION.glob("*.sh")), ids=lambda path: path.name)
def test_no_empty_array_breaks_bash_3_2(script: Path) -> None:
    """macOS runners have bash 3.2, where "${a[@]}" of an empty array fails under set -u
    (e.g. an empty publish-args): such arrays are expanded as ${a[@]+"${a[@]}"}."""
    text = script.read_text()
    guarded = re.sub(r'\$\{(\w+)\[@\]\+"\$\{\1\[@\]\}"\}', "", text)
    bare = set(re.findall(r"\$\{(\w+)\[@\]\}", guarded)) - NEVER_EMPTY
    assert bare == set(), f"{script.name}: {bare}"
    assert "${" + "args[@]" not in text or text.index("args=(report") < text.index('"${args[@]}"')


def test_the_commit_measured_is_the_one_checked_out(tmp_path: Path, fake_reportgen: Path) -> None:
    """On pull_request, actions/checkout checks out refs/pull/N/merge: GITHUB_SHA, the merge
    commit GitHub builds. A job that checks out another commit records that one."""
    env = {"REPORTGEN": str(fake_reportgen), "GITHUB_SHA": SHA, **inputs()}
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert argv[argv.index("--commit") + 1] == SHA and out["commit"] == SHA
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    clean = {key: value for key, value in os.environ.items() if key != "GIT_DIR"}
    subprocess.run([*git, "init", "-q"], check=True, env=clean)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True, env=clean)
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], check=True, env=clean, capture_output=True, text=True
    ).stdout.strip()
    (tmp_path / "github_output").write_text("")
    done, out = run_script("report.sh", tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out["commit"] == head != SHA


def test_an_all_zero_baseline_commit_is_none(tmp_path: Path, fake_reportgen: Path) -> None:
    """A push that creates a branch has github.event.before = 0000000...: no commit."""
    env = inputs(baseline="site", baseline_commit="0" * 40)
    done, _ = run_script("report.sh", tmp_path, {"REPORTGEN": str(fake_reportgen), **env})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--baseline-commit" not in (tmp_path / "runner" / "argv.txt").read_text()


@pytest.mark.parametrize("forced", [True, False])
def test_a_push_whose_before_no_branch_holds_takes_the_first_parent(
    tmp_path: Path, fake_reportgen: Path, forced: bool
) -> None:
    """After a force-push, `before` is orphaned: the measured commit's first parent is the
    baseline commit, said in a notice; an unforced push keeps `before` while it exists."""
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    clean = {key: value for key, value in os.environ.items() if key != "GIT_DIR"}
    subprocess.run([*git, "init", "-q"], check=True, env=clean)
    commits = []
    for message in ("a0", "c"):
        subprocess.run(
            [*git, "commit", "-q", "--allow-empty", "-m", message], check=True, env=clean
        )
        commits.append(
            subprocess.run(
                [*git, "rev-parse", "HEAD"], check=True, env=clean, capture_output=True, text=True
            ).stdout.strip()
        )
    gone = "b" * 40  # the old tip the force-push removed: in no branch, not in the clone
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"before": gone, "forced": forced}))
    env = {
        "REPORTGEN": str(fake_reportgen),
        "GITHUB_EVENT_NAME": "push",
        "GITHUB_EVENT_PATH": str(event),
        **inputs(baseline="site", baseline_commit=gone),
    }
    done, _ = run_script("report.sh", tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert argv[argv.index("--baseline-commit") + 1] == commits[0]
    reason = "this push was forced" if forced else "no branch holds it any more"
    [notice] = [line for line in done.stdout.splitlines() if line.startswith("::notice::")]
    assert notice.startswith(f"::notice::A forced push: {reason}")
    assert f"so the commit before it ({gone}) is no baseline" in notice
    assert f"the version of {commits[0]}, the first parent" in notice
    # a push whose `before` the clone holds, unforced: `before` stays the baseline commit
    event.write_text(json.dumps({"before": commits[0], "forced": False}))
    (tmp_path / "github_output").write_text("")
    done, _ = run_script("report.sh", tmp_path, {**env, "INPUT_BASELINE_COMMIT": commits[0]})
    argv = (tmp_path / "runner" / "argv.txt").read_text().splitlines()
    assert argv[argv.index("--baseline-commit") + 1] == commits[0]
    assert "A forced push" not in done.stdout
