"""The versioned site: one folder per report version, an index with trends, a history.

``publish`` (publishing.py) copies a report folder to ``SITE/<version>/``, appends
lines to ``SITE/history.jsonl`` (with ``--keep``, the lines past its bound move to
``SITE/history-archive.jsonl``) and rebuilds ``SITE/index.html`` from that history
with what this module draws: the history line of a report, the versions table and
the trends.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from reportgen.core.display import Glanceable, names
from reportgen.core.git import (
    head_commit,
    is_ancestor,
    is_shallow,
    newest_first,
    same_commit,
    unknown_commits,
)
from reportgen.core.labels import created_at
from reportgen.core.records import dataclass
from reportgen.errors import UsageError, printable
from reportgen.load.previous.published import FINGERPRINT_FROM, load_history, load_report_dir
from reportgen.render.cells import CELL_NAMES
from reportgen.render.chart_engine import Spec, render_charts
from reportgen.render.charts import cells_trend_spec, trend_spec
from reportgen.render.pages import Figure, environment, fmt, keep_words_whole, page_assets
from reportgen.site.install import (
    HISTORY,
    INDEX,
    install,
    locked,
    new_staging,
    report_files,
)
from reportgen.site.lock import check_timeout
from reportgen.site.public import public_files
from reportgen.site.slices import slices_entry, slices_trend_specs

DEFAULT_LOCK_TIMEOUT = 60.0
DEFAULT_MAX_SITE_MB = 500.0
"""Half of GitHub Pages' 1 GB limit: room to notice and prune before deploys fail."""
DEFAULT_SITE_LIMIT_MB = 1000.0
"""GitHub Pages' limit: a larger site is refused, since Pages would not deploy it."""
NOT_SERVED = (".git",)
"""What a site folder may hold that Pages does not serve (a checkout's git data)."""
HEADLINE_MEASURES = (
    ("hit", "hit"),
    ("recall", "recall"),
    ("precision", "precision"),
    ("mrr", "MRR"),
)
"""The measures of the headline line, at each version's k_ctx: (key, title)."""


def history_entry(report: dict[str, Any], published: str) -> dict[str, Any]:
    """The line history.jsonl keeps for one publication: enough to draw the trends.

    ``report`` is a report.json as read from a folder (any readable format_version, or
    a merged one): not a :class:`reportgen.schema.Report`; load_report_dir checked
    the types of the keys read here."""
    k = report["context_k"]
    gold = report["gold"]
    commit = report.get("commit")
    return {
        "version": report["version"],
        "commit": commit if isinstance(commit, str) and commit else None,
        "created": report["created"],
        "published": published,
        "gate": gate_outcome(report.get("gate")),
        "tool_version": report.get("tool_version"),
        "gold": {
            "version": gold.get("version"),
            "fingerprint": gold.get("fingerprint"),
            "fingerprint_from": FINGERPRINT_FROM,
            "questions": gold.get("questions"),
        },
        "context_k": k,
        "runs": {
            name: {
                "n": run.get("n"),
                **{key: run["means"].get(f"{key}@{k}") for key, _ in HEADLINE_MEASURES},
            }
            for name, run in report["runs"].items()
        },
        "cells": {
            name: attribution["cells"]
            for name, attribution in report.get("attribution", {}).items()
        },
        **_slices_of(report),
    }


def _slices_of(report: dict[str, Any]) -> dict[str, Any]:
    """history.jsonl's ``slices`` when the report gated the slices of a field."""
    found = slices_entry(report, [key for key, _ in HEADLINE_MEASURES])
    return {} if found is None else {"slices": found}


def gate_outcome(gate: Any) -> dict[str, Any] | None:
    """What history.jsonl keeps of a report's gate: passed, and the rules that failed
    (``RULE (run)``); None for a report without a gate."""
    if not isinstance(gate, dict) or not isinstance(gate.get("passed"), bool):
        return None
    rules = gate.get("rules")
    rules = rules if isinstance(rules, list) else []
    failed = [
        f"{rule.get('rule')}{_in_slice(rule)} ({rule.get('run')})"
        for rule in rules
        if isinstance(rule, dict) and rule.get("passed") is False
    ]
    return {"passed": gate["passed"], "failed": failed}


