"""The argument record every library's bound call builds on.

A library binding turns a public call into a record of its C parameters by name; the
argument checks of each library (blas's, sparse's...) are methods of a subclass, raising
that library's status exceptions.  What does not depend on the library is here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from .handle import PointerMode
from .precision import Precision

__all__ = ["Arguments"]


class Arguments:
    """One call's arguments: the function name, its precision, the C parameter names in
    prototype order (handle first) and their values; ``values["handle"]`` is the handle."""

    def __init__(self, fname: str, precision: Precision | None, names: tuple[str, ...], values: dict[str, Any]):
        self.fname = fname
        self.precision = precision
        self.names = names
        self.values = values
        self.handle: Any = values["handle"]

    @property
    def dtype(self) -> np.dtype[Any]:
        assert self.precision is not None
        return self.precision.dtype

    @property
    def host_mode(self) -> bool:
        return self.handle.pointer_mode is PointerMode.host

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def index(self, name: str) -> int:
        """1-based position of a parameter in the C prototype (the handle is #1)."""
        return self.names.index(name) + 1


def bind_arguments(fname: str, names: tuple[str, ...], args: Sequence[Any], kwargs: dict[str, Any],
                   optional: Collection[str] = ()) -> dict[str, Any]:
    """A library call's arguments by C parameter name, as Python binds them (TypeError for too many,
    unknown, repeated or missing ones); ``optional`` parameters default to None."""
    if len(args) > len(names):
        raise TypeError(f"{fname}() takes {len(names)} arguments, {len(args)} given")
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{fname}() got an unexpected argument {key!r}")
        if key in values:
            raise TypeError(f"{fname}() got multiple values for {key!r}")
        values[key] = value
    missing = [n for n in names if n not in values and n not in optional]
    if missing:
        raise TypeError(f"{fname}() missing argument(s): {', '.join(missing)}")
    for n in optional:
        values.setdefault(n, None)
    return values
