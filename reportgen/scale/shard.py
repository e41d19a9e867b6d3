"""Cut a gold set, its runs and its verdicts into shards by question (``reportgen shard``).

A question goes to shard ``sha256(utf-8 id)[:8] as a big-endian integer mod N``: a
fixed digest, not Python's ``hash()`` (salted per process), so every machine, engine
and reportgen version sends a question to the same shard. Text files are cut line by
line, so each shard is a file of the input's own format (header, ``_meta`` and
comment lines go to every shard); Parquet runs are cut with a lazy scan; JSON
documents (ranx runs, promptfoo and DeepEval results) keep their shape with fewer
records. Each input is read by its loader first, so a bad file is refused here, with
its line, not in N measure jobs.
"""

from __future__ import annotations

import hashlib
import io
import json
import shlex
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.display import Glanceable, names
from reportgen.core.model import GoldSet, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import UsageError, printable
from reportgen.load import load_gold, load_run, load_verdicts, parse_run_spec
from reportgen.load.formats.csv_input import column, csv_rows
from reportgen.load.formats.files import polars_source, read_lines
from reportgen.load.formats.ids import json_id
from reportgen.load.formats.json_input import json_document, json_records, pick
from reportgen.load.formats.vocabulary import ID_KEYS, detect_format
from reportgen.load.previous.merge_schema import MAX_SHARDS
from reportgen.load.previous.shards import CUT_FILE

SHARED = -1
"""The shard of a line every shard gets: headers, ``_meta``, leading comments."""


