"""How rocmath kernels are compiled: numba, cached, GIL-free, on a thread-safe layer.

Stream workers call kernels from several threads at once, and numba's default
``workqueue`` threading layer is not thread-safe, so rocmath asks numba for a
thread-safe layer (``tbb`` or ``omp``) before any parallel kernel runs, unless the
user chose one with ``NUMBA_THREADING_LAYER``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
import types as pytypes
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numba
import numba.extending
import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba._dispatcher import compute_fingerprint as _fingerprint
from numba.core import cgutils, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder

from . import _compile_speed, _subroutines

try:
    import fcntl
except ImportError:  # Windows: each process compiles for itself
    fcntl = None  # type: ignore[assignment]

F = TypeVar("F", bound=Callable[..., Any])

_compile_speed.install()  # numba's copy propagation without its slow deep copies (same code, less time)
_subroutines.install()  # numba's own subroutines (complex products...) compiled under each kernel's fastmath

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "threadsafe"

# Idle OpenMP threads spin briefly, then sleep, unless the user chose (libgomp reads these when
# numba first loads it).  GNU OpenMP's default spins ~300,000 rounds (milliseconds): every thread
# that runs parallel kernels (the caller, each stream's worker) has a team of its own, and spinning
# teams take the cores from the one with work.  Sleeping at once costs two wake-ups per parallel
# region (the team at the start, the caller at the closing barrier): 80-120 us on a 2-vCPU VM,
# against 2-5 us for launches that follow within the spin.  A few thousand rounds (~50-100 us
# here) cover the gap between consecutive launches and a closing barrier's wait.
# Once a second thread has run a parallel kernel (a stream's worker beside the caller), libgomp's
# threads outnumber the cores and it spins only its "throttled" count instead: 100 rounds by
# default, so the caller sleeps at nearly every closing barrier; OMP_WAIT_POLICY=ACTIVE makes that
# count 1000 (GOMP_SPINCOUNT still bounds the other).  Interleaved bench medians in that state, 2
# vCPUs: dnrm2 of 2^20 1031 -> 554 us, ddot 556 -> 381 us, dgemv 2048^2 1458 -> 934 us, batched
# c2c FFTs 1.23-1.43x, 10^7-element and batched kernels unchanged.  Both are libgomp's (numba's
# OpenMP on Linux; LLVM's runtime reads ACTIVE as "spin forever"), and they leave the environment
# once the thread pool has started (:func:`_thread_count_functions`), so child processes do not
# inherit them.
_OMP_DEFAULTS = {"GOMP_SPINCOUNT": "3000", "OMP_WAIT_POLICY": "ACTIVE"}
_omp_added: list[str] = []
if sys.platform.startswith("linux") and not any(name in os.environ for name in _OMP_DEFAULTS):
    os.environ.update(_OMP_DEFAULTS)
    _omp_added[:] = _OMP_DEFAULTS


def cache_dir() -> str:
    """Where rocmath's compiled kernels are cached: ``ROCMATH_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/rocmath/numba`` (``~/.cache/rocmath/numba``).  ``NUMBA_CACHE_DIR``,
    when set, wins as for any numba function."""
    explicit = os.environ.get("ROCMATH_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rocmath", "numba")


#: numba's cache index does not record compile options, only the source file's time stamp: a
#: change in how every kernel is compiled (``_parallel_options``; numba's subroutines compiled under
#: each kernel's fast-math flags, :mod:`rocmath._subroutines`) needs a new cache folder.
CACHE_FLAVOUR = "prange-only-2"


def _parallel_options(parallel: bool) -> Any:
    """numba's ``parallel`` option for a kernel: its ``prange`` loops only.

    With ``parallel=True`` numba also turns ``np.zeros``, array expressions and array reductions
    into parallel regions of their own: each wakes the thread team (a scheduler wake-up per region
    when idle threads sleep), costs a compiled region, and an implicit reduction's bits depend on
    the thread count.  Kernels say where they are parallel with ``prange``.  (A new dict each time:
    numba empties the one it is given.)
    """
    if not parallel:
        return False
    return {"prange": True, "comprehension": False, "reduction": False, "inplace_binop": False,
            "setitem": False, "numpy": False, "stencil": False, "fusion": False}


_sources: dict[str, tuple[tuple[str, str], ...]] = {}


def _rocmath_sources(module: str) -> tuple[tuple[str, str], ...]:
    """``(name, file)`` of ``module`` and of every rocmath module it uses, transitively (modules it
    imports, and the modules of the functions and classes it imports), sorted by name; empty when
    ``module`` is not a loaded rocmath module.  Worked out once per module: imports do not change."""
    found = _sources.get(module)
    if found is not None:
        return found
    seen: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None)
        if name in seen or mod is None or not path or not (name == "rocmath" or name.startswith("rocmath.")):
            continue
        seen[name] = path
        for value in list(vars(mod).values()):
            used = value.__name__ if isinstance(value, pytypes.ModuleType) else getattr(value, "__module__", None)
            if isinstance(used, str) and used not in seen:
                todo.append(used)
    found = tuple(sorted(seen.items())) if module in seen else ()
    _sources[module] = found
    return found


#: Content digests of source files, by (path, modification time, size): an edited file is hashed again.
_file_digests: dict[tuple[str, float, int], bytes] = {}


def _file_digest(path: str, st: os.stat_result) -> bytes:
    key = (path, st.st_mtime, st.st_size)
    digest = _file_digests.get(key)
    if digest is None:  # (two threads may both hash a file: the same bytes either way)
        with open(path, "rb") as f:
            digest = _file_digests[key] = hashlib.sha256(f.read()).digest()
    return digest


def _sources_stamp(files: tuple[tuple[str, str], ...]) -> bytes:
    """One digest of the contents of ``files``: the same files copied elsewhere or touched give the
    same stamp (numba's own stamp, a file's modification time and size, would not; numba 0.60 has no
    content hash of its own to use instead)."""
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name.encode())
        digest.update(_file_digest(path, os.stat(path)))
    return digest.digest()


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
            self._module = getattr(py_func, "__module__", "") or ""
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(cache_dir(), CACHE_FLAVOUR, self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> Any:
            # numba stamps a cache entry with its function's file only: a kernel whose helper (an
            # inlined loop, an intrinsic) lives in another file would load its old code after the
            # helper changed.  The stamp covers every rocmath file the kernel's module uses.
            files = _rocmath_sources(self._module)
            if not files:
                return super().get_source_stamp()
            return _sources_stamp(files)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            module = getattr(py_func, "__module__", "") or ""
            if numba.config.CACHE_DIR or not (module == "rocmath" or module.startswith("rocmath.")):
                return None
            return super().from_function(py_func, py_file)

    if not any(c.__name__ == "RocmathCacheLocator" for c in impl._locator_classes):
        impl._locator_classes.insert(0, RocmathCacheLocator)


_install_cache_locator()


def _lock_cache_saves() -> None:
    # numba saves a cache entry as: read the index, pick the first free data-file number, write the index, write
    # the data file.  Processes compiling the same function at once (dask or multiprocessing workers on a cold
    # cache) interleave those steps: they pick the same number, so an index can map a signature to another
    # signature's code, which every later process then loads (a TypingError naming the wrong "known
    # signature"), or lose entries.  An exclusive lock per index file around the whole save, for rocmath's
    # caches, orders the saves (loads need none: every file is replaced whole).
    try:
        import fcntl
    except ImportError:  # (not POSIX: numba's behaviour as it is)
        return
    from numba.core import caching

    cls = getattr(caching, "IndexDataCacheFile", None)
    save = getattr(cls, "save", None)
    if cls is None or save is None or getattr(save, "_rocmath_locked", False):
        return

    def locked_save(self: Any, key: Any, data: Any) -> None:
        path = getattr(self, "_index_path", None)
        root = os.path.join(cache_dir(), "")
        if not isinstance(path, str) or not path.startswith(root):
            save(self, key, data)
            return
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            lock = open(path + ".lock", "a")  # noqa: SIM115 - closed below
        except OSError:  # (numba's own save then reports what is wrong with the folder)
            save(self, key, data)
            return
        with lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)
            except OSError:  # a file system without locks: numba's behaviour as it is
                save(self, key, data)
                return
            try:
                save(self, key, data)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    locked_save._rocmath_locked = True  # type: ignore[attr-defined]
    cls.save = locked_save


_lock_cache_saves()


_THREADS: list[Callable[..., Any]] = []  # the two functions below, once found


def _thread_count_functions() -> tuple[Callable[[], int], Callable[[int], None]]:
    """numba's per-thread thread count getter and setter.  The public ones check their
    argument and the thread pool on every call (2 us a launch); the raw ones they end in are
    used when this numba has them."""
    numba.get_num_threads()  # starts the thread pool, which binds the raw functions
    for name in _omp_added:  # libgomp has read them (see _OMP_DEFAULTS)
        if os.environ.get(name) == _OMP_DEFAULTS[name]:
            del os.environ[name]
    _omp_added.clear()
    from numba.np.ufunc import parallel

    raw_get = getattr(parallel, "_get_num_threads", None)
    raw_set = getattr(parallel, "_set_num_threads", None)
    found = (raw_get, raw_set) if callable(raw_get) and callable(raw_set) else (numba.get_num_threads,
                                                                                numba.set_num_threads)
    _THREADS[:] = found
    return found


def pool_threads() -> int:
    """The threads of numba's pool: the blocks a launch splits its work into when it wants one
    per thread (given to the kernel: numba cannot cache a kernel that asks for the count itself)."""
    return max(1, int(numba.config.NUMBA_NUM_THREADS))


_twin_lock = threading.Lock()


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

    def __init__(self, dispatcher: Any, contiguous: bool = False, slp: bool = False, loops: bool = True,
                 serial: Callable[[], Any] | None = None):
        self.dispatcher = dispatcher
        self.contiguous = contiguous
        self.slp = slp
        self.loops = loops
        self._entries: dict[tuple[Any, ...], Any] = {}
        # The serial twin: the same body compiled without ``parallel`` (made on first use).
        self._make_serial = serial
        self._serial: Any = None
        self._serial_entries: dict[tuple[Any, ...], Any] = {}
        self.__name__ = getattr(dispatcher, "__name__", "kernel")
        self.__doc__ = getattr(dispatcher, "__doc__", None)
        self.__wrapped__ = dispatcher.py_func

    @property
    def signatures(self) -> list[Any]:
        """The compiled signatures (one per distinct dtypes and ranks), whether compiled parallel,
        serial (the twin small launches run) or both."""
        twin = self._serial.signatures if self._serial is not None else ()
        return list(dict.fromkeys([*self.dispatcher.signatures, *twin]))

    @property
    def has_serial(self) -> bool:
        """Whether the kernel has a serial twin (it was compiled ``parallel``).  A parallel kernel's
        body must not call parallel helpers: its twin would enter their parallel regions (helpers with
        ``prange`` loops are ``inline="always"``; a test checks the libraries have no other)."""
        return self._make_serial is not None

    def __call__(self, *args: Any) -> Any:
        """Run the kernel: its serial twin when the calling thread runs numba on one thread (a
        small launch of a Python callable that calls kernels, ``NUMBA_NUM_THREADS=1``)."""
        get_threads = (_THREADS or _thread_count_functions())[0]
        if get_threads() == 1:
            return self.serial_entry_point(*args)(*args)
        return self.entry_point(*args)(*args)

    def entry_point(self, *args: Any) -> Callable[..., Any]:
        """The compiled function for these arguments' types (compiled now if new): callers
        that pass arguments of the same types again may keep it and call it directly."""
        return self._entry(self.dispatcher, self._entries, args)

    def serial_entry_point(self, *args: Any) -> Callable[..., Any]:
        """As :meth:`entry_point`, compiled without ``parallel`` (``prange`` is ``range``): what
        small launches run.  Calling a parallel kernel costs ~1.5 us more than a serial one even
        on one thread (the thread pool's scheduling), and compiling it 2.7-6x as much; the
        twin runs the same loops in the same order, so it gives the parallel kernel's one-thread
        bits, and its array arguments are noalias, as numba makes a prange body's.  Kernels
        compiled without ``parallel`` are their own twin."""
        if self._make_serial is None:
            return self.entry_point(*args)
        if self._serial is None:
            with _twin_lock:  # one twin, whichever threads ask first (stream workers, inline callers)
                if self._serial is None:
                    self._serial = self._make_serial()
        return self._entry(self._serial, self._serial_entries, args)

    def _entry(self, dispatcher: Any, entries: dict[tuple[Any, ...], Any], args: tuple[Any, ...]) -> Any:
        # The key: numba's type fingerprints of the arguments (made in C: 1 us for 13 arguments, against
        # 2-4.5 us for the same key built in Python, on every call of a kernel from a launch body).  They
        # tell dtypes, ranks, layouts, writeability, scalar and tuple element types apart, but not byte
        # order: each entry keeps where its array arguments are, and a hit whose arrays are not all in
        # native byte order takes the slow way, where numba refuses to type them (a big-endian array
        # would otherwise run a native one's version, reading its bytes swapped).  Values numba has no
        # fingerprint for (enums) key on their Python types.
        try:
            key: tuple[Any, ...] = tuple(map(_fingerprint, args))
        except Exception:  # (numba's NotImplementedError; whatever else it raises, the slow way is right)
            key = _python_key(args, self.contiguous)
        found = entries.get(key)
        if found is not None:
            entry, arrays = found
            for i in arrays:
                if not args[i].dtype.isnative:
                    break
            else:
                return entry
        if not _THREADS:
            # The thread pool starts before any kernel runs: numba's cache records its start in
            # code with prange loops, but not in code that only links a parallel function it
            # loaded from the cache (a serial kernel calling a parallel helper compiled by another
            # process), which, loaded from the cache in turn, crashed a process it ran first in.
            _thread_count_functions()
        sig = tuple(_relaxed(numba.typeof(a), self.contiguous) for a in args)
        with _one_process_compiles(dispatcher, sig), (
                _vectorizers(self.slp, self.loops) if self.slp or not self.loops else contextlib.nullcontext()):
            dispatcher.compile(sig)
        entry = dispatcher.overloads[sig].entry_point
        entries[key] = entry, tuple(i for i, a in enumerate(args) if isinstance(a, np.ndarray))
        return entry


def _python_key(args: tuple[Any, ...], contiguous: bool) -> tuple[Any, ...]:
    """A kernel's key for arguments without a numba fingerprint: per array its dtype (byte order
    included), rank and the flags its numba type depends on (writeable, and C-contiguous for a
    contiguous kernel), per other argument its type (a tuple's element types)."""
    bits = _WRITEABLE | _C_CONTIGUOUS if contiguous else _WRITEABLE
    parts: list[Any] = []
    for a in args:
        t = type(a)
        if t is np.ndarray or isinstance(a, np.ndarray):
            parts.append((a.dtype, a.ndim, a.flags.num & bits))
        else:
            parts.append((tuple, *map(type, a)) if t is tuple else t)
    return tuple(parts)


@contextlib.contextmanager
def _one_process_compiles(dispatcher: Any, sig: tuple[Any, ...]) -> Iterator[None]:
    """Hold a lock file of the kernel and signature (in the cache folder) while compiling: processes
    sharing a cold cache (MPI ranks, pytest-xdist workers) would each compile the same kernel at once;
    the ones that wait load it from the cache the first one filled.  Taken inside numba's compiler lock
    (one compilation per process at a time), so no process waits for a lock while it holds another."""
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:
        fd = None if sig in dispatcher.overloads else _lock_file(dispatcher, sig)
        try:
            if fd is not None:
                with contextlib.suppress(OSError):  # a file system without locks: each process compiles alone
                    fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)  # (releases the lock)


