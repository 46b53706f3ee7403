"""How rocmath kernels are compiled: numba, cached, GIL-free, on a thread-safe layer.

Stream workers call kernels from several threads at once, and numba's default
``workqueue`` threading layer is not thread-safe, so rocmath asks numba for a
thread-safe layer (``tbb`` or ``omp``) before any parallel kernel runs, unless the
user chose one with ``NUMBA_THREADING_LAYER``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numba
import numpy as np
from numba.core import types

F = TypeVar("F", bound=Callable[..., Any])

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "threadsafe"


def cache_dir() -> str:
    """Where rocmath's compiled kernels are cached: ``ROCMATH_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/rocmath/numba`` (``~/.cache/rocmath/numba``).  ``NUMBA_CACHE_DIR``,
    when set, wins as for any numba function."""
    explicit = os.environ.get("ROCMATH_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rocmath", "numba")


def _install_cache_locator() -> None:
    # numba caches beside the source by default.  Inside site-packages those files are not
    # in the wheel's RECORD, so `pip uninstall` leaves a rocmath/__pycache__ behind, which
    # then shadows a later editable install as a namespace package.  rocmath's kernels
    # therefore cache in a user cache directory instead.
    from numba.core import caching

    mixin = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    base = getattr(caching, "_CacheLocator", None)
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if mixin is None or base is None or impl is None:
        return

    class RocmathCacheLocator(mixin, base):  # type: ignore[misc, valid-type]
        def __init__(self, py_func: Any, py_file: str):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(cache_dir(), self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self) -> str:
            return self._cache_path

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            module = getattr(py_func, "__module__", "") or ""
            if numba.config.CACHE_DIR or not (module == "rocmath" or module.startswith("rocmath.")):
                return None
            return super().from_function(py_func, py_file)

    if not any(c.__name__ == "RocmathCacheLocator" for c in impl._locator_classes):
        impl._locator_classes.insert(0, RocmathCacheLocator)


_install_cache_locator()


class Kernel:
    """A compiled kernel that specialises on dtypes and ranks only.

    numba would compile a new version for every combination of C-, F- and
    non-contiguous layouts of the arguments, and device views change layout with the
    data (a matrix with ``lda == m`` is contiguous, one with ``lda > m`` is not), so a
    routine with three matrix arguments could compile eight times per precision.  A
    Kernel types every array argument as layout ``'A'`` (any strides), so each
    precision compiles once.  ``dispatcher`` is the numba dispatcher underneath.

    A ``contiguous`` kernel keeps the C layout of C-contiguous arrays (its callers pass flat
    contiguous views), so that numba knows their unit stride and the loops vectorize.
    """

    def __init__(self, dispatcher: Any, contiguous: bool = False, slp: bool = False, vector_bits: int = 0):
        self.dispatcher = dispatcher
        self.contiguous = contiguous
        self.slp = slp
        self.vector_bits = vector_bits
        self._entries: dict[tuple[Any, ...], Any] = {}
        self.__name__ = getattr(dispatcher, "__name__", "kernel")
        self.__doc__ = getattr(dispatcher, "__doc__", None)
        self.__wrapped__ = dispatcher.py_func

    @property
    def signatures(self) -> list[Any]:
        """The compiled signatures (one per distinct dtypes and ranks)."""
        return list(self.dispatcher.signatures)

    def __call__(self, *args: Any) -> Any:
        return self.entry_point(*args)(*args)

    def entry_point(self, *args: Any) -> Callable[..., Any]:
        """The compiled function for these arguments' types (compiled now if new): callers
        that pass arguments of the same types again may keep it and call it directly."""
        if self.contiguous:
            key = tuple((a.dtype, a.ndim, a.flags.writeable, a.flags.c_contiguous) if isinstance(a, np.ndarray)
                        else _scalar_key(a) for a in args)
        else:
            key = tuple((a.dtype, a.ndim, a.flags.writeable) if isinstance(a, np.ndarray) else _scalar_key(a)
                        for a in args)
        entry = self._entries.get(key)
        if entry is None:
            sig = tuple(_relaxed(numba.typeof(a), self.contiguous) for a in args)
            with _compiling(self.slp, _vector_width(self.vector_bits, args)):
                self.dispatcher.compile(sig)
            entry = self._entries[key] = self.dispatcher.overloads[sig].entry_point
        return entry


def _scalar_key(a: Any) -> Any:
    # A tuple's length is part of its numba type (kernels take compile-time sizes as tuples).
    return (tuple, len(a)) if isinstance(a, tuple) else type(a)


def _vector_width(bits: int, args: tuple[Any, ...]) -> int:
    """Loop iterations per vector for ``bits``-wide vectors of the first floating-point array
    argument's elements (0: the vectorizer's own choice)."""
    if not bits:
        return 0
    for a in args:
        if isinstance(a, np.ndarray) and a.dtype.kind in "fc":
            return max(1, bits // (8 * a.dtype.itemsize))
    return 0


@contextlib.contextmanager
def _compiling(slp: bool, vector_width: int) -> Iterator[None]:
    """LLVM settings for the compilations inside the block.

    ``slp``: the SLP vectorizer on.  numba switched it off by default after miscompilations
    (numba#8852); kernels opt in one by one, each checked against NumPy by the tests.
    ``vector_width``: the loop vectorizer's width forced to that many iterations.  On CPUs
    whose 512-bit vectors are two 256-bit halves (AMD Zen 4), streaming loops sustain less
    memory bandwidth with them than with 256-bit ones (measured: a 10^7-element ddot 6 %
    slower than OpenBLAS's 256-bit kernel, equal with 256-bit vectors), so memory-bound
    kernels ask for 256 bits.  numba and LLVM read both settings whenever they build a pass
    pipeline, and numba's compiler lock (re-entrant) keeps other threads' compilations out."""
    if not slp and not vector_width:
        yield
        return
    import llvmlite.binding as llvm
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock, _llvm_remarks_dropped() if vector_width else contextlib.nullcontext():
        old = numba.core.config.SLP_VECTORIZE
        if slp:
            numba.core.config.SLP_VECTORIZE = 1
        if vector_width:
            llvm.set_option("rocmath", f"-force-vector-width={vector_width}")
        try:
            yield
        finally:
            numba.core.config.SLP_VECTORIZE = old
            if vector_width:
                llvm.set_option("rocmath", "-force-vector-width=0")


@contextlib.contextmanager
def _llvm_remarks_dropped() -> Iterator[None]:
    """Drop the "remark: ... loop not vectorized" lines LLVM writes to file descriptor 2 while
    a vector width is forced (it then reports every loop it leaves scalar); anything else
    written meanwhile is passed on afterwards."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            rest = [line for line in tmp.read().decode(errors="replace").splitlines(keepends=True)
                    if not line.startswith("remark: ")]
            if rest:
                sys.stderr.write("".join(rest))


def _relaxed(t: Any, keep_c: bool = False) -> Any:
    if isinstance(t, types.Array) and not (keep_c and t.layout == "C"):
        return types.Array(t.dtype, t.ndim, "A", readonly=not t.mutable, aligned=t.aligned)
    return t


def kernel(fn: F | None = None, *, parallel: bool = True, fastmath: bool | set[str] = False,
           contiguous: bool = False, slp: bool = False, vector_bits: int = 0) -> Any:
    """Compile a kernel: ``numba.njit`` with ``cache=True``, ``nogil=True`` and numpy's
    error model (division by zero gives inf/NaN, as on a GPU, instead of raising),
    wrapped in a :class:`Kernel` that compiles once per dtypes and ranks.

    Use as ``@kernel`` or ``@kernel(parallel=False)``.  Kernels never check their
    arguments: the launcher did.  ``contiguous=True``: see :class:`Kernel`.  ``slp=True``
    compiles with LLVM's SLP vectorizer, which numba leaves off: register-tiled loops whose
    short constant-length row loops are unrolled before the loop vectorizer sees them only
    become vector code through it.  ``vector_bits``: vectorize loops this wide (256 for
    memory-bound kernels, see :func:`_compiling`); the functions they call compile with the
    same setting when this kernel compiles them first.
    """
    def wrap(f: F) -> Any:
        # Functions typed at a prompt (python -c, a REPL, a notebook) have no file to cache beside.
        source = getattr(getattr(f, "__code__", None), "co_filename", "")
        cache = bool(source) and os.path.isfile(source)
        return Kernel(numba.njit(parallel=parallel, nogil=True, cache=cache, fastmath=fastmath,
                                 error_model="numpy")(f), contiguous, slp, vector_bits)

    return wrap if fn is None else wrap(fn)


def threading_layer() -> str:
    """The numba threading layer in use (``"omp"``, ``"tbb"``...), once a parallel kernel ran."""
    try:
        return str(numba.threading_layer())
    except ValueError:
        return "not yet chosen"
