"""``reportgen merge``: shards measured apart, back into the report of all their questions.

Shards measured with ``--merge-data`` carry what the analyses read (merge/), so the
merged evaluation goes the way of ``reportgen report`` after measuring: the analyses
(cells, cutoff, checks, comparisons, baseline, gate), report.json, the pages. Shards
holding only per-question values (``trec_eval -q`` output, older reportgen) give the
merged means (report/merge.py): report.json and the per-question file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.analyse.gate import failures
from reportgen.core.display import Glanceable, names
from reportgen.core.filesystem import reading
from reportgen.core.labels import created_at
from reportgen.core.model import GoldSet
from reportgen.core.records import dataclass
from reportgen.errors import GateFailed, UsageError, rules_failed
from reportgen.load import load_manifest
from reportgen.load.evidence.chunkings import chunk_manifest, load_chunkings
from reportgen.load.evidence.chunks import parse_chunks_spec
from reportgen.load.evidence.spans import Documents
from reportgen.load.inputs.question_meta import with_question_meta
from reportgen.load.previous.baseline import load_baseline, per_question_path
from reportgen.load.previous.merge_data import (
    ShardData,
    chunk_map_digest,
    has_merge_data,
    read_merge_data,
    spans_digest,
)
from reportgen.load.previous.shards import Shard
from reportgen.measure.chunked import Chunkings
from reportgen.pipeline import (
    Ending,
    Evidence,
    ReportResult,
    analyse_and_write,
    chart_worker,
    draws_charts,
    refuse_junit_clash,
    refuse_planned,
    write_junit,
)
from reportgen.render.manifest import stale_files
from reportgen.render.output import (
    per_question_bytes,
    refuse_overwriting_inputs,
    report_json,
    write_files,
)
from reportgen.request import MergeRequest, check_request
from reportgen.scale.coverage import (
    check_whole_gold,
    merge_coverage,
    partial_warning,
    shard_numbers,
)
from reportgen.scale.rebuild import (
    agreed,
    checked_for,
    chunk_mapped,
    manifest_named,
    merged_evaluation,
    merged_gold,
    merged_verdicts,
)
from reportgen.schema import MergedReport, MergedShard
from reportgen.schema.merge_files import MERGE_FOLDER


@dataclass(frozen=True, repr=False)
class MergeResult(Glanceable):
    """A merge of shards holding per-question values only: the merged means."""

    report: MergedReport
    files: list[Path]
    notes: tuple[str, ...] = ()
    """What the merge could not write, and why."""

    def glance(self) -> list[tuple[str, str]]:
        return [
            ("runs", names(list(self.report["runs"]))),
            ("questions", str(self.report["gold"]["questions"])),
            ("files", str(len(self.files))),
            ("notes", str(len(self.notes))),
        ]

    @property
    def failure(self) -> GateFailed | None:
        """The failed quality rules (``--min``), as ``reportgen report`` fails them."""
        failed = failures(self.report.get("gate"))
        if not failed:
            return None
        return rules_failed(failed)


def check_merge_request(request: MergeRequest) -> None:
    """Refuse a bad value before any shard is read (the options merge shares with
    report by request.check_request)."""
    check_request(request)
    if request.cluster_by not in (None, "document"):
        raise UsageError(
            f"--cluster-by {request.cluster_by}: a merge reads the shards' gold questions, "
            "which do not keep the gold set's own fields",
            "cluster by document (evidence, doc#chunk ids or a chunk map), or report on "
            "the whole gold set with `reportgen report --cluster-by` instead of merging",
        )
    if not request.inputs.shards:
        raise UsageError("no shard to merge", "pass the per-question outputs of every shard")
    _refuse_repeated_shards(request.inputs.shards)


def _refuse_repeated_shards(shards: Sequence[str | Path]) -> None:
    """A shard given twice (a shell glob and a name, a path spelt two ways) is a mistake to
    name as such, not as questions two shards share."""
    seen: dict[Path, str | Path] = {}
    for shard in shards:
        resolved = Path(shard).resolve()
        if resolved in seen:
            first = seen[resolved]
            again = "" if str(first) == str(shard) else f" (as {first} and as {shard})"
            raise UsageError(
                f"{shard}: this shard is given twice{again}",
                "pass each shard's folder once",
            )
        seen[resolved] = shard


def _has_merge_data(shard: str | Path) -> bool:
    """Whether the shard (its folder, or a file in it) has merge/; an unreadable path is
    an input error naming it."""
    path = Path(shard)
    with reading(path):
        return has_merge_data(path if path.is_dir() else path.parent)


def merge(request: MergeRequest) -> ReportResult | MergeResult:
    """The whole report when every shard has merge/, else the merged means."""
    check_merge_request(request)
    shards = [Path(shard) for shard in request.inputs.shards]
    whole = [_has_merge_data(shard) for shard in shards]
    if all(whole):
        folders = [shard if shard.is_dir() else shard.parent for shard in shards]
        return merge_whole(request, [read_merge_data(folder) for folder in folders])
    if any(whole):
        without = shards[whole.index(False)]
        raise UsageError(
            f"{without} has no {MERGE_FOLDER}/ folder, and other shards have one",
            "measure every shard with `reportgen report --merge-data`, then merge",
        )
    if request.slice_by or request.slice_gate or request.inputs.question_meta:
        raise UsageError(
            "--slice-by, --slice-gate and --question-meta need the shards' gold questions, "
            "which per-question files do not keep",
            "measure every shard with `reportgen report --merge-data`, then merge",
        )
    return merge_values(request)


def _shard_fingerprint(shard: ShardData) -> str:
    frames = shard.frames
    part = GoldSet(frames["questions"], frames["judgments"], "", forbidden=frames["forbidden"])
    return part.fingerprint


def _merged_from(shards: Sequence[ShardData]) -> list[MergedShard]:
    """Each shard, what it held, and its number in its cut (when it came from one)."""
    merged: list[MergedShard] = []
    for shard, number in zip(shards, shard_numbers(shards), strict=True):
        entry: MergedShard = {
            "source": shard.source,
            "questions": shard.frames["questions"].height,
            "fingerprint": _shard_fingerprint(shard),
        }
        if number is not None:
            entry["shard"] = number
        merged.append(entry)
    return merged


SHARD_OUTPUTS = ("report.json", "per_question.csv", "per_question.parquet")
"""What a shard's measure job wrote beside merge/: a merge written over them spoils the shard."""


