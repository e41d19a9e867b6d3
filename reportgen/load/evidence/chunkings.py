"""The chunk maps of a report's runs, and the gold set's evidence located once for all.

``--chunks PATH`` gives every run one chunk map; ``--chunks NAME=PATH`` gives one run
its own (several chunkings side by side), over a bare PATH if both are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from reportgen.core.model import ChunkMap, GoldSet, Manifest
from reportgen.errors import ParameterError
from reportgen.load.evidence.chunks import load_chunk_map, parse_chunks_spec
from reportgen.load.evidence.spans import Documents, locate
from reportgen.measure.chunked import Chunkings

ChunksSpec = str | tuple[str | None, str | Path]


def load_chunkings(
    gold: GoldSet,
    specs: Sequence[ChunksSpec],
    run_names: Sequence[str],
    documents: Documents | None,
    fmt: str | None = None,
) -> Chunkings | None:
    """Each run's chunk map and the located evidence; None without any chunk map."""
    if not specs:
        if documents is not None and gold.evidence.height:
            locate(gold, documents, {}, {})  # quotes and ranges checked all the same
        return None
    loaded: dict[Path, ChunkMap] = {}
    shared: ChunkMap | None = None
    named: dict[str, ChunkMap] = {}
    for spec in specs:
        name, path = parse_chunks_spec(spec) if isinstance(spec, str) else spec
        path = Path(path)
        if path not in loaded:
            loaded[path] = load_chunk_map(path, fmt)
        if name is None:
            shared = loaded[path]
        elif name not in run_names:
            raise ParameterError(
                "chunks",
                f"{name}={path}",
                f"names no run; the runs are {', '.join(run_names)}",
                "use a run's name as given before '=' (or its file name without extension)",
                option="--chunks",
            )
        else:
            named[name] = loaded[path]
    maps = {
        name: chunk_map for name in run_names if (chunk_map := named.get(name, shared)) is not None
    }
    every = pl.concat([m.chunks for m in loaded.values()])
    lengths = dict(every.group_by("doc").agg(pl.col("end").max()).iter_rows())
    versions = (
        every.filter(pl.col("doc_version").is_not_null())
        .group_by("doc")
        .agg(pl.col("doc_version").first())
    )
    located = locate(gold, documents, lengths, dict(versions.iter_rows()))
    return Chunkings(
        spans=located.spans,
        maps=maps,
        stale=located.stale,
        document_text=None if documents is None else documents.text,
    )


def chunk_manifest(chunkings: Chunkings | None) -> Manifest | None:
    """The chunk map as the index manifest, when all runs share one (else no manifest)."""
    if chunkings is None:
        return None
    distinct = {m.source: m for m in chunkings.maps.values()}
    return next(iter(distinct.values())).manifest() if len(distinct) == 1 else None
