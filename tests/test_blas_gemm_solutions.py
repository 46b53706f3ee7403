"""gemm_ex's solutions: rocBLAS's beta API queries (rocmath.blas.beta: gemm_ex_get_solutions, its batched and
strided forms, the by_type ones) and gemm_ex's ``algo``/``solution_index``/``flags`` (rocmath.blas.ex).

rocmath's simulated library has one solution, index 1, for every problem gemm_ex has.  The queries are
checked for their answers in both call patterns (the count, then the list), for every type combination
against gemm_ex's own verdict, and in rocBLAS's check order, with operands in poisoned padded buffers
(test_blas_ex's Dev) that must stay untouched.  gemm_ex with solution 1 must give the default's bits, an
unknown solution invalid_value, and check_solution_index must write nothing.
"""

from __future__ import annotations

import inspect
import os
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_blas_ex import GEMM_COMBOS, GEMM_ORDER, PREC, SCALARS, SUFFIX, Dev, _close_buffers, expect, ids, rnd  # noqa: F401  (_close_buffers: a fixture)

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.blas import CheckNumericsMode, GemmAlgo, GemmFlags, MathMode, PointerMode, ex, set_pointer_mode
from rocmath.blas import Datatype as DT
from rocmath.errors import (
    RocblasCheckNumericsFailError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasNotImplementedError,
    RocblasStatus,
)

FLAVOURS = ("plain", "batched", "strided")
F32 = DT.f32_r
QUERIES = ("gemm_ex_get_solutions", "gemm_batched_ex_get_solutions", "gemm_strided_batched_ex_get_solutions")
BY_TYPE = ("gemm_ex_get_solutions_by_type", "gemm_batched_ex_get_solutions_by_type")


@pytest.fixture(scope="module")
def handle() -> Any:
    hnd = blas.create_handle()
    yield hnd
    blas.destroy_handle(hnd)


@pytest.fixture
def h(handle: Any) -> Any:
    """The handle in its default state (pointer mode, math mode, check-numerics), restored after each test."""
    yield handle
    set_pointer_mode(handle, PointerMode.host)
    blas.set_math_mode(handle, MathMode.default_math)
    handle.check_numerics = 0


def query(flavour: str) -> Any:
    return getattr(blas, f"gemm{SUFFIX[flavour]}_ex_get_solutions")


def gemm(flavour: str) -> Any:
    return getattr(blas, f"gemm{SUFFIX[flavour]}_ex")


def problem(flavour: str, combo: tuple[DT, DT, DT] = (F32, F32, F32), *, m: int = 3, n: int = 3, k: int = 3,
            batch: int = 2, in_place: bool = False, seed: int = 0) -> dict[str, Any]:
    """A valid gemm_ex problem in poisoned padded buffers: D (apart from C unless ``in_place``) holds the
    sentinel.  ``kw``: the get_solutions arguments (gemm_ex's but solution_index)."""
    a_t, c_t, comp_t = combo
    pa, pc = PREC[a_t], PREC[c_t]
    batch = 1 if flavour == "plain" else batch
    rng = np.random.default_rng(seed)
    A = Dev(rnd(rng, (batch, m, k), pa), pa, flavour, ld=m + 1)
    B = Dev(rnd(rng, (batch, k, n), pa), pa, flavour, ld=k + 2)
    C = Dev(rnd(rng, (batch, m, n), pc), pc, flavour, ld=m + 2)
    D = C if in_place else Dev(rnd(rng, (batch, m, n), pc), pc, flavour, ld=m + 2, gap=5)
    if not in_place:
        D.poison()
    alpha, beta = SCALARS[PREC[comp_t]]
    kw: dict[str, Any] = dict(transA="N", transB="N", m=m, n=n, k=k, alpha=alpha, beta=beta, a_type=a_t, b_type=a_t,
                              c_type=c_t, d_type=c_t, compute_type=comp_t, algo=0, flags=0)
    for name, dev in (("a", A), ("b", B), ("c", C), ("d", D)):
        kw[name], kw[f"ld{name}"] = dev.arg, dev.ld
        if flavour == "strided":
            kw[f"stride_{name}"] = dev.stride
    if flavour != "plain":
        kw["batch_count"] = batch
    return {"flavour": flavour, "kw": kw, "A": A, "B": B, "C": C, "D": D}


