"""rocmath._compile_speed: numba's copy propagation, faster, with numba's results."""

from __future__ import annotations

import contextlib
import copy
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit, prange
from numba.core import inline_closurecall, ir, ir_utils
from numba.core.compiler import Flags
from numba.core.targetconfig import TargetConfig

import rocmath.kernel  # noqa: F401  (installs the faster copies)
from rocmath import _compile_speed as cs

#: For the replacements that build on numba's internals: only in the numba versions they were read in.
known_numba = pytest.mark.skipif(not cs.KNOWN_NUMBA, reason="numba's own in this numba version")

names = st.text("abcxyz$.0123", min_size=1, max_size=4)
elements = st.one_of(names, st.tuples(names, names))
keys = st.one_of(st.integers(-3, 40), names)


def test_installed_by_rocmath() -> None:
    assert cs.installed()


@given(st.dictionaries(keys, st.sets(elements, max_size=8), max_size=8), st.data())
def test_deep_copy_of_name_sets_is_copy_deepcopys(x: dict[Any, set[Any]], data: st.DataObject) -> None:
    if len(x) > 1 and data.draw(st.booleans()):  # one set under two keys: shared in the copy too
        a, b = data.draw(st.sampled_from(sorted(x, key=repr))), data.draw(st.sampled_from(sorted(x, key=repr)))
        x[b] = x[a]
    before = {k: set(v) for k, v in x.items()}
    got, want = cs._deepcopy(x), copy.deepcopy(x)
    assert got == want and got is not x
    for k in x:
        assert got[k] is not x[k]
        for j in x:
            assert (got[k] is got[j]) == (want[k] is want[j]) == (x[k] is x[j])
    assert x == before  # the original is untouched


@pytest.mark.parametrize("x", [{1: [("a", "b")]}, {1: {("a", 1)}}, {(1, 2): {"a"}}, [{1: {"a"}}], {1: {1.5}}],
                         ids=["list-value", "int-in-pair", "tuple-key", "not-a-dict", "float-element"])
def test_anything_else_goes_to_copy_deepcopy(x: Any) -> None:
    assert cs._copy_of_name_sets(x) is None
    got = cs._deepcopy(x)
    assert got == copy.deepcopy(x) and got is not x


@pytest.fixture
def checked() -> Iterator[list[str]]:
    """Every copy and copy-propagation start numba asks for in the block, checked against numba's own."""
    calls: list[str] = []

    def init(blocks: Any, entry: Any, typemap: Any) -> Any:
        got = cs._init_copy_propagate_data(blocks, entry, typemap)
        assert got == cs._ORIGINAL_INIT(blocks, entry, typemap)
        calls.append("init")
        return got

    def deepcopy(x: Any, memo: Any = None) -> Any:
        got = cs._deepcopy(x, memo)
        assert got == copy.deepcopy(x)
        calls.append("copy")
        return got

    def eq(a: TargetConfig, b: object) -> Any:
        got = cs._flags_eq(a, b)
        assert got == cs._ORIGINAL_EQ(a, b)
        calls.append("flags ==")
        return got

    def hash_(a: TargetConfig) -> int:
        got = cs._flags_hash(a)
        assert got == cs._ORIGINAL_HASH(a)
        calls.append("flags hash")
        return got

    blocks: dict[str, Any] = {}

    def ir_deepcopy(x: Any, memo: Any = None) -> Any:
        got = cs._inline_deepcopy(x, memo)
        assert memo is None
        if getattr(cs._copying, "memo", None) is not None and type(x) is ir.Block:
            # The blocks of one IR, copied together: as copy.deepcopy copies them with one memo (the same
            # objects shared between the blocks' copies too).
            if blocks.get("scope") is not x.scope:
                blocks.update(scope=x.scope, memo={}, pairs={})
            assert same_copy(got, copy.deepcopy(x, blocks["memo"]), x, blocks["pairs"])
            calls.append("inline copy, blocks together")
        else:
            assert same_copy(got, copy.deepcopy(x), x)
            calls.append("inline copy")
        return got

    ir_utils.init_copy_propagate_data = init
    ir_utils.copy = type(cs._copy_module)(deepcopy=deepcopy, copy=copy.copy)
    inline_closurecall.copy = type(cs._inline_copy_module)(deepcopy=ir_deepcopy, copy=copy.copy)
    TargetConfig.__eq__ = eq  # type: ignore[method-assign,assignment]
    TargetConfig.__hash__ = hash_  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        cs.install()