def _lock_file(dispatcher: Any, sig: tuple[Any, ...]) -> int | None:
    """An open lock file for compiling ``dispatcher`` for ``sig``; None where there can be none (no fcntl, a
    cache folder that cannot be written)."""
    if fcntl is None:
        return None
    fn = dispatcher.py_func
    name = hashlib.sha1(f"{fn.__module__}.{fn.__qualname__}{sig}".encode()).hexdigest()[:24]
    folder = os.path.join(os.environ.get("NUMBA_CACHE_DIR") or cache_dir(), "locks")  # beside the cache in use
    try:
        os.makedirs(folder, exist_ok=True)
        return os.open(os.path.join(folder, f"{name}.lock"), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return None


#: numpy's flag bits (``ndarray.flags.num``) a kernel's argument types depend on.
_C_CONTIGUOUS, _WRITEABLE = 0x1, 0x400


@contextlib.contextmanager
def _vectorizers(slp: bool, loops: bool) -> Iterator[None]:
    """LLVM's SLP vectorizer on (``slp``) and its loop vectorizer off (``not loops``) for the
    compilations inside the block.  numba switched the SLP vectorizer off by default after
    miscompilations (numba#8852); kernels opt in one by one, each checked against NumPy by the
    tests.  numba reads the settings whenever it builds a pass pipeline, and its compiler lock
    (re-entrant) keeps other threads' compilations out meanwhile."""
    from numba.core.compiler_lock import global_compiler_lock

    config = numba.core.config
    with global_compiler_lock:
        old = config.SLP_VECTORIZE, config.LOOP_VECTORIZE
        config.SLP_VECTORIZE, config.LOOP_VECTORIZE = int(slp or old[0]), int(loops and old[1])
        try:
            yield
        finally:
            config.SLP_VECTORIZE, config.LOOP_VECTORIZE = old


def _relaxed(t: Any, keep_c: bool = False) -> Any:
    if isinstance(t, types.Array) and not (keep_c and t.layout == "C"):
        return types.Array(t.dtype, t.ndim, "A", readonly=not t.mutable, aligned=t.aligned)
    return t


def _compiled(body: Any, parallel: bool, fastmath: bool | set[str] = False) -> Any:
    """``numba.njit`` as rocmath compiles kernels, their serial twins and chunk functions: nogil, numpy's
    error model, cached beside the source file (functions typed at a prompt, ``python -c``, a REPL or a
    notebook, have none).  Without ``parallel`` every array argument is noalias, as numba makes those
    of a prange body (one that makes no views of them): without it LLVM keeps each load after the
    stores to other arrays before it, and lane kernels ran 1.8-2.2x slower as twins than on one thread.
    No C-callable wrapper (``no_cfunc_wrapper``): only a jitted function taking the kernel as a
    first-class function value would call it, and numba would lower and compile it for every signature."""
    source = getattr(getattr(body, "__code__", None), "co_filename", "")
    cache = bool(source) and os.path.isfile(source)
    return numba.njit(parallel=_parallel_options(parallel), nogil=True, cache=cache, fastmath=fastmath,
                      error_model="numpy", pipeline_class=None if parallel else NoAliasCompiler,
                      no_cfunc_wrapper=True)(body)


def kernel(fn: F | None = None, *, parallel: bool = True, fastmath: bool | set[str] = False,
           contiguous: bool = False, slp: bool = False, loops: bool = True) -> Any:
    """Compile a kernel: ``numba.njit`` with ``cache=True``, ``nogil=True`` and numpy's
    error model (division by zero gives inf/NaN, as on a GPU, instead of raising),
    wrapped in a :class:`Kernel` that compiles once per dtypes and ranks.

    Use as ``@kernel`` or ``@kernel(parallel=False)``.  Kernels never check their
    arguments: the launcher did.  ``contiguous=True``: see :class:`Kernel`.  ``slp=True``
    compiles with LLVM's SLP vectorizer, which numba leaves off: register-tiled loops whose
    short constant-length row loops are unrolled before the loop vectorizer sees them only
    become vector code through it.  ``loops=False`` compiles without LLVM's loop vectorizer:
    for loops over short constant-length vectors (SLP's work) whose outer loop it would otherwise
    turn into gathers and scatters.
    """
    def wrap(f: F) -> Any:
        serial = (lambda: _compiled(_serial_copy(f), False, fastmath)) if parallel else None
        return Kernel(_compiled(f, parallel, fastmath), contiguous, slp, loops, serial)

    return wrap if fn is None else wrap(fn)


class NoAliasCompiler(CompilerBase):
    """numba's nopython pipeline with every array argument ``noalias``: for functions whose array
    arguments never overlap (``njit(pipeline_class=NoAliasCompiler)``).  LLVM may then keep values
    in registers across stores to other arrays and vectorise without runtime overlap checks."""

    def define_pipelines(self):  # type: ignore[no-untyped-def]
        self.state.flags.noalias = True
        return [DefaultPassBuilder.define_nopython_pipeline(self.state)]


def chunk(fn: F) -> F:
    """Compile a kernel's per-chunk body: a function its ``prange`` loop calls once per chunk, as
    ``for t in prange(nchunk): _body(..., np.uintp(t))``, with its array arguments ``noalias``
    (:class:`NoAliasCompiler`) as in a prange body, cached (as :func:`kernel`), not inlined.

    Compile time: numba's parfor passes copy, simplify and lower a prange body's IR again (the
    inlined helpers of a lane kernel made those passes most of its 8-12 s compilation), and the
    serial twin compiled the same loops once more.  A body that is one call leaves them little to
    do, and the twin, calling the same function, compiles none of it again: getrf_small's parallel
    kernel and twin 11.9 -> 5.9 s per precision.  Pass the chunk index as ``np.uintp(t)``: numba
    types a prange index ``uint64`` in the parallel region and ``int64`` outside it and in the twin
    (each distinct argument type is a compilation of its own), and an unsigned index has no
    negative-index wraparound (with a signed one the SLP vectorizer made gathers of getrs_lanes'
    consecutive lanes).  Measure the kernel before and after: getrs_lanes and potrs_lanes ran
    5-8 % slower with their bodies in chunk functions even so, and kept them."""
    return _compiled(fn, False)  # type: ignore[no-any-return]


def _serial_copy(f: Any) -> Any:
    """``f`` under its own qualified name: the serial twin must not share the parallel kernel's
    cache files (see :func:`renamed`)."""
    return renamed(f, f"{f.__qualname__}_serial")


def renamed(f: Any, qualname: str) -> Any:
    """A copy of the function ``f`` (the same code, globals and defaults) under the qualified name
    ``qualname``: numba names a function's cache files after it and does not record compile options
    in them, so the same body compiled with other options (a twin, another ``fastmath``) needs one."""
    g = pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__qualname__ = qualname
    g.__module__ = f.__module__
    g.__doc__ = f.__doc__
    g.__kwdefaults__ = f.__kwdefaults__
    return g


# The intrinsic's name carries the pointer type: opaque pointers from LLVM 15 on (numba >= 0.61).
_PREFETCH = "llvm.prefetch.p0" if llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


@numba.extending.intrinsic
def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """``prefetch(a, i)`` inside a kernel: ask the CPU to start loading the cache line of ``a[i]``
    (LLVM's ``llvm.prefetch``: a read, into every cache level).  Never faults, whatever ``i``;
    returns nothing.  For streams the hardware prefetchers serve poorly, e.g. several interleaved
    ones.  The non-temporal hint (``prefetchnta``, into L1 alone) made csrmv on the 2D Laplacian
    slower than no prefetch on a host with slow memory (14.3 vs 12.4 ms median of six runs),
    the all-levels one faster (10.3 ms): lines fetched a few KiB ahead must survive until used."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        address = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, _PREFETCH)
        builder.call(fn, [address, i32(0), i32(3), i32(1)])  # read, kept in every level, data cache
        return context.get_dummy_value()

    return types.void(array, index), codegen


@numba.extending.intrinsic
def store_streaming(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
    """``store_streaming(a, i, v)`` inside a kernel: ``a[i] = v`` for a contiguous vector ``a``, as a
    non-temporal store (LLVM's ``!nontemporal``; no bounds or wraparound check).  x86 writes it
    around the caches, without first reading the line it lands in as a plain store does
    (write-allocate): for outputs much larger than the caches that nothing reads soon.  The
    stores are weakly ordered: a kernel calls :func:`store_fence` after its last one."""
    if (not isinstance(array, types.Array) or array.ndim != 1 or array.layout not in "CF"
            or not isinstance(index, types.Integer) or not isinstance(value, (types.Number, types.Boolean))):
        return None  # (a contiguous vector: the element's address is data + i)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        v = context.cast(builder, args[2], signature.args[2], aryty.dtype)
        store = builder.store(v, builder.gep(ary.data, [args[1]]))
        store.set_metadata("nontemporal", builder.module.add_metadata([ir.IntType(32)(1)]))
        return context.get_dummy_value()

    return types.void(array, index, value), codegen


@numba.extending.intrinsic
def store_fence(typingctx: Any) -> Any:
    """``store_fence()`` inside a kernel: a sequentially consistent fence (x86 ``mfence``), after which
    the calling thread's :func:`store_streaming` stores are visible to every thread."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return types.void(), codegen


@numba.extending.intrinsic
def claim(typingctx: Any, counter: Any, count: Any) -> Any:
    """``claim(c, k)`` inside a kernel: add ``k`` to ``c[0]`` atomically and return the value before
    (LLVM's ``atomicrmw add``, monotonic: the parallel region's closing barrier orders the work
    itself).  ``c`` is a one-entry integer array.

    Work split by claims instead of a static share: ``for _ in prange(threads)`` around a loop that
    claims block after block (``claim(following, 1)``) until past the last hands the blocks out as the
    threads come for them, so a thread that runs slower (its vCPU shared on the host, a later start)
    does fewer of them.  Each block's arithmetic is its own, so which thread runs it never changes a
    bit.  (An assignment expression in the loop's condition does not type inside ``prange``.)"""
    if not (isinstance(counter, types.Array) and isinstance(counter.dtype, types.Integer)
            and isinstance(count, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        step = context.cast(builder, args[1], signature.args[1], signature.args[0].dtype)
        return builder.atomic_rmw("add", ary.data, step, "monotonic")

    return counter.dtype(counter, count), codegen


@numba.extending.intrinsic
def written(typingctx: Any, array: Any) -> Any:
    """``written(a)`` inside a kernel, after a ``prange`` loop that stores through ``a``, a view
    the kernel made from a raw pointer (``carray``): numba's parfor pass takes such a view for a
    fresh array that nothing reads afterwards and deletes the loop, stores and all (a daxpy
    through typed contiguous views left y as it was).  This use keeps it; it generates no code."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.get_dummy_value()

    return types.void(array), codegen


@numba.extending.intrinsic
def stack_array(typingctx: Any, like: Any, dtype: Any) -> Any:
    """``stack_array(like, dtype)`` inside a kernel: an uninitialised C-contiguous array in the
    calling thread's stack frame (an LLVM ``alloca``), shaped as the nested tuple ``like``:
    ``(v, v, v, v)`` with ``v`` a 16-tuple gives a 4 x 16 array.  The shape travels in the tuple's
    type because numba drops integer literals when it compiles a ``prange`` body.

    For accumulators: once constant loops are unrolled, LLVM keeps a stack array's elements in
    registers (SROA), where ``np.empty``'s heap memory is stored to on every update (it escapes
    into the allocator).  A 16 x 4 f32 gemm tile ran at 25 GFLOP/s a core with heap
    accumulators, 79 with these (SLP vectorizer on).  The array must not outlive the call
    (nor be returned): the memory is the frame's."""
    dims: list[int] = []
    t = like
    while isinstance(t, types.BaseTuple) and len(t) > 0:
        dims.append(len(t))
        t = t.types[0]
    elt = dtype.dtype if isinstance(dtype, types.DType) else getattr(dtype, "instance_type", None)
    if not dims or not isinstance(elt, types.Number):
        return None
    arrty = types.Array(elt, len(dims), "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        lty = context.get_data_type(elt)
        size = int(np.prod(dims))
        data = builder.bitcast(cgutils.alloca_once(builder, ir.ArrayType(lty, size)), lty.as_pointer())
        itemsize = context.get_abi_sizeof(lty)
        strides = [itemsize * int(np.prod(dims[d + 1:])) for d in range(len(dims))]
        intp = context.get_value_type(types.intp)
        ary = context.make_array(arrty)(context, builder)
        context.populate_array(ary, data=data, shape=cgutils.pack_array(builder, [intp(d) for d in dims]),
                               strides=cgutils.pack_array(builder, [intp(s) for s in strides]),
                               itemsize=intp(itemsize), meminfo=None)
        return ary._getvalue()

    return arrty(like, dtype), codegen


def threading_layer() -> str:
    """The numba threading layer in use (``"omp"``, ``"tbb"``...), once a parallel kernel ran."""
    try:
        return str(numba.threading_layer())
    except ValueError:
        return "not yet chosen"
