"""How rocmath kernels are compiled: numba, cached, GIL-free, on a thread-safe layer.

Stream workers call kernels from several threads at once, and numba's default
``workqueue`` threading layer is not thread-safe, so rocmath asks numba for a
thread-safe layer (``tbb`` or ``omp``) before any parallel kernel runs, unless the
user chose one with ``NUMBA_THREADING_LAYER``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "threadsafe"


def kernel(fn: F | None = None, *, parallel: bool = True, fastmath: bool = False) -> Any:
    """Compile a kernel: ``numba.njit`` with ``cache=True``, ``nogil=True`` and numpy's
    error model (division by zero gives inf/NaN, as on a GPU, instead of raising).

    Use as ``@kernel`` or ``@kernel(parallel=False)``.  Kernels never check their
    arguments: the launcher did.
    """
    def wrap(f: F) -> Any:
        # Functions typed at a prompt (python -c, a REPL, a notebook) have no file to cache beside.
        source = getattr(getattr(f, "__code__", None), "co_filename", "")
        cache = bool(source) and os.path.isfile(source)
        return numba.njit(parallel=parallel, nogil=True, cache=cache, fastmath=fastmath,
                          error_model="numpy")(f)

    return wrap if fn is None else wrap(fn)


def threading_layer() -> str:
    """The numba threading layer in use (``"omp"``, ``"tbb"``...), once a parallel kernel ran."""
    try:
        return str(numba.threading_layer())
    except ValueError:
        return "not yet chosen"
