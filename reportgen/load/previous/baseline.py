"""A previous report to compare against: its report.json and its per-question values.

The baseline may be given as the report.json itself, the folder it sits in (a report
folder, or one version folder of a site), a published site folder, or that site's
history.jsonl. From a site, the version compared with is the newest whose gold
fingerprint is this report's (numbers on another gold set cannot be compared); when
none is, the newest, and ``--on-gold-change`` then decides. Newest is by commit
ancestry where git knows the versions' commits, by creation time for the others
(reportgen.core.git.newest_first). A label (``--baseline-version``) picks one instead;
a commit (``--baseline-commit``) picks the version published for it, else for its
nearest first-parent ancestor that has one, never a version of another line of work.
Versions pruned by ``publish --keep`` have no folder left and are never chosen.
Histories written before ``publish`` recorded gold sets, or with a ``path`` per entry,
read the same. Without a history, every ``*/report.json`` of the folder is a version.

Comparisons are paired by question, so the per-question file written beside
report.json (per_question.parquet or per_question.csv) is required.

Nothing read from a site leaves it: ``publish`` writes no links, so a symbolic link
on the way to a file read (history.jsonl, a version folder, an old history's
``path``, report.json, the per-question file) is refused rather than followed to a
report.json somewhere else on the machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, Literal

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.git import first_parent_chain, is_ancestor, newest_first, same_commit
from reportgen.core.records import dataclass
from reportgen.errors import InputError, UsageError
from reportgen.load.formats.files import check_file
from reportgen.load.previous.per_question import read_per_question
from reportgen.load.previous.published import (
    HISTORY_FIX,
    current_fingerprint,
    first_link,
    history_entries,
    read_report,
    report_fingerprint,
)

REQUIRED_KEYS = ("version", "created", "settings", "gold", "runs", "gold.fingerprint")
BASELINE_FIX = "give a previous report's folder (report.json with per_question.csv beside it)"
LINK_FIX = (
    "replace the link with what it points to (publish writes no links), or give a report folder"
)
HISTORY = "history.jsonl"
LABELS_SHOWN = 20

Rule = Literal["requested", "same_gold", "newest", "commit", "ancestor"]
BaselineFallback = Literal["newest"]
BASELINE_FALLBACKS: tuple[BaselineFallback, ...] = ("newest",)


@dataclass(frozen=True)
class SiteVersion:
    """One version a site holds, as its history (or its report.json) tells it."""

    version: str
    created: str
    folder: Path
    fingerprint: str | None
    """None when an old history does not say: then its report.json is read."""
    pruned: bool
    line: int | None
    """Its line in history.jsonl (None for a site without a history)."""
    commit: str | None = None
    """The commit it measured, when its report recorded one."""
    place: int | None = None
    """Its place in the index (0 = newest) as the last publish recorded it, if listed."""


@dataclass(frozen=True)
class Baseline:
    """A previous report: the dict it wrote and its per-question values."""

    path: Path
    """The report.json that was read."""
    report: dict[str, Any]
    per_question: pl.DataFrame
    selection: dict[str, Any] | None = None
    """How the version was chosen from a site; None when it was given directly."""


@dataclass(frozen=True)
class ByCommit:
    """Pick a site's version by commit: ``commit``'s, else its nearest first-parent
    ancestor's (git reads the ancestry in the working directory's repository);
    ``fallback`` "newest" when git does not know it or none has a version."""

    commit: str
    fallback: BaselineFallback | None = None


def load_baseline(
    path: str | Path,
    *,
    gold_fingerprint: str | None = None,
    version: str | None = None,
    commit: str | None = None,
    fallback: BaselineFallback | None = None,
) -> Baseline:
    """The baseline that ``path`` stands for.

    ``gold_fingerprint`` (this report's gold set) steers the choice among a site's
    versions; ``version`` names one; ``commit`` picks one by ancestry (``fallback``:
    what to do when it cannot).
    """
    by_commit = None if commit is None else ByCommit(commit, fallback)
    with reading(Path(path)):
        report_path, selection = find_report(Path(path), gold_fingerprint, version, by_commit)
        if selection is not None:
            site = Path(selection["site"])
            unlinked(site, per_question_path(report_path), site)
        report = _read_report(report_path)
        if version is not None and str(report["version"]) != version:
            raise InputError(
                report_path,
                f"this report is version {report['version']!r}, not {version!r} "
                "as --baseline-version asks",
                "give the site folder with --baseline to pick a version from it, "
                "or drop --baseline-version",
            )
        if by_commit is not None and selection is None:
            _check_given_report(report_path, report, by_commit)
        per_question = _read_per_question(report_path)
    return Baseline(report_path, report, per_question, selection)


def _check_given_report(path: Path, report: dict[str, Any], by_commit: ByCommit) -> None:
    """A report given directly with --baseline-commit must not measure another line of
    work: refused when git says its commit is no ancestor (unknown commits pass)."""
    commit = _commit_of(report)
    if commit is None or by_commit.fallback is not None:
        return
    if is_ancestor(commit, by_commit.commit) is False:
        raise InputError(
            path,
            f"this report measured commit {commit}, which is not --baseline-commit "
            f"{by_commit.commit} nor one of its ancestors",
            "give the report of the base commit (or the site: --baseline SITE picks it), "
            "or add --baseline-fallback newest to compare with it anyway",
        )


def find_report(
    path: Path,
    gold_fingerprint: str | None = None,
    version: str | None = None,
    by_commit: ByCommit | None = None,
) -> tuple[Path, dict[str, Any] | None]:
    """The report.json that ``path`` stands for, and how it was chosen from a site."""
    if path.is_file():
        if path.suffix == ".jsonl":
            site = path.parent
            unlinked(site, path, path)
            versions = _history_versions(site, path)
            return _choose(path, site, versions, gold_fingerprint, version, by_commit)
        return path, None
    if not path.exists():
        raise InputError(path, "no such file or folder", BASELINE_FIX)
    if not path.is_dir():
        check_file(path)  # a pipe or a device: said so
    if (path / "report.json").is_file():
        return path / "report.json", None
    if (path / HISTORY).is_file():
        versions = _history_versions(path, unlinked(path, path / HISTORY, path))
    else:
        versions = _folder_versions(path)
    if not versions:
        raise InputError(
            path,
            "no report.json here, nor a published site (history.jsonl or */report.json)",
            BASELINE_FIX,
        )
    return _choose(path, path, versions, gold_fingerprint, version, by_commit)


def unlinked(site: Path, path: Path, blame: Path, line: int | None = None) -> Path:
    """``path`` (inside ``site``), refused if any step below the site is a link."""
    link = first_link(site, path)
    if link is not None:
        raise InputError(
            blame,
            f"{link.relative_to(site).as_posix()} is a symbolic link; a baseline is "
            f"read only from inside the site {site}",
            LINK_FIX,
            line,
        )
    return path


def _history_versions(site: Path, history: Path) -> list[SiteVersion]:
    """The last publication of each version in the history (a re-publish replaces)."""
    last: dict[str, tuple[int, dict[str, Any]]] = {}
    for number, entry in history_entries(history, ("version", "created")):
        last[entry["version"]] = (number, entry)
    places = _recorded_order(last.values())
    versions = []
    for label, (number, entry) in last.items():
        folder = _entry_folder(site, history, number, entry)
        versions.append(
            SiteVersion(
                version=label,
                created=str(entry["created"]),
                folder=folder,
                fingerprint=current_fingerprint(entry, site, folder),
                pruned=bool(entry.get("pruned")),
                line=number,
                commit=_commit_of(entry),
                place=places.get(label),
            )
        )
    if not versions:
        raise InputError(history, "the history is empty", "publish a version first")
    return versions


def _recorded_order(lines: Iterable[tuple[int, dict[str, Any]]]) -> dict[str, int]:
    """Label -> place (0 = newest) in the order the newest publish recorded (``order``,
    the index's, by commit ancestry); empty for histories written before it did."""
    recorded = [
        order
        for _, entry in sorted(lines, key=lambda item: item[0])
        if not entry.get("pruned")
        and isinstance(order := entry.get("order"), list)
        and all(isinstance(label, str) for label in order)
    ]
    return {label: place for place, label in enumerate(recorded[-1])} if recorded else {}


def _entry_folder(site: Path, history: Path, number: int, entry: dict[str, Any]) -> Path:
    """The version's folder: ``path`` in older histories (checked to stay inside the
    site), else the folder named by the label."""
    given = entry.get("path")
    if given is None:
        return site / str(entry["version"])
    relative = PurePosixPath(str(given))
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise InputError(
            history,
            f"the entry's path {str(given)!r} leads outside the site",
            HISTORY_FIX,
            number,
        )
    folder = site.joinpath(*relative.parts)
    return folder.parent if relative.name == "report.json" else folder


def _folder_versions(site: Path) -> list[SiteVersion]:
    versions = []
    for path in sorted(site.glob("*/report.json")):
        report = _read_report(unlinked(site, path, site))
        versions.append(
            SiteVersion(
                version=str(report["version"]),
                created=str(report["created"]),
                folder=path.parent,
                fingerprint=report_fingerprint(report),
                pruned=False,
                line=None,
                commit=_commit_of(report),
            )
        )
    return versions


def _commit_of(entry: dict[str, Any]) -> str | None:
    commit = entry.get("commit")
    return commit.lower() if isinstance(commit, str) and commit else None


def _fingerprint(site: Path, entry: SiteVersion) -> str | None:
    if entry.fingerprint is not None:
        return entry.fingerprint
    report = entry.folder / "report.json"
    if not report.is_file():
        return None
    return report_fingerprint(_read_report(unlinked(site, report, site / HISTORY, entry.line)))


def _choose(
    given: Path,
    site: Path,
    versions: Sequence[SiteVersion],
    gold_fingerprint: str | None,
    wanted: str | None,
    by_commit: ByCommit | None = None,
) -> tuple[Path, dict[str, Any]]:
    """The version to compare with: the one asked for (by label or by commit), else the
    newest on this gold set, else the newest; pruned versions have no folder and are
    passed over."""
    newest = newest_first(
        [entry for entry in versions if not entry.pruned],
        # Where git cannot order them (a shallow clone), the order the site's index
        # showed at the last publish (recorded in its line), then creation time.
        lambda entry: (
            (1, -entry.place, "", "")
            if entry.place is not None
            else (0, entry.created, entry.line or 0, str(entry.folder))
        ),
        lambda entry: entry.commit,
    )
    rule: Rule
    note = None
    found = None if by_commit is None else _by_commit(given, versions, newest, by_commit)
    if isinstance(found, tuple):
        chosen, rule = found
    elif wanted is not None:
        chosen = _requested(given, versions, newest, wanted)
        rule = "requested"
    else:
        note = found
        if not newest:
            raise InputError(
                given,
                "every version of this site was pruned (publish --keep): none has a folder left",
                "publish a version first, or give a report folder with --baseline",
            )
        same_gold = [entry for entry in newest if _fingerprint(site, entry) == gold_fingerprint]
        chosen, rule = (same_gold[0], "same_gold") if same_gold else (newest[0], "newest")
    report = chosen.folder / "report.json"
    blame = given if chosen.line is None else site / HISTORY
    unlinked(site, report, blame, chosen.line)
    if not report.is_file():
        raise InputError(
            given if chosen.line is None else site / HISTORY,
            f"version {chosen.version}'s report is missing ({report})",
            "republish that version, or pick another with --baseline-version",
            chosen.line,
        )
    newer = newest[: newest.index(chosen)]
    selection: dict[str, Any] = {
        "site": str(site),
        "rule": rule,
        "versions": len(newest),
        "newer": [entry.version for entry in newer],
    }
    if by_commit is not None:
        selection |= {"for_commit": by_commit.commit, "commit": chosen.commit, "note": note}
    return report, selection


def _by_commit(
    given: Path,
    versions: Sequence[SiteVersion],
    newest: Sequence[SiteVersion],
    by_commit: ByCommit,
) -> tuple[SiteVersion, Rule] | str:
    """The version of ``by_commit.commit`` or of its nearest first-parent ancestor, and
    which; with the fallback, why there is none (the newest is then compared with)."""
    asked = by_commit.commit
    try:
        chain = first_parent_chain(asked, option="--baseline-commit")
    except UsageError as error:
        if by_commit.fallback is None:
            raise
        return f"--baseline-fallback newest: {error.problem}"
    for depth, full in enumerate(chain):
        for entry in newest:
            if entry.commit is not None and same_commit(entry.commit, full):
                return entry, "commit" if depth == 0 else "ancestor"
    pruned = sorted(
        entry.version
        for entry in versions
        if entry.pruned and entry.commit and any(same_commit(entry.commit, c) for c in chain)
    )
    with_commits = sum(entry.commit is not None for entry in newest)
    problem = (
        f"no version of this site was published for commit {asked} or any of its "
        f"{len(chain) - 1} first-parent ancestors ({with_commits} of its "
        f"{len(newest)} versions record a commit"
        + (f"; the ancestors' versions {', '.join(pruned)} were pruned" if pruned else "")
        + "); a version of a commit that is not an ancestor is never compared with"
    )
    if by_commit.fallback is not None:
        return f"--baseline-fallback newest: {problem}"
    raise InputError(
        given,
        problem,
        "publish a report of the base branch first (reportgen publish, with --commit), "
        "or add --baseline-fallback newest to compare with the site's newest version",
    )


def _requested(
    given: Path,
    versions: Sequence[SiteVersion],
    newest_first: Sequence[SiteVersion],
    wanted: str,
) -> SiteVersion:
    for entry in newest_first:
        if entry.version == wanted:
            return entry
    labels = [entry.version for entry in newest_first]
    shown = ", ".join(labels[:LABELS_SHOWN]) or "none"
    if len(labels) > LABELS_SHOWN:
        shown += f" and {len(labels) - LABELS_SHOWN} older"
    pruned = any(entry.version == wanted and entry.pruned for entry in versions)
    problem = (
        f"version {wanted!r} was pruned (publish --keep): its folder is gone"
        if pruned
        else f"no version {wanted!r} here"
    )
    raise InputError(
        given,
        f"{problem}; the versions it holds, newest first: {shown}",
        "pass one of them to --baseline-version",
    )


def _read_report(path: Path) -> dict[str, Any]:
    return read_report(path, REQUIRED_KEYS, BASELINE_FIX)


def per_question_path(report_path: Path) -> Path:
    """The per-question file read beside a baseline's report.json (Parquet first)."""
    parquet = report_path.parent / "per_question.parquet"
    return parquet if parquet.is_file() else report_path.parent / "per_question.csv"


def _read_per_question(report_path: Path) -> pl.DataFrame:
    source = per_question_path(report_path)
    if not source.is_file():
        raise InputError(
            source,
            "the baseline's per-question values are missing; comparisons are paired by "
            "question and need them",
            "keep per_question.csv (or .parquet) beside report.json when you publish",
        )
    return read_per_question(source, BASELINE_FIX)