def untouched(p: dict[str, Any]) -> None:
    """Every buffer of a problem as it was, bit for bit (D's sentinel included)."""
    for name in "ABCD":
        p[name].check(logical=True)


# --- the surface -----------------------------------------------------------------------------------------


def test_signatures_follow_rocblas_beta_h() -> None:
    gemm_args = ["transA", "transB", "m", "n", "k", "alpha", "a", "a_type", "lda", "b", "b_type", "ldb", "beta", "c",
                 "c_type", "ldc", "d", "d_type", "ldd"]
    tail = ["compute_type", "algo", "flags", "list_array", "list_size"]
    strided = ["transA", "transB", "m", "n", "k", "alpha", "a", "a_type", "lda", "stride_a", "b", "b_type", "ldb",
               "stride_b", "beta", "c", "c_type", "ldc", "stride_c", "d", "d_type", "ldd", "stride_d"]
    expected = {
        "gemm_ex_get_solutions": ["handle", *gemm_args, *tail],
        "gemm_batched_ex_get_solutions": ["handle", *gemm_args, "batch_count", *tail],
        "gemm_strided_batched_ex_get_solutions": ["handle", *strided, "batch_count", *tail],
        **{name: ["handle", "input_type", "output_type", "compute_type", "flags", "list_array", "list_size"]
           for name in BY_TYPE},
    }
    for name, params in expected.items():
        fn = getattr(blas, name)
        sig = inspect.signature(fn)
        assert list(sig.parameters) == params, name
        assert [n for n, p in sig.parameters.items() if p.default is None] == ["list_array", "list_size"]
        assert fn.__name__ == name and fn.__module__ == "rocmath.blas"
        assert fn.__doc__.startswith(f"rocblas_{name}(handle, ") and "Returns\n-------" in fn.__doc__
        assert not hasattr(blas, f"{name}_64")  # rocblas-beta.h has no ILP64 forms
    assert not hasattr(blas, "gemm_strided_batched_ex_get_solutions_by_type")
    assert set(blas._manifest.GET_SOLUTIONS) == set(expected) and set(expected) <= set(blas.beta.__all__)


# --- the answers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_count_then_list_as_c_reads(h: Any, flavour: str) -> None:
    """The C pattern: a first call for the count (list_array NULL), a second filling an array of that size."""
    p = problem(flavour)
    count = query(flavour)(h, **p["kw"])
    assert count == 1 and type(count) is int
    solutions = np.full(count, -7, np.int32)
    assert query(flavour)(h, **p["kw"], list_array=solutions, list_size=count) == [1]
    assert solutions.tolist() == [1]
    # list_size as a C rocblas_int: a host int32 array receives the count, and holds the size to fill
    size = np.full(1, -7, np.int32)
    assert query(flavour)(h, **p["kw"], list_size=size) == 1 and size.tolist() == [1]
    solutions = np.full(3, -7, np.int32)
    assert query(flavour)(h, **p["kw"], list_array=solutions, list_size=size) == [1]
    assert solutions.tolist() == [1, -7, -7] and size.tolist() == [1]  # (an input then: not written)
    untouched(p)


