"""The help-centre example's documents, two chunkings of them, and evidence spans.

Called by make_example.py after everything else is drawn, with its own seed, so the
files it wrote before (gold ids, runs, verdicts) stay byte-identical:

- ``docs/<document>.md``: a title, then one paragraph per chunk of the index; the
  paragraph of a gold chunk holds a sentence that answers its question.
- ``chunks/paragraphs.jsonl``: the index as it is, one chunk per paragraph (the ids the
  gold set and the four runs use), with offsets and text.
- ``chunks/sections.jsonl``: a re-chunking into sections of two paragraphs, new ids.
- ``runs/rerank-sections.jsonl``: the reranker's lists over the sections (each paragraph
  replaced by its section, a section kept at its first rank).
- evidence: for every answerable question whose gold ids are all in the index, a quote
  of each gold chunk's answer sentence. Each quote lies inside its paragraph, so on the
  paragraph chunking the derived judgments are the gold ids themselves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

SEED = 20261201
FILLER = (
    "Keep your order number at hand when you contact us.",
    "The steps are the same in the app and on the website.",
    "Prices and dates on this page are those of the current season.",
    "Members of the Plus programme see the same options.",
    "Screenshots in this article show the English interface.",
    "If the page does not load, sign out and sign in again.",
    "This applies to every store and to online orders alike.",
    "Our support team can help by chat or by phone.",
)


def answer_sentence(question: str, chunk: str) -> str:
    """The sentence of a gold chunk that answers its question: what the evidence quotes."""
    topic = question.rstrip("?.").replace('"', "'")
    return f'Answer ({chunk[3:]}): here is what to know about "{topic}".'


def paragraph(rng: random.Random, title: str, number: int, answers: Sequence[str]) -> str:
    """One chunk's text: a heading line, two filler sentences, the answers if any."""
    filler = rng.sample(FILLER, 2)
    return " ".join([f"{title}, part {number}.", filler[0], *answers, filler[1]])


def write_spans(
    out: Path,
    docs: dict[str, tuple[str, int]],
    questions: Sequence[Any],
    rerank: dict[str, tuple[list[str], list[float]]],
    index: set[str],
    write_lines: Callable[[Path, list[str]], None],
) -> dict[str, list[dict[str, str]]]:
    """Write docs/, chunks/ and runs/rerank-sections.jsonl; return the evidence per qid."""
    rng = random.Random(SEED)
    answers: dict[str, list[str]] = {}
    evidence: dict[str, list[dict[str, str]]] = {}
    for q in questions:
        if q.unanswerable or not set(q.gold) <= index:
            continue
        for chunk in q.gold:
            sentence = answer_sentence(q.text, chunk)
            answers.setdefault(chunk, []).append(sentence)
            evidence.setdefault(q.qid, []).append({"doc": f"{chunk[3:-5]}.md", "quote": sentence})
    paragraphs, sections = [], []
    (out / "docs").mkdir(parents=True, exist_ok=True)
    for name, (_, count) in docs.items():
        title = name.replace("-", " ").capitalize()
        text = f"# {title}\n\n"
        spans = []
        for number in range(1, count + 1):
            chunk = f"kb-{name}-{number:04d}"
            body = paragraph(rng, title, number, answers.get(chunk, []))
            spans.append((chunk, len(text), len(text) + len(body)))
            text += body + "\n\n"
        (out / "docs" / f"{name}.md").write_text(text, encoding="utf-8", newline="\n")
        for chunk, start, end in spans:
            paragraphs.append(_row(chunk, f"{name}.md", start, end, text))
        for pair in range(0, count, 2):
            first, last = spans[pair], spans[min(pair + 1, count - 1)]
            section = f"sec-{name}-{pair // 2 + 1:02d}"
            sections.append(_row(section, f"{name}.md", first[1], last[2], text))
    (out / "chunks").mkdir(exist_ok=True)
    write_lines(out / "chunks" / "paragraphs.jsonl", [json.dumps(r) for r in paragraphs])
    write_lines(out / "chunks" / "sections.jsonl", [json.dumps(r) for r in sections])
    section_of = {
        f"kb-{name}-{n:04d}": f"sec-{name}-{(n - 1) // 2 + 1:02d}"
        for name, (_, count) in docs.items()
        for n in range(1, count + 1)
    }
    lines = []
    for qid, (ranked, scores) in rerank.items():
        kept: dict[str, float] = {}
        for chunk, score in zip(ranked, scores, strict=True):
            kept.setdefault(section_of[chunk], score)
        results = [{"chunk_id": c, "score": s} for c, s in kept.items()]
        lines.append(json.dumps({"id": qid, "results": results}))
    write_lines(out / "runs" / "rerank-sections.jsonl", lines)
    return evidence


def _row(chunk: str, doc: str, start: int, end: int, text: str) -> dict[str, Any]:
    return {"chunk_id": chunk, "doc": doc, "start": start, "end": end, "text": text[start:end]}
