"""The config file: ``reportgen.toml``, else ``[tool.reportgen]`` of ``pyproject.toml``.

Its keys are the options of ``reportgen report`` without the leading dashes
(``context-k = 3``; ``context_k`` is accepted too); the command line wins over the
file. A key that is no option is an error naming the closest one, so that a typo
(``max-drops``) cannot silently switch a rule off.

The quality gate's rules are read here too, from the file and from the command line
(``[RUN/]MEASURE[:KIND]=VALUE``); analyse/gate.py checks them against a report.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Collection
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from reportgen.core.records import dataclass
from reportgen.errors import InputError, UsageError, closest, printable
from reportgen.measure.names import check_measure, is_bounded

CONFIG_NAMES = ("reportgen.toml", "pyproject.toml")
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")
_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")
REPORT_KEYS = (
    *("out", "k", "context-k", "relevance-threshold", "trec-eval", "version", "format"),
    *("per-question-format", "chart-png", "report-url", "github-summary", "quiet"),
    "verbose",
    *("gold-format", "run-format", "gold-version", "verdicts", "verdicts-run"),
    *("verdict-format", "verdict-metric", "verdict-threshold", "index-version"),
    *(
        "reference-run",
        "compare-measures",
        "cluster-by",
        "estimate",
        "baseline",
        "baseline-version",
        "on-gold-change",
    ),
    *("min", "max-drop", "significant-only", "manifest", "manifest-format"),
    *("max", "max-rise", "cost-per-1k-chars"),
    *("run-index-version", "audience", "as-of", "strict", "merge-data"),
    *("retrieved-when", "trace-question-key", "span-doc-key"),
    *("chunks", "chunks-format", "docs", "min-coverage", "explain", "judgments"),
    *("commit", "baseline-commit", "baseline-fallback", "junit"),
    *("slice-by", "slice-gate", "min-slice-n", "question-meta"),
)
"""The keys a config file may set: the options of ``reportgen report`` without the
dashes (tests/cli/test_config.py keeps the two lists equal)."""


@dataclass(frozen=True)
class Config:
    path: Path
    options: dict[str, Any]
    """Values by key, dashes for underscores (``context-k``)."""
    spelled: dict[str, str]
    """Each key as the file writes it (``context_k``), for messages."""
    text: str

    def line_of(self, key: str) -> int | None:
        """The line that sets ``key`` (or opens its table), for messages; None if unsure."""
        spelled = re.escape(self.spelled.get(key, key))
        prefix = "tool.reportgen." if self.path.name == "pyproject.toml" else ""
        wanted = "tool.reportgen" if prefix else ""
        table = ""
        for number, line in enumerate(self.text.splitlines(), start=1):
            header = _TABLE_HEADER.match(line)
            if header:
                table = header.group(1).replace(" ", "").replace('"', "")
                if table == f"{prefix}{self.spelled.get(key, key)}":
                    return number
                continue
            if table == wanted and re.match(rf"^\s*[\"']?{spelled}[\"']?\s*=", line):
                return number
        return None

    def error(self, key: str, problem: str, fix: str) -> InputError:
        return InputError(self.path, problem, fix, line=self.line_of(key))


TOML_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "true or false"),
    ((int, float), "a number"),
    (str, "a string"),
    (list, "an array"),
    (dict, "a table"),
)


def toml_kind(value: Any) -> str:
    """What a TOML value is, as a message names it (a date, time or datetime: a date)."""
    for kind, name in TOML_KINDS:
        if isinstance(value, kind):
            return name
    return "a date"


def config_path(config: Config, key: str, value: Any) -> str:
    """A path key's value: a string, non-empty, with no control character (a number or
    an array would be read as a folder named ``5`` or ``a,b``)."""
    written = config.spelled[key]
    example = f'write it in quotes, e.g. {written} = "reports/latest"'
    if not isinstance(value, str):
        raise config.error(
            key, f"{written} is a path: write it as a string, not {toml_kind(value)}", example
        )
    if not value.strip():
        raise config.error(key, f"{written} is an empty path", example)
    if re.search("[\x00-\x1f\x7f]", value):
        raise config.error(key, f"{written} holds a control character", example)
    return value


def find_config(directory: Path) -> Path | None:
    """reportgen.toml, else a pyproject.toml that has a [tool.reportgen] table."""
    for name in CONFIG_NAMES:
        path = directory / name
        if path.is_file() and (name == "reportgen.toml" or _has_tool_table(_toml(path)[0])):
            return path
    return None


def _has_tool_table(data: dict[str, Any]) -> bool:
    tool = data.get("tool")
    return isinstance(tool, dict) and "reportgen" in tool


def _toml(path: Path) -> tuple[dict[str, Any], str]:
    import tomllib  # 10 ms at start-up, for the runs that have a config file

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(path, f"cannot read it ({error.strerror})", "check the path") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise InputError(path, "not UTF-8 text", "save it as UTF-8", line=line) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as error:
        # tomllib puts the place in the text: "Invalid value (at line 3, column 9)"
        message = str(error).splitlines()[0] if str(error) else "syntax error"
        position = _TOML_POSITION.search(message)
        what = (message[: position.start()] if position else message).lower()
        if position is None:
            raise InputError(path, f"not valid TOML ({what})", "fix the TOML syntax") from None
        if position.group(1) is None:  # at end of document
            line, where = max(1, len(text.splitlines())), "at the end of the file"
        else:
            line, where = int(position.group(1)), f"at column {position.group(2)}"
        problem = f"not valid TOML ({what} {where})"
        raise InputError(path, problem, "fix the TOML syntax there", line=line) from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        deep = re.search(r"(?:[\[{][^\[{\]}\n]*){100}", text)
        at = None if deep is None else text.count("\n", 0, deep.start()) + 1
        raise InputError(
            path, "arrays or tables nested too deeply", "write values nested a few levels", at
        ) from None
    except ValueError:  # an integer beyond Python's 4,300 digits
        long = re.search(r"\d{4301,}", text)
        at = None if long is None else text.count("\n", 0, long.start()) + 1
        raise InputError(
            path, "an integer with more than 4,300 digits", "write a number in a sane range", at
        ) from None


def read_config(path: Path) -> Config:
    """The file's reportgen settings, keys checked for shape (not yet for meaning)."""
    data, text = _toml(path)
    table: Any = data
    if path.name == "pyproject.toml" or "tool" in data:
        table = data["tool"].get("reportgen") if _has_tool_table(data) else None
        if table is None:
            raise InputError(path, "no [tool.reportgen] table", "add one, e.g. [tool.reportgen]")
        if not isinstance(table, dict):
            raise InputError(path, "tool.reportgen is not a table", "write it as [tool.reportgen]")
    options: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for written, value in table.items():
        key = written.replace("_", "-")
        if key in options:
            config = Config(path, options, spelled, text)
            raise config.error(
                key,
                f"{key} is set twice (as {spelled[key]} and {written})",
                f"keep one of them; the documented form is {key}",
            )
        options[key] = value
        spelled[key] = written
    return Config(path, options, spelled, text)


