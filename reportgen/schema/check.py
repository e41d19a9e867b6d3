"""Check a report.json read back against schema.json, before any reader trusts a value.

reportgen reads its own report.json again (``render``, ``--baseline``, ``merge``,
``publish``). The file may have been edited, damaged or crafted: text where a number
belongs, a list where an object belongs, a 400-digit count. Each reader used to check
only that its keys exist, and a wrong type failed deep inside (exit 3) or was used.
So the whole document is checked first, against the schema generated from the
TypedDicts (the keywords that generator writes: ``type``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``anyOf``, ``enum``, ``const``,
``$ref``, ``if``/``then``/``else``/``not``) plus the ranges the schema cannot say:
every integer reportgen writes is a count, an index or a k, so 0 to 2**53.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any

MAX_INTEGER = 2**53
"""The largest integer every JSON reader holds exactly; no count comes near it."""

Schema = Mapping[str, Any]

_TYPE_NAMES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


@cache
def report_schema() -> Schema:
    """schema.json, as shipped in the package."""
    text = files("reportgen.schema").joinpath("schema.json").read_text(encoding="utf-8")
    schema: Schema = json.loads(text)
    return schema


_IS: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _is(value: Any, kind: str) -> bool:
    return _IS[kind](value)


@cache
def _python_types(kinds: tuple[str, ...]) -> tuple[tuple[type, ...], bool]:
    """The Python types JSON ``kinds`` read as, and whether true/false is one of them."""
    python: dict[str, tuple[type, ...]] = {
        "object": (dict,),
        "array": (list,),
        "string": (str,),
        "integer": (int,),
        "number": (int, float),
        "boolean": (bool,),
        "null": (type(None),),
    }
    return tuple(t for kind in kinds for t in python[kind]), "boolean" in kinds


def _fits_types(value: Any, kinds: tuple[str, ...]) -> bool:
    types, boolean = _python_types(kinds)
    return isinstance(value, types) and (boolean or not isinstance(value, bool))


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    for kind in ("object", "array", "string", "number", "null"):
        if _is(value, kind):
            return _TYPE_NAMES[kind]
    return type(value).__name__


def _at(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


class SchemaProblem(Exception):
    """Where (a key path) and what: the first place a document leaves its schema."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where or 'the top'}: {problem}")
        self.where = where or "the top"
        self.problem = problem


class _Checker:
    """``strict``: also every required key, and no key an object does not declare.
    Reading back, neither: keys are added within a format version (an older report
    lacks them, a newer one has more), so only the values present are checked."""

    def __init__(self, root: Schema, strict: bool) -> None:
        self.root = root
        self.strict = strict

    def resolve(self, schema: Schema) -> Schema:
        while "$ref" in schema:
            ref = str(schema["$ref"])
            node: Any = self.root
            for part in ref.removeprefix("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def fits(self, value: Any, schema: Schema) -> bool:
        try:
            self.check(value, schema, "")
        except SchemaProblem:
            return False
        return True

    def check(self, value: Any, schema: Schema, where: str) -> None:
        schema = self.resolve(schema)
        if "const" in schema and value != schema["const"]:
            raise SchemaProblem(where, f"{json.dumps(value)[:40]}, expected {schema['const']!r}")
        if "enum" in schema and not any(
            value == choice and type(value) is type(choice) for choice in schema["enum"]
        ):
            choices = ", ".join(json.dumps(choice) for choice in schema["enum"])
            raise SchemaProblem(where, f"{json.dumps(value)[:40]}, not one of {choices}")
        if "anyOf" in schema and not any(self.fits(value, o) for o in schema["anyOf"]):
            first = next(
                (o for o in schema["anyOf"] if self.resolve(o).get("type") != "null"),
                schema["anyOf"][0],
            )
            self.check(value, first, where)  # the likely meaning's own complaint
        if "if" in schema:  # which kind of report: decided by the keys it has
            chosen = _Checker(self.root, strict=True).fits(value, schema["if"])
            branch = "then" if chosen else "else"
            if branch in schema:
                self.check(value, schema[branch], where)
        if "not" in schema and self.fits(value, schema["not"]):
            raise SchemaProblem(where, "a mix of keys that do not belong together")
        if "type" in schema:
            self.check_type(value, schema, where)

    def check_type(self, value: Any, schema: Schema, where: str) -> None:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not _fits_types(value, tuple(kinds)):
            expected = " or ".join(_TYPE_NAMES[kind] for kind in kinds)
            raise SchemaProblem(where, f"{_shown(value)}, expected {expected}")
        whole = isinstance(value, int) and not isinstance(value, bool) and "integer" in kinds
        if whole and not 0 <= value <= MAX_INTEGER:
            digits = len(str(value))
            shown = str(value) if digits <= 20 else f"a {digits}-digit integer"
            raise SchemaProblem(where, f"{shown}, out of range (a count: 0 to 2**53)")
        if isinstance(value, dict):
            self.check_object(value, schema, where)
        elif isinstance(value, list) and "items" in schema:
            items = self.resolve(schema["items"])
            for index, item in enumerate(value):
                self.check(item, items, _at(where, index))

    def check_object(self, value: dict[str, Any], schema: Schema, where: str) -> None:
        properties: Mapping[str, Schema] = schema.get("properties", {})
        for key in schema.get("required", ()) if self.strict else ():
            if key not in value:
                raise SchemaProblem(where, f"no {key!r}")
        extra = schema.get("additionalProperties", True)
        if extra is False and not self.strict:
            extra = True
        for key, item in value.items():
            if key in properties:
                self.check(item, properties[key], _at(where, key))
            elif extra is False:
                raise SchemaProblem(_at(where, key), "a key reportgen never writes here")
            elif isinstance(extra, Mapping):
                self.check(item, extra, _at(where, key))


def check_report(report: Any, schema: Schema | None = None, *, strict: bool = False) -> None:
    """Raise :class:`SchemaProblem` at the first place ``report`` leaves ``schema``
    (report.json's by default): every value present of the type and range it should
    have (``strict``: and every key required, none undeclared)."""
    root = report_schema() if schema is None else schema
    _Checker(root, strict).check(report, root, "")