@pytest.mark.parametrize("fname", [*QUERIES, *BY_TYPE])
@pytest.mark.parametrize(("size", "filled"), [(0, []), (-3, []), (1, [1]), (5, [1]), (2**31 - 1, [1])])
def test_list_size_bounds_what_is_written(h: Any, fname: str, size: int, filled: list[int]) -> None:
    """min(list_size, count) entries are written (none for list_size <= 0), the rest of the array kept."""
    if fname in BY_TYPE:
        args: dict[str, Any] = dict(input_type=DT.f16_r, output_type=DT.f16_r, compute_type=F32, flags=0)
    else:
        args = problem({q: f for f, q in zip(FLAVOURS, QUERIES, strict=True)}[fname])["kw"]
    out = np.full(6, -7, np.int32)
    assert getattr(blas, fname)(h, **args, list_array=out, list_size=size) == filled
    assert out.tolist() == filled + [-7] * (6 - len(filled))
    out = np.full((2, 3), -7, np.int32, order="F")  # any contiguous array: its memory order, as C's pointer
    assert getattr(blas, fname)(h, **args, list_array=out, list_size=np.array([size], np.int32)) == filled
    assert out.T.reshape(-1).tolist() == filled + [-7] * (6 - len(filled))
    if not filled:
        assert getattr(blas, fname)(h, **args, list_array=np.zeros(0, np.int32), list_size=size) == []


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("combo", GEMM_COMBOS, ids=ids)
def test_every_gemm_ex_combination_has_solution_one(h: Any, combo: tuple[DT, DT, DT], flavour: str) -> None:
    p = problem(flavour, combo, m=4, n=2, k=3)
    out = np.zeros(2, np.int32)
    assert query(flavour)(h, **p["kw"]) == 1
    assert query(flavour)(h, **p["kw"], list_array=out, list_size=2) == [1] and out.tolist() == [1, 0]
    a_t, c_t, comp_t = combo
    for fname in BY_TYPE:
        assert getattr(blas, fname)(h, a_t, c_t, comp_t, 0) == 1
        assert getattr(blas, fname)(h, a_t, c_t, comp_t, 0, out, 1) == [1]
    untouched(p)


#: Datatype values and values no rocblas_datatype has.
POOL = [*DT, 7777, -1]
FIVE = [(a, a, c, c, comp) for a, c, comp in GEMM_COMBOS]


@st.composite
def type_tuples(draw: Any) -> tuple[Any, ...]:
    """(a_type, b_type, c_type, d_type, compute_type): a supported combination, or one with a field changed."""
    types = list(draw(st.sampled_from(FIVE)))
    for _ in range(draw(st.integers(0, 2))):
        types[draw(st.integers(0, 4))] = draw(st.sampled_from(POOL))
    return tuple(types)


@settings(max_examples=rt.examples(60), deadline=None, derandomize=True)
@given(types=type_tuples(), flavour=st.sampled_from(FLAVOURS))
def test_solutions_exactly_where_gemm_ex_runs(handle: Any, types: tuple[Any, ...], flavour: str) -> None:
    """get_solutions answers [1] for a type combination gemm_ex computes, not_implemented (naming compute_type)
    for one it refuses; by_type (A and B one type, C and D one) alike."""
    a_t, b_t, c_t, d_t, comp_t = types
    batch = 1 if flavour == "plain" else 2
    bufs = [rm.zeros(64, np.uint8) for _ in range(4)]  # 2 x 2 entries, ld 2, of any type (16 bytes at most)
    kw: dict[str, Any] = dict(transA="N", transB="N", m=2, n=2, k=2, alpha=1, beta=1, a_type=a_t, b_type=b_t,
                              c_type=c_t, d_type=d_t, compute_type=comp_t, algo=0, flags=0)
    for name, buf in zip("abcd", bufs, strict=True):
        kw[name] = rm.to_device(np.array([buf.ptr] * batch, np.uint64)) if flavour == "batched" else buf
        kw[f"ld{name}"] = 2
        if flavour == "strided":
            kw[f"stride_{name}"] = 0
    if flavour != "plain":
        kw["batch_count"] = batch
    try:
        gemm(flavour)(handle, **kw, solution_index=0)
        runs = True
    except RocblasNotImplementedError as e:
        assert e.arg == "compute_type"
        runs = False
    if runs:
        assert query(flavour)(handle, **kw, list_array=np.zeros(1, np.int32), list_size=1) == [1]
    else:
        expect(RocblasNotImplementedError, query(flavour), handle, arg="compute_type", **kw)
    for fname in BY_TYPE:
        if (a_t, c_t, comp_t) in ex.GEMM_EX_TYPES:
            assert getattr(blas, fname)(handle, a_t, c_t, comp_t, 0) == 1
        else:
            expect(RocblasNotImplementedError, getattr(blas, fname), handle, a_t, c_t, comp_t, 0, arg="compute_type")
            expect(RocblasNotImplementedError, getattr(blas, fname), handle, a_t, c_t, comp_t, 0,
                   np.zeros(1, np.int32), None, arg="compute_type")  # (the types before list_size)


