"""Write reportgen/schema/schema.json, report.json's JSON Schema, from schema/.

    python scripts/make_report_schema.py           # rewrite the committed schema
    python scripts/make_report_schema.py --check   # exit 1 when it is out of date

The types are the one source: each TypedDict becomes a closed object
(``additionalProperties: false``) under ``$defs``, ``dict[str, X]`` an object whose
values are X, ``X | None`` X or null, a Literal an enum. The tests check every
report.json they write against the result (tests/report_check.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from reportgen import schema as report_types  # noqa: E402

SCHEMA_PATH = REPO / "reportgen" / "schema" / "schema.json"
SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str) and set(schema) == {"type"}:
        return {"type": [kind, "null"]}
    if "enum" in schema:
        return {"enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


class _Builder:
    """Turns annotations into schemas, collecting every TypedDict under ``$defs``."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def of(self, annotation: Any) -> dict[str, Any]:
        origin = get_origin(annotation)
        if annotation in SCALARS:
            return {"type": SCALARS[annotation]}
        if is_typeddict(annotation):
            return self._object(annotation)
        if origin is Literal:
            return {"enum": list(get_args(annotation))}
        if origin in (Union, types.UnionType):
            members = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(members) != 1:
                raise TypeError(f"only X | None unions are supported, not {annotation}")
            return _nullable(self.of(members[0]))
        if origin is list:
            (item,) = get_args(annotation)
            return {"type": "array", "items": self.of(item)}
        if origin is dict:
            key, value = get_args(annotation)
            if key is not str:
                raise TypeError(f"JSON object keys are strings, not {key}")
            return {"type": "object", "additionalProperties": self.of(value)}
        raise TypeError(f"no JSON Schema for {annotation!r}")

    def _object(self, cls: Any) -> dict[str, Any]:
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}  # placeholder: a type may refer to itself
            hints = get_type_hints(cls)
            definition: dict[str, Any] = {"type": "object"}
            if cls.__doc__:
                definition["description"] = " ".join(cls.__doc__.split())
            definition["properties"] = {key: self.of(hint) for key, hint in hints.items()}
            definition["required"] = [key for key in hints if key in cls.__required_keys__]
            definition["additionalProperties"] = False
            self.defs[name] = definition
        return {"$ref": f"#/$defs/{name}"}


def schema() -> dict[str, Any]:
    """report.json's schema: a merge of per-question values (``merged_from`` and no
    ``hygiene``) or a whole report (from ``report``, or ``merge`` of --merge-data shards)."""
    builder = _Builder()
    full = builder.of(report_types.Report)
    merged = builder.of(report_types.MergedReport)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "reportgen report.json",
        "description": (
            f"format_version {report_types.FORMAT_VERSION}; generated from "
            "reportgen/schema/ by scripts/make_report_schema.py (do not edit)"
        ),
        "type": "object",
        "properties": {"format_version": {"const": report_types.FORMAT_VERSION}},
        "required": ["format_version"],
        "if": {"required": ["merged_from"], "not": {"required": ["hygiene"]}},
        "then": merged,
        "else": full,
        "$defs": dict(sorted(builder.defs.items())),
    }


def rendered() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=typing.cast(str, __doc__).splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args(argv)
    text = rendered()
    if args.check:
        if SCHEMA_PATH.read_text(encoding="utf-8") != text:
            print(f"{SCHEMA_PATH} is out of date: run python scripts/make_report_schema.py")
            return 1
        return 0
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(f"Wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
