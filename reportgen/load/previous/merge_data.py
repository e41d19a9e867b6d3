"""Shards' merge/ folders read back, each file checked before anything reads it.

``reportgen report --merge-data`` writes merge/ beside the per-question file
(report/merge_data.py says what it holds); scale/rebuild.py makes the whole evaluation
of it. A merge/ file another tool wrote or edited is an input error naming the file and
the key or column, never a crash inside the merge.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.model import (
    ATTRIBUTES_SCHEMA,
    EVIDENCE_SCHEMA,
    FORBIDDEN_SCHEMA,
    JUDGMENTS_SCHEMA,
    QUESTIONS_SCHEMA,
    RESULTS_SCHEMA,
    SENT_SCHEMA,
    VERDICTS_SCHEMA,
    ChunkMap,
)
from reportgen.core.records import dataclass
from reportgen.errors import InputError, printable
from reportgen.load.formats.json_input import json_document
from reportgen.load.inputs.labels import JUDGMENTS_SCHEMA as JUDGE_SCHEMA
from reportgen.load.previous.merge_schema import (
    MERGE_DATA_FIX,
    SHARD_JSON,
    check_cut,
    check_frame,
    check_json,
    scores_schema,
)
from reportgen.measure.measures import measure_keys
from reportgen.schema.merge_files import FRAMES, MERGE_FOLDER, PPI_FRAMES

MERGE_DATA_FORMAT = 5
"""Bumped when merge/ changes so that an older merge would misread it (2: the runs'
longest list and span traces, settings.context_k_assumed; 3: the run the verdicts
judge, each chunk map's digest, the shard's place in its cut: a merge must not guess
them; 4: --judgments' PPI_FRAMES, each judge trial's verdicts and each run replicate's
scores, which a merge of format 3 would drop unseen; 5: the questions' own
fields, for --slice-by and --cluster-by)."""


def _by_run(schema: pl.Schema) -> pl.Schema:
    return pl.Schema([("run", pl.String), *schema.items()])


SCHEMAS = {
    "results": _by_run(RESULTS_SCHEMA),
    "gold_rows": _by_run(pl.Schema({"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64})),
    "returned": _by_run(pl.Schema({"chunk_id": pl.String})),
    "questions": QUESTIONS_SCHEMA,
    "judgments": JUDGMENTS_SCHEMA,
    "forbidden": FORBIDDEN_SCHEMA,
    "evidence": EVIDENCE_SCHEMA,
    "attributes": ATTRIBUTES_SCHEMA,
    "verdicts": VERDICTS_SCHEMA,
    "verdict_trials": pl.Schema([*VERDICTS_SCHEMA.items(), ("trial", pl.Int64)]),
    "sent": _by_run(SENT_SCHEMA),
}
"""Each Parquet file's columns (scores.parquet's follow the settings: merge_schema.py)."""


@dataclass(frozen=True)
class ShardData:
    """One shard's merge/ folder: shard.json and its frames by name."""

    folder: Path
    meta: dict[str, Any]
    frames: dict[str, pl.DataFrame]

    @property
    def source(self) -> str:
        return printable(self.folder)


def has_merge_data(folder: Path) -> bool:
    return (folder / MERGE_FOLDER / "shard.json").is_file()


def _frame(path: Path, expected: pl.Schema) -> pl.DataFrame:
    with reading(path):  # permission denied is the file's access, not its content
        path.open("rb").close()
    try:
        frame = pl.read_parquet(path, glob=False)
    except (OSError, pl.exceptions.PolarsError) as err:
        problem = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(path, f"not a readable merge/ file ({problem})", MERGE_DATA_FIX) from None
    return check_frame(path, frame, expected)


def _meta(path: Path) -> dict[str, Any]:
    """shard.json, every key checked (after its format, which says why keys differ)."""
    meta = json_document(path, MERGE_DATA_FIX)
    if not isinstance(meta, dict) or "merge_data_format" not in meta:
        raise InputError(path, "not a merge/shard.json reportgen wrote", MERGE_DATA_FIX)
    if meta["merge_data_format"] != MERGE_DATA_FORMAT:
        raise InputError(
            path,
            f"merge data format {meta['merge_data_format']!r}: this reportgen reads "
            f"{MERGE_DATA_FORMAT}",
            "measure every shard and merge with the same reportgen",
        )
    check_json(path, meta, SHARD_JSON)
    if meta["cut"] is not None:
        check_cut(path, meta["cut"], MERGE_DATA_FIX)
    return meta


def read_merge_data(folder: Path) -> ShardData:
    """One shard's merge/ folder, refused clearly when another reportgen wrote it or a
    file in it was changed."""
    data = folder / MERGE_FOLDER
    with reading(data):
        meta = _meta(data / "shard.json")
        names = [*FRAMES, *(["verdicts"] if meta["verdicts"] is not None else [])]
        names += ["verdict_trials"] if (meta["verdicts"] or {}).get("trials") else []
        names += (
            ["replicate_scores"] if any(run["replicates"] for run in meta["runs"].values()) else []
        )
        names += ["returned"] if meta["manifest"] is None else []
        names += ["sent"] if any(run["traced"] for run in meta["runs"].values()) else []
        scores = scores_schema(meta)
        schemas = SCHEMAS | {
            "scores": scores,
            "replicate_scores": pl.Schema(
                [("run", pl.String), ("replicate", pl.Int64), *list(scores.items())[1:]]
            ),
        }
        if meta["judgments"] is not None:
            names += PPI_FRAMES
            schemas |= {
                "ppi_judgments": JUDGE_SCHEMA,
                "ppi_audit": ATTRIBUTES_SCHEMA,
                "ppi_values": pl.Schema(
                    [("run", pl.String), ("qid", pl.String)]
                    + [(key, pl.Float64) for key in measure_keys(meta["settings"]["k"])]
                ),
            }
        for name in names:  # a file lost in a copy: refused, never merged without it
            if not (data / f"{name}.parquet").is_file():
                raise InputError(
                    data / f"{name}.parquet",
                    f"missing, and shard.json says the shard wrote it{_why(name, meta)}",
                    "copy the shard's whole merge/ folder, or " + MERGE_DATA_FIX,
                )
        frames = {name: _frame(data / f"{name}.parquet", schemas[name]) for name in names}
    return ShardData(folder, meta, frames)


def _why(name: str, meta: dict[str, Any]) -> str:
    """What in shard.json calls for an optional file."""
    if name in PPI_FRAMES:
        return f" (measured with --judgments {meta['judgments']})"
    return " (measured with verdicts)" if name == "verdicts" else ""


def frame_digest(frame: pl.DataFrame, *keys: str, header: str = "") -> str:
    """A frame's content, in ``keys`` order (its rows as JSON Lines, after ``header``)."""
    text = f"{header}\n{frame.sort(*keys).write_ndjson()}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def chunk_map_digest(chunk_map: ChunkMap) -> str:
    """The chunk map's content (every chunk, in id order, and its index version), so that
    a merge given another map than its shards is refused, whatever the file is called."""
    return frame_digest(chunk_map.chunks, "chunk_id", header=str(chunk_map.index_version))


def spans_digest(spans: pl.DataFrame) -> str:
    """The evidence located in the documents (--docs): merge locates it again, and must
    find what each shard found for its questions."""
    return frame_digest(spans, "qid", "doc", "start", "end")
