"""The bundled, synthetic help-centre example as a request: what `reportgen demo` writes.

Five runs over one gold set, verdicts for the four cells, a manifest, the documents
and two chunkings (paragraphs for four runs, sections for rerank-sections), so the demo
shows every section of a report, the chunkings side by side and the failure drill-down.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from reportgen.request import ReportInputs, ReportOutputs, ReportRequest, ReportSettings


def example_dir() -> Path:
    """The bundled, synthetic help-centre example that `reportgen demo` uses."""
    return Path(str(resources.files("reportgen"))) / "examples" / "helpcentre"


def demo_request(outputs: ReportOutputs, settings: ReportSettings | None = None) -> ReportRequest:
    """The bundled example as a request: what `reportgen demo` writes.

    >>> from reportgen.api import make_report
    >>> make_report(demo_request(ReportOutputs("demo-report")))  # doctest: +SKIP
    """
    example = example_dir()
    runs = [
        ("keyword", example / "runs" / "keyword.trec"),
        ("dense", example / "runs" / "dense.jsonl"),
        ("hybrid", example / "runs" / "hybrid.csv"),
        ("rerank", example / "runs" / "rerank.jsonl"),
        ("rerank-sections", example / "runs" / "rerank-sections.jsonl"),
    ]
    chunks = [
        (None, example / "chunks" / "paragraphs.jsonl"),
        ("rerank-sections", example / "chunks" / "sections.jsonl"),
    ]
    inputs = ReportInputs(
        example / "gold.jsonl",
        runs,
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
        manifest=example / "manifest.txt",
        sources_relative_to=example.parent,
        chunks=chunks,
        docs=example / "docs",
    )
    return ReportRequest(inputs, outputs, settings or ReportSettings())
