"""Evidence spans in a gold set: read, located in the documents, and fingerprinted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reportgen.errors import InputError, UsageError
from reportgen.load import load_gold
from reportgen.load.evidence.spans import Documents, find_quote, locate
from tests.load.conftest import Write

FAQ = "Refunds\n\ntake 5 to 7   business days.\nShipping is free. Shipping is fast."


def gold_file(write: Write, *records: dict[str, object]) -> Path:
    return write("gold.jsonl", "".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture
def docs(tmp_path: Path) -> Documents:
    root = tmp_path / "docs"
    (root / "policies").mkdir(parents=True)
    (root / "faq.md").write_text(FAQ)
    (root / "policies" / "refunds.md").write_text("x" * 500)
    return Documents(root)


def test_evidence_is_read_beside_or_instead_of_chunk_ids(write: Write) -> None:
    path = gold_file(
        write,
        {"id": "q1", "evidence": [{"doc": "policies/refunds.md", "start": 120, "end": 410}]},
        {"id": "q2", "gold": ["c1"], "evidence": [{"doc": "faq.md", "quote": "Shipping is free"}]},
    )
    gold = load_gold(path)
    assert gold.judgments.rows() == [("q2", "c1", 1)]
    rows = gold.evidence.select("qid", "doc", "start", "end", "quote").rows()
    assert rows == [
        ("q1", "policies/refunds.md", 120, 410, None),
        ("q2", "faq.md", None, None, "Shipping is free"),
    ]


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ({"doc": "a.md", "start": 5}, "not a character offset"),
        ({"doc": "a.md", "start": 5, "end": 5}, "runs from 5 to 5"),
        ({"doc": "a.md", "start": -1, "end": 5}, "not a character offset"),
        ({"doc": "a.md"}, "needs either start and end or a quote"),
        ({"doc": "a.md", "quote": "x", "start": 1, "end": 2}, "needs either start and end"),
        ({"start": 1, "end": 2}, "without a doc"),
        ({"doc": "a.md", "quote": "  "}, "empty or non-text quote"),
    ],
)
def test_bad_evidence_items_name_the_line_and_question(
    write: Write, item: dict[str, object], problem: str
) -> None:
    path = gold_file(write, {"id": "ok", "gold": ["c1"]}, {"id": "q7", "evidence": [item]})
    with pytest.raises(InputError, match=problem) as caught:
        load_gold(path)
    assert caught.value.line == 2


def test_unanswerable_with_evidence_is_refused(write: Write) -> None:
    path = gold_file(
        write, {"id": "q1", "unanswerable": True, "evidence": [{"doc": "a", "quote": "x"}]}
    )
    with pytest.raises(InputError, match="unanswerable but has gold chunks or evidence"):
        load_gold(path)


def test_fingerprint_covers_evidence_and_not_its_order(write: Write) -> None:
    one = {"doc": "a.md", "start": 1, "end": 9}
    two = {"doc": "b.md", "quote": "hello"}
    first = load_gold(gold_file(write, {"id": "q", "evidence": [one, two]})).fingerprint
    again = load_gold(gold_file(write, {"id": "q", "evidence": [two, one]})).fingerprint
    moved = {"doc": "a.md", "start": 2, "end": 9}
    changed = load_gold(gold_file(write, {"id": "q", "evidence": [moved, two]})).fingerprint
    assert first == again != changed


def test_quotes_found_exactly_then_with_whitespace_normalised() -> None:
    start, end = find_quote(FAQ, "Shipping is free")
    assert FAQ[start:end] == "Shipping is free"
    # written on one line, the quote spans a paragraph break and three spaces in the text
    start, end = find_quote(FAQ, "Refunds take 5 to 7 business days")
    assert FAQ[start:end] == "Refunds\n\ntake 5 to 7   business days"
    with pytest.raises(LookupError, match="more than once"):
        find_quote(FAQ, "Shipping is")
    with pytest.raises(LookupError, match="not in"):
        find_quote(FAQ, "gift cards")


def test_locate_gives_merged_ranges(write: Write, docs: Documents) -> None:
    gold = load_gold(
        gold_file(
            write,
            {
                "id": "q1",
                "evidence": [
                    {"doc": "faq.md", "quote": "Shipping is free."},
                    {"doc": "faq.md", "start": 40, "end": 60},
                ],
            },
        )
    )
    located = locate(gold, docs, {}, {})
    start = FAQ.index("Shipping is free.")  # 38: [38, 55) and [40, 60) overlap
    assert located.spans.rows() == [("q1", "faq.md", start, 60)]
    assert located.stale == ()


def test_a_quote_not_found_or_twice_is_an_error_naming_the_question(
    write: Write, docs: Documents
) -> None:
    for quote, problem in (("gift cards", "is not in faq.md"), ("Shipping", "more than once")):
        gold = load_gold(
            gold_file(write, {"id": "q9", "evidence": [{"doc": "faq.md", "quote": quote}]})
        )
        with pytest.raises(InputError, match=f"question q9: the quote .* {problem}"):
            locate(gold, docs, {}, {})


def test_a_changed_document_makes_stale_gold_not_an_error(write: Write, docs: Documents) -> None:
    item = {"doc": "faq.md", "quote": "gift cards", "doc_version": "3"}
    far = {"doc": "policies/refunds.md", "start": 400, "end": 900, "doc_version": "3"}
    gold = load_gold(
        gold_file(write, {"id": "q1", "evidence": [item, far]}, {"id": "q2", "gold": ["c"]})
    )
    located = locate(gold, docs, {}, {"faq.md": "4", "policies/refunds.md": "4"})
    assert [(s.qid, s.doc) for s in located.stale] == [
        ("q1", "faq.md"),
        ("q1", "policies/refunds.md"),
    ]
    assert "gift cards" in located.stale[0].what
    assert located.spans.height == 0
    with pytest.raises(InputError, match=r"is not in faq\.md"):  # same version: a typo
        locate(gold, docs, {}, {"faq.md": "3"})


def test_ranges_past_the_end_are_errors(write: Write, docs: Documents) -> None:
    gold = load_gold(
        gold_file(
            write,
            {"id": "q1", "evidence": [{"doc": "policies/refunds.md", "start": 400, "end": 501}]},
        )
    )
    with pytest.raises(InputError, match=r"runs past the end of policies/refunds.md \(500"):
        locate(gold, docs, {}, {})
    # without the documents, the chunk maps' furthest end bounds the document
    with pytest.raises(InputError, match=r"\(450 characters\)"):
        locate(gold, None, {"policies/refunds.md": 450}, {})
    assert locate(gold, None, {}, {}).spans.rows() == [("q1", "policies/refunds.md", 400, 501)]


def test_quotes_need_documents_and_documents_must_exist(write: Write, docs: Documents) -> None:
    quoted = load_gold(
        gold_file(write, {"id": "q1", "evidence": [{"doc": "faq.md", "quote": "free"}]})
    )
    with pytest.raises(UsageError, match="--docs"):
        locate(quoted, None, {}, {})
    missing = load_gold(
        gold_file(write, {"id": "q1", "evidence": [{"doc": "../faq.md", "start": 0, "end": 3}]})
    )
    with pytest.raises(InputError, match=r"document \.\./faq\.md is not in"):
        locate(missing, docs, {}, {})