def _files_read(request: MergeRequest, shards: Sequence[ShardData]) -> list[tuple[str, Path]]:
    """Every file a whole merge reads: none may be overwritten."""
    files = [
        ("the shard's merge data", path)
        for shard in shards
        for path in sorted((shard.folder / MERGE_FOLDER).iterdir())
    ]
    files += [
        ("the shard's " + name, shard.folder / name)
        for shard in shards
        for name in SHARD_OUTPUTS
        if (shard.folder / name).exists()
    ]
    inputs = request.inputs
    if inputs.manifest is not None:
        files.append(("the manifest", Path(inputs.manifest)))
    for spec in inputs.chunks:
        _, path = parse_chunks_spec(spec) if isinstance(spec, str) else spec
        files.append(("the chunk map", Path(path)))
    if inputs.baseline is not None:
        files.append(("the baseline", Path(inputs.baseline)))
    gate = request.checks.gate
    return files + [("the config file", Path(source)) for source in (gate.sources if gate else ())]


def _as_of(request: MergeRequest, shards: Sequence[ShardData], indexed: bool) -> date | None:
    """The shards kept the chunks forbidden for one audience on one date (and in one
    manifest): merge checks the same, so the leaks are theirs."""
    checked = checked_for(shards)
    audience, given = request.checks.audience, request.checks.as_of
    if audience != checked["audience"]:
        raise UsageError(
            f"--audience is {audience!r}, and the shards were measured for {checked['audience']!r}",
            "give merge the shards' --audience (or measure them for this one)",
        )
    as_of = None if checked["as_of"] is None else date.fromisoformat(checked["as_of"])
    if given is not None and as_of is not None and given != as_of:
        raise UsageError(
            f"--as-of is {given}, and the shards were measured as of {as_of}",
            "leave --as-of out (merge takes the shards'), or measure them as of this date",
        )
    named = manifest_named(shards)
    if named is not None and not indexed:
        raise UsageError(
            f"the shards were checked against the manifest {named['source']}, and merge has none",
            f"pass it to merge too: --manifest {named['source']}",
        )
    if named is None and indexed:
        raise UsageError(
            "merge has a manifest, and the shards were measured without one",
            "measure the shards with --manifest too, or merge without it",
        )
    return given or as_of


