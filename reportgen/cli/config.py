"""The config file as the options' defaults: what ``--config`` (or ./reportgen.toml) sets.

The file is read in load/config.py; here its values become Click defaults, so that
Click converts and checks them like typed values and anything typed wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from reportgen.cli.errors import CONFIG_META, config_key
from reportgen.load.inputs.config import (
    REPORT_KEYS,
    Config,
    check_keys,
    config_path,
    find_config,
    read_config,
    toml_kind,
)

GATE_KEYS = ("min", "max-drop", "max", "max-rise")
"""Config keys the gate reads itself: rule tables, merged rule by rule with the options'."""


def config_keys(command: click.Command) -> list[str]:
    """The keys a config file may set: the options of `report` without the dashes."""
    return [
        config_key(param)
        for param in command.params
        if isinstance(param, click.Option) and param.expose_value and param.name != "config_path"
    ]


def read_config_defaults(ctx: click.Context, given: Path | None) -> Path | None:
    """--config's callback (eager): the file's values become the options' defaults.

    Click then converts and checks them like typed values, and anything typed wins.
    """
    path = given or find_config(Path())
    if path is None:
        return None
    config = read_config(path)
    arguments = [p.name for p in ctx.command.params if isinstance(p, click.Argument) and p.name]
    # a config file is `report`'s; `merge` takes the options it shares (the shards measured)
    check_keys(config, {*config_keys(ctx.command), *REPORT_KEYS}, arguments)
    options = {
        config_key(param): param
        for param in ctx.command.params
        if isinstance(param, click.Option) and param.name
    }
    defaults = {
        options[key].name: _default_from(config, key, value, options[key])
        for key, value in config.options.items()
        if key not in GATE_KEYS and key in options
    }
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    ctx.meta[CONFIG_META] = config
    return path


def _default_from(config: Config, key: str, value: Any, param: click.Option) -> Any:
    """A TOML value as the option takes it (a list joined by commas, a path from the
    file's folder, a date as text); the option's type checks it afterwards. A value of a
    type the option cannot take is refused here, naming the key and its line."""
    written = config.spelled[key]
    if param.is_flag:
        if not isinstance(value, bool):
            raise config.error(key, f"{written} must be true or false", f"write {written} = true")
        return value
    if isinstance(value, bool) or (isinstance(value, dict) and not param.multiple):
        raise config.error(
            key, f"{written} takes a value, not {toml_kind(value)}", f"see --{key} in --help"
        )
    if param.multiple and isinstance(param.type, click.Path):
        value = [value] if isinstance(value, str) else value  # one file: verdicts = "v.jsonl"
        if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
            raise config.error(
                key,
                f"{written} is a path or a list of paths: write each as a string",
                f'write e.g. {written} = "a.jsonl", or {written} = ["a.jsonl", "b.jsonl"]',
            )
        return [config.path.parent / config_path(config, key, item) for item in value]
    if param.multiple:
        items = [f"{k}={v}" for k, v in value.items()] if isinstance(value, dict) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise config.error(
                key, f"{written} must be a list of strings", f'write e.g. {written} = ["a=b"]'
            )
        return items
    if isinstance(param.type, click.Path):
        return config.path.parent / config_path(config, key, value)
    if isinstance(value, list):
        if not isinstance(param.type, click.types.StringParamType):
            raise config.error(
                key, f"{written} takes one value, not {toml_kind(value)}", f"see --{key} in --help"
            )
        if not all(isinstance(item, str | int | float) for item in value):
            raise config.error(key, f"{written} must be a list of plain values", "e.g. [1, 3, 5]")
        return ",".join(str(item) for item in value)
    if isinstance(param.type, click.types.IntParamType) and isinstance(value, float):
        raise config.error(
            key, f"{written} takes a whole number, not {value!r}", f"write e.g. {written} = 5"
        )
    dated = isinstance(value, str) or hasattr(value, "isoformat")
    if isinstance(param.type, click.DateTime) and not dated:
        raise config.error(
            key,
            f"{written} takes a date (YYYY-MM-DD), not {toml_kind(value)}",
            f"write e.g. {written} = 2026-11-30",
        )
    if hasattr(value, "isoformat"):  # a TOML date
        return value.isoformat()
    return value
