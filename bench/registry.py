"""The registry of bench cases and the discovery of the libraries' cases.

Each library registers its cases in a module of its own, ``<library>.bench_cases``
(``rocmath.blas.bench_cases``...), at import time::

    from rocmath.bench import Problem, bench_case

    @bench_case("blas.axpy_d", sizes={"quick": [1 << 16], "full": [1 << 16, 1 << 22]})
    def axpy(n): ...                       # returns a Problem

:func:`discover` imports those modules by name with importlib, so the bench never
imports library internals, and skips libraries that have none.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .case import BenchCase, Problem

__all__ = ["BUILTIN_MODULES", "LIBRARY_PACKAGES", "Registry", "bench_case", "default_registry", "discover",
           "register"]

#: The library packages whose ``bench_cases`` submodule is imported when present.
LIBRARY_PACKAGES: tuple[str, ...] = ("rocmath.blas", "rocmath.solver", "rocmath.fft", "rocmath.sparse")

#: The bench's own case modules (the runtime's cases).
BUILTIN_MODULES: tuple[str, ...] = ("rocmath.bench.cases_runtime",)


class Registry:
    """Bench cases by name, in registration order."""

    def __init__(self) -> None:
        self._cases: dict[str, BenchCase] = {}

    def register(self, case: BenchCase) -> BenchCase:
        """Add ``case``; registering the same case object again does nothing.

        Raises
        ------
        ValueError
            If another case already has this name.
        """
        old = self._cases.get(case.name)
        if old is not None and old is not case:
            raise ValueError(f"a bench case named {case.name!r} is already registered")
        self._cases[case.name] = case
        return case

    def unregister(self, name: str) -> None:
        """Remove the case called ``name`` (KeyError if there is none)."""
        del self._cases[name]

    def get(self, name: str) -> BenchCase:
        """The case called ``name`` (KeyError if there is none)."""
        return self._cases[name]

    def select(self, suite: str | None = None, substring: str | None = None) -> list[BenchCase]:
        """The cases in ``suite`` (any suite when None) whose name contains ``substring``."""
        return [c for c in self._cases.values()
                if (suite is None or suite in c.sizes) and (not substring or substring in c.name)]

    def suites(self) -> list[str]:
        """Every suite some case is in, sorted."""
        return sorted({s for c in self._cases.values() for s in c.sizes})

    def __iter__(self) -> Iterator[BenchCase]:
        return iter(list(self._cases.values()))

    def __len__(self) -> int:
        return len(self._cases)

    def __contains__(self, name: object) -> bool:
        return name in self._cases


#: The registry the libraries' ``bench_cases`` modules register into, and the CLI runs.
default_registry = Registry()


def register(case: BenchCase, registry: Registry | None = None) -> BenchCase:
    """Register ``case`` (in the default registry unless another is given); returns it."""
    return (registry if registry is not None else default_registry).register(case)


def bench_case(name: str, *, sizes: Mapping[str, Sequence[Any]], description: str = "",
               registry: Registry | None = None) -> Callable[[Callable[[Any], Problem]], Callable[[Any], Problem]]:
    """Decorator registering a setup function as a :class:`BenchCase`.

    Parameters
    ----------
    name
        The case name, prefixed by the library (``"runtime.memset"``).
    sizes
        Suite name to the sizes run in that suite.
    description
        One line for ``--list``; the first docstring line of the function when empty.
    registry
        Where to register (the default registry when None).

    Returns
    -------
    The decorator; it returns the function unchanged, with the case as its ``bench_case``
    attribute.
    """
    def wrap(setup: Callable[[Any], Problem]) -> Callable[[Any], Problem]:
        case = register(BenchCase(name, setup, sizes, description), registry)
        setup.bench_case = case  # type: ignore[attr-defined]
        return setup

    return wrap


def discover(packages: Sequence[str] = LIBRARY_PACKAGES, extra: Sequence[str] = (), *,
             builtin: bool = True) -> dict[str, str]:
    """Import the modules that register bench cases.

    Imports the bench's own case modules (unless ``builtin`` is False),
    ``<package>.bench_cases`` for each library package that has one (a package, or its
    ``bench_cases``, that does not exist is skipped silently), and the ``extra`` modules
    given by name.  Modules register into the default registry when imported; importing
    one again does nothing.

    Returns
    -------
    dict
        Module name to ``"ok"`` for each module imported, or to the error text when a
        module exists but failed to import (the caller decides whether that is fatal).
    """
    found: dict[str, str] = {}
    for module in BUILTIN_MODULES if builtin else ():
        importlib.import_module(module)
        found[module] = "ok"
    for package in packages:
        module = f"{package}.bench_cases"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            # Only a missing package or bench module means "nothing to register"; a
            # missing import inside an existing bench module is a real error.
            if exc.name in (module, package) or (exc.name and package.startswith(exc.name + ".")):
                continue
            found[module] = f"{type(exc).__name__}: {exc}"
            continue
        except Exception as exc:
            found[module] = f"{type(exc).__name__}: {exc}"
            continue
        found[module] = "ok"
    for module in extra:
        try:
            importlib.import_module(module)
        except Exception as exc:
            found[module] = f"{type(exc).__name__}: {exc}"
            continue
        found[module] = "ok"
    return found
