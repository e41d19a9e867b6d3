"""``reportgen.evaluate`` on a user's mistake raises a ReportgenError naming the record,
never a raw Polars, pyarrow, pandas or Unicode exception.

Lone surrogates (``"q\\ud800"``: not text, no file or page can hold one) and pandas
object columns mixing text and numbers were raw exceptions from deep inside Polars.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reportgen
from reportgen.errors import InputError, ReportgenError

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

LONE = "\ud800"
GOLD = {"q1": ["c1"], "q2": ["c2"]}
RUN = {"q1": ["c1", "c2"], "q2": ["c3"]}


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: reportgen.evaluate({"q1": ["c1"], f"q{LONE}": ["c1"]}, RUN), "gold['q\\ud800']"),
        (lambda: reportgen.evaluate({"q1": [f"c{LONE}"]}, RUN), "gold['q1']"),
        (lambda: reportgen.evaluate(GOLD, {"q1": ["c1"], "q2": [LONE]}), "runs['q2']"),
        (lambda: reportgen.evaluate(GOLD, {"q2": {f"c{LONE}": 1.0}}), "runs['q2']"),
        (
            lambda: reportgen.evaluate(GOLD, {"bm25": {"q1": {"c1": 1.0, LONE: 0.5}}}),
            "runs['bm25']['q1']",
        ),
        (
            lambda: reportgen.evaluate(GOLD, RUN, verdicts={f"q{LONE}": True}),
            "verdicts['q\\ud800']",
        ),
        (
            lambda: reportgen.evaluate(GOLD, RUN, verdicts={"q1": {"correct": True, "run": LONE}}),
            "verdicts['q1']",
        ),
    ],
)
def test_a_lone_surrogate_names_the_record(call: Callable[[], Any], where: str) -> None:
    with pytest.raises(InputError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(f"{where}: "), message
    assert "lone surrogate" in message and "Fix: " in message


def frame(**columns: list[Any]) -> Any:
    return pd.DataFrame(columns, dtype=object)


@pytest.mark.parametrize(
    ("gold", "runs", "where", "problem"),
    [
        (
            frame(qid=["q1", 2], chunk_id=["c1", "c2"]),
            RUN,
            "gold.iloc[1]",
            "column 'qid' mixes str and int",
        ),
        (
            frame(qid=["q1", "q2"], chunk_id=["c1", 3.5]),
            RUN,
            "gold.iloc[1]",
            "column 'chunk_id' mixes str and float",
        ),
        (
            frame(qid=["q1", "q2"], chunk_id=["c1", "c2"], grade=[1, "x"]),
            RUN,
            "gold.iloc[1]",
            "column 'grade' mixes int and str",
        ),
        (
            GOLD,
            {"bm25": frame(qid=["q1", 2], chunk_id=["c1", "c2"], score=[1.0, 0.5])},
            "runs['bm25'].iloc[1]",
            "column 'qid' mixes str and int",
        ),
        (
            GOLD,
            frame(qid=["q1", "q1"], chunk_id=[["c1"], "c2"], score=[1.0, 2.0]),
            "runs.iloc[1]",
            "column 'chunk_id' mixes list and str",
        ),
        (
            frame(qid=["q1", f"q{LONE}"], chunk_id=["c1", "c2"]),
            RUN,
            "gold.iloc[1]",
            "column 'qid' holds a lone surrogate",
        ),
        (
            pd.DataFrame([["q1", "c1"]], columns=["qid", "qid"]),
            RUN,
            "gold (its columns)",
            "column 'qid' is named twice",
        ),
    ],
)
def test_pandas_columns_polars_cannot_take_name_the_row(
    gold: Any, runs: Any, where: str, problem: str
) -> None:
    with pytest.raises(InputError) as caught:
        reportgen.evaluate(gold, runs)
    message = str(caught.value)
    assert message.startswith(f"{where}: {problem}"), message
    assert "Fix: " in message


any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=4)
"""Text with lone surrogates too (Hypothesis leaves them out by default)."""
ids = st.one_of(
    any_text,
    st.integers(-3, 3),
    st.floats(allow_nan=True),
    st.none(),
    st.lists(any_text, max_size=2),
    st.booleans(),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    qids=st.lists(ids, min_size=1, max_size=4),
    chunks=st.lists(ids, min_size=1, max_size=4),
    scores=st.lists(st.one_of(st.floats(), any_text, st.integers()), max_size=4),
    as_run=st.booleans(),
)
def test_any_pandas_object_frame_is_read_or_refused(
    qids: list[Any], chunks: list[Any], scores: list[Any], as_run: bool
) -> None:
    rows = min(len(qids), len(chunks))
    columns: dict[str, list[Any]] = {"qid": qids[:rows], "chunk_id": chunks[:rows]}
    if as_run and len(scores) >= rows:
        columns["score"] = scores[:rows]
    table = pd.DataFrame(columns, dtype=object)
    try:
        if as_run:
            results = reportgen.evaluate(GOLD, {"r": table})
        else:
            results = reportgen.evaluate(table, RUN)
        assert results.means.height >= 1
    except ReportgenError as error:
        assert "Fix: " in str(error)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    gold=st.dictionaries(any_text, st.lists(any_text, max_size=2), min_size=1, max_size=3),
    run=st.dictionaries(
        any_text, st.dictionaries(any_text, st.floats(), max_size=2), min_size=1, max_size=3
    ),
    verdicts=st.dictionaries(any_text, st.one_of(st.booleans(), st.none()), max_size=3),
)
def test_any_text_in_dicts_is_read_or_refused(
    gold: dict[str, list[str]], run: dict[str, dict[str, float]], verdicts: dict[str, Any]
) -> None:
    try:
        results = reportgen.evaluate(gold, run, verdicts=verdicts or None)
        assert isinstance(results.per_question, pl.DataFrame)
        repr(results)
    except ReportgenError as error:
        assert "Fix: " in str(error)


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"out_dir": 5}, "out_dir=5: must be a folder path"),
        ({"out_dir": ["a", "b"]}, "out_dir=['a', 'b']: must be a folder path"),
        ({"version": 5}, "version=5: must be a string"),
        ({"gate": "recall@5=0.8"}, "gate='recall@5=0.8': must be GateRules"),
        ({"strict": "yes"}, "strict='yes': must be True or False"),
        ({"compare_measures": "recall@5"}, "compare_measures='recall@5': must be a list"),
    ],
)
def test_report_keywords_of_the_wrong_type_are_named(
    tmp_path: Any, keywords: dict[str, Any], message: str
) -> None:
    results = reportgen.evaluate(GOLD, {"a": RUN, "b": RUN})
    keywords = {"out_dir": tmp_path / "out", **keywords}
    with pytest.raises(ReportgenError) as caught:
        results.report(**keywords)
    assert str(caught.value).startswith(message) and "Fix: " in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_trec_eval_takes_true_or_false_only() -> None:
    with pytest.raises(ReportgenError, match="trec_eval='no': must be True or False"):
        reportgen.evaluate(GOLD, RUN, trec_eval="no")  # type: ignore[arg-type]