def check_keys(config: Config, known: Collection[str], arguments: Collection[str] = ()) -> None:
    """Refuse a key that is no option: a typo must not silently drop a setting."""
    for key in config.options:
        if key in known:
            continue
        if key in arguments:
            raise config.error(
                key,
                f"{config.spelled[key]} is an argument of reportgen report, not an option",
                f"remove it and pass {key.upper()} on the command line",
            )
        if key == "config":
            raise config.error(
                key, "a config file cannot name another one", "remove the config key"
            )
        guess = closest(key, known)
        hint = f"did you mean {guess}? The keys" if guess else "remove it, or rename it: the keys"
        raise config.error(
            key,
            f"unknown key {config.spelled[key]}",
            f"{hint} are the options of reportgen report without the dashes "
            "(see reportgen report --help)",
        )


RuleType = Literal["min", "max-drop", "max", "max-rise"]
RULE_TYPES: tuple[RuleType, ...] = ("min", "max-drop", "max", "max-rise")
"""``max`` caps a mean or a latency/cost summary (``latency_p95_ms``); ``max-rise`` caps
its relative rise against the baseline (0.2: at most 20% more)."""


@dataclass(frozen=True)
class Rule:
    type: RuleType
    measure: str
    threshold: float
    kind: str | None = None
    run: str | None = None
    origin: str | None = field(default=None, compare=False)
    """Where a config file set the rule (``reportgen.toml:7: min."recall@7" = 0.5``);
    None for the command line."""

    @property
    def where(self) -> str:
        """How the user gave the rule, for messages: the file and key, else the option."""
        return self.origin or self.text

    @property
    def key(self) -> tuple[str, str | None, str, str | None]:
        return (self.type, self.run, self.measure, self.kind)

    @property
    def text(self) -> str:
        run = f"{self.run}/" if self.run else ""
        kind = f":{self.kind}" if self.kind else ""
        return f"--{self.type} {run}{self.measure}{kind}={self.threshold:g}"


@dataclass(frozen=True)
class GateRules:
    rules: tuple[Rule, ...] = ()
    significant_only: bool = False
    sources: tuple[str, ...] = field(default_factory=tuple)
    """Config files the rules were read from."""

    def merged(self, other: GateRules) -> GateRules:
        """These rules with ``other``'s added; ``other`` wins on the same rule."""
        replaced = {rule.key for rule in other.rules}
        kept = tuple(rule for rule in self.rules if rule.key not in replaced)
        return GateRules(
            kept + other.rules,
            self.significant_only or other.significant_only,
            self.sources + other.sources,
        )