@known_numba
def test_a_parallel_kernels_compilation_gets_numbas_results(checked: list[str]) -> None:
    # A prange kernel with branches, copies and an inlined helper (uncached: compiled here).
    @njit(inline="always")
    def clip(v, lo):  # type: ignore[no-untyped-def]
        w = v
        return lo if w < lo else w

    @njit(parallel=True)
    def kernel(x, y, lo):  # type: ignore[no-untyped-def]
        s = 0.0
        for i in prange(x.shape[0]):
            a = x[i]
            b = a
            if b > 0:
                y[i] = clip(b, lo)
                s += y[i]
            else:
                c = b
                y[i] = -c
        return s

    x = np.array([1.0, -2.0, 0.25, 3.0])
    y = np.zeros(4)
    assert kernel(x, y, 0.5) == 1.0 + 0.5 + 3.0
    np.testing.assert_array_equal(y, [1.0, 2.0, 0.5, 3.0])
    assert {"init", "copy", "flags ==", "flags hash", "inline copy, blocks together"} <= set(checked)


def same_copy(a: Any, b: Any, original: Any, pairs: dict[int, Any] | None = None) -> bool:
    """Whether ``a`` and ``b``, deep copies of ``original``, are the same copy: the same types and leaves,
    the same objects shared (within each copy and with the original), the same cycles."""
    if pairs is None:
        pairs = {}
    if id(a) in pairs:
        return pairs[id(a)][0] is b and pairs[id(a)][1] is original
    pairs[id(a)] = (b, original)
    if type(a) is not type(b) or (a is original) != (b is original):
        return False
    if a is original:
        return True
    if type(original) is not type(a):  # a copy its own __deepcopy__ made
        return bool(a == b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) == len(original) and all(same_copy(*t, pairs) for t in zip(a, b, original, strict=True))
    if isinstance(a, dict):
        return (len(a) == len(b) == len(original)
                and all(same_copy(*t, pairs) for t in zip(a, b, original, strict=True))
                and all(same_copy(*t, pairs) for t in zip(a.values(), b.values(), original.values(), strict=True)))
    if isinstance(a, (set, frozenset)):
        return bool(a == b)
    if hasattr(a, "__dict__") or hasattr(type(a), "__slots__"):
        slots = [k for c in type(a).__mro__ for k in vars(c).get("__slots__", ())]
        return ((not hasattr(a, "__dict__") or same_copy(a.__dict__, b.__dict__, original.__dict__, pairs))
                and all(same_copy(getattr(a, k), getattr(b, k), getattr(original, k), pairs) for k in slots))
    return bool(a == b)


class Node:
    def __init__(self, tag: int) -> None:
        self.tag = tag
        self.links: list[Any] = []


class Slotted:
    __slots__ = ("links", "tag")

    def __init__(self, tag: int) -> None:
        self.tag = tag
        self.links: list[Any] = []


class Custom(Node):
    def __deepcopy__(self, memo: dict[int, Any]) -> Custom:
        out = Custom(-self.tag)
        memo[id(self)] = out
        out.links = copy.deepcopy(self.links, memo)
        return out


class Asking(Node):
    """Answers ``__deepcopy__`` through ``__getattr__`` when its tag is odd (copy.deepcopy asks)."""

    def __getattr__(self, name: str) -> Any:
        if name == "__deepcopy__" and self.__dict__.get("tag", 0) % 2:
            return lambda memo: ("odd", self.tag)
        raise AttributeError(name)


class Stateful(Node):
    def __getstate__(self) -> dict[str, Any]:
        return {"tag": self.tag + 100, "links": self.links}


@given(st.lists(st.tuples(st.sampled_from(["node", "slotted", "custom", "asking", "stateful", "list", "dict", "tuple",
                                           "ints"]),
                          st.lists(st.integers(0, 30), max_size=4)), min_size=1, max_size=30))
def test_ir_deepcopy_is_copy_deepcopys(spec: list[tuple[str, list[int]]]) -> None:
    # A graph of objects, with sharing and cycles (through lists, dicts and objects), copied both ways.
    made: list[Any] = []
    classes = {"node": Node, "slotted": Slotted, "custom": Custom, "asking": Asking, "stateful": Stateful}
    for i, (kind, _) in enumerate(spec):
        made.append(classes[kind](i) if kind in classes else {} if kind == "dict" else [])
    for i, (kind, links) in enumerate(spec):
        targets = [made[j % len(made)] for j in links]
        if kind == "dict":
            made[i].update({f"k{j}": t for j, t in zip(links, targets, strict=True)})
        elif kind in ("list", "tuple"):
            made[i].extend(targets)
        elif kind == "ints":
            continue
        else:
            made[i].links = targets
    # A tuple of copied objects is a new tuple, one of ints (kept as they are) the same tuple.
    root = [tuple(m) if kind == "tuple" else tuple(links) if kind == "ints" else m
            for m, (kind, links) in zip(made, spec, strict=True)]
    assert same_copy(cs._ir_deepcopy(root), copy.deepcopy(root), root)


