"""Is a merge whole: the shards' places in their `reportgen shard` cut, checked.

Each shard measured in a folder `reportgen shard` wrote carries its number, the number
of shards and the whole gold set's fingerprint (merge/shard.json's ``cut``). A merge
of shards from different cuts or gold sets, of a shard whose questions are not its
number's, or missing a shard, would be a report over other questions than it says;
merge refuses them, or (--allow-partial) says in every output what it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportgen.core.model import GoldSet, ReportWarning
from reportgen.errors import UsageError
from reportgen.load.previous.merge_data import ShardData
from reportgen.report.merge import coverage_said, numbered
from reportgen.scale.shard import shard_column
from reportgen.schema import MergeCoverage

ONE_CUT = "merge the shards of one `reportgen shard` cut, each measured in its own folder"


def _cuts(shards: Sequence[ShardData]) -> list[dict[str, Any]] | None:
    """Every shard's cut, all from one cut of one gold set; None when none has one."""
    cuts: list[dict[str, Any] | None] = [shard.meta["cut"] for shard in shards]
    if all(cut is None for cut in cuts):
        return None
    if any(cut is None for cut in cuts):
        uncut = shards[cuts.index(None)]
        raise UsageError(
            f"{uncut.source} was not measured in a folder `reportgen shard` wrote (no "
            "cut.json beside its gold set), and the other shards were",
            ONE_CUT,
        )
    known = [cut for cut in cuts if cut is not None]
    first, source = known[0], shards[0].source
    for shard, cut in zip(shards, known, strict=True):
        if cut["gold_fingerprint"] != first["gold_fingerprint"]:
            raise UsageError(
                f"shards of different gold sets: {source} was cut from the gold set "
                f"{first['gold_fingerprint']}, {shard.source} from {cut['gold_fingerprint']}",
                ONE_CUT,
            )
        if cut["shards"] != first["shards"] or cut["questions"] != first["questions"]:
            raise UsageError(
                f"shards of different cuts: {source} is shard {first['shard']} of "
                f"{first['shards']}, {shard.source} shard {cut['shard']} of {cut['shards']}",
                ONE_CUT,
            )
    return known


def _check_numbers(shards: Sequence[ShardData], cuts: Sequence[dict[str, Any]]) -> None:
    """Each number once, and each shard holding only its number's questions."""
    seen: dict[int, str] = {}
    for shard, cut in zip(shards, cuts, strict=True):
        number, count = cut["shard"], cut["shards"]
        if number in seen:
            raise UsageError(
                f"shard {number} of {count} is given twice: {seen[number]} and {shard.source}",
                "pass each shard's output once",
            )
        seen[number] = shard.source
        qids = shard.frames["questions"]["qid"]
        strays = qids.filter(shard_column(qids, count) != number)
        if strays.len():
            raise UsageError(
                f"{shard.source} holds question {strays[0]!r}, which is not shard {number}'s "
                f"of {count} ({strays.len()} such question(s)): its gold set is not the cut's",
                "measure the shard folder `reportgen shard` wrote, with its files unchanged",
            )


def merge_coverage(shards: Sequence[ShardData], allow_partial: bool) -> MergeCoverage | None:
    """What of the cut the shards hold; refused when not whole (unless allowed) or not
    from one cut. None for shards cut by hand (they carry no cut to check)."""
    cuts = _cuts(shards)
    if cuts is None:
        return None
    _check_numbers(shards, cuts)
    count, whole = cuts[0]["shards"], cuts[0]["questions"]
    missing = sorted(set(range(count)) - {cut["shard"] for cut in cuts})
    if missing and not allow_partial:
        verb = "is" if len(missing) == 1 else "are"
        raise UsageError(
            f"{numbered(missing)} of {count} {verb} missing: merge was given "
            f"{numbered(sorted(cut['shard'] for cut in cuts))}",
            f"pass every shard's output (the cut made {count}), or --allow-partial to "
            "merge these anyway",
        )
    return {
        "questions": sum(shard.frames["questions"].height for shard in shards),
        "of": whole,
        "shards": count,
        "missing_shards": missing,
    }


def check_whole_gold(
    coverage: MergeCoverage | None, shards: Sequence[ShardData], gold: GoldSet
) -> None:
    """Every shard of the cut together must give back the gold set that was cut."""
    if coverage is None or coverage["missing_shards"]:
        return
    cut = shards[0].meta["cut"]["gold_fingerprint"]
    if gold.fingerprint != cut:
        raise UsageError(
            f"the shards' questions make the gold set {gold.fingerprint}, and the cut was of "
            f"{cut}: a shard's gold set changed after the cut",
            "cut the gold set again and measure every shard in its folder",
        )


def shard_numbers(shards: Sequence[ShardData]) -> list[int | None]:
    """Each shard's number in its cut (None when cut by hand), for merged_from."""
    return [None if shard.meta["cut"] is None else shard.meta["cut"]["shard"] for shard in shards]


def partial_warning(coverage: MergeCoverage) -> ReportWarning | None:
    """The warning every output shows when shards of the cut are missing."""
    missing = coverage["missing_shards"]
    if not missing:
        return None
    return ReportWarning(
        code="partial_merge",
        message=f"{coverage_said(coverage)}: merged with --allow-partial, so every number "
        "here is over these questions only",
        count=len(missing),
        examples=tuple(f"shard {number}" for number in missing),
    )