def test_by_type_checks_types_then_list_size(h: Any) -> None:
    for fname in BY_TYPE:
        fn = getattr(blas, fname)
        expect(RocblasInvalidPointerError, fn, h, F32, F32, F32, 0, np.zeros(1, np.int32), arg="list_size")
        expect(RocblasInvalidValueError, fn, h, F32, F32, F32, 1.5, arg="flags")
        expect(RocblasInvalidValueError, fn, h, F32, 2.0, F32, 0, arg="output_type")
        assert fn(h, F32, F32, F32, -1) == 1  # flags: a uint32_t, not validated
        assert fn(h, F32, int(F32), F32, GemmFlags.check_solution_index) == 1
        expect(RocblasInvalidHandleError, fn, None, F32, F32, F32, 0, arg="handle")


# --- get_solutions' check order ---------------------------------------------------------------------------

ORDER = [
    # (changes, error, argument named): several rules broken; the first in rocBLAS's order decides.  Unlike
    # gemm_ex, no compute type is refused first (get_solutions copies no alpha and beta).
    ({"compute_type": 7777, "transA": 999, "m": -1}, RocblasInvalidValueError, "transA"),
    ({"compute_type": DT.f16_c, "m": -1}, RocblasInvalidSizeError, "m"),
    ({"a_type": 12345, "transB": 999}, RocblasInvalidValueError, "transB"),
    # then gemm_ex's rules, transposes to d_type (rocblas_gemm_ex_arg_check), on the same 3 x 3 x 3 problem;
    *[case for case in GEMM_ORDER if case[1] is not RocblasNotImplementedError],
    # The value rules read alpha and beta in a compute type rocBLAS's switch knows; another skips them.
    ({"c": None, "compute_type": 7777}, RocblasNotImplementedError, "compute_type"),
    ({"c": None, "a": None, "compute_type": DT.bf16_r}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.f64_r, "list_size": None}, RocblasNotImplementedError, "compute_type"),
    ({"c_type": DT.f16_r, "d_type": DT.f16_r}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.f16_r, "b_type": DT.bf16_r}, RocblasNotImplementedError, "compute_type"),
    ({"c_type": DT.f64_r, "d_type": DT.f32_r}, RocblasNotImplementedError, "compute_type"),
    ({"compute_type": DT.f16_c}, RocblasNotImplementedError, "compute_type"),
    ({"list_size": None}, RocblasInvalidPointerError, "list_size"),
    ({"list_array": np.zeros(2, np.int64)}, RocblasInvalidPointerError, "list_array"),
    ({"list_array": np.zeros(4, np.int32)[::2]}, RocblasInvalidPointerError, "list_array"),
    ({"list_array": [0, 0]}, RocblasInvalidPointerError, "list_array"),
    ({"list_array": np.zeros(0, np.int32)}, RocblasInvalidSizeError, "list_array"),
    ({"list_size": np.zeros(0, np.int32)}, RocblasInvalidPointerError, "list_size"),
    ({"list_size": 2**31}, RocblasInvalidSizeError, "list_size"),  # (no rocblas_int holds it)
    ({"list_array": None, "list_size": np.zeros(1, np.int64)}, RocblasInvalidPointerError, "list_size"),
    ({"algo": 1.5}, RocblasInvalidValueError, "algo"),
    ({"flags": None}, RocblasInvalidValueError, "flags"),
]


@pytest.mark.parametrize(("changes", "error", "arg"), ORDER, ids=lambda v: "")
def test_get_solutions_check_order(h: Any, changes: dict[str, Any], error: type[Exception], arg: str) -> None:
    p = problem("plain")
    out = np.full(2, -7, np.int32)
    kw = {**p["kw"], "list_array": out, "list_size": 2, **changes}
    if kw["d"] == "C":
        kw["d"] = kw["c"]
    expect(error, blas.gemm_ex_get_solutions, h, arg=arg, **kw)
    untouched(p)
    if kw["list_array"] is out:
        assert out.tolist() == [-7, -7]