def test_ir_deepcopy_shares_a_memo_as_copy_deepcopy() -> None:
    x = Node(1)
    memo: dict[int, Any] = {}
    first = cs._ir_deepcopy([x, x], memo)
    assert cs._ir_deepcopy(x, memo) is first[0] is first[1]


#: Flags options and values to set them to (the setter converts: ``auto_parallel=True`` is a ParallelOptions).
_SETTINGS = st.sampled_from([("nrt", True), ("nrt", False), ("noalias", True), ("noalias", False),
                             ("boundscheck", True), ("boundscheck", None), ("release_gil", True),
                             ("error_model", "numpy"), ("error_model", "python"), ("auto_parallel", True),
                             ("auto_parallel", False), ("fastmath", True), ("fastmath", {"contract"}),
                             ("no_cfunc_wrapper", True), ("no_cpython_wrapper", False)])


def _flags(settings: list[tuple[str, Any]]) -> Flags:
    f = Flags()
    for name, value in settings:
        setattr(f, name, value)
    return f


@given(st.lists(_SETTINGS, max_size=6), st.lists(_SETTINGS, max_size=6), st.booleans())
def test_flags_compare_and_hash_as_numbas(a: list[tuple[str, Any]], b: list[tuple[str, Any]], same: bool) -> None:
    # Options set to their default, set in one and not the other, set to equal objects that are not the same.
    x, y = _flags(a), _flags(a if same else b)
    assert cs._flags_eq(x, y) == cs._ORIGINAL_EQ(x, y) == (x.values() == y.values())
    assert cs._flags_hash(x) == cs._ORIGINAL_HASH(x) == cs._ORIGINAL_HASH(y)
    assert cs._flags_eq(x, x) and cs._flags_eq(x, x.copy())


def test_flags_compared_with_anything_else_as_numbas() -> None:
    f = _flags([("nrt", True)])
    assert cs._flags_eq(f, 1) is NotImplemented and (f == 1) is False



@contextlib.contextmanager
def numbas(*names: str) -> Iterator[None]:
    """numba's own of the replaced functions with these names, within the block."""
    for where, name, theirs, _ in cs._replacements():
        if name in names:
            setattr(where, name, theirs)
    try:
        yield
    finally:
        cs.install()


#: Library finalization and parallel loop compilation.
FINALIZATION = ("finalize", "_finalize_final_module", "get_pointer_to_function", "_get_compiled_object",
                "_create_gufunc_for_parfor_body", "_compile_wrapper", "build_gufunc_wrapper")


@njit(inline="always")
def _steps(v, n):  # type: ignore[no-untyped-def]
    acc = 0.0
    for k in range(n):
        if v > k:
            acc += v - k
        else:
            acc -= k
    return acc


@njit(inline="always")
def _both_ways(v):  # type: ignore[no-untyped-def]
    return _steps(v, 3) + _steps(-v, 2)


def _both_ways_in_python(x: np.ndarray) -> np.ndarray:
    return np.array([_steps.py_func(v, 3) + _steps.py_func(-v, 2) for v in x])


def _parallel_function() -> Any:
    """A new (uncompiled, uncached) parallel function: a prange loop with a reduction, a numba
    subroutine (np.zeros, a parallel loop too) and functions inlined into functions inlined into it."""

    def f(x, y, c):  # type: ignore[no-untyped-def]
        s = 0.0
        for i in prange(x.shape[0]):
            y[i] = _both_ways(x[i]) * c
            s += y[i]
        t = np.zeros(2)
        return s + t[1]

    return njit(parallel=True)(f)


def _linked(library: Any) -> list[Any]:
    """The libraries linked into ``library``, depth first (each once)."""
    out: list[Any] = []
    todo = list(library._linking_libraries)
    while todo:
        lib = todo.pop()
        if all(lib is not o for o in out):
            out.append(lib)
            todo.extend(lib._linking_libraries)
    return out


