"""Input hygiene in sentences: stale gold ids, index provenance, leaked chunks."""

from __future__ import annotations

from collections.abc import Iterable

from reportgen.core.records import dataclass
from reportgen.render.views.common import fmt, listed_ids, plural
from reportgen.schema import HygieneSection, Provenance, Report, Stale, counted


@dataclass(frozen=True)
class HygieneView:
    """What the hygiene partials print; every sentence decided here."""

    provenance: str
    stale_title: str
    stale_note: str
    stale_rows: list[tuple[str, str]]
    stale_rows_note: str
    """Empty when every question with stale ids is listed."""
    stale_collapsed: bool
    """Folded away: "returned by no run" is a weak signal, and with deep qrels (TREC)
    its table is long; ids a manifest does not hold stay in view."""
    without_stale: list[str]
    leaks: list[str]

    @property
    def stale_rows_summary(self) -> str:
        return f"{plural(len(self.stale_rows), 'question')} and their ids"


def provenance_line(provenance: Provenance) -> str:
    """``gold set kb-1 · manifest kb-1 · run 'dense' kb-2 · ...`` (not stated when unknown)."""
    parts = [f"gold set {provenance['gold'] or 'not stated'}"]
    if provenance["manifest"] is not None:
        parts.append(f"manifest {provenance['manifest']}")
    runs = provenance["runs"]
    if all(version is None for version in runs.values()):
        parts.append("runs: not stated")
    else:
        parts += [f"run {name} {version or 'not stated'}" for name, version in runs.items()]
    return " · ".join(parts)


def _stale_rows_note(stale: Stale) -> str:
    listed, total = len(stale["questions"]), stale["question_count"]
    if listed == total:
        return ""
    return (
        f"Showing the first {listed} of {total} questions in gold-set order; "
        "the Python API lists them all (ReportResult.findings.hygiene.stale)."
    )


def _stale_texts(
    hygiene: HygieneSection, report_runs: Iterable[str], shallow: bool
) -> tuple[str, str]:
    stale, manifest = hygiene["stale"], hygiene["manifest"]
    n, questions = stale["chunks"], stale["question_count"]
    if stale["basis"] == "manifest" and manifest is not None:
        where = manifest["index_version"] or manifest["source"]
        if not n:
            return "Gold ids", f"Every gold id is in the index manifest ({where})."
        return (
            "Stale gold ids",
            f"{plural(n, 'gold id')} in {plural(questions, 'question')} "
            f"{'is' if n == 1 else 'are'} not in the index manifest "
            f"({where}). These questions miss them whatever the run does: a stale gold "
            "set, not a regression.",
        )
    total = stale["gold_chunks"]
    if shallow:
        return (
            "Gold ids no run returns",
            f"{n} of the {total} gold ids ({plural(questions, 'question')}) are returned by "
            "no run at any depth: more than half, so the runs are shallower than the judgments (as "
            "with pooled TREC qrels), which says nothing about stale ids; no warning is "
            "raised. A manifest (--manifest) checks them.",
        )
    runs = list(report_runs)
    if len(runs) == 1:
        return (
            "Gold ids the run does not return",
            f"{plural(n, 'gold id')} in {plural(questions, 'question')} "
            f"{'is' if n == 1 else 'are'} not returned by {runs[0]} at any depth. With one "
            "run that is expected when the run is shallow, and it is not a sign of stale "
            "ids: no warning is raised, and no numbers are given without these questions. "
            "A manifest (--manifest, the chunk ids of the current index) checks them.",
        )
    return (
        "Possibly stale gold ids",
        f"{plural(n, 'gold id')} in {plural(questions, 'question')} "
        f"{'is' if n == 1 else 'are'} returned by no run at any depth. They may no longer "
        "exist (the corpus was re-ingested and its chunk ids changed), or the runs are "
        "too shallow to reach them; a run's numbers count such ids as missed either way. "
        "Without a manifest (--manifest, the chunk ids of the current index) this cannot "
        "be confirmed.",
    )


def without_stale_lines(report: Report) -> list[str]:
    """Per run, the headline measures with and without the stale questions."""
    section = report["hygiene"]["stale"]["means_without_stale"]
    if not section:
        return []
    if all(counted(section[name]) == 0 for name in report["runs"]):
        return [
            "Every question has at least one of these ids, so no question is left to "
            "measure without them."
        ]
    k = report["context_k"]
    lines = []
    for name, run in report["runs"].items():
        clean = section[name]
        lines.append(
            f"{name}: hit@{k} {fmt(clean[f'hit@{k}'])} and recall@{k} "
            f"{fmt(clean[f'recall@{k}'])} over the {plural(counted(clean), 'question')} with "
            f"current gold ids ({fmt(run['means'][f'hit@{k}'])} and "
            f"{fmt(run['means'][f'recall@{k}'])} over all {run['n']})"
        )
    return lines


def leak_lines(report: Report) -> list[str]:
    """``rerank, top 5: staff passages shown to a public audience: 0 | ...`` per run."""
    hygiene = report["hygiene"]
    phrases = hygiene["forbidden"]["reasons"]
    if not phrases:
        return []
    k = str(report["context_k"])
    lines = []
    for name, run in report["runs"].items():
        counts = run["leaks"]["at"][k]["by_reason"]
        listed = " | ".join(f"{phrases[r]}: {n}" for r, n in counts.items())
        lines.append(f"{name}, top {k}: {listed}")
    return lines


def hygiene_view(report: Report) -> HygieneView | None:
    """None when there is nothing to say: no manifest, no suspect ids, no forbidden chunks."""
    hygiene = report["hygiene"]
    stale = hygiene["stale"]
    leaks = leak_lines(report)
    if hygiene["manifest"] is None and not stale["chunks"] and not leaks:
        return None
    title, note = _stale_texts(hygiene, report["runs"], report["pages"]["stale_shallow"])
    return HygieneView(
        provenance=provenance_line(hygiene["provenance"]),
        stale_title=title,
        stale_note=note,
        stale_rows=[(qid, listed_ids(ids)) for qid, ids in stale["questions"].items()],
        stale_rows_note=_stale_rows_note(stale),
        stale_collapsed=stale["basis"] != "manifest",
        without_stale=without_stale_lines(report),
        leaks=leaks,
    )