RULE_FIX = "write it as [RUN/]MEASURE[:KIND]=VALUE, e.g. recall@5=0.8 or recall@5:version=0.7"


def parse_rule(rule_type: RuleType, text: str, given: str | None = None) -> Rule:
    """``[RUN/]MEASURE[:KIND]=VALUE`` as typed after --min or --max-drop; ``given`` is
    how messages name it when it came from elsewhere (a config file's key)."""
    given = given or f"--{rule_type} {text}"
    target, equals, number = text.rpartition("=")
    if not equals or not target.strip():
        raise UsageError(f"--{rule_type} {text!r} has no =VALUE", RULE_FIX)
    target, number = run_in_value(rule_type, text, target, number)
    try:
        threshold = float(number)
    except ValueError:
        raise UsageError(f"--{rule_type} {text!r}: {number!r} is not a number", RULE_FIX) from None
    if not math.isfinite(threshold) or threshold < 0:
        raise UsageError(f"--{rule_type} {text!r}: the value must be 0 or more", RULE_FIX)
    run, _, measure_kind = target.strip().rpartition("/")
    measure, _, kind = measure_kind.partition(":")
    if not measure:
        raise UsageError(f"--{rule_type} {text!r} names no measure", RULE_FIX)
    measure = measure.strip().lower()
    check_measure(measure, given, summaries=rule_type in ("max", "max-rise"))
    if threshold > 1 and is_bounded(measure) and rule_type != "max-rise":
        never = "be met" if rule_type == "min" else "fail"
        raise UsageError(
            f"{given}: {measure} lies between 0 and 1, so {threshold:g} can never {never}",
            "give a value from 0 to 1 (a share: 0.8, not 80)",
        )
    return Rule(rule_type, measure, threshold, kind.strip() or None, run or None)


def run_in_value(rule_type: RuleType, text: str, target: str, number: str) -> tuple[str, str]:
    """``latency_p95_ms=rerank:250`` names the run after the =, as ``rerank/latency_p95_ms
    =250`` does before the measure: (``rerank/latency_p95_ms``, ``250``)."""
    run, colon, value = number.rpartition(":")
    if not colon:
        return target, number
    if "/" in target or not run.strip():
        raise UsageError(
            f"--{rule_type} {text!r} names its run twice, or an empty one",
            "name the run once: RUN/MEASURE=VALUE or MEASURE=RUN:VALUE",
        )
    return f"{run.strip()}/{target.strip()}", value


def rules_from_options(
    minimums: tuple[str, ...],
    max_drops: tuple[str, ...],
    significant_only: bool,
    maximums: tuple[str, ...] = (),
    max_rises: tuple[str, ...] = (),
) -> GateRules:
    rules = [parse_rule("min", text) for text in minimums]
    rules += [parse_rule("max-drop", text) for text in max_drops]
    rules += [parse_rule("max", text) for text in maximums]
    rules += [parse_rule("max-rise", text) for text in max_rises]
    return GateRules(tuple(rules), significant_only)


def load_gate_rules(path: Path) -> GateRules:
    """Gate rules from a config file (``min``, ``max-drop``, ``significant-only`` keys).

    Every key is checked, not only the gate's: the file is also ``reportgen report``'s
    config, and a misspelt key must not silently drop a rule.
    """
    config = read_config(path)
    check_keys(config, REPORT_KEYS)
    return rules_from_config(config)


def rules_from_config(config: Config) -> GateRules:
    """The rules a read config file sets."""
    rules: list[Rule] = []
    for rule_type in RULE_TYPES:
        entries = config.options.get(rule_type, {})
        if not isinstance(entries, dict):
            raise config.error(
                rule_type,
                f"{rule_type} must be a table of MEASURE = VALUE",
                f'write e.g. {rule_type} = {{ "recall@5" = 0.8 }}',
            )
        for target, value in entries.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise config.error(
                    rule_type,
                    f"{rule_type}.{target} is not a number",
                    f'write e.g. "{target}" = 0.8',
                )
            given = f'{config.spelled[rule_type]}."{target}" = {value}'
            try:
                rule = parse_rule(rule_type, f"{target}={value}", given)
            except UsageError as error:
                raise config.error(rule_type, error.problem, error.fix) from None
            line = config.line_of(rule_type)
            at = printable(config.path) + (f":{line}" if line is not None else "")
            origin = f"{at}: {given}"
            rules.append(dataclasses.replace(rule, origin=origin))
    significant = config.options.get("significant-only", False)
    if not isinstance(significant, bool):
        raise config.error(
            "significant-only", "significant-only must be true or false", "write true or false"
        )
    return GateRules(tuple(rules), significant, (str(config.path),))
