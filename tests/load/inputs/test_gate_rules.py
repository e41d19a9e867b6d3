"""Gate rules: how they are written, read from config files, merged and judged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reportgen.errors import InputError, UsageError
from reportgen.load.inputs.config import GateRules, Rule, find_config, load_gate_rules, parse_rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("recall@5=0.80", Rule("min", "recall@5", 0.8)),
        ("recall@5:version=0.7", Rule("min", "recall@5", 0.7, kind="version")),
        ("rerank/nDCG@10=0.5", Rule("min", "ndcg@10", 0.5, run="rerank")),
        ("rerank/mrr:table=0", Rule("min", "mrr", 0.0, kind="table", run="rerank")),
    ],
)
def test_rule_syntax(text: str, rule: Rule) -> None:
    assert parse_rule("min", text) == rule


@pytest.mark.parametrize("text", ["recall@5", "=0.8", "recall@5=high", "recall@5=-1", "x/=1"])
def test_bad_rules_say_how_to_write_them(text: str) -> None:
    with pytest.raises(UsageError, match=r"Fix: write it as \[RUN/\]MEASURE\[:KIND\]=VALUE"):
        parse_rule("min", text)


def test_rules_from_pyproject_and_reportgen_toml(tmp_path: Path) -> None:
    assert find_config(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(tmp_path) is None  # no [tool.reportgen] table: not a config
    (tmp_path / "pyproject.toml").write_text(
        '[tool.reportgen]\nmin = { "recall@5" = 0.8, "hit@5:version" = 1 }\n'
        'max-drop = { "recall@5" = 0.02 }\nsignificant-only = true\n'
    )
    assert find_config(tmp_path) == tmp_path / "pyproject.toml"
    rules = load_gate_rules(tmp_path / "pyproject.toml")
    assert rules.significant_only
    assert rules.rules == (
        Rule("min", "recall@5", 0.8),
        Rule("min", "hit@5", 1.0, kind="version"),
        Rule("max-drop", "recall@5", 0.02),
    )
    (tmp_path / "reportgen.toml").write_text('max_drop = { "mrr" = 0.05 }\n')
    assert find_config(tmp_path) == tmp_path / "reportgen.toml"  # preferred
    assert load_gate_rules(tmp_path / "reportgen.toml").rules == (Rule("max-drop", "mrr", 0.05),)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("min = [", "not valid TOML"),
        ('min = "recall@5=0.8"', "min must be a table"),
        ('min = { "recall@5" = "high" }', "min.recall@5 is not a number"),
        ('significant-only = "yes"', "significant-only must be true or false"),
    ],
)
def test_bad_config_names_the_file(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "reportgen.toml"
    path.write_text(content + "\n")
    with pytest.raises(InputError, match=problem) as error:
        load_gate_rules(path)
    assert str(error.value).startswith(str(path))


def test_command_line_rule_replaces_the_files_rule() -> None:
    from_file = GateRules((Rule("min", "recall@5", 0.8), Rule("min", "mrr", 0.3)), False, ("f",))
    cli = GateRules((Rule("min", "recall@5", 0.7),), True)
    merged = from_file.merged(cli)
    assert merged.rules == (Rule("min", "mrr", 0.3), Rule("min", "recall@5", 0.7))
    assert merged.significant_only and merged.sources == ("f",)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "reportgen.toml",
            'min = { "recall@5" = 0.8 }\nmax-drops = { "recall@5" = 0.02 }\n',
            "reportgen.toml:2: unknown key max-drops. Fix: did you mean max-drop?",
        ),
        (
            "pyproject.toml",
            '[project]\nname = "x"\n\n[tool.reportgen]\nsignificant-onyl = true\n',
            "pyproject.toml:5: unknown key significant-onyl. Fix: did you mean significant-only?",
        ),
        (
            "reportgen.toml",
            "[min]\n\"recall@5\" = 'high'\n",
            "reportgen.toml:1: min.recall@5 is not a number",
        ),
        (
            "reportgen.toml",
            'context-k = 3\nmin = { "recall@5" = 0.8 \n',
            "reportgen.toml:2: not valid TOML (",
        ),
        (
            "pyproject.toml",
            "[tool.reportgen]\nmax-drop = 3\n",
            "pyproject.toml:2: max-drop must be a table of MEASURE = VALUE",
        ),
    ],
)
def test_config_errors_name_the_file_line_and_closest_key(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    """Through the Python API too: load_gate_rules checks every key, not only the gate's."""
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError) as error:
        load_gate_rules(path)
    assert str(error.value).startswith(f"{tmp_path}/{message}"), str(error.value)


def test_a_config_of_other_options_has_no_rules(tmp_path: Path) -> None:
    path = tmp_path / "reportgen.toml"
    path.write_text('context-k = 3\nformat = ["md"]\n')
    assert load_gate_rules(path) == GateRules((), False, (str(path),))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("recal@3=0.5", "'recal@3' is not a measure. Fix: did you mean recall@3?"),
        ("recall@3=1.5", "recall@3 lies between 0 and 1, so 1.5 can never be met"),
        ("rerank/ndcg@10:faq=80", "ndcg@10 lies between 0 and 1, so 80 can never be met"),
    ],
)
def test_rules_are_checked_when_parsed(text: str, problem: str) -> None:
    """Before any work: a typo or a percentage is refused at once, not after measuring."""
    with pytest.raises(UsageError, match=re.escape(f"--min {text}: {problem}")):
        parse_rule("min", text)


def test_a_drop_above_one_could_never_fail_and_characters_are_unbounded() -> None:
    with pytest.raises(UsageError, match="so 2 can never fail"):
        parse_rule("max-drop", "recall@5=2")
    assert parse_rule("min", "context_chars@5=3000").threshold == 3000


def test_config_rules_name_their_file_line_and_key(tmp_path: Path) -> None:
    """A rule that fails later (a k the report lacks) is named as the file wrote it."""
    path = tmp_path / "reportgen.toml"
    path.write_text('k = [1, 5]\nmin = { "recall@7" = 0.5 }\n')
    (rule,) = load_gate_rules(path).rules
    assert rule.where == f'{path}:2: min."recall@7" = 0.5'
    assert parse_rule("min", "recall@7=0.5").where == "--min recall@7=0.5"
    path.write_text('min = { "recal@7" = 0.5 }\n')
    with pytest.raises(InputError, match=re.escape(f'{path}:1: min."recal@7" = 0.5: ')):
        load_gate_rules(path)
