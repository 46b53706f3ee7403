"""Faster numba compilation, the same compiled code.

Most of a cold test run is numba compiling, and two thirds of a compilation is numba's Python
passes, the rest LLVM.  Copy propagation (``numba.core.ir_utils``) deep-copies its data-flow sets
on every round to find its fixed point, and tests every copy of the program against each block's
assignments once per copy: of test_solver_lu.py's 223 s of cold compilation, 11.9 s (4.6 %, in the
lane kernels' large prange bodies mostly).  Those sets (and the alias map
``find_potential_aliases`` copies) are dicts of sets of variable names or pairs of names, whose
elements are immutable, so a copy of each set is a deep copy.  :func:`install` gives ``ir_utils`` a
``copy`` module whose ``deepcopy`` copies such dicts that way (sets shared between keys stay shared,
as with ``copy.deepcopy``'s memo) and hands anything else to ``copy.deepcopy``, and an
``init_copy_propagate_data`` that finds each block's assigned names once: 1.6 s.  Both return what
numba's return (a test checks every call of a parallel kernel's compilation against them), so the
compiled code is the same.
"""

from __future__ import annotations

import copy
import types
from itertools import chain
from typing import Any

import numba
from numba.core import ir_utils

__all__ = ["install", "installed"]

_ORIGINAL_COPY = ir_utils.copy
_ORIGINAL_INIT = ir_utils.init_copy_propagate_data


_NAME_OR_PAIR = frozenset((str, tuple))
_NAME = frozenset((str,))


def _names_or_pairs(v: set[Any]) -> bool:
    # Element types, then the types of the tuples' items (a name's are its characters), at C speed.
    return _NAME_OR_PAIR.issuperset(map(type, v)) and _NAME.issuperset(map(type, chain.from_iterable(v)))


def _copy_of_name_sets(x: object) -> dict[Any, set[Any]] | None:
    """A deep copy of ``x`` if it is a dict of int or str keys to sets of names or pairs of names,
    else None.  The elements are immutable, so ``copy.deepcopy`` would return them as they are."""
    if type(x) is not dict:
        return None
    out: dict[Any, set[Any]] = {}
    copies: dict[int, set[Any]] = {}
    for k, v in x.items():
        if (type(k) is not int and type(k) is not str) or type(v) is not set:
            return None
        c = copies.get(id(v))
        if c is None:
            if not _names_or_pairs(v):
                return None
            c = copies[id(v)] = set(v)
        out[k] = c
    return out


def _deepcopy(x: Any, memo: dict[int, Any] | None = None) -> Any:
    if memo is None:
        fast = _copy_of_name_sets(x)
        if fast is not None:
            return fast
    return copy.deepcopy(x, memo)


#: What ``ir_utils`` sees as its ``copy`` module.
_copy_module = types.SimpleNamespace(deepcopy=_deepcopy, copy=copy.copy)


def _init_copy_propagate_data(blocks: Any, entry: Any, typemap: Any) -> tuple[Any, Any, Any, Any, Any]:
    # numba's, with each block's assigned names found once per block, not once per (block, copy).
    gen_copies, extra_kill = ir_utils.get_block_copies(blocks, typemap)
    all_copies: set[tuple[str, str]] = set()
    for s in gen_copies.values():
        all_copies |= s
    kill_copies = {}
    for label, gen_set in gen_copies.items():
        extra = extra_kill[label]
        assigned = {lhs for lhs, _ in gen_set}
        kill_copies[label] = {(lhs, rhs) for lhs, rhs in all_copies
                              if lhs in extra or rhs in extra
                              or ((lhs, rhs) not in gen_set and (lhs in assigned or rhs in assigned))}
    in_copies = {label: all_copies.copy() for label in blocks}
    in_copies[entry] = set()
    out_copies = {label: gen_copies[label] | (in_copies[label] - kill_copies[label]) for label in blocks}
    out_copies[entry] = gen_copies[entry]
    return gen_copies, all_copies, kill_copies, in_copies, out_copies


def _numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


#: Whether this numba's ``init_copy_propagate_data`` is the one :func:`_init_copy_propagate_data`
#: restates (read in numba 0.68.1; the tests check it against numba's own wherever it is installed);
#: outside these versions numba's own stays in place.
RESTATES_INIT = (0, 58) <= _numba_version() < (0, 69)


def install() -> None:
    """Use the faster copies in numba's ``ir_utils`` (idempotent)."""
    ir_utils.copy = _copy_module
    if RESTATES_INIT:
        ir_utils.init_copy_propagate_data = _init_copy_propagate_data


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return ir_utils.copy is _copy_module and (not RESTATES_INIT
                                              or ir_utils.init_copy_propagate_data is _init_copy_propagate_data)