def _chunkings(
    request: MergeRequest, shards: Sequence[ShardData], gold: GoldSet
) -> Chunkings | None:
    """The chunk maps the shards were measured through, loaded from merge's --chunks
    (they cover the whole index, so no shard carries them): the same runs must have one."""
    mapped = chunk_mapped(shards)
    inputs = request.inputs
    names = list(shards[0].meta["runs"])
    documents = None if inputs.docs is None else Documents(Path(inputs.docs))
    chunkings = load_chunkings(gold, inputs.chunks, names, documents, inputs.chunks_format)
    given = {} if chunkings is None else dict(chunkings.maps)
    if set(given) != set(mapped):
        odd = sorted(set(given) ^ set(mapped))[0]
        problem = (
            f"run {odd!r} was measured through the chunk map {mapped[odd]}, and merge has none"
            if odd in mapped
            else f"run {odd!r} has a chunk map in merge's --chunks, and its shards had none"
        )
        raise UsageError(problem, "give merge the shards' --chunks (and --docs)")
    digests = agreed(
        shards,
        "the chunk maps' content",
        lambda shard: {name: run["chunk_map_digest"] for name, run in shard.meta["runs"].items()},
    )
    for name, chunk_map in given.items():
        if chunk_map_digest(chunk_map) != digests[name]:
            raise UsageError(
                f"run {name!r} was measured through the chunk map {mapped[name]}, and merge's "
                f"--chunks gives it {chunk_map.source}, which holds other chunks",
                "give merge the chunk maps the shards were measured with, unchanged",
            )
    if chunkings is not None:
        _check_spans(shards, chunkings)
    return chunkings


def _check_spans(shards: Sequence[ShardData], chunkings: Chunkings) -> None:
    """The evidence merge located (its --docs) is, question by question, what each shard
    located: other documents would move every span measure and derived judgment."""
    for shard in shards:
        questions = shard.frames["questions"].get_column("qid").implode()
        mine = chunkings.spans.filter(pl.col("qid").is_in(questions))
        if spans_digest(mine) != shard.meta["spans_digest"]:
            raise UsageError(
                f"the evidence merge located in its documents (--docs) is not what "
                f"{shard.source} located for its questions",
                "give merge the shards' --docs (the same documents, unchanged)",
            )


def _verdicts_run(request: MergeRequest, shards: Sequence[ShardData]) -> str | None:
    """The run the shards' verdicts judged: merge judges it too (its cells are what the
    shards' reports gave); another --verdicts-run is refused."""
    if shards[0].meta["verdicts"] is None:
        return request.inputs.verdicts_run
    judged: str = agreed(
        shards,
        "the run the verdicts judge (--verdicts-run)",
        lambda s: s.meta["verdicts"]["judged"],
    )
    given = request.inputs.verdicts_run
    if given is not None and given != judged:
        raise UsageError(
            f"--verdicts-run is {given!r}, and the shards' verdicts judged {judged!r}",
            f"leave --verdicts-run out (merge takes the shards'), or measure the shards with "
            f"--verdicts-run {given}",
        )
    if given is None and all(s.meta["verdicts"].get("judged_assumed") for s in shards):
        return None  # assumed again (the first run, as the shards did), and said so
    return judged


def merge_whole(request: MergeRequest, shards: Sequence[ShardData]) -> ReportResult:
    """The report ``reportgen report`` writes over every shard's questions."""
    inputs, outputs = request.inputs, request.outputs
    coverage = merge_coverage(shards, request.allow_partial)
    gold = merged_gold(shards)
    if request.inputs.question_meta is not None:
        gold = with_question_meta(gold, request.inputs.question_meta)
    check_whole_gold(coverage, shards, gold)
    marks = [shard.frames["ppi_audit"] for shard in shards if "ppi_audit" in shard.frames]
    if marks:  # the audit's marks (--judgments): the one gold field a merge needs
        gold = dataclasses.replace(gold, attributes=pl.concat(marks))
    verdicts_run = _verdicts_run(request, shards)
    chunkings = _chunkings(request, shards, gold)
    evaluation = merged_evaluation(shards, gold, chunkings)
    if inputs.trec_eval is not None and inputs.trec_eval != evaluation.settings.trec_eval:
        raise UsageError(
            f"--trec-eval is {inputs.trec_eval} but the shards were measured with "
            f"{evaluation.settings.trec_eval}",
            "leave the option out: the shards decide",
        )
    index = (
        chunk_manifest(chunkings)
        if inputs.manifest is None
        else load_manifest(inputs.manifest, inputs.manifest_format)
    )
    as_of = _as_of(request, shards, index is not None)
    with chart_worker(outputs.formats) as worker:
        created = created_at()
        previous = (
            None
            if inputs.baseline is None
            else load_baseline(
                inputs.baseline,
                gold_fingerprint=evaluation.gold.fingerprint,
                version=inputs.baseline_version,
                commit=inputs.baseline_commit,
                fallback=inputs.baseline_fallback,
            )
        )
        files_read = _files_read(request, shards)
        if previous is not None:
            files_read.append(
                ("the baseline's per-question file", per_question_path(previous.path))
            )
        refuse_planned(outputs, files_read, "merge")
        evidence = Evidence(
            merged_verdicts(shards),
            verdicts_run,
            index,
            previous,
            as_of,
            **_judge_evidence(shards),
        )
        partial = None if coverage is None else partial_warning(coverage)
        return analyse_and_write(
            evaluation,
            evidence,
            Ending.of(request),
            created,
            files_read,
            worker,
            _merged_from(shards),
            coverage=coverage,
            warnings=() if partial is None else (partial,),
        )


