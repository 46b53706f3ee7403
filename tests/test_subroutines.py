"""rocmath._subroutines: a kernel's code depends on its own compile options, not on what its
process compiled before."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numba.core.cpu import FastMathOptions
from numba.core.registry import CPUDispatcher, cpu_target

import rocmath.kernel  # noqa: F401  (installs the fix)
from rocmath import _subroutines as sub

# Complex products compiled with and without contraction, in the order the argument gives, in a new
# process: numba compiles a subroutine once per process (its complex product), so only a process of
# its own shows which compilation decided it.
_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import rocmath.kernel
    from numba import njit

    @njit(fastmath={"contract"})
    def fused(a, b):
        return a * b

    @njit
    def plain(a, b):
        return a * b

    a = np.complex128(complex(1 / 3, 1 / 7))
    b = np.complex128(complex(1 / 11, 3 / 13))
    order = [fused, plain] if sys.argv[1] == "fused-first" else [plain, fused]
    for f in order:
        f(a, b)
    print(plain(a, b).real.hex(), plain(a, b).imag.hex(), fused(a, b).real.hex(), fused(a, b).imag.hex())
""")


def _products(order: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _SCRIPT, order], capture_output=True, text=True, timeout=300,
                         check=True)
    return out.stdout.split()


def test_complex_products_do_not_depend_on_the_order_of_compilation() -> None:
    # Without the fix, a plain function compiled after a contracting one multiplied with FMAs:
    # its real part came out 1 ulp off (on a host with FMA), and the contracting one compiled
    # second had none.
    first, second = _products("fused-first"), _products("plain-first")
    assert first == second
    a, b = complex(1 / 3, 1 / 7), complex(1 / 11, 3 / 13)
    # The plain product rounds each operation: numpy's float64 operations, one at a time.
    re = np.float64(a.real) * np.float64(b.real) - np.float64(a.imag) * np.float64(b.imag)
    im = np.float64(a.real) * np.float64(b.imag) + np.float64(a.imag) * np.float64(b.real)
    assert first[:2] == [float(re).hex(), float(im).hex()]


def test_installed_by_rocmath() -> None:
    assert sub.installed()


def test_each_combination_of_options_has_its_own_subroutines() -> None:
    base = cpu_target.target_context
    contract = base.subtarget(fastmath=FastMathOptions({"contract"}))
    fast = base.subtarget(fastmath=FastMathOptions(True))
    checked = base.subtarget(enable_boundscheck=True)
    plain = contract.subtarget(fastmath=False)  # derived from a contracting one: back to the plain dict
    checked_contract = checked.subtarget(fastmath=FastMathOptions({"contract"}))
    dicts = [c.cached_internal_func for c in (base, contract, fast, checked)]
    assert len({id(d) for d in dicts}) == 4
    assert plain.cached_internal_func is base.cached_internal_func
    assert contract.subtarget(fastmath=FastMathOptions({"contract"})).cached_internal_func is dicts[1]
    assert all(checked_contract.cached_internal_func is not d for d in dicts)
    assert base.subtarget(error_model=base.error_model).cached_internal_func is base.cached_internal_func


@pytest.mark.parametrize(("fastmath", "expected"), [
    (False, frozenset()), (FastMathOptions(False), frozenset()), (True, frozenset({"fast"})),
    (FastMathOptions({"contract", "reassoc"}), frozenset({"contract", "reassoc"})),
    (FastMathOptions(True), frozenset({"fast"}))])
def test_lowering_options(fastmath: Any, expected: frozenset[str]) -> None:
    ctx = cpu_target.target_context.subtarget(fastmath=fastmath)
    assert sub.lowering_options(ctx) == (expected, False, False)


def _dispatchers() -> Iterator[CPUDispatcher]:
    from rocmath.kernel import Kernel

    for pkg in ("rocmath", "rocmath.blas", "rocmath.solver", "rocmath.fft", "rocmath.sparse"):
        root = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(root.__path__, pkg + "."):
            try:
                module = importlib.import_module(info.name)
            except ImportError:  # a module of an optional dependency (mpi4py, dask) not installed
                continue
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    yield value
                elif isinstance(value, Kernel):
                    yield value.dispatcher


#: numba's value of each option a function takes from its caller when it does not state one.
_INHERITED = {"fastmath": frozenset(), "error_model": "python"}


def _value(option: str, v: Any) -> Any:
    # fastmath as its set of flags (True: all of them, "fast"), hashable
    if option != "fastmath":
        return v
    return frozenset({"fast"}) if v is True else frozenset(v or ())


def _takers(d: CPUDispatcher, option: str, value: Any, seen: set[tuple[int, Any]]) -> Iterator[str]:
    """Functions ``d`` calls, directly or not, that would take ``option`` from a caller where its
    value is ``value``: not inlined (an inlined body is compiled as the caller's), not stating it."""
    for name in d.py_func.__code__.co_names:
        c = d.py_func.__globals__.get(name)
        if not isinstance(c, CPUDispatcher) or (id(c), value) in seen:
            continue
        seen.add((id(c), value))
        inlined = c.targetoptions.get("inline", "never") == "always"
        if option not in c.targetoptions and not inlined and value != _INHERITED[option]:
            yield f"{d.__name__} -> {c.py_func.__module__}.{c.__name__}"
        yield from _takers(c, option, _value(option, c.targetoptions[option]) if option in c.targetoptions else value,
                           seen)


@pytest.mark.parametrize("option", sorted(_INHERITED))
def test_no_function_takes_its_options_from_its_first_caller(option: str) -> None:
    # numba compiles a function that does not state fastmath (or error_model) with its caller's, and
    # keeps that code for every caller after: called from a kernel with fastmath (numpy's error
    # model) and from Python or a function without, its code would depend on which came first.  So a
    # function called where the option is not numba's default states its own.
    found = {id(d): d for d in _dispatchers()}
    assert len(found) > 300
    taking = [t for d in found.values() if option in d.targetoptions
              for t in _takers(d, option, _value(option, d.targetoptions[option]), set())]
    assert taking == []
