"""numba's internal subroutines compiled once per fast-math setting, not once per process.

numba lowers some operations by compiling a small Python function of its own into the caller
(``context.compile_internal``): complex multiplication and division, ``abs`` of a complex, integer
powers and more.  It keeps each compiled subroutine in ``cached_internal_func``, keyed by the
function, its signature and the error model, and every target context derived from the base one
(``subtarget``: one per compilation, with that compilation's ``fastmath``, ``boundscheck`` and
``debuginfo``) shares that dict.  The first compilation in a process to need a subroutine thus
decides its fast-math flags for all that follow: after one kernel compiled with
``fastmath={"contract"}`` multiplied two complex numbers, every complex product compiled later in
the process, in kernels that never asked for contraction, became FMAs (``ac - bd`` rounded once),
and was saved so in the kernel cache.  A kernel's bits then depended on what its process had
compiled before (zgebsrmv came out 1 ulp off in one cold test run).

:func:`install` gives each combination of those three options its own dict, shared by the contexts
with that combination: a subroutine is compiled under the options of the code it is part of.
"""

from __future__ import annotations

from typing import Any

from numba.core.base import BaseContext

__all__ = ["install", "installed", "lowering_options"]

_ORIGINAL_SUBTARGET = BaseContext.subtarget


def lowering_options(context: Any) -> tuple[frozenset[str], bool, bool]:
    """What of a target context changes the code of the subroutines compiled in it: its fast-math
    flags (numba's ``FastMathOptions``, or a bool), bounds checking and debug info."""
    fm = context.fastmath
    flags = frozenset(getattr(fm, "flags", ())) if fm else frozenset()
    if fm is True:
        flags = frozenset(("fast",))
    return flags, bool(context.enable_boundscheck), bool(context.enable_debuginfo)


def _subtarget(self: BaseContext, **kws: Any) -> BaseContext:
    obj = _ORIGINAL_SUBTARGET(self, **kws)
    if obj.cached_internal_func is not self.cached_internal_func:
        return obj  # another code generator: numba gave it a dict of its own
    # The family of contexts sharing self's caches: one dict per options, made on the first
    # subtarget of a base context and passed on to every context derived from it (a shallow copy).
    family = self.__dict__.get("_subroutine_caches")
    if family is None:
        family = {lowering_options(self): self.cached_internal_func}
        self._subroutine_caches = family  # type: ignore[attr-defined]
        obj._subroutine_caches = family  # type: ignore[attr-defined]
    obj.cached_internal_func = family.setdefault(lowering_options(obj), {})
    return obj


def install() -> None:
    """Key numba's subroutine caches by the lowering options (idempotent)."""
    BaseContext.subtarget = _subtarget  # type: ignore[method-assign]


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return BaseContext.subtarget is _subtarget