def _judge_evidence(shards: Sequence[ShardData]) -> dict[str, Any]:
    """The judge's grades and the runs' values on them, from every shard measured with
    --judgments (all or none: a merge of some would count part of the judge's questions)."""
    judged = [shard for shard in shards if shard.meta["judgments"] is not None]
    if not judged:
        return {}
    if len(judged) < len(shards):
        without = next(shard for shard in shards if shard.meta["judgments"] is None)
        raise UsageError(
            f"shard {without.source} was measured without --judgments, and "
            f"{judged[0].source} with them",
            "measure every shard with the same --judgments file",
        )
    sources = sorted({shard.meta["judgments"] for shard in judged})
    if len(sources) > 1:
        raise UsageError(
            f"the shards read different judgments: {', '.join(sources)}",
            "measure every shard with the same --judgments file",
        )
    return {
        "judgments": pl.concat(shard.frames["ppi_judgments"] for shard in judged),
        "judgments_source": sources[0],
        "judged_values": pl.concat(shard.frames["ppi_values"] for shard in judged),
    }


def _shard_inputs(shards: Sequence[Shard]) -> list[tuple[str, Path]]:
    """Every file a merge of values reads (per-question files, the report.json beside)."""
    inputs = []
    for shard in shards:
        inputs.append(("the shard", Path(shard.source)))
        if shard.report is not None:
            inputs.append(("the shard's report.json", Path(shard.source).parent / "report.json"))
    return inputs


def merge_values(request: MergeRequest) -> MergeResult:
    """The merged means of shards holding per-question values only; ``--min`` rules are
    checked on them (max-drop rules need a baseline, which needs the whole report)."""
    from reportgen.load.previous.shards import load_shard
    from reportgen.report.merge import merge_shards

    inputs, checks, gate = request.inputs, request.checks, request.checks.gate
    whole_only = {
        "--baseline": inputs.baseline,
        "--manifest": inputs.manifest,
        "--verdicts-run": inputs.verdicts_run,
        # the chunk maps judge the runs' chunks, and such shards hold no chunks to judge
        "--chunks": inputs.chunks,
        "--docs": inputs.docs,
        "--audience": checks.audience,
        "--as-of": checks.as_of,
        "--strict": checks.strict,
        "--reference-run": request.reference_run,
        "--cluster-by": request.cluster_by,
        "--compare-measures": request.compare_measures,
        "--max-drop": gate is not None and any(rule.type == "max-drop" for rule in gate.rules),
        "--max-rise": gate is not None and any(rule.type == "max-rise" for rule in gate.rules),
        "--merge-data": request.outputs.merge_data,
    }
    given = [flag for flag, value in whole_only.items() if value]
    if given:
        raise UsageError(
            f"{given[0]} needs the whole report, and the shards hold per-question values only",
            "measure the shards with `reportgen report --merge-data`, then merge",
        )
    loaded = [load_shard(shard) for shard in request.inputs.shards]
    report, rows = merge_shards(
        loaded,
        trec_eval=request.inputs.trec_eval,
        version=request.version,
        commit=request.commit,
        created=created_at(),
        gate=gate,
    )
    outputs = request.outputs
    files = {
        "report.json": report_json(report).encode(),
        f"per_question.{outputs.per_question_format}": per_question_bytes(
            rows, outputs.per_question_format
        ),
    }
    out_dir = Path(outputs.out_dir)
    removed = stale_files(out_dir, files)  # the earlier report's: never an input either
    refuse_overwriting_inputs(out_dir, [*files, *removed], _shard_inputs(loaded), "merge")
    junit = outputs.junit
    if junit is not None:
        refuse_junit_clash(Path(junit), out_dir, files, _shard_inputs(loaded), "merge")
    notes: tuple[str, ...] = ()
    if draws_charts(outputs.formats):
        notes = (
            "the shards hold per-question values only, so no pages were written (measure "
            "them with `reportgen report --merge-data` for the whole report)",
        )
    written = write_files(out_dir, files, record="replace")
    if junit is not None:
        written.append(write_junit(Path(junit), report, checks.strict))
    return MergeResult(report, written, notes)