def test_unknown_compute_type_is_refused_first_by_gemm_ex_only(h: Any) -> None:
    p = problem("plain")
    kw = {**p["kw"], "compute_type": 7777, "transA": 999}
    expect(RocblasNotImplementedError, blas.gemm_ex, h, arg="compute_type", **kw, solution_index=0)
    expect(RocblasInvalidValueError, blas.gemm_ex_get_solutions, h, arg="transA", **kw)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_quick_return_writes_nothing(h: Any, flavour: str) -> None:
    """m, n or batch_count 0 succeed before the pointers, the types and list_size, writing nothing."""
    p = problem(flavour)
    broken = dict(alpha=None, beta=None, d=None, a_type=7777, compute_type=DT.bf16_r, list_size=None)
    zeros = [{"m": 0}, {"n": 0}] + ([{"batch_count": 0}] if flavour != "plain" else [])
    for zero in zeros:
        assert query(flavour)(h, **{**p["kw"], **broken, **zero}) is None
        out, size = np.full(2, -7, np.int32), np.full(1, -7, np.int32)
        assert query(flavour)(h, **{**p["kw"], **broken, **zero, "list_array": out}) == []
        assert query(flavour)(h, **{**p["kw"], **broken, **zero, "list_size": size}) is None
        assert out.tolist() == [-7, -7] and size.tolist() == [-7]
    # k == 0 is no quick return: A and B are not needed, but the rest is checked
    assert query(flavour)(h, **{**p["kw"], "k": 0, "alpha": None, "a": None, "b": None, "lda": 3}) == 1
    expect(RocblasInvalidPointerError, query(flavour), h, arg="beta", **{**p["kw"], "k": 0, "beta": None})
    untouched(p)


@pytest.mark.parametrize("flavour", ["batched", "strided"])
def test_batched_forms_check_batch_count_not_strides(h: Any, flavour: str) -> None:
    p = problem(flavour)
    expect(RocblasInvalidSizeError, query(flavour), h, arg="k", **{**p["kw"], "batch_count": -1, "k": -1})
    expect(RocblasInvalidSizeError, query(flavour), h, arg="batch_count", **{**p["kw"], "batch_count": -1})
    if flavour == "strided":  # (rocBLAS passes the strides on unread: overlapping entries are no error here)
        assert query(flavour)(h, **{**p["kw"], "stride_a": -5, "stride_d": 0}) == 1
        expect(RocblasInvalidSizeError, query(flavour), h, arg="stride_c", **{**p["kw"], "stride_c": 0.5})
    else:  # a null entry is not looked at: only the arrays of pointers are
        assert query(flavour)(h, **{**p["kw"], "a": rm.zeros(2, np.uint64)}) == 1
    untouched(p)


@pytest.mark.parametrize("comp", [F32, DT.f16_r, DT.f64_c])
def test_device_pointer_mode_reads_the_scalars_the_rules_need(h: Any, comp: DT) -> None:
    combo = next(c for c in GEMM_COMBOS if c[2] == comp)
    p = problem("plain", combo)
    dtype = PREC[comp].dtype

    def dev(value: Any) -> Any:
        return rm.to_device(np.array([value], dtype))

    set_pointer_mode(h, PointerMode.device)
    kw = {**p["kw"], "alpha": dev(1), "beta": dev(0.5)}
    assert blas.gemm_ex_get_solutions(h, **kw) == 1
    expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions, h, arg="c", **{**kw, "c": None})
    assert blas.gemm_ex_get_solutions(h, **{**kw, "c": None, "beta": dev(0)}) == 1
    expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions, h, arg="b", **{**kw, "b": None})
    assert blas.gemm_ex_get_solutions(h, **{**kw, "a": None, "b": None, "alpha": dev(0)}) == 1
    expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions, h, arg="alpha", **{**kw, "alpha": 0})
    untouched(p)