@known_numba
def test_libraries_only_linked_make_no_machine_code() -> None:
    f = _parallel_function()
    x, y = np.linspace(-3.0, 5.0, 1001), np.zeros(1001)
    want_y = _both_ways_in_python(x) * 0.5
    assert f(x, y, 0.5) == pytest.approx(float(want_y.sum()), rel=1e-12)
    np.testing.assert_allclose(y, want_y, rtol=1e-15)
    library = f.overloads[f.signatures[0]].library
    assert not getattr(library, "_unemitted", False)  # the function that runs has its machine code
    linked = _linked(library)
    loops = [lib for lib in linked if lib.name.startswith("__numba_parfor_gufunc")]
    wrappers_ = [lib for lib in linked if lib.name == "parallelgufuncwrapper" or "_GufuncWrapper" in lib.name]
    assert loops and len(wrappers_) == 2 * len(loops)  # (np.zeros is a parallel loop too)
    for lib in [*loops, *wrappers_]:
        assert lib._finalized and lib._unemitted  # IR linked into f, no machine code of its own
    for lib in wrappers_:  # optimized with f's module, not alone first
        assert lib._optimize_final_module is cs._no_module_passes
    body = loops[0]
    defined = [fn.name for fn in body.get_defined_functions()]
    assert not any(n.startswith(("_ZN7cpython", "cfunc.")) for n in defined)  # no Python or C wrapper

    # Machine code when something asks for it: a function's address, the object code.
    name = next(n for n in defined if n.startswith("_ZN"))
    assert body.get_pointer_to_function(name) != 0 and not body._unemitted
    assert body._get_compiled_object()[:4] == b"\x7fELF"


def test_parallel_functions_give_numbas_results() -> None:
    # The kernel's code differs only in what its linked loop went through before (no machine code, no
    # module passes of the wrappers of its own); the operations are the same, so the bits are.
    rng = np.random.default_rng(7)
    x = rng.standard_normal(100_003)
    with numbas(*FINALIZATION):
        f = _parallel_function()
        y_numba = np.zeros_like(x)
        s_numba = f(x, y_numba, 0.3)
    g = _parallel_function()
    y = np.zeros_like(x)
    s = g(x, y, 0.3)
    assert s == s_numba and np.array_equal(y, y_numba)


def test_a_cached_parallel_function_loads_in_a_new_process(tmp_path: Any) -> None:
    (tmp_path / "mod_cached.py").write_text(textwrap.dedent("""
        import numpy as np
        from numba import njit, prange
        import rocmath.kernel  # (installs the faster compilation)

        @njit(parallel=True, cache=True)
        def f(x):
            s = 0.0
            for i in prange(x.shape[0]):
                s += x[i] * x[i]
            return s

        x = np.arange(1000.0)
        print(f(x) == float(np.dot(x, x)), f.stats.cache_hits[f.signatures[0]] if f.stats.cache_hits else 0)
        """))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", "import mod_cached"], env=env, capture_output=True, text=True,
                           check=True, timeout=300).stdout.split() for _ in range(2)]
    assert runs == [["True", "0"], ["True", "1"]]  # compiled and saved, then loaded


def _normalized_llvm(f: Any) -> str:
    """The LLVM IR of ``f``'s one compilation, without what differs between two compilations of the same
    source: the ids numba numbers functions, loops, blocks and inlined functions' variables with, the
    lengths of the strings that hold them, the spaces that pad a block's label to its ``; preds``
    comment (a label of ids with more digits gets fewer), and the numbers numba 0.60 names a pickled
    exception's constants with (an object's address there)."""
    text = f.overloads[f.signatures[0]].library.get_llvm_str()
    for pattern, same in ((r"0x[0-9a-f]+", "X"), (r"B\d+v\d+B", "BvB"), (r"\bB\d+", "B"), (r"_v\d+", "_v"),
                          (r"\$\d+", "$"), (r"\[\d+ x i8\]", "[n x i8]"), (r" +; preds", " ; preds"),
                          (r"(pickledata|picklebuf)\.\d+", r"\1.N")):
        text = re.sub(pattern, same, text)
    return text


def test_inlining_gives_numbas_code() -> None:
    # Functions inlined into functions inlined into a parallel loop: the blocks copied together give the
    # same code as numba's block by block (the copies of the scope are thrown away either way).
    x = np.linspace(-2.0, 5.0, 17)
    with numbas("inline_ir"):
        f = _parallel_function()
        want = f(x, np.zeros(17), 1.0)
    g = _parallel_function()
    got = g(x, np.zeros(17), 1.0)
    assert got == want == pytest.approx(float(_both_ways_in_python(x).sum()), rel=1e-13)
    assert _normalized_llvm(g) == _normalized_llvm(f)
