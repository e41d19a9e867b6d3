"""The config file: ``reportgen.toml``, else ``[tool.reportgen]`` of ``pyproject.toml``.

Its keys are the options of ``reportgen report`` without the leading dashes
(``context-k = 3``; ``context_k`` is accepted too); the command line wins over the
file. A key that is no option is an error naming the closest one, so that a typo
(``max-drops``) cannot silently switch a rule off.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportgen.errors import InputError, closest

CONFIG_NAMES = ("reportgen.toml", "pyproject.toml")
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")
_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")


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