def test_size_query(h: Any) -> None:
    """Answered at once (size_unchanged, no check) but for f16/bf16 inputs computed in f32 (HPA), whose
    arguments rocBLAS checks up to the pointers and whose solutions it answers in the query too."""
    p = problem("plain")
    hpa = problem("plain", (DT.bf16_r, DT.bf16_r, F32))
    blas.start_device_memory_size_query(h)
    try:
        assert blas.gemm_ex_get_solutions(h, **{**p["kw"], "transA": 999}) == RocblasStatus.size_unchanged
        assert blas.gemm_ex_get_solutions(h, **{**p["kw"], "list_size": None}) == RocblasStatus.size_unchanged
        expect(RocblasInvalidValueError, blas.gemm_ex_get_solutions, h, arg="transA", **{**hpa["kw"], "transA": 999})
        expect(RocblasInvalidSizeError, blas.gemm_ex_get_solutions, h, arg="ldc", **{**hpa["kw"], "ldc": 1})
        assert blas.gemm_ex_get_solutions(h, **{**hpa["kw"], "m": 0, "d": None}) == RocblasStatus.size_unchanged
        nulls = {"alpha": None, "beta": None, "a": None, "b": None, "c": None, "d": None}
        assert blas.gemm_ex_get_solutions(h, **{**hpa["kw"], **nulls}) == 1  # no pointer checked in a query
        out = np.zeros(1, np.int32)
        assert blas.gemm_ex_get_solutions(h, **hpa["kw"], list_array=out, list_size=1) == [1] and out[0] == 1
        expect(RocblasNotImplementedError, blas.gemm_ex_get_solutions, h, arg="compute_type",
               **{**hpa["kw"], "c_type": DT.f16_r})
        expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions, h, arg="list_size",
               **{**hpa["kw"], "list_array": out})
        assert blas.gemm_ex_get_solutions_by_type(h, F32, F32, F32, 0) == 1  # (by_type has no query answer)
    finally:
        assert blas.stop_device_memory_size_query(h) == 0
    untouched(p)
    untouched(hpa)


def test_get_solutions_logs_nothing(monkeypatch: Any, tmp_path: Any) -> None:
    """rocBLAS logs none of these functions (no trace, bench or profile line); gemm_ex is logged as before."""
    from rocmath.log import close_logs

    for name in ("ROCBLAS_LOG_PATH", "ROCBLAS_CHECK_NUMERICS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ROCBLAS_LAYER", "7")
    for kind in ("TRACE", "BENCH", "PROFILE"):
        monkeypatch.setenv(f"ROCBLAS_LOG_{kind}_PATH", str(tmp_path / f"{kind.lower()}.log"))
    hnd = blas.create_handle()
    p = problem("strided")
    blas.gemm_strided_batched_ex_get_solutions(hnd, **p["kw"])
    blas.gemm_ex_get_solutions_by_type(hnd, F32, F32, F32, 0)
    expect(RocblasInvalidValueError, blas.gemm_batched_ex_get_solutions_by_type, hnd, F32, F32, F32, 0.5)
    blas.gemm_strided_batched_ex(hnd, **p["kw"], solution_index=0)
    blas.destroy_handle(hnd)
    close_logs()
    text = "".join((tmp_path / f"{kind}.log").read_text() for kind in ("trace", "bench", "profile")
                   if os.path.exists(tmp_path / f"{kind}.log"))
    assert "gemm_strided_batched_ex" in text and "get_solutions" not in text


# --- gemm_ex's solution_index ------------------------------------------------------------------------


def run_gemm(h: Any, p: dict[str, Any], **kw: Any) -> np.ndarray:
    """gemm_ex of a problem, its arguments by position (as a repeated call that may replay is), then D."""
    fn = gemm(p["flavour"])
    values = {**p["kw"], "solution_index": 0, **kw}
    assert fn(h, *(values[name] for name in list(inspect.signature(fn).parameters)[1:])) is None
    return p["D"].get()


def unknown_solution(h: Any, p: dict[str, Any]) -> None:
    """gemm_ex asking for solution 2: invalid_value."""
    expect(RocblasInvalidValueError, gemm(p["flavour"]), h, arg="solution_index",
           **{**p["kw"], "algo": GemmAlgo.solution_index, "solution_index": 2})


#: (algo, solution_index) that run the default solution: solution 1 asked for, or no solution asked for.
DEFAULTS = [(GemmAlgo.solution_index, 1), (0, 2), (0, -5), (GemmAlgo.solution_index, 0),
            (GemmAlgo.solution_index, -5), (7, 3), (-1, 2**31 - 1)]


