"""reportgen's ``dataclass`` behaves as the standard library's, class shape by class shape."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

from reportgen.core import records

Decorator = Callable[..., Any]


def shapes(make: Decorator) -> dict[str, type]:
    """The same classes made by one decorator or the other."""

    @make(frozen=True)
    class Point:
        """A frozen class with defaults and a factory."""

        x: int
        y: int = 0
        tags: list[str] = dataclasses.field(default_factory=list)
        note: str = dataclasses.field(default="", compare=False, repr=False)

    @make
    class Mutable:
        """A plain class."""

        a: int
        b: str = "b"

    @make(frozen=True, repr=False)
    class Posted:
        """__post_init__ filling a field that is not an argument."""

        a: int
        twice: int = dataclasses.field(init=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.a)

    @make(frozen=True)
    class KeyOnly:
        """A keyword-only field after positional ones."""

        a: int
        b: int = 1
        c: int = dataclasses.field(kw_only=True, default=5)

    @make(frozen=True)
    class Hashed:
        """An explicit __hash__ is kept."""

        a: int

        def __hash__(self) -> int:
            return 7

    @make(frozen=True)
    class Framed:
        """A field holding a DataFrame (no truth value)."""

        frame: pl.DataFrame
        name: str = "f"

    @make(frozen=True)
    class Later:
        """A factory field that is not an argument."""

        a: int
        seen: dict[str, int] = dataclasses.field(default_factory=dict, init=False)

    return {c.__name__: c for c in (Point, Mutable, Posted, KeyOnly, Hashed, Framed, Later)}


STD, OURS = shapes(dataclasses.dataclass), shapes(records.dataclass)


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives, or the type of what it raises."""
    try:
        return call()
    except Exception as error:
        return type(error)


def same(name: str, check: Callable[[type], Any]) -> None:
    mine, theirs = outcome(lambda: check(OURS[name])), outcome(lambda: check(STD[name]))
    assert mine == theirs, f"{name}: {mine!r} != {theirs!r}"


@pytest.mark.parametrize(
    "arguments",
    [((1,), {}), ((1, 2), {}), ((1,), {"y": 3, "tags": ["t"]}), ((), {"x": 1}),
     ((1, 2, [], "n", 9), {}), ((), {}), ((1,), {"x": 2}), ((1,), {"z": 2})],
)  # fmt: skip
def test_arguments_bind_alike(arguments: tuple[tuple[Any, ...], dict[str, Any]]) -> None:
    args, kwargs = arguments
    same("Point", lambda c: repr(c(*args, **kwargs)).replace(c.__qualname__, "P"))
    same(
        "Mutable", lambda c: repr(c(*args[:2], **{k: v for k, v in kwargs.items() if k != "tags"}))
    )


def test_equality_hash_and_repr_alike() -> None:
    for name in ("Point", "KeyOnly", "Later"):
        same(name, lambda c: (c(1) == c(1), c(1) == c(2), hash(c(1)) == hash(c(1))))
        same(name, lambda c: repr(c(1)).replace(c.__qualname__, "C"))
    same("Point", lambda c: c(1, note="a") == c(1, note="b"))  # compare=False
    same("Point", lambda c: c(1) == (1, 0))
    same("Mutable", lambda c: (c(1) == c(1), c.__hash__ is None))
    same("Hashed", lambda c: hash(c(1)))
    same("Posted", lambda c: (c(2).twice, c(2) == c(2)))
    same("KeyOnly", lambda c: (c(1, 2, c=3).c, outcome(lambda: c(1, 2, 3))))


def test_a_frame_field_compares_as_the_standard_one_does() -> None:
    frame = pl.DataFrame({"a": [1]})
    same("Framed", lambda c: c(frame) == c(frame))  # the same frame: equal, no truth value asked
    same("Framed", lambda c: outcome(lambda: c(frame) == c(frame.clone())))


def test_frozen_refuses_changes_alike() -> None:
    def change(c: type) -> Any:
        point = c(1)
        return (
            outcome(lambda: setattr(point, "x", 2)),
            outcome(lambda: delattr(point, "x")),
            outcome(lambda: setattr(point, "other", 1)),  # not a field: still frozen
        )

    same("Point", change)
    same("Mutable", lambda c: (setattr(p := c(1), "a", 2), p.a)[1])


def test_the_module_helpers_work_alike() -> None:
    same("Point", lambda c: [f.name for f in dataclasses.fields(c)])
    same("Point", lambda c: dataclasses.asdict(c(1, tags=["t"])))
    same("Point", lambda c: repr(dataclasses.replace(c(1), y=5)).replace(c.__qualname__, "C"))
    same("Later", lambda c: dataclasses.replace(c(1), a=2).seen)
    same("Point", lambda c: c.__match_args__)
    same("Point", lambda c: dataclasses.is_dataclass(c))


def test_copies_alike() -> None:
    same("Point", lambda c: (copy.deepcopy(p := c(1, 2, ["t"])) == p, copy.copy(p) == p))


def test_a_default_before_a_required_field_is_refused_alike() -> None:
    def bad(make: Decorator) -> Any:
        @make
        class Bad:
            """Out of order."""

            a: int = 1
            b: int  # type: ignore[misc]

        return Bad

    assert outcome(lambda: bad(records.dataclass)) is outcome(lambda: bad(dataclasses.dataclass))


@records.dataclass(frozen=True)
class Pickled:
    """A module-level class, as pickle needs."""

    a: int
    b: tuple[int, ...] = ()


def test_a_module_level_record_pickles() -> None:
    record = Pickled(1, (2,))
    assert pickle.loads(pickle.dumps(record)) == record
    assert hash(Pickled(1)) == hash(Pickled(1)) != hash(Pickled(2))


def test_every_module_takes_dataclass_from_records() -> None:
    """One class made by the standard decorator costs ~0.5 ms of every start-up."""
    import re
    from pathlib import Path

    package = Path(records.__file__).parents[1]
    standard = re.compile(r"^from dataclasses import .*\bdataclass\b|@dataclasses\.dataclass", re.M)
    found = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "compiled" not in path.parts
        and path != Path(records.__file__)
        and standard.search(path.read_text())
    ]
    assert found == []