def shard_of(qid: str, shards: int) -> int:
    """The shard a question belongs to, the same everywhere (see the module's rule)."""
    digest = hashlib.sha256(qid.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % shards


def shard_column(qids: pl.Series, shards: int) -> pl.Series:
    """:func:`shard_of` for a column of ids (one digest per distinct id)."""
    distinct = qids.drop_nulls().unique()
    owners = pl.DataFrame(
        {"qid": distinct, "shard": [shard_of(q, shards) for q in distinct]},
        schema={"qid": pl.String, "shard": pl.Int64},
    )
    return qids.to_frame("qid").join(owners, on="qid", how="left", maintain_order="left")["shard"]


@dataclass(frozen=True, repr=False)
class ShardPlan(Glanceable):
    """What ``reportgen shard`` wrote: the folders, and the files inside each."""

    folders: list[Path]
    gold: str
    runs: dict[str, str]
    verdicts: list[str]
    """The verdict files, one per judge trial (empty: none)."""
    questions: list[int]
    """Gold questions per shard."""
    gold_fingerprint: str
    """The whole gold set's: a merge refuses shards of another gold set or cut."""
    replicates: dict[str, list[str]] = field(default_factory=dict)
    """Run -> its other replicates' files (``runs`` holds the first), in the order given."""

    def glance(self) -> list[tuple[str, str]]:
        return [
            ("shards", str(len(self.folders))),
            ("questions", ", ".join(map(str, self.questions))),
            ("runs", names(list(self.runs))),
            ("folder", str(self.folders[0].parent) if self.folders else "none"),
        ]

    def command(self, options: Sequence[str] = ()) -> str:
        """The ``reportgen report`` line that measures one shard, run inside its folder
        (with merge/, what ``reportgen merge`` rebuilds the whole report from)."""
        words = ["reportgen", "report", self.gold]
        for name, path in self.runs.items():
            words += [f"{name}={file}" for file in (path, *self.replicates.get(name, ()))]
        for name in self.verdicts:
            words += ["--verdicts", name]
        return shlex.join([*words, "--merge-data", *options])


def _require_every_shard(path: Path, found: pl.Series, shards: int) -> None:
    """A shard with no record of a file cannot be measured (its loader refuses an
    empty file): say so now, not in that shard's job."""
    empty = sorted(set(range(shards)) - set(found.to_list()))
    if empty:
        raise UsageError(
            f"shard {empty[0]} of {shards} would hold no record of {printable(path)} "
            f"({len(empty)} such shard(s)): its questions all fall in other shards",
            "use fewer shards",
        )


def _line_shards(owners: pl.DataFrame, shards: int) -> pl.DataFrame:
    """(line, shard) from (line, qid): a null qid is a line for every shard."""
    return owners.select(
        "line",
        pl.when(pl.col("qid").is_null())
        .then(SHARED)
        .otherwise(shard_column(owners["qid"], shards))
        .alias("shard"),
    )


def _cut_lines(path: Path, line_shards: pl.DataFrame, shards: int) -> list[bytes]:
    """Each shard's lines of a text file, ``line_shards`` naming each record's first
    line. Lines between records follow the record above (a quoted CSV value over
    several lines, a comment); lines before the first record go to every shard."""
    _require_every_shard(path, line_shards["shard"], shards)
    lines = read_lines(path).join(line_shards, on="line", how="left", maintain_order="left")
    lines = lines.with_columns(pl.col("shard").forward_fill().fill_null(SHARED))
    return [
        ("\n".join(lines.filter(pl.col("shard").is_in([SHARED, shard]))["text"]) + "\n").encode()
        for shard in range(shards)
    ]


def _column_owners(path: Path) -> pl.DataFrame:
    """(line, qid) of whitespace-column files (TREC runs and qrels, BEIR's TSV)."""
    lines = read_lines(path).with_columns(
        pl.col("text").str.extract(r"^[ \t]*([^ \t\r]+)").alias("qid")
    )
    lines = lines.filter(pl.col("qid").is_not_null() & ~pl.col("qid").str.starts_with("#"))
    header = lines.head(1).filter(pl.col("qid") == "query-id")  # BEIR's header line
    return lines.select(
        "line",
        pl.when(pl.col("line").is_in(header["line"].implode()))
        .then(None)
        .otherwise("qid")
        .alias("qid"),
    )


def _jsonl_owners(path: Path) -> pl.DataFrame:
    """(line, qid) of JSON Lines gold sets and runs; the ``_meta`` line is shared."""
    found: dict[str, list[Any]] = {"line": [], "qid": []}
    for line, record in json_records(path):
        raw = None if "_meta" in record else pick(record, ID_KEYS, path, line)
        found["line"].append(line)
        found["qid"].append(None if raw is None else json_id(raw, path, line, "question id"))
    return pl.DataFrame(found, schema={"line": pl.Int64, "qid": pl.String})


def _csv_owners(path: Path) -> pl.DataFrame:
    header, rows = csv_rows(path)
    cid = column(path, header, ID_KEYS)
    return pl.DataFrame(
        {"line": [line for line, _ in rows], "qid": [fields[cid].strip() for _, fields in rows]},
        schema={"line": pl.Int64, "qid": pl.String},
    )


def _cut_parquet(path: Path, shards: int) -> list[bytes]:
    """A Parquet run cut by a lazy scan; the id column is the loader's (id, qid, ...)."""
    names = pl.read_parquet_schema(polars_source(path))
    header = [name.lower() for name in names]
    qid = list(names)[column(path, header, ID_KEYS)]
    scan = pl.scan_parquet(polars_source(path), glob=False)
    ids = scan.select(pl.col(qid).cast(pl.String).unique()).collect()[qid]
    owners = pl.DataFrame({"_qid": ids, "_shard": shard_column(ids, shards)})
    _require_every_shard(path, owners["_shard"], shards)
    keyed = scan.join(
        owners.lazy(), left_on=pl.col(qid).cast(pl.String), right_on="_qid", maintain_order="left"
    )
    cut = []
    for shard in range(shards):
        buffer = io.BytesIO()
        keyed.filter(pl.col("_shard") == shard).drop("_shard").collect().write_parquet(buffer)
        cut.append(buffer.getvalue())
    return cut


def _cut_ranx(path: Path, shards: int) -> list[bytes]:
    document = json_document(path, "write one JSON object: question -> chunk -> score")
    cut: list[dict[str, Any]] = [{} for _ in range(shards)]
    keys = pl.Series([key for key in document if key != "_meta"], dtype=pl.String)
    _require_every_shard(path, shard_column(keys, shards), shards)
    for qid, ranked in document.items():
        for shard in range(shards) if qid == "_meta" else [shard_of(qid, shards)]:
            cut[shard][qid] = ranked
    return [(json.dumps(part, ensure_ascii=False) + "\n").encode() for part in cut]


def _cut_records(path: Path, rows: pl.DataFrame, shards: int, fmt: str) -> list[bytes]:
    """A promptfoo or DeepEval document with, in each shard, only its own records
    (``rows``: position, shard; positions as the loader counted them, from 1)."""
    _require_every_shard(path, rows["shard"], shards)
    document = json_document(path, "write one JSON document")
    if fmt == "promptfoo":
        parent = document["results"] if isinstance(document["results"], dict) else document
        key = "results"
    else:
        data = document.get("testRunData")
        parent, key = (data, "testCases") if isinstance(data, dict) else (document, "testCases")
    records = parent[key]
    cut = []
    for shard in range(shards):
        positions = rows.filter(pl.col("shard").is_in([SHARED, shard]))["line"].to_list()
        parent[key] = [records[position - 1] for position in positions]
        cut.append((json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode())
    parent[key] = records
    return cut


def _verdict_shards(verdicts: VerdictSet, gold: GoldSet, shards: int) -> pl.DataFrame:
    """(line, shard) of every verdict; by question text when the file has no ids (its
    unknown questions go to shard 0, to be counted once)."""
    rows = verdicts.rows
    if verdicts.join_on == "question":
        texts = gold.questions.select("qid", "question").drop_nulls()
        normal = {" ".join(text.split()): qid for qid, text in texts.iter_rows()}
        rows = rows.with_columns(
            pl.col("question").replace_strict(normal, default=None).alias("qid")
        )
    return rows.select("line", shard_column(rows["qid"], shards).fill_null(0).alias("shard"))


OWNERS: dict[str, Callable[[Path], pl.DataFrame]] = {
    "qrels": _column_owners,
    "trec": _column_owners,
    "jsonl": _jsonl_owners,
    "csv": _csv_owners,
}
"""How each text format names a record's question; Parquet and JSON documents apart."""


def cut_gold(path: Path, fmt: str, shards: int) -> list[bytes]:
    return _cut_lines(path, _line_shards(OWNERS[fmt](path), shards), shards)


def cut_run(path: Path, fmt: str, shards: int) -> list[bytes]:
    if fmt in OWNERS:
        return _cut_lines(path, _line_shards(OWNERS[fmt](path), shards), shards)
    return _cut_parquet(path, shards) if fmt == "parquet" else _cut_ranx(path, shards)


def cut_verdicts(path: Path, verdicts: VerdictSet, gold: GoldSet, shards: int) -> list[bytes]:
    rows = _verdict_shards(verdicts, gold, shards)
    if verdicts.format in ("promptfoo", "deepeval"):
        return _cut_records(path, rows, shards, verdicts.format)
    return _cut_lines(path, rows, shards)


SUFFIXES = {
    "qrels": ".qrels",
    "trec": ".trec",
    "jsonl": ".jsonl",
    "csv": ".csv",
    "parquet": ".parquet",
    "json": ".json",
    "promptfoo": ".json",
    "deepeval": ".json",
    "ragas": ".csv",
}


def _suffix(path: Path, fmt: str, kind: str) -> str:
    """The input's own extension when it names the format, else the format's."""
    if kind == "verdicts":
        return path.suffix if path.suffix.lower() in (".jsonl", ".csv", ".json") else SUFFIXES[fmt]
    known = {".jsonl", ".ndjson", ".json", ".csv", ".parquet", ".pq", ".trec", ".run", ".qrels"}
    return path.suffix if path.suffix.lower() in known | {".txt", ".tsv"} else SUFFIXES[fmt]


def _check_count(shards: int, gold: GoldSet) -> list[int]:
    if not 1 <= shards <= MAX_SHARDS:
        raise UsageError(
            f"--shards {shards} is not a number of shards",
            f"pass a whole number from 1 to {MAX_SHARDS:,}",
        )
    owners = shard_column(gold.questions["qid"], shards)
    counts = owners.value_counts().sort("shard")
    per_shard = dict(counts.iter_rows())
    questions = [per_shard.get(shard, 0) for shard in range(shards)]
    if 0 in questions:
        raise UsageError(
            f"shard {questions.index(0)} of {shards} would hold none of the gold set's "
            f"{gold.questions.height} questions",
            "use fewer shards: each must hold questions to be measured",
        )
    return questions


def make_shards(
    gold: str | Path,
    runs: Sequence[str | Path | tuple[str | None, str | Path]],
    out_dir: str | Path,
    shards: int,
    *,
    verdicts: str | Path | Sequence[str | Path] | None = None,
    gold_format: str | None = None,
    run_format: str | None = None,
    verdict_format: str | None = None,
    verdict_metric: str | None = None,
    verdict_threshold: float | None = None,
) -> ShardPlan:
    """Cut the inputs into ``out_dir/shard-0 .. shard-(N-1)``, nothing written on an error.

    Every shard holds the same file names, so one ``reportgen report`` line (see
    :meth:`ShardPlan.command`) measures any of them; ``shards.json`` says which
    questions went where and how.
    """
    from reportgen.render.output import refuse_overwriting_inputs, safe_folder_name, write_files

    out = Path(out_dir)
    gold_path = Path(gold)
    gold_set = load_gold(gold_path, gold_format)
    questions = _check_count(shards, gold_set)
    gold_fmt = detect_format(gold_path, gold_format, "gold")
    gold_name = "gold" + _suffix(gold_path, gold_fmt, "gold")
    files: dict[str, list[bytes]] = {gold_name: cut_gold(gold_path, gold_fmt, shards)}
    inputs = [("the gold set", gold_path)]
    run_files: dict[str, str] = {}
    replicate_files: dict[str, list[str]] = {}
    for spec in runs:
        if isinstance(spec, Path):
            spec = (None, spec)
        name, path = parse_run_spec(spec) if isinstance(spec, str) else spec
        path = Path(path)
        fmt = detect_format(path, run_format, "run")
        if fmt != "parquet":  # a Parquet run is checked by its measure job: it may not fit here
            name = load_run(path, name, fmt).name
        name = printable(name or path.stem)
        cut_name = f"runs/{safe_folder_name(name)}{_suffix(path, fmt, 'run')}"
        if name in run_files:  # a replicate of the run: runs/dense-2.trec, ...
            more = replicate_files.setdefault(name, [])
            stem = f"runs/{safe_folder_name(name)}-{len(more) + 2}"
            cut_name = f"{stem}{_suffix(path, fmt, 'run')}"
            more.append(cut_name)
        else:
            run_files[name] = cut_name
        files[cut_name] = cut_run(path, fmt, shards)
        inputs.append((f"run {name!r}", path))
    trials = [verdicts] if isinstance(verdicts, str | Path) else list(verdicts or [])
    verdict_names = []
    for number, verdict_file in enumerate(trials, start=1):
        verdict_path = Path(verdict_file)
        verdict_set = load_verdicts(
            verdict_path, verdict_format, metric=verdict_metric, threshold=verdict_threshold
        )
        fmt = detect_format(verdict_path, verdict_format, "verdict", verdict_metric)
        # judge trials keep their order: verdicts-1, verdicts-2, ...
        stem = "verdicts" if len(trials) == 1 else f"verdicts-{number}"
        verdict_names.append(stem + _suffix(verdict_path, fmt, "verdicts"))
        files[verdict_names[-1]] = cut_verdicts(verdict_path, verdict_set, gold_set, shards)
        inputs.append(("the verdicts", verdict_path))
    plan = ShardPlan(
        folders=[out / f"shard-{shard}" for shard in range(shards)],
        gold=gold_name,
        runs=run_files,
        verdicts=verdict_names,
        replicates=replicate_files,
        questions=questions,
        gold_fingerprint=gold_set.fingerprint,
    )
    for shard in range(shards):
        files.setdefault(CUT_FILE, []).append(_cut(plan, shard))
    manifest = {"shards.json": (json.dumps(_manifest(plan), indent=2) + "\n").encode()}
    _refuse_earlier_shards(out, shards)
    for folder in plan.folders:
        refuse_overwriting_inputs(folder, files, inputs, "shard")
    refuse_overwriting_inputs(out, manifest, inputs, "shard")
    for shard, folder in enumerate(plan.folders):
        mine = {name: parts[shard] for name, parts in files.items()}
        write_files(folder, mine, subfolders=("runs",))
    write_files(out, manifest)  # last: once it is there, every shard is whole
    return plan


def _refuse_earlier_shards(out: Path, shards: int) -> None:
    """A shard folder left by an earlier cut into more shards would be measured and merged
    with this cut's (a loop over shard-*/, a matrix), its questions counted twice."""
    if not out.is_dir():
        return
    left = sorted(
        (int(folder.name.removeprefix("shard-")), folder)
        for folder in out.glob("shard-*")
        if folder.name.removeprefix("shard-").isdigit()
    )
    stale = [folder for number, folder in left if number >= shards]
    if stale:
        raise UsageError(
            f"{stale[0]}: a shard folder left by an earlier cut into more shards "
            f"({len(stale)} folder(s) beyond shard-{shards - 1})",
            f"remove {out} or cut into an empty --out folder",
        )


def _cut(plan: ShardPlan, shard: int) -> bytes:
    """cut.json of one shard: its report --merge-data carries it to merge, which then
    knows a shard is missing or comes from another cut."""
    cut = {
        "shard": shard,
        "shards": len(plan.folders),
        "gold_fingerprint": plan.gold_fingerprint,
        "questions": sum(plan.questions),
    }
    return (json.dumps(cut, indent=2) + "\n").encode()


def _manifest(plan: ShardPlan) -> dict[str, Any]:
    return {
        "shards": len(plan.folders),
        "rule": "shard = int.from_bytes(sha256(question_id.encode('utf-8')).digest()[:8], "
        "'big') % shards",
        "questions": plan.questions,
        "folders": [folder.name for folder in plan.folders],
        "gold": plan.gold,
        "gold_fingerprint": plan.gold_fingerprint,
        "runs": plan.runs,
        # a run given several times: its other replicates' files (runs holds the first)
        "replicates": plan.replicates,
        # one file's name, or the judge trials' names in order
        "verdicts": plan.verdicts if len(plan.verdicts) > 1 else next(iter(plan.verdicts), None),
        "measure": plan.command(["--out", "OUT"]),
    }