@settings(max_examples=rt.examples(40), deadline=None, derandomize=True)
@given(combo=st.sampled_from(GEMM_COMBOS), flavour=st.sampled_from(FLAVOURS), in_place=st.booleans(),
       m=st.integers(1, 19), n=st.integers(1, 6), k=st.integers(0, 7), choice=st.sampled_from(DEFAULTS),
       seed=st.integers(0, 2**16))
def test_solution_one_computes_the_default_bits(handle: Any, combo: tuple[DT, DT, DT], flavour: str,
                                                in_place: bool, m: int, n: int, k: int, choice: tuple[int, int],
                                                seed: int) -> None:
    algo, index = choice
    first = problem(flavour, combo, m=m, n=n, k=k, in_place=in_place, seed=seed)
    second = problem(flavour, combo, m=m, n=n, k=k, in_place=in_place, seed=seed)
    default = run_gemm(handle, first)
    chosen = run_gemm(handle, second, algo=algo, solution_index=index)
    assert chosen.tobytes() == default.tobytes(), (algo, index)
    if not in_place:
        second["D"].written()
        second["C"].check(logical=True)
    second["D"].check()
    second["A"].check(logical=True)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("index", [2, 3, 2**31 - 1])
def test_unknown_solution_is_invalid_value(h: Any, flavour: str, index: int) -> None:
    p = problem(flavour)
    kw = {**p["kw"], "algo": GemmAlgo.solution_index, "solution_index": index}
    for flags in (0, GemmFlags.check_solution_index, -1):
        expect(RocblasInvalidValueError, gemm(flavour), h, arg="solution_index", **{**kw, "flags": flags})
    untouched(p)
    # Looked for at the launch: after every argument check, the types and the alignment.
    assert gemm(flavour)(h, **{**kw, "m": 0}) is None
    expect(RocblasInvalidValueError, gemm(flavour), h, arg="transA", **{**kw, "transA": 999})
    expect(RocblasInvalidPointerError, gemm(flavour), h, arg="d", **{**kw, "d": None})
    expect(RocblasNotImplementedError, gemm(flavour), h, arg="compute_type", **{**kw, "a_type": DT.f64_r})
    if flavour != "batched":
        expect(RocblasInvalidSizeError, gemm(flavour), h, arg="d", **{**kw, "d": p["D"].arg + 2})
    untouched(p)
    expect(RocblasInvalidValueError, blas.gemm_ex_64, h, arg="solution_index", **{**problem("plain")["kw"],
                                                                                  "algo": 1, "solution_index": index})


def test_xf32_math_mode_falls_back_to_the_default_solution(h: Any) -> None:
    """An f32 problem under the xf32 math mode retries without xf32 when the solution asked for is not
    found (rocBLAS's fallbackTensileProblem): it runs the default.  Other types are not retried."""
    if "gfx94" not in rm.get_device_properties().gcnArchName:
        pytest.skip("xf32 needs a gfx940-gfx942")
    first, second = problem("plain", seed=1), problem("plain", seed=1)
    default = run_gemm(h, first)
    blas.set_math_mode(h, MathMode.xf32_xdl_math_op)
    for _ in range(3):  # (a repeated call may replay: the handle's state is part of what it replays)
        assert run_gemm(h, second, algo=1, solution_index=2).tobytes() == default.tobytes()
    f64 = problem("plain", (DT.f64_r, DT.f64_r, DT.f64_r))
    unknown_solution(h, f64)
    second["D"].poison()
    blas.set_math_mode(h, MathMode.default_math)
    with pytest.raises(RocblasInvalidValueError):  # (the same call by position: what a plan would replay)
        run_gemm(h, second, algo=1, solution_index=2)
    unknown_solution(h, second)
    untouched(second)
    untouched(f64)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("combo", GEMM_COMBOS, ids=ids)
def test_check_solution_index_computes_nothing(h: Any, combo: tuple[DT, DT, DT], flavour: str) -> None:
    """A found solution with check_solution_index in flags: success, nothing written (D apart, or C == D)."""
    for in_place in (False, True):
        p = problem(flavour, combo, m=5, n=4, k=3, in_place=in_place)
        for algo, index, flags in ((0, 0, GemmFlags.check_solution_index), (1, 1, GemmFlags.check_solution_index),
                                   (1, -5, 0xFFFFFFFF), (0, 7, -1)):
            for _ in range(3):  # (nothing a repeated call could replay)
                run_gemm(h, p, algo=algo, solution_index=index, flags=flags)
        untouched(p)
        run_gemm(h, p, algo=1, solution_index=1, flags=GemmFlags.fp16_alt_impl)  # other flags: computed
        if not in_place:
            p["D"].written()


