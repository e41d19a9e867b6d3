"""Every path `report --baseline SITE` and `publish` open, create, rename or remove lies
inside the folders they were given, as a Python audit hook sees it.

The hook runs in a child process (hooks cannot be removed) and records each path as
the kernel would reach it (links resolved): a site holding a link out of it (a version
folder, history.jsonl, the publish lock) must be refused without anything outside
being opened, created or emptied.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import reportgen
from reportgen.api import ReportOutputs, ReportSettings, demo_request, make_report
from reportgen.render.pages import templates_dir
from reportgen.site.lock import LOCK_NAME
from reportgen.site.publish import publish

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="the hook names descriptors through /proc/self/fd"
)
REPO = Path(__file__).resolve().parents[2]
"""This checkout, put first on the child's path: the interpreter may have another."""
EXAMPLE = Path(reportgen.__file__).parent / "examples" / "helpcentre"
HOOK = r"""
import os, sys

log = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
# event: (index of a path, index of its dir_fd or None), as CPython's audit events pass them
EVENTS = {
    "open": ((0, None),), "os.rename": ((0, 2), (1, 3)), "os.link": ((0, 2), (1, 3)),
    "os.remove": ((0, 1),), "os.rmdir": ((0, 1),), "os.mkdir": ((0, 2),),
    "os.symlink": ((1, 2),), "os.chmod": ((0, 2),), "os.chown": ((0, 3),),
    "os.utime": ((0, 3),), "os.truncate": ((0, None),), "os.listdir": ((0, None),),
    "os.scandir": ((0, None),), "shutil.copyfile": ((0, None), (1, None)),
    "shutil.copytree": ((0, None), (1, None)), "shutil.move": ((0, None), (1, None)),
    "shutil.rmtree": ((0, 1),),
}
busy = False


def where(path, dir_fd, nofollow=False):
    if isinstance(path, int):
        name = os.readlink(f"/proc/self/fd/{path}")
        return name if name.startswith("/") else None  # a pipe or a socket
    name = os.fsdecode(path)
    if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(name):
        name = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), name)
    if nofollow:  # the last component is not followed: only the folders are resolved
        return os.path.join(os.path.realpath(os.path.dirname(name)), os.path.basename(name))
    return os.path.realpath(name)


def hook(event, args):
    global busy
    if busy or event not in EVENTS:
        return
    busy = True
    try:
        for index, fd_index in EVENTS[event]:
            if index < len(args) and args[index] is not None:
                dir_fd = args[fd_index] if fd_index is not None else None
                flags = args[2] if event == "open" and isinstance(args[2], int) else 0
                name = where(args[index], dir_fd, bool(flags & os.O_NOFOLLOW))
                if name is not None:
                    os.write(log, f"{event}\t{name}\n".encode("utf-8", "surrogateescape"))
    finally:
        busy = False


sys.addaudithook(hook)
sys.argv = ["reportgen", *sys.argv[2:]]
from reportgen.cli import main

main()
"""


def python_roots() -> list[str]:
    """Python's own install and reportgen's code: read by any run of reportgen."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots |= {str(Path(reportgen.__file__).parent), str(templates_dir())}
    roots.add("/dev/null")
    return [os.path.realpath(root) for root in roots]


def audited(args: list[str], cwd: Path, allowed: list[Path]) -> tuple[int, list[str]]:
    """Run reportgen under the hook; its exit code and every path outside ``allowed``."""
    log = cwd / "audit.log"
    child = subprocess.run(
        [sys.executable, "-P", "-c", HOOK, str(log), *args],  # -P: the cwd is not on the path
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "PYTHONDONTWRITEBYTECODE": "1",
            "SOURCE_DATE_EPOCH": "1770000000",
        },
    )
    assert child.returncode in (0, 2), child.stderr
    roots = [*python_roots(), *(os.path.realpath(path) for path in allowed), "/proc/self"]
    lines = log.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    assert lines, "the hook recorded nothing"
    outside = []
    for line in lines:
        path = line.split("\t")[1]
        if path.startswith("/proc/") and path.split("/")[2].isdigit():
            continue  # the child's own /proc entry (numpy reads its memory maps)
        if not any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots):
            outside.append(line)
    return child.returncode, outside


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    with pytest.MonkeyPatch.context() as patch:
        for version, epoch in (("v1", "1760000000"), ("v2", "1761000000")):
            patch.setenv("SOURCE_DATE_EPOCH", epoch)
            folder = tmp_path_factory.mktemp(f"report-{version}")
            make_report(demo_request(ReportOutputs(folder), ReportSettings(version=version)))
            folders[version] = folder
    return folders


def site_of(reports: dict[str, Path], root: Path) -> Path:
    site = root / "site"
    publish(reports["v1"], site)
    return site


def report_args(site: Path, out: Path) -> list[str]:
    run = EXAMPLE / "runs" / "dense.jsonl"
    gold = EXAMPLE / "gold.jsonl"
    return ["report", str(gold), str(run), "--baseline", str(site), "--out", str(out), "-q"]


def test_report_with_a_site_baseline_stays_inside(reports: dict[str, Path], tmp_path: Path) -> None:
    site = site_of(reports, tmp_path)
    out = tmp_path / "out"
    code, outside = audited(report_args(site, out), tmp_path, [site, out, tmp_path / "audit.log"])
    assert code == 0 and outside == []
    report = json.loads((out / "report.json").read_text())
    assert report["baseline"]["version"] == "v1"  # the site was read, through the hook


@pytest.mark.parametrize("linked", ["v1", "history.jsonl"])
def test_a_link_out_of_the_baseline_site_is_not_followed(
    reports: dict[str, Path], tmp_path: Path, linked: str
) -> None:
    site = site_of(reports, tmp_path)
    outside = tmp_path / "outside" / linked
    outside.parent.mkdir()
    (site / linked).rename(outside)
    (site / linked).symlink_to(outside)
    out = tmp_path / "out"
    code, reached = audited(report_args(site, out), tmp_path, [site, out, tmp_path / "audit.log"])
    assert code == 2 and reached == []


def test_publish_stays_inside_the_site(reports: dict[str, Path], tmp_path: Path) -> None:
    site = site_of(reports, tmp_path)
    args = ["publish", str(reports["v2"]), "--site", str(site), "-q"]
    code, outside = audited(args, tmp_path, [site, reports["v2"], tmp_path / "audit.log"])
    assert code == 0 and outside == []
    assert (site / "v2" / "report.json").is_file()


@pytest.mark.parametrize("linked", [LOCK_NAME, "history.jsonl"])
def test_publish_does_not_go_through_a_link(
    reports: dict[str, Path], tmp_path: Path, linked: str
) -> None:
    site = site_of(reports, tmp_path)
    victim = tmp_path / "victim"
    if (site / linked).exists():
        (site / linked).rename(victim)  # a real history, kept outside
    else:
        victim.write_text("keep me\n")
    before = victim.read_bytes()
    (site / linked).symlink_to(victim)
    args = ["publish", str(reports["v2"]), "--site", str(site), "-q"]
    code, outside = audited(args, tmp_path, [site, reports["v2"], tmp_path / "audit.log"])
    assert code == 2 and outside == []
    assert victim.read_bytes() == before
    assert (site / linked).is_symlink() and not (site / "v2").exists()
