"""Runs and versions side by side, with paired statistics that do not fool anyone.

With 59 questions one question moves a mean by 0.017, and two runs with the same mean
can fail on different questions (SPEC.md). So every comparison is paired by question
and reports, per measure: the difference (after - before) with a 95% percentile
bootstrap interval, a two-sided paired randomization (sign-flip) test, an exact
McNemar test for binary measures (hit@k), Holm's correction within the test's family,
win / tie / loss counts, the questions that changed, and 1/n.

Two families (docs/verdicts.md): the **primary** one is the headline measures at k_ctx
and every measure a gate rule names, in each comparison against the reference (the
baseline, the reference run, or the run the verdicts judge); every other test is
**exploratory**. Each family is Holm-corrected on its own, so adding measures or runs
to look at never weakens the labels a team acts on.

A difference is labelled "better" or "worse" only when the Holm-adjusted p-value is
below 0.05 AND the interval excludes 0; otherwise it is "within noise" when a change of
the measure's minimum detectable effect (``mde``, detectable.py) would have shown, and
"too few questions" when no change within the measure's range would have: four
questions can never show a significant change, and saying "within noise" of a collapse
from 0.75 to 0 would mislead. With clusters (``--cluster-by``: questions written from
one document are not independent) the bootstrap draws, and the randomization test
flips, whole clusters.

Resampling (paired.py, the only NumPy user, imported only when something is compared; it
returns arrays, this module builds the entries) is matrix algebra (resamples x
questions, in blocks that bound memory), never a Python loop over resamples. The
resamples depend only on :data:`SEED` and the number of questions n: every pair with the
same n is resampled with the same draws (common random numbers), so each block of draws
is made once per report and applied to all those pairs' differences side by side in one
matrix product (15 pairs of runs over 10,000 questions: ~2 s instead of ~30 s).
Questions are sorted by id first, so the same inputs give the same intervals and
p-values, whatever else is compared alongside.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from reportgen.analyse.resampling import LEVEL, RESAMPLES, SEED, TOLERANCE
from reportgen.core.records import dataclass
from reportgen.measure.measures import MEASURES

LABELS = ("better", "worse", "within noise", "too few questions")

if TYPE_CHECKING:
    from reportgen.analyse.paired import PairedStatistics

ALPHA = 0.05
DIGITS = 10
CHANGED_QUESTIONS_KEPT = 100
"""Questions listed as changed per comparison in report.json (the full per-question
values are in per_question.csv): 15 pairs x 3 measures x thousands of questions made
report.json 15 MB at 10,000 questions."""

BINARY_NAMES = frozenset(m.name for m in MEASURES if m.binary)


UNBOUNDED_NAMES = frozenset({"context_chars"})
"""Measures counted in characters: a difference has no largest value."""

NEEDED_FOR = 0.10
"""The change each measure's ``n_needed`` is for (detectable.py's NEEDED_FOR)."""

PRIMARY, EXPLORATORY = "primary", "exploratory"
FAMILIES = (PRIMARY, EXPLORATORY)
HEADLINE_NAMES = ("hit", "recall")
"""The measures the first screen judges a run by (at k_ctx): always in the primary family."""


def headline_keys(context_k: int) -> list[str]:
    return [f"{name}@{context_k}" for name in HEADLINE_NAMES]


def is_binary(key: str) -> bool:
    return key.partition("@")[0] in BINARY_NAMES


def bound(key: str) -> float | None:
    """The largest possible difference of a measure: 1 for shares, None for characters."""
    return None if key.partition("@")[0] in UNBOUNDED_NAMES else 1.0


def method(cluster: str | None, families: Mapping[str, Any]) -> dict[str, Any]:
    """How every comparison was computed, written beside the numbers in report.json;
    ``families`` as :func:`families_of` describes them."""
    return {
        "difference": "after - before: mean over the questions both sides count",
        "interval": {
            "name": "percentile bootstrap over questions",
            "level": LEVEL,
            "resamples": RESAMPLES,
            "seed": SEED,
        },
        "test": {
            "name": "paired randomization test (sign flips of per-question differences), two-sided",
            "resamples": RESAMPLES,
            "seed": SEED,
            "exact_when": "2^m <= resamples, m = questions whose values differ: then every "
            "sign flip is enumerated",
        },
        "binary_test": "exact McNemar test (two-sided binomial on the discordant questions); "
        "used as the p-value of binary measures (hit@k)",
        "correction": "Holm, within each family: the primary family's tests among "
        "themselves, the exploratory family's among themselves",
        "families": dict(families),
        "families_text": families_sentence(families),
        "changed_questions_kept": CHANGED_QUESTIONS_KEPT,
        "alpha": ALPHA,
        "label": "better / worse only when the Holm-adjusted p (within the test's family) "
        "< alpha and the interval excludes 0; otherwise too few questions when mde is "
        "null (no change within the measure's range would be detected), else within noise",
        "mde": {
            "power": 0.8,
            "alpha": ALPHA,
            "holm": "correction included: computed at alpha / m (mde_alpha), m the tests "
            "in the measure's family, Holm's strictest step; at a true change of mde the "
            "label reads better / worse with probability 0.80",
            "binary": "exact McNemar power averaged over the discordant count, "
            "Binomial(n, q) with q the observed discordance rate (at least the change "
            "itself); searched by bisection",
            "other": "normal approximation to the paired randomization test: "
            "(z_{1-alpha/2} + z_0.80) * sqrt(variance of the mean difference); the "
            "per-question differences' variance / n, or the cluster-robust variance "
            "with --cluster-by; when no question moved, the two sides' variances summed",
            "n_needed": "questions for a change of n_needed_for to be detectable at the "
            "same spread: the normal formula solved for n; for binary measures Connor's "
            "(1987) sample size for McNemar's test at the observed discordance rate",
            "null_when": "no change within the measure's range reaches 80% power, "
            "fewer questions than log2(2 / mde_alpha) + 1 (the smallest possible p is "
            "then at least mde_alpha), or a randomization test whose smallest p "
            "(2 / (resamples + 1)) is not below mde_alpha",
            "n_needed_for": NEEDED_FOR,
        },
        "cluster": None
        if cluster is None
        else {
            "field": cluster,
            "interval": "whole clusters resampled; a resample's mean is its summed "
            "differences over its questions",
            "test": "whole clusters' summed differences flipped; binary measures use "
            "this test too (McNemar assumes independent questions)",
            "design_effect": "cluster-robust variance of the mean difference (C / (C - 1) "
            "correction) over the variance assuming independent questions; per "
            "comparison the largest over its measures",
        },
    }


def families_of(
    comparisons: Sequence[Mapping[str, Any]], primary: str, exploratory: str
) -> dict[str, Any]:
    """Each family's tests and correction, for report.json's method block: ``primary``
    and ``exploratory`` say in words what each family holds."""
    counts = Counter(
        measure["family"] for entry in comparisons for measure in entry["measures"].values()
    )
    found = {}
    for family, holds in ((PRIMARY, primary), (EXPLORATORY, exploratory)):
        tests = counts[family]
        keys = sorted(
            {
                key
                for entry in comparisons
                for key, measure in entry["measures"].items()
                if measure["family"] == family
            }
        )
        found[family] = {
            "tests": tests,
            "measures": keys,
            "holds": holds,
            "correction": f"Holm across these {tests} tests only" if tests else None,
            "mde_alpha": significant(ALPHA / tests) if tests else None,
        }
    return found


def families_sentence(families: Mapping[str, Any]) -> str:
    """The one sentence every output gives: which family a label belongs to and what it
    was corrected across."""
    primary, exploratory = families.get(PRIMARY), families.get(EXPLORATORY)
    parts = []
    if primary and primary["tests"]:
        parts.append(
            f"Primary labels ({primary['holds']}) are Holm-corrected across those "
            f"{plural_tests(primary['tests'])} only"
        )
    if exploratory and exploratory["tests"]:
        lead = "exploratory labels" if parts else "Every label here is exploratory"
        parts.append(
            f"{lead} ({exploratory['holds']}) are Holm-corrected among their own "
            f"{plural_tests(exploratory['tests'])}"
            if parts
            else f"{lead} ({exploratory['holds']}): Holm-corrected across its "
            f"{plural_tests(exploratory['tests'])}; no primary family (--reference-run "
            "names the run the others are judged against)"
        )
    if not parts:
        return ""
    return "; ".join(parts) + "; each mde is for its own family's correction."


def plural_tests(count: int) -> str:
    return f"{count} test" if count == 1 else f"{count} tests"


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input's order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, p_values[index] * (len(p_values) - rank)))
        adjusted[index] = running
    return adjusted


def label(
    p_holm: float | None, low: float | None, high: float | None, mde: float | None = 0.0
) -> str:
    """The plain word next to a difference; "better" or "worse" only when both tests
    agree; otherwise "too few questions" when nothing was detectable (``mde`` null)."""
    if p_holm is not None and low is not None and high is not None and p_holm < ALPHA:
        if low > 0:
            return "better"
        if high < 0:
            return "worse"
    return "too few questions" if mde is None else "within noise"


def round_value(value: float) -> float:
    return round(float(value), DIGITS)


def significant(p: float) -> float:
    """p-values keep 10 significant digits: 2 / 2^40 must not round to 0."""
    return float(f"{float(p):.10g}")


@dataclass(frozen=True)
class Side:
    """One side of a comparison: its name and its per-question values (wide frame).

    ``values`` holds qid, kind and one column per measure, for the questions that
    count in its means only.
    """

    name: str
    values: pl.DataFrame


Clusters = Mapping[str, str]
"""Question id -> its cluster (a gold field's value, or its documents); a question
not listed stands alone."""


def paired_measures(
    before: Side,
    after: Side,
    keys: Sequence[str],
    change_keys: Sequence[str] = (),
    seed: int = SEED,
    clusters: Clusters | None = None,
    family_sizes: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """One comparison, before Holm: every measure of ``keys``, paired by question, all
    in the primary family (of ``family_sizes[PRIMARY]`` tests, by default its own).

    ``change_keys`` are the measures whose changed questions are listed.
    """
    return compare_sides(
        [(before, after)], keys, change_keys, seed, clusters, family_sizes=family_sizes
    )[0]


def compare_sides(
    sides: Sequence[tuple[Side, Side]],
    keys: Sequence[str],
    change_keys: Sequence[str] = (),
    seed: int = SEED,
    clusters: Clusters | None = None,
    primary: Sequence[Collection[str]] | None = None,
    family_sizes: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Every comparison (before, after) of ``sides``, before Holm, in the order given.

    ``primary`` gives, per comparison, the measures in the primary family (None: all of
    them); every other measure is exploratory. Each mde is computed at alpha / m, m the
    tests of its family here (or ``family_sizes``, when the family reaches beyond these
    comparisons): the label's own correction at its strictest.

    Two collects whatever the number of pairs: every pair's values joined, then from
    those every pair's changed questions, and the questions (and their clusters) each
    set of measures is paired on.
    """
    if not sides:
        return []
    # NumPy (0.1 s to import) only when something is compared, not for every report
    from reportgen.analyse.paired import paired_statistics

    kept_by_pair = [_kept(before, after, keys) for before, after in sides]
    family_by_pair = [
        {key: PRIMARY if primary is None or key in primary[i] else EXPLORATORY for key in kept}
        for i, kept in enumerate(kept_by_pair)
    ]
    sizes = {
        **Counter(family for found in family_by_pair for family in found.values()),
        **(family_sizes or {}),
    }
    pairs = pl.collect_all(
        [
            _paired(before, after, kept)
            for (before, after), kept in zip(sides, kept_by_pair, strict=True)
        ]
    )
    gaps_by_pair = [
        _with_gaps(kept, paired) for kept, paired in zip(kept_by_pair, pairs, strict=True)
    ]
    changes_by_pair = [[key for key in change_keys if key in kept] for kept in kept_by_pair]
    # a measure without a value for some questions (a span measure: questions without
    # evidence) is paired on the questions that have one, in a comparison of its own
    parts = [
        (index, [key for key in kept if key not in gaps], paired.lazy())
        for index, (kept, gaps, paired) in enumerate(
            zip(kept_by_pair, gaps_by_pair, pairs, strict=True)
        )
    ]
    parts += [
        (index, gaps, _complete_rows(paired.lazy(), gaps))
        for index, (gaps, paired) in enumerate(zip(gaps_by_pair, pairs, strict=True))
        if gaps
    ]
    parts = [part for part in parts if part[1]]
    derived = _collect_grouped(
        [
            *(
                _changed_plans(paired.lazy(), changes)
                for paired, changes in zip(pairs, changes_by_pair, strict=True)
            ),
            *(
                [rows] if clusters is None else [rows, cluster_numbers(rows, clusters)]
                for _, _, rows in parts
            ),
        ]
    )
    changed, collected = derived[: len(pairs)], derived[len(pairs) :]
    entries = [
        {**_entry(before, after, paired.height), **changed_questions(changes, frames)}
        for (before, after), paired, changes, frames in zip(
            sides, pairs, changes_by_pair, changed, strict=True
        )
    ]
    found = paired_statistics(
        [
            (_matrix(frames[0], [f"{k}__before" for k in kept]), _matrix(frames[0], kept))
            for (_, kept, _), frames in zip(parts, collected, strict=True)
        ],
        [[is_binary(key) for key in kept] for _, kept, _ in parts],
        seed,
        clusters=[
            None if clusters is None else frames[1].to_series().to_numpy() for frames in collected
        ],
        bounds=[[bound(key) for key in kept] for _, kept, _ in parts],
        alphas=[
            [ALPHA / sizes[family_by_pair[index][key]] for key in kept] for index, kept, _ in parts
        ],
    )
    for (index, kept, _), frames, statistics in zip(parts, collected, found, strict=True):
        if statistics is None:
            continue
        entry, n = entries[index], frames[0].height
        measures = _measure_entries(kept, statistics)
        for key, measure in measures.items():
            family = family_by_pair[index][key]
            measure["family"] = family
            measure["mde_alpha"] = significant(ALPHA / sizes[family])
        if n != entry["n"]:
            measures = {key: {**measure, "n": n} for key, measure in measures.items()}
        else:
            entry["clusters"] = statistics.clusters
        entry["measures"].update(measures)
    for entry, kept in zip(entries, kept_by_pair, strict=True):  # in the order of ``keys``
        entry["measures"] = {
            key: entry["measures"][key] for key in kept if key in entry["measures"]
        }
        _design(entry)
    return entries


def _collect_grouped(plans: Sequence[Sequence[pl.LazyFrame]]) -> list[list[pl.DataFrame]]:
    """Every plan of every group in one collect, grouped as given."""
    frames = iter(pl.collect_all([plan for group in plans for plan in group]))
    return [[next(frames) for _ in group] for group in plans]


def _matrix(frame: pl.DataFrame, columns: Sequence[str]) -> Any:
    """``columns`` of ``frame`` as a (rows x columns) array, from the columns themselves:
    a ``select`` is a collect, once per comparison and side."""
    return pl.DataFrame([frame.get_column(column) for column in columns]).to_numpy()


def cluster_numbers(paired: pl.LazyFrame, clusters: Clusters) -> pl.LazyFrame:
    """Each paired question's cluster as 0, 1, ... in order of first appearance (the
    questions are sorted by id); a question without a cluster is its own."""
    cluster = pl.col("qid").replace_strict(dict(clusters), default=pl.col("qid"))
    return (
        paired.select("qid")
        .with_row_index("row")
        .select(
            (pl.col("row").min().over(cluster).rank("dense").cast(pl.Int64) - 1).alias("cluster")
        )
    )


def _design(entry: dict[str, Any]) -> None:
    """The comparison's design effect (its measures' largest) and effective n."""
    effects = [m["design_effect"] for m in entry["measures"].values()]
    design = max(effects, default=1.0)
    entry.setdefault("clusters", entry["n"])
    entry["design_effect"] = design
    entry["effective_n"] = round(entry["n"] / design, 1) if design > 0 else float(entry["n"])


def _with_gaps(kept: Sequence[str], paired: pl.DataFrame) -> list[str]:
    """The measures of ``kept`` that some question lacks on either side."""
    return [
        key
        for key in kept
        if paired.get_column(key).null_count() or paired.get_column(f"{key}__before").null_count()
    ]


def _complete_rows(paired: pl.LazyFrame, gaps: Sequence[str]) -> pl.LazyFrame:
    """The questions with a value on both sides of every measure of ``gaps``."""
    return paired.drop_nulls([*gaps, *(f"{key}__before" for key in gaps)])


def _kept(before: Side, after: Side, keys: Sequence[str]) -> list[str]:
    """The measures of ``keys`` both sides have."""
    return [k for k in keys if k in before.values.columns and k in after.values.columns]


def _paired(before: Side, after: Side, kept: Sequence[str]) -> pl.LazyFrame:
    """The values of ``kept`` paired by question (``KEY__before`` beside ``KEY``), sorted
    by id."""
    return (
        after.values.lazy()
        .select("qid", "kind", *kept)
        .join(
            before.values.lazy().select("qid", *[pl.col(k).alias(f"{k}__before") for k in kept]),
            on="qid",
            how="inner",
        )
        .sort("qid")
    )


def _entry(before: Side, after: Side, n: int) -> dict[str, Any]:
    """A comparison's entry without its measures and changed questions."""
    return {
        "before": before.name,
        "after": after.name,
        "n": n,
        "one_question": round_value(1 / n) if n else None,
        "measures": {},
    }


def _measure_entries(keys: Sequence[str], found: PairedStatistics) -> dict[str, Any]:
    """Each measure's numbers, rounded as report.json writes them."""
    entries = {}
    for column, key in enumerate(keys):
        p_mcnemar = found.p_mcnemar[column]
        mde = found.mde[column]
        entries[key] = {
            "before": round_value(found.before[column]),
            "after": round_value(found.after[column]),
            "difference": round_value(found.difference[column]),
            "ci_low": round_value(found.ci_low[column]),
            "ci_high": round_value(found.ci_high[column]),
            "p_randomization": significant(found.p_randomization[column]),
            "randomization_exact": bool(found.randomization_exact[column]),
            "p_mcnemar": None if p_mcnemar is None else significant(p_mcnemar),
            "test": "randomization" if p_mcnemar is None else "mcnemar",
            "p": significant(found.p_randomization[column] if p_mcnemar is None else p_mcnemar),
            "wins": int(found.wins[column]),
            "ties": int(found.ties[column]),
            "losses": int(found.losses[column]),
            "mde": None if mde is None else round_value(mde),
            "n_needed": int(found.n_needed[column]),
            "design_effect": round(float(found.design_effect[column]), 4),
        }
        if found.clustered:
            entries[key]["test"] = "randomization"
            entries[key]["p"] = significant(found.p_randomization[column])
    return entries


CHANGED_TOTAL = "changed_total"
"""The column counting the questions that moved on any key, beside one per key (no
measure has this name)."""


def _changed_plans(paired: pl.LazyFrame, keys: Sequence[str]) -> list[pl.LazyFrame]:
    """What :func:`changed_questions` reads: each key's listed questions, then the
    counts (per key, and in all); nothing without keys.

    At most :data:`CHANGED_QUESTIONS_KEPT` questions are listed: those first in the
    order the pages show them (largest losses on the first key, then the next key, then
    id). A listed question carries every key on which it moved, so a reader never sees
    a change as "=". Each key's list runs losses first (largest drop first), then gains.
    """
    if not keys:
        return []
    deltas = {key: pl.col(key) - pl.col(f"{key}__before") for key in keys}
    moved = paired.with_columns(
        pl.when(delta.abs() > TOLERANCE).then(delta).otherwise(0.0).alias(f"{key}__delta")
        for key, delta in deltas.items()
    ).filter(pl.any_horizontal(pl.col(f"{key}__delta") != 0.0 for key in keys))
    kept = moved.sort([*(f"{key}__delta" for key in keys), "qid"]).head(CHANGED_QUESTIONS_KEPT)
    return [
        *(
            kept.filter(pl.col(f"{key}__delta") != 0.0)
            .sort(f"{key}__delta", "qid")
            .select(
                "qid",
                "kind",
                pl.col(f"{key}__before").alias("before"),
                pl.col(key).alias("after"),
            )
            for key in keys
        ),
        moved.select(
            *((pl.col(f"{key}__delta") != 0.0).sum().alias(key) for key in keys),
            pl.len().alias(CHANGED_TOTAL),
        ),
    ]


def changed_questions(keys: Sequence[str], frames: Sequence[pl.DataFrame]) -> dict[str, Any]:
    """The questions whose value moved on any of ``keys``, and how many, from the
    frames of :func:`_changed_plans` (collected with every other comparison's)."""
    if not keys:
        return {"changed_questions": {}, "changed_counts": {}, "changed_total": 0}
    *lists, counted = frames
    listed = {
        key: [
            {
                "qid": row["qid"],
                "kind": row["kind"],
                "before": round_value(row["before"]),
                "after": round_value(row["after"]),
            }
            for row in rows.iter_rows(named=True)
        ]
        for key, rows in zip(keys, lists, strict=True)
    }
    counts = {key: int(counted[key][0]) for key in keys}
    return {
        "changed_questions": listed,
        "changed_counts": counts,
        "changed_total": int(counted[CHANGED_TOTAL][0]),
    }


def apply_holm(comparisons: Sequence[dict[str, Any]]) -> None:
    """Holm within each family (every measure of every comparison that belongs to it),
    written into each measure's entry in place (``p_holm``), with the label it decides.
    A list whose measures name no family (the PPI comparisons) is one family."""
    for family in FAMILIES:
        cells = [
            measure
            for entry in comparisons
            for measure in entry["measures"].values()
            if measure.get("family", PRIMARY) == family
        ]
        for measure, adjusted in zip(cells, holm([m["p"] for m in cells]), strict=True):
            measure["p_holm"] = significant(adjusted)
            measure["label"] = label(
                adjusted, measure["ci_low"], measure["ci_high"], measure["mde"]
            )


def pairs_to_compare(names: Sequence[str], reference: str | None) -> list[tuple[str, str]]:
    """Every pair in the order given (before, after), or each run against the reference."""
    if reference is not None:
        return [(reference, name) for name in names if name != reference]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def compare_runs(
    sides: Mapping[str, pl.DataFrame],
    keys: Sequence[str],
    change_keys: Sequence[str],
    reference: str | None = None,
    clusters: Clusters | None = None,
    cluster_by: str | None = None,
    primary_keys: Collection[str] | None = None,
    primary_run: str | None = None,
) -> dict[str, Any]:
    """The ``comparisons`` section: every pair (or every run against ``reference``);
    ``clusters`` (from the gold field ``cluster_by``) when questions are clustered.

    The primary family is ``primary_keys`` (None: every measure) of the pairs with
    ``primary_run`` (default ``reference``); without either, every pair is exploratory.
    """
    primary_run = primary_run or reference
    pairs = pairs_to_compare(list(sides), reference)
    wanted = set(keys if primary_keys is None else primary_keys)
    entries = compare_sides(
        [(Side(a, sides[a]), Side(b, sides[b])) for a, b in pairs],
        keys,
        change_keys,
        clusters=clusters,
        primary=[wanted if primary_run in pair else set() for pair in pairs],
    )
    apply_holm(entries)
    shown = ", ".join(key for key in keys if key in wanted)
    families = families_of(
        entries,
        f"{shown} of each run against {primary_run}"
        if primary_run is not None
        else "nothing: no reference run",
        "every other measure, and every other pair of runs"
        if primary_run is not None
        else "every measure of every pair of runs",
    )
    return {
        "method": {
            **method(None if clusters is None else cluster_by, families),
            "family_size": sum(len(e["measures"]) for e in entries),
        },
        "measures": list(keys),
        "reference_run": reference,
        "pairs": entries,
    }