def test_check_solution_index_with_k_zero_and_alpha_zero(h: Any) -> None:
    """No shortcut computes D := beta C first: nothing is written whatever alpha, beta and k."""
    for changes in ({"k": 0}, {"alpha": 0.0}, {"alpha": 0.0, "beta": 0.0, "c": None}, {"beta": 1.0}):
        for in_place in (False, True):
            if in_place and "c" in changes:
                continue
            p = problem("strided", in_place=in_place)
            blas.gemm_strided_batched_ex(h, **{**p["kw"], **changes, "algo": 1, "solution_index": 1,
                                               "flags": GemmFlags.check_solution_index})
            untouched(p)


def test_gemm_ex_64_past_int32_runs_source_kernels_without_solutions(h: Any) -> None:
    """gemm_ex_64 with a leading dimension past int32 runs rocBLAS's source kernels: algo, solution_index
    and flags are not looked at (1 x 1 matrices: one element of each is read or written)."""
    a = rm.to_device(np.array([3.0], np.float32))
    d = rm.to_device(np.array([0.0], np.float32))
    big = 2**31
    blas.gemm_ex_64(h, "N", "N", 1, 1, 1, 2.0, a, F32, big, a, F32, big, 0.0, None, F32, big, d, F32, big, F32, 1, 5,
                    GemmFlags.check_solution_index)
    assert d.get().tolist() == [18.0]
    expect(RocblasInvalidValueError, blas.gemm_ex_64, h, "N", "N", 1, 1, 1, 2.0, a, F32, 1, a, F32, 1, 0.0, None, F32,
           1, d, F32, 1, F32, 1, 5, 0, arg="solution_index")


# --- check-numerics -----------------------------------------------------------------------------------


def test_check_numerics_scans_inputs_before_the_solution_and_d_after_a_check(h: Any) -> None:
    """As gemm_ex_typecasting: A, B, C scanned before runContractionProblem (so a NaN input fails an unknown
    solution first), D after it (so a check-only call scans the D it did not write)."""
    h.check_numerics = CheckNumericsMode.fail
    check = GemmFlags.check_solution_index
    p = problem("plain")
    p["D"].parts[0].set(np.ones((3, 3), np.float32))  # (not the sentinel: a NaN)
    unknown_solution(h, p)
    run_gemm(h, p, algo=1, solution_index=1, flags=check)
    untouched(p)
    nan_a = problem("plain")
    nan_a["A"].parts[0].set(np.full((3, 3), np.nan, np.float32))
    for extra in ({"algo": 1, "solution_index": 2}, {"algo": 1, "solution_index": 1, "flags": check}):
        with pytest.raises(RocblasCheckNumericsFailError, match="NaN in input 'a'"):
            blas.gemm_ex(h, **{**nan_a["kw"], "solution_index": 0, **extra})
    nan_d = problem("plain")
    nan_d["D"].parts[0].set(np.full((3, 3), np.nan, np.float32))
    with pytest.raises(RocblasCheckNumericsFailError, match="NaN in output 'd'"):
        run_gemm(h, nan_d, flags=check)
    unknown_solution(h, nan_d)
    nan_d["D"].check(logical=True)  # (read-only: not even written back)
    with pytest.raises(RocblasCheckNumericsFailError, match="NaN in input 'd'"):  # C == D: an input
        run_gemm(h, nan_d, c=nan_d["D"].arg, ldc=nan_d["D"].ld, flags=check)
    h.check_numerics = CheckNumericsMode.fail | CheckNumericsMode.only_nan_inf
    assert blas.gemm_ex_get_solutions(h, **nan_a["kw"]) == 1  # (it scans nothing)
    h.check_numerics = 0
    run_gemm(h, nan_d, flags=check)
    nan_d["D"].check(logical=True)