def _in_slice(rule: dict[str, Any]) -> str:
    where = rule.get("slice")
    return f" in {where['field']}={where['value']}" if isinstance(where, dict) else ""


def latest_by_version(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last publication of each version, oldest first: by commit ancestry where git
    (in the working directory's repository) knows the versions' commits, else by
    creation time (reportgen.core.git.newest_first).

    Not by label text (v10 before v2), nor by clock alone: a re-run of an old commit's
    job publishes after a newer commit's, and must not become the latest.
    """
    latest = {}
    for position, entry in enumerate(history):
        latest[entry["version"]] = (entry["created"], position, entry)
    newest = newest_first(
        list(latest.values()),
        lambda item: item[:2],
        lambda item: item[2].get("commit") if isinstance(item[2].get("commit"), str) else None,
    )
    return [entry for _, _, entry in reversed(newest)]


def gold_segments(entries: Sequence[dict[str, Any]]) -> list[int]:
    """For each entry (oldest first), which run of one gold set it belongs to: a new
    segment starts where the fingerprint changes (unknown fingerprints change nothing)."""
    segments, segment, previous = [], 0, None
    for entry in entries:
        fingerprint = (entry.get("gold") or {}).get("fingerprint")
        if fingerprint is not None:
            if previous is not None and fingerprint != previous:
                segment += 1
            previous = fingerprint
        segments.append(segment)
    return segments


def gold_change_notes(entries: Sequence[dict[str, Any]]) -> list[str]:
    """One sentence per change of gold set, for the note beside the trends."""
    segments = gold_segments(entries)
    notes = []
    for i in range(1, len(entries)):
        if segments[i] != segments[i - 1]:
            before, after = entries[i - 1], entries[i]
            notes.append(
                f"{after['version']} is measured on another gold set than {before['version']} "
                f"({_gold_label(before)} → {_gold_label(after)}): the lines break there, "
                "since numbers on different gold sets are not comparable."
            )
    return notes


def _gold_label(entry: dict[str, Any]) -> str:
    gold = entry.get("gold") or {}
    return f"{gold.get('version') or 'unversioned'}, fingerprint {gold.get('fingerprint')}"


def trend_specs(entries: Sequence[dict[str, Any]]) -> dict[str, Spec]:
    """Headline measures and the four cells across versions (oldest first), broken
    where the gold set changes."""
    versions = [entry["version"] for entry in entries]
    segments = gold_segments(entries)
    changes = [versions[i] for i in range(1, len(versions)) if segments[i] != segments[i - 1]]
    specs = {}
    for key, title in HEADLINE_MEASURES:
        rows = [
            {"version": entry["version"], "run": name, "value": values[key], "segment": segment}
            for entry, segment in zip(entries, segments, strict=True)
            for name, values in entry["runs"].items()
            if values.get(key) is not None
        ]
        specs[f"trend_{key}"] = trend_spec(rows, versions, f"{title}@k_ctx", changes)
    for name in dict.fromkeys(run for entry in entries for run in entry.get("cells", {})):
        rows = [
            {"version": entry["version"], "cell": label, "count": cells.get(key, 0), "order": i}
            for entry in entries
            if (cells := entry.get("cells", {}).get(name))
            for i, (key, label) in enumerate(CELL_NAMES.items())
        ]
        spec = cells_trend_spec(rows, versions, changes)
        spec["title"]["text"] = f"{name}: the four cells across versions"
        specs[f"cells_{len(specs)}"] = spec
    specs |= slices_trend_specs(entries, segments, changes, "recall")
    return specs


@dataclass(frozen=True)
class VersionRow:
    version: str
    created: str
    gold: str
    headline: list[str]
    links: list[tuple[str, str]]
    pruned: str
    """Empty, or when ``publish --keep`` removed its folder (the history keeps its line)."""
    commit: str
    """The commit measured, shortened; empty when the report did not record one."""
    gate: str
    """"no gate", "passed", or "FAILED" and how many rules failed."""
    gate_rules: str
    """The rules that failed, for the cell's tooltip (history.jsonl keeps them too)."""
    gate_class: str
    """The cell's class: gate-failed for a version that failed its gate, else empty."""

    @property
    def pruned_note(self) -> str:
        """What the files column says of a pruned version; empty for one with files."""
        if not self.pruned:
            return ""
        return (
            f"pruned {self.pruned} (publish --keep): its folder is gone, "
            "its numbers stay in the trends"
        )


def version_rows(
    entries: Sequence[dict[str, Any]], folders: Mapping[str, Path]
) -> list[VersionRow]:
    """Newest first; links only to the files that the version folder holds (none once
    pruned)."""
    rows = []
    for entry in reversed(entries):
        version = entry["version"]
        k = entry["context_k"]
        gold = entry["gold"]
        names = (("HTML", INDEX), ("Markdown", "report.md"), ("JSON", "report.json"))
        rows.append(
            VersionRow(
                version=version,
                created=entry["created"],
                gold=f"{gold.get('version') or 'unversioned'} ({gold.get('fingerprint')})",
                headline=[
                    f"{name}: "
                    + " | ".join(
                        f"{title}@{k} {fmt(values.get(key))}" for key, title in HEADLINE_MEASURES
                    )
                    for name, values in entry["runs"].items()
                ],
                links=[
                    (label, f"{version}/{file}")
                    for label, file in names
                    if not entry.get("pruned") and (folders[version] / file).is_file()
                ],
                pruned=str(entry.get("pruned") or ""),
                commit=str(entry.get("commit") or "")[:12],
                gate=_gate_text(entry.get("gate")),
                gate_rules="; ".join(_failed_rules(entry.get("gate"))),
                gate_class=_gate_class(entry.get("gate")),
            )
        )
    return rows


def _gate_class(gate: Any) -> str:
    return "gate-failed" if isinstance(gate, dict) and gate.get("passed") is False else ""


def _failed_rules(gate: Any) -> list[str]:
    if not isinstance(gate, dict) or gate.get("passed") is not False:
        return []
    return [str(rule) for rule in gate.get("failed") or []]


def _gate_text(gate: Any) -> str:
    """Short, so that a version's row stays one screen on a phone: the rules are in
    the cell's tooltip, history.jsonl and the version's own report."""
    if not isinstance(gate, dict):
        return "no gate"
    if gate.get("passed"):
        return "passed"
    failed = _failed_rules(gate)
    return (
        f"FAILED ({len(failed)} {'rule' if len(failed) == 1 else 'rules'})" if failed else "FAILED"
    )


def render_index(history: Sequence[dict[str, Any]], folders: Mapping[str, Path]) -> str:
    """The site's front page, from the history of the versions that have a folder or
    were pruned (their points stay on the trends)."""
    entries = [
        entry
        for entry in latest_by_version(history)
        if entry["version"] in folders or entry.get("pruned")
    ]
    charts = render_charts(trend_specs(entries)) if entries else {}
    figures = [
        Figure(name.removesuffix(".svg"), Markup(data.decode()), "")
        for name, data in charts.items()
    ]
    return keep_words_whole(
        environment()
        .get_template("site_index.html.j2")
        .render(
            title="Retrieval reports",
            versions=version_rows(entries, folders),
            figures=figures,
            gold_changes=gold_change_notes(entries),
            assets=page_assets(),
        )
    )


@dataclass(frozen=True, repr=False)
class Published(Glanceable):
    version: str
    folder: Path
    index: Path
    pruned: list[str] = field(default_factory=list)
    """Versions whose folders ``keep`` removed by this publish."""
    recovered: list[str] = field(default_factory=list)
    """What was done about publishes that had been killed, one sentence each."""
    warnings: list[str] = field(default_factory=list)
    """What the publisher should know: a failed gate, a site over its size budget."""
    notes: list[str] = field(default_factory=list)
    """How the order was read where git could not tell (commits no branch holds)."""

    def glance(self) -> list[tuple[str, str]]:
        return [
            ("version", self.version),
            ("folder", str(self.folder)),
            ("index", str(self.index)),
            ("pruned", names(self.pruned) or "none"),
            ("warnings", str(len(self.warnings))),
        ]


def _pruned_lines(
    history: Sequence[dict[str, Any]], version: str, keep: int | None, published: str
) -> list[dict[str, Any]]:
    """The lines that mark the oldest versions pruned (``history`` holds the one being
    published): the newest ``keep`` folders stand, and ``version`` too (an old
    commit's job re-run after a newer one's keeps its folder until the next publish,
    and never prunes the newer): a copy of each one's last line (so the trends keep
    its point) with ``pruned`` set to the time."""
    if keep is None:
        return []
    standing = [entry for entry in latest_by_version(history) if not entry.get("pruned")]
    oldest = standing[: max(len(standing) - keep, 0)]
    return [
        {**{key: value for key, value in entry.items() if key != "order"}, "pruned": published}
        for entry in oldest
        if entry["version"] != version
    ]


HistoryLine = tuple[bytes, dict[str, Any]]
"""A line of history.jsonl as written, and its entry as read."""


def arrange_history(
    lines: Sequence[HistoryLine], keep: int | None
) -> tuple[list[HistoryLine], list[bytes]]:
    """history.jsonl's lines to keep, in their order, and those to archive.

    Without ``keep`` the history only grows. With it, the lines archived are every line
    but a version's last, and the last lines of the pruned versions older than the
    newest ``keep`` pruned ones: history.jsonl and the index hold at most twice ``keep``
    versions, however many were ever published."""
    if keep is None:
        return list(lines), []
    last = {entry["version"]: position for position, (_, entry) in enumerate(lines)}
    order = [entry["version"] for entry in latest_by_version([entry for _, entry in lines])]
    pruned = [version for version in order if lines[last[version]][1].get("pruned")]
    dropped = set(pruned[: max(len(pruned) - keep, 0)])
    kept: list[HistoryLine] = []
    archived: list[bytes] = []
    for position, (raw, entry) in enumerate(lines):
        if last[entry["version"]] == position and entry["version"] not in dropped:
            kept.append((raw, entry))
        else:
            archived.append(raw)
    return kept, archived


ORDER_RECORDED = 50
"""Versions whose order (newest first) a history line records: enough for a baseline."""


def index_order(history: Sequence[dict[str, Any]]) -> list[str]:
    """The standing versions newest first, as the index shows them (at most
    ORDER_RECORDED): recorded in each new history line, so that a reader who cannot see
    the commits' ancestry (a shallow clone's --baseline-fallback newest) takes this
    order rather than one by time."""
    standing = [entry for entry in latest_by_version(history) if not entry.get("pruned")]
    return [entry["version"] for entry in reversed(standing)][:ORDER_RECORDED]


def _refuse_label_of_another_commit(
    history: Sequence[dict[str, Any]], entry: dict[str, Any]
) -> None:
    """A label names one commit: two commits sharing a short prefix must not replace
    each other's version."""
    commit = entry.get("commit")
    if not commit:
        return
    for other in history:
        recorded = other.get("commit")
        if other["version"] != entry["version"] or not isinstance(recorded, str) or not recorded:
            continue
        if not (same_commit(recorded, commit) or same_commit(commit, recorded)):
            raise UsageError(
                f"version {printable(entry['version'])} is already on the site for commit "
                f"{printable(recorded)}, and this report measured commit {commit}: "
                "publishing would replace the other commit's version",
                f"report again with a label of its own, e.g. `--version {commit[:12]}`",
            )


def _refuse_unseen_ancestry(history: Sequence[dict[str, Any]]) -> list[str]:
    """Versions are ordered (and pruned) by commit ancestry: in a shallow clone that
    lacks commits the site records, the order would be a guess by time, and a re-run of
    an old commit's job would become the newest and prune the newer ones. In a whole
    clone, commits no branch holds (a force-push removed them) are ordered by report
    time: the note returned says so."""
    commits = [
        commit for entry in history if isinstance(commit := entry.get("commit"), str) and commit
    ]
    if len(set(commits)) < 2 or head_commit() is None:
        return []
    unseen = unknown_commits(commits)
    if not unseen:
        return []
    shown = ", ".join(printable(commit[:12]) for commit in unseen[:5])
    more = f" and {len(unseen) - 5} more" if len(unseen) > 5 else ""
    if not is_shallow():
        versions = [str(entry["version"]) for entry in history if entry.get("commit") in unseen]
        return [
            f"the commits of versions {printable(', '.join(dict.fromkeys(versions)))} "
            f"({shown}{more}) are on no branch of this repository (a force-push or a deleted "
            "branch removed them): they are ordered by report time"
        ]
    raise UsageError(
        f"this clone ({printable(Path.cwd())}) is shallow and lacks commits the site's "
        f"versions record ({shown}{more}): publish orders and prunes versions by commit "
        "ancestry, and cannot see it here; nothing was changed",
        "check out the whole history (`fetch-depth: 0` in actions/checkout, or "
        "`git fetch --unshallow`), then publish again",
    )


def served_size(site: Path) -> int:
    """Bytes of the files Pages would serve from ``site`` (not a checkout's .git)."""
    total = 0
    for item in site.iterdir():
        if item.name in NOT_SERVED:
            continue
        if item.is_file() and not item.is_symlink():
            total += item.stat().st_size
        elif item.is_dir() and not item.is_symlink():
            total += _size(item)
    return total


def _refuse_over_limit(
    site: Path,
    staging: Path,
    version: str,
    pruned: Sequence[str],
    history: bytes,
    index: bytes,
    limit_mb: float,
) -> None:
    """Refuse, before anything changes, a publish that would leave the site past
    ``limit_mb``: Pages would refuse to deploy it."""
    leaving = [site / version, *(site / name for name in pruned)]
    after = (
        served_size(site)
        - _size(staging)
        - sum(_size(folder) for folder in leaving if folder.is_dir())
        + _size(staging / version)
        - sum((site / name).stat().st_size for name in (HISTORY, INDEX) if (site / name).is_file())
        + len(history)
        + len(index)
    )
    limit = int(limit_mb * 1_000_000)
    if after > limit:
        raise UsageError(
            f"the site would hold {after / 1_000_000:.1f} MB after this publish, past "
            f"--site-limit-mb {limit_mb:g} (GitHub Pages refuses sites over 1 GB); "
            "nothing was changed",
            "prune old versions (`--keep N`), publish with --public (no texts), or raise "
            "--site-limit-mb if the site is not served by GitHub Pages",
        )


def _encode(entry: dict[str, Any]) -> bytes:
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode()


def _refuse_site_in_report(report_dir: Path, site: Path) -> None:
    """The site may not be the report folder nor inside it: its index would replace the
    report's, and the next report into the folder would carry the whole site along.
    (A report folder inside the site is fine: it is copied before anything moves.)"""
    report_real, site_real = os.path.realpath(report_dir), os.path.realpath(site)
    if site_real != report_real and not site_real.startswith(report_real.rstrip(os.sep) + os.sep):
        return
    if site_real == report_real:
        where = "is the report folder: the site's index.html would replace the report's"
    else:
        where = "is inside the report folder: the site would become part of the report"
    raise UsageError(
        f"--site {printable(site)} {where} ({printable(report_dir)})",
        "give a site folder outside the report folder, e.g. `reportgen publish "
        f"{printable(report_dir)} --site site`",
    )


def publish(
    report_dir: str | Path,
    site: str | Path,
    *,
    keep: int | None = None,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    public: bool = False,
    max_site_mb: float = DEFAULT_MAX_SITE_MB,
    site_limit_mb: float = DEFAULT_SITE_LIMIT_MB,
) -> Published:
    """Put the report of ``report_dir`` at ``site/<version>/`` and rebuild the index.

    ``keep`` keeps the newest ``keep`` version folders (by commit ancestry, see
    latest_by_version) and prunes the others: their lines stay in history.jsonl,
    marked, so the trends keep them. ``lock_timeout`` is how long to wait for another
    publisher of the same site. ``public`` leaves out every question and chunk text
    (site/public.py). Past ``max_site_mb`` the result warns and names versions to prune;
    a site that would pass ``site_limit_mb`` is refused, unchanged. With ``keep``,
    history.jsonl keeps one line per version for the standing versions and the newest
    ``keep`` pruned ones; the other lines move to history-archive.jsonl.
    """
    report_dir, site = Path(report_dir), Path(site)
    files = report_files(report_dir)
    if keep is not None and keep < 1:
        raise UsageError(f"--keep {keep} (keep) would keep no version", "give 1 or more")
    for name, size in (("--max-site-mb", max_site_mb), ("--site-limit-mb", site_limit_mb)):
        if not size > 0:
            raise UsageError(f"{name} {size} leaves no room", "give a size above 0")
    check_timeout(lock_timeout)
    report = load_report_dir(report_dir)
    _refuse_site_in_report(report_dir, site)
    version = str(report["version"])  # checked by load_report_dir, as history lines are
    if site.exists() and not site.is_dir():
        raise UsageError(f"--site {site} is a file", "give a folder (created when missing)")
    site.mkdir(parents=True, exist_ok=True)
    with locked(site, lock_timeout) as recovered:
        history_path = site / HISTORY
        history = load_history(history_path)
        published = created_at().strftime("%Y-%m-%dT%H:%M:%SZ")
        entry = history_entry(report, published)
        _refuse_label_of_another_commit(history, entry)
        notes = _refuse_unseen_ancestry([*history, entry])
        pruned = _pruned_lines([*history, entry], version, keep, published)
        entry["order"] = index_order([*history, entry, *pruned])
        old = history_path.read_bytes() if history_path.is_file() else b""
        line = _encode(entry)
        old_lines = [
            text.encode() + b"\n"
            for text in old.decode("utf-8").removeprefix("\ufeff").splitlines()
            if text.strip()
        ]
        staging = new_staging(site)
        try:
            staged = staging / version
            if public:
                for name, data in public_files(report_dir, report).items():
                    (staged / name).parent.mkdir(parents=True, exist_ok=True)
                    (staged / name).write_bytes(data)
            for relative in [] if public else files:
                (staged / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(report_dir / relative, staged / relative, follow_symlinks=False)
            everything = [*history, entry, *pruned]
            folders = {
                item["version"]: site / item["version"]
                for item in everything
                if (site / item["version"]).is_dir()
            }
            kept, archived = arrange_history(
                list(zip([*old_lines, line, *map(_encode, pruned)], everything, strict=True)),
                keep,
            )
            index = render_index([item for _, item in kept], {**folders, version: staged})
            history_bytes = b"".join(raw for raw, _ in kept)
            names = [item["version"] for item in pruned]
            _refuse_over_limit(
                site, staging, version, names, history_bytes, index.encode(), site_limit_mb
            )
            install(site, staging, version, line, history_bytes, index.encode(), names, archived)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        warnings = _gate_warning(entry) + size_warning(
            site, [*history, entry, *pruned], max_site_mb
        )
    return Published(
        version=version,
        folder=site / version,
        index=site / INDEX,
        pruned=names,
        recovered=recovered,
        warnings=warnings,
        notes=notes,
    )


def _gate_warning(entry: dict[str, Any]) -> list[str]:
    gate = entry.get("gate")
    if not isinstance(gate, dict) or gate.get("passed"):
        return []
    failed = "; ".join(gate.get("failed") or []) or "see its report"
    return [
        f"version {entry['version']} failed its quality gate ({failed}): it is published, "
        "marked failed in history.jsonl and the index, and a report that takes it as "
        "baseline says so"
    ]


def _size(path: Path) -> int:
    return sum(
        item.stat().st_size for item in path.rglob("*") if item.is_file() and not item.is_symlink()
    )


def size_warning(site: Path, history: Sequence[dict[str, Any]], max_site_mb: float) -> list[str]:
    """A warning when the site is over ``max_site_mb`` (MB of 10^6 bytes), naming the
    versions to prune until it fits: first those whose commit is not an ancestor of the
    latest version's (other branches' lines, oldest first), then the oldest."""
    total = served_size(site)
    budget = int(max_site_mb * 1_000_000)
    if total <= budget:
        return []
    standing = [
        entry
        for entry in latest_by_version(history)
        if not entry.get("pruned") and (site / entry["version"]).is_dir()
    ]
    latest = standing[-1].get("commit") if standing else None
    older = standing[:-1]
    others = [
        entry
        for entry in older
        if latest and entry.get("commit") and is_ancestor(entry["commit"], latest) is False
    ]
    names, freed = [], 0
    for entry in [*others, *(entry for entry in older if entry not in others)]:
        if total - freed <= budget:
            break
        names.append(entry["version"])
        freed += _size(site / entry["version"])
    return [
        f"the site holds {total / 1_000_000:.1f} MB, over --max-site-mb {max_site_mb:g} "
        "(GitHub Pages refuses sites over 1 GB); prune "
        + (", ".join(names) or "nothing more: the latest version alone is over it")
        + f" (publish --keep {max(len(standing) - len(names), 1)} prunes the oldest)"
    ]
