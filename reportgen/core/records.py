"""``dataclass`` as the standard library's, made without compiling code at import.

Python 3.11's ``dataclasses.dataclass`` writes each generated method (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, and a frozen class's ``__setattr__`` and
``__delattr__``) as source text and compiles it: ~0.1 ms a method, six for a frozen
class. reportgen's ~140 classes cost ~50 ms of every command's start-up that way,
more than a tenth of what `report --format json` on a million rows takes above the
least Polars program (issue 44). Here the standard decorator still collects the fields
(so ``dataclasses.fields``, ``replace`` and ``asdict`` work as on any dataclass) and the
methods are shared functions reading them: the same behaviour (tests/core/test_records.py
holds it to the standard decorator's), no compiler, and an instance costs about a
microsecond more to make (a few thousand per report).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

_FIELD = dataclasses._FIELD  # type: ignore[attr-defined]  # what fields() keeps


@overload
def dataclass(cls: type[T], /) -> type[T]: ...


@overload
def dataclass(
    *, init: bool = True, repr: bool = True, eq: bool = True, frozen: bool = False
) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass(
    cls: type[T] | None = None,
    /,
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    frozen: bool = False,
) -> type[T] | Callable[[type[T]], type[T]]:
    """``dataclasses.dataclass`` with these options (the others are not used here)."""

    def made(cls: type[T]) -> type[T]:
        return _made(cls, init=init, repr=repr, eq=eq, frozen=frozen)

    return made if cls is None else made(cls)


def _made(cls: type[T], *, init: bool, repr: bool, eq: bool, frozen: bool) -> type[T]:
    own = dict(cls.__dict__)
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    cls = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    every = list(dataclasses.fields(cls))  # type: ignore[arg-type]
    if not own.get("__doc__"):  # the standard decorator's, without inspect.signature
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in every if f.init)})"
    methods: dict[str, Any] = {}
    if init and "__init__" not in own:
        methods["__init__"] = _init_of(cls)
    if repr and "__repr__" not in own:
        methods["__repr__"] = _repr_of(tuple(f.name for f in every if f.repr))
    if eq and "__eq__" not in own:
        methods["__eq__"] = _eq_of(tuple(f.name for f in every if f.compare))
    if eq and not explicit_hash:  # the standard decorator's table, without unsafe_hash
        hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
        methods["__hash__"] = _hash_of(hashed) if frozen else None
    if frozen:
        names = frozenset(f.name for f in every)
        methods["__setattr__"], methods["__delattr__"] = _frozen(cls, names)
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


def _init_of(cls: type[Any]) -> Callable[..., None]:
    """``__init__`` binding arguments as the generated one does, then ``__post_init__``."""
    fields = [f for f in cls.__dataclass_fields__.values() if f._field_type is _FIELD]
    positional = tuple(f.name for f in fields if f.init and not f.kw_only)
    accepted = frozenset(f.name for f in fields if f.init)
    defaults = tuple(
        (f.name, f.init, f.default, f.default_factory)
        for f in fields
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    )
    required = tuple(
        f.name
        for f in fields
        if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    defaulted = False
    for field in fields:
        if not field.init or field.kw_only:
            continue
        if field.name in required and defaulted:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")
        defaulted = defaulted or field.name not in required
    post_init = getattr(cls, "__post_init__", None)
    put = object.__setattr__
    name = cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise TypeError(
                f"{name}.__init__() takes {len(positional) + 1} positional arguments "
                f"but {len(args) + 1} were given"
            )
        for field_name, value in zip(positional, args, strict=False):
            if field_name in kwargs:
                raise TypeError(f"{name}.__init__() got multiple values for '{field_name}'")
            put(self, field_name, value)
        given = positional[: len(args)]
        for field_name, value in kwargs.items():
            if field_name not in accepted:
                raise TypeError(f"{name}.__init__() got an unexpected keyword '{field_name}'")
            put(self, field_name, value)
        for field_name, takes, default, factory in defaults:
            if takes and (field_name in kwargs or field_name in given):
                continue
            put(self, field_name, factory() if default is dataclasses.MISSING else default)
        for field_name in required:
            if field_name not in kwargs and field_name not in given:
                raise TypeError(f"{name}.__init__() missing the argument '{field_name}'")
        if post_init is not None:
            self.__post_init__()

    return __init__


def _repr_of(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq_of(names: tuple[str, ...]) -> Callable[[Any, object], bool]:
    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        # tuples, as the generated method compares: an item is equal to itself first
        mine = tuple(getattr(self, name) for name in names)
        return mine == tuple(getattr(other, name) for name in names)

    return __eq__


def _hash_of(names: tuple[str, ...]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, name) for name in names))

    return __hash__


def _frozen(
    cls: type[Any], names: frozenset[str]
) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
