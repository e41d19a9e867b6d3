"""Everything `reportgen report` does is callable from Python, as docs/python-api.md says."""

from __future__ import annotations

import dataclasses
import inspect

import click

from reportgen.api import make_report
from reportgen.cli import cli
from reportgen.measure.scoring import Settings

SETTINGS_FIELDS = {
    "ks": "ks",
    "context_k": "context_k",
    "relevance_threshold": "threshold",
    "trec_eval": "trec_eval",
}
"""CLI parameter -> its Settings field."""

CLI_ONLY = {
    "quiet": "printing",
    "github_summary": "reportgen.ci.append_step_summary",
    # The gate's options become one GateRules object: make_report(gate=...).
    "minimums": "reportgen.analyse.gate.rules_from_options",
    "max_drops": "reportgen.analyse.gate.rules_from_options",
    "significant_only": "reportgen.analyse.gate.rules_from_options",
    "config_path": "reportgen.analyse.gate.load_config",
    "strict": "reportgen.api.strict_failure",
}


def test_every_report_option_has_a_python_counterpart() -> None:
    command = cli.commands["report"]
    keywords = set(inspect.signature(make_report).parameters)
    fields = {field.name for field in dataclasses.fields(Settings)}
    missing = []
    for param in command.params:
        name = param.name or ""
        if name in CLI_ONLY:
            continue
        if name in SETTINGS_FIELDS:
            if SETTINGS_FIELDS[name] not in fields:
                missing.append(f"{name} (Settings.{SETTINGS_FIELDS[name]})")
            continue
        if name not in keywords:
            label = param.opts[0] if isinstance(param, click.Option) else name.upper()
            missing.append(label)
    assert missing == [], f"report options with no make_report keyword: {missing}"
