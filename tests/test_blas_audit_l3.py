"""rocBLAS's exact statuses and results where an audit found rocmath.blas diverging (Level 3,
the extensions and the ``_ex`` routines).

Each test cites the rocBLAS source (develop b520bc8) whose order it pins:

- D1: no ``_ex`` routine validates a datatype up front; an unknown one passes the argument
  checks and quick returns and is not_implemented at the type dispatch (gemm_ex's compute
  type at the scalar copy that comes first);
- D2: gemm_ex's ``algo`` and ``flags`` are never validated;
- D3: dot_ex and nrm2_ex's quick return zero-fills ``rocblas_sizeof_datatype(result_type)``
  bytes whatever the type;
- D4: geam's in-place rule compares bare pointers (null ones too) before the quick return;
- D5: device-mode syr2k, syrkx, symm and hemm with alpha == 0 and beta == 1 succeed with a
  null C.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath.blas import Datatype as DT
from rocmath.blas import GemmFlags, PointerMode, create_handle, destroy_handle, ex, extensions, level3, set_pointer_mode
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasNotImplementedError,
    RocblasStatus,
)

f32 = DT.f32_r
UNKNOWN = 999  # no rocblas_datatype has this value


@pytest.fixture
def h() -> Iterator[Any]:
    handle = create_handle()
    yield handle
    rm.device_synchronize()
    destroy_handle(handle)


def dev(a: Any, dtype: Any = np.float32) -> Any:
    return rm.to_device(np.asfortranarray(np.asarray(a, dtype=dtype)))


def expect(err: type[Exception], status: RocblasStatus, arg: str | None, fn: Any, *args: Any, **kw: Any) -> None:
    with pytest.raises(err) as info:
        fn(*args, **kw)
    assert info.value.status == status  # type: ignore[attr-defined]
    if arg is not None:
        assert info.value.arg == arg, f"named {info.value.arg!r}, expected {arg!r}"  # type: ignore[attr-defined]


def not_implemented(fn: Any, *args: Any, **kw: Any) -> None:
    expect(RocblasNotImplementedError, RocblasStatus.not_implemented, None, fn, *args, **kw)


# --- D1: datatypes are not validated up front -----------------------------------------------------------


def _gemm_ex_kw(m: int = 2) -> dict[str, Any]:
    A, C, D = dev(np.ones((4, 4))), dev(np.ones((4, 4))), dev(np.full((4, 4), 5.0))
    return dict(transA="N", transB="N", m=m, n=2, k=2, alpha=1.0, a=A, a_type=f32, lda=4, b=A, b_type=f32, ldb=4,
                beta=0.0, c=C, c_type=f32, ldc=4, d=D, d_type=f32, ldd=4, compute_type=f32, algo=0,
                solution_index=0, flags=0)


@pytest.mark.parametrize("which", ["a_type", "b_type", "c_type", "d_type"])
def test_gemm_ex_unknown_datatype_flows_through_the_checks(h: Any, which: str) -> None:
    # rocblas_gemm_ex_imp.hpp: rocblas_gemm_ex_arg_check (sizes, quick return, pointers) runs
    # before rocblas_gemm_ex_template's type dispatch (rocblas_gemm_ex_kernels.cpp, else: not_implemented).
    kw = {**_gemm_ex_kw(), which: UNKNOWN}
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "m", ex.gemm_ex, h, **{**kw, "m": -1})
    assert ex.gemm_ex(h, **{**kw, "m": 0}) is None
    assert ex.gemm_strided_batched_ex(h, **{**kw, "stride_a": 0, "stride_b": 0, "stride_c": 0, "stride_d": 0,
                                            "batch_count": 0}) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "d", ex.gemm_ex, h, **{**kw, "d": None})
    not_implemented(ex.gemm_ex, h, **kw)
    np.testing.assert_array_equal(kw["d"].get(), 5.0)  # nothing written


def test_gemm_ex_unknown_c_type_with_d_is_c(h: Any) -> None:
    # rocblas_gemm_ex.hpp, rocblas_gemm_ex_arg_check: c == d with c_type != d_type is invalid_value,
    # a comparison of the bare enum values.
    kw = _gemm_ex_kw()
    expect(RocblasInvalidValueError, RocblasStatus.invalid_value, "d_type", ex.gemm_ex, h,
           **{**kw, "d": kw["c"], "c_type": UNKNOWN})


@pytest.mark.parametrize("device_mode", [False, True], ids=["host", "device"])
def test_gemm_ex_unknown_compute_type_is_not_implemented_first(h: Any, device_mode: bool) -> None:
    # rocblas_gemm_ex_imp.hpp calls rocblas_copy_alpha_beta_to_host_if_on_device before the argument
    # check; its switch on compute_type (rocblas_gemm_ex.hpp) returns not_implemented by default,
    # in either pointer mode.
    kw = {**_gemm_ex_kw(m=-1), "transA": 999, "compute_type": UNKNOWN}
    if device_mode:
        set_pointer_mode(h, PointerMode.device)
        kw.update(alpha=dev([1.0]), beta=dev([0.0]))
    not_implemented(ex.gemm_ex, h, **kw)
    not_implemented(ex.gemm_batched_ex, h, **{**kw, "batch_count": -1})


def test_level1_ex_unknown_datatypes(h: Any) -> None:
    x, y = dev([1, 2, 3, 4]), dev([1, 1, 1, 1])
    # axpy_ex (rocblas_axpy_ex_template.hpp): n <= 0 success, null alpha, then the dispatch.
    axpy = dict(n=4, alpha=1.0, alpha_type=UNKNOWN, x=x, x_type=f32, incx=1, y=y, y_type=f32, incy=1,
                execution_type=f32)
    assert ex.axpy_ex(h, **{**axpy, "n": 0}) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "alpha", ex.axpy_ex, h,
           **{**axpy, "alpha": None})
    not_implemented(ex.axpy_ex, h, **axpy)
    # scal_ex (rocblas_scal_ex_template.hpp): n <= 0 or incx <= 0 success, then the dispatch.
    scal = dict(n=4, alpha=2.0, alpha_type=f32, x=x, x_type=UNKNOWN, incx=1, execution_type=f32)
    assert ex.scal_ex(h, **{**scal, "n": 0}) is None
    assert ex.scal_ex(h, **{**scal, "incx": 0}) is None
    not_implemented(ex.scal_ex, h, **scal)
    # dot_ex, dotc_ex (rocblas_dot_ex_imp.hpp): n <= 0 writes 0 in result_type, null x/y, then the dispatch.
    for f in (ex.dot_ex, ex.dotc_ex):
        dot = dict(n=4, x=x, x_type=UNKNOWN, incx=1, y=y, y_type=f32, incy=1, result_type=f32, execution_type=f32)
        assert f(h, **{**dot, "n": 0}) == np.float32(0)
        expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "y", f, h, **{**dot, "y": None})
        not_implemented(f, h, **dot)
        not_implemented(f, h, **{**dot, "x_type": f32, "execution_type": UNKNOWN})
    # nrm2_ex (rocblas_nrm2_ex_imp.hpp): n <= 0 or incx <= 0 writes 0, null x, then the dispatch.
    nrm2 = dict(n=4, x=x, x_type=UNKNOWN, incx=1, result_type=f32, execution_type=f32)
    assert ex.nrm2_ex(h, **{**nrm2, "incx": 0}) == np.float32(0)
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "x", ex.nrm2_ex, h, **{**nrm2, "x": None})
    not_implemented(ex.nrm2_ex, h, **nrm2)
    # rot_ex (rocblas_rot_ex_imp.hpp): n <= 0 success, null x/y/c/s, then the dispatch.
    rot = dict(n=4, x=x, x_type=f32, incx=1, y=y, y_type=f32, incy=1, c=1.0, s=0.0, cs_type=UNKNOWN,
               execution_type=f32)
    assert ex.rot_ex(h, **{**rot, "n": 0}) is None
    assert ex.rot_batched_ex(h, **{**rot, "batch_count": -1}) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "c", ex.rot_ex, h, **{**rot, "c": None})
    not_implemented(ex.rot_ex, h, **rot)
    np.testing.assert_array_equal(x.get(), [1, 2, 3, 4])
    np.testing.assert_array_equal(y.get(), [1, 1, 1, 1])


def test_trsm_ex_and_geam_ex_unknown_datatypes(h: Any) -> None:
    A = dev(np.eye(3))
    # rocblas_trsm.cpp: rocblas_trsm_ex switches on compute_type before anything; default: not_implemented.
    not_implemented(ex.trsm_ex, h, "L", "U", "N", "N", -1, 3, 1.0, A, 3, A, 3, None, 0, UNKNOWN)
    # rocblas_geam_ex.cpp: an unknown compute type is not_implemented before the argument check; other
    # datatypes reach rocblas_geam_ex_template's dispatch (rocblas_geam_ex_kernels.cpp).
    base = dict(transA="N", transB="N", m=3, n=3, k=3, alpha=1.0, A=A, a_type=UNKNOWN, lda=3, B=A, b_type=f32,
                ldb=3, beta=1.0, C=A, c_type=f32, ldc=3, D=A, d_type=f32, ldd=3, compute_type=f32, geam_ex_op=0)
    not_implemented(ex.geam_ex, h, **{**base, "compute_type": UNKNOWN, "m": -1})
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "m", ex.geam_ex, h, **{**base, "m": -1})
    assert ex.geam_ex(h, **{**base, "m": 0}) is None
    not_implemented(ex.geam_ex, h, **base)


def test_datatype_no_c_enum_can_hold_is_invalid_value(h: Any) -> None:
    # Not a rocBLAS case: a Python value no C int32 enum can carry.
    x = dev([1, 2])
    for bad in (1.5, 1 << 40, "no_such_type"):
        expect(RocblasInvalidValueError, RocblasStatus.invalid_value, "x_type", ex.scal_ex, h, 0, 1.0, f32, x, bad,
               1, f32)


# --- D2: algo and flags are not validated -------------------------------------------------------------


@pytest.mark.parametrize(("algo", "flags"), [(7, 0), (-3, 0), (0, -1), (1, 0xFFFFFFFF), (0, 1 << 40)])
def test_gemm_ex_any_algo_and_flags(h: Any, algo: int, flags: int) -> None:
    # rocblas_gemm_ex_imp.hpp never validates algo (a rocblas_gemm_algo only compared with
    # solution_index) or flags (a uint32_t: a negative int is its bit pattern).  A pattern holding
    # check_solution_index (-1, 0xFFFFFFFF) makes the call a check that computes nothing (tensile_host.cpp).
    kw = {**_gemm_ex_kw(), "algo": algo, "flags": flags}
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "m", ex.gemm_ex, h, **{**kw, "m": -1})
    before = kw["d"].get()
    ex.gemm_ex(h, **kw)
    if flags & 0xFFFFFFFF & GemmFlags.check_solution_index:
        np.testing.assert_array_equal(kw["d"].get(), before)
    else:
        np.testing.assert_array_equal(kw["d"].get()[:2, :2], 2.0)


def test_gemm_ex_non_integer_flags_is_invalid_value(h: Any) -> None:
    # Not a rocBLAS case: no uint32_t holds a float.
    expect(RocblasInvalidValueError, RocblasStatus.invalid_value, "flags", ex.gemm_ex, h,
           **{**_gemm_ex_kw(), "flags": 0.5})


# --- D3: reductions' quick return zero-fills sizeof(result_type) bytes ----------------------------------


@pytest.mark.parametrize(("result_type", "size"), [(DT.i32_r, 4), (DT.f16_c, 4), (DT.i8_r, 1), (DT.f64_c, 16),
                                                   (DT.invalid, 4), (UNKNOWN, 0)])
def test_reduction_ex_quick_return_zero_fills_result_type_bytes(h: Any, result_type: Any, size: int) -> None:
    # rocblas_dot_ex_imp.hpp:128-137, rocblas_nrm2_ex_imp.hpp:114-125 and their batched forms: memset of
    # rocblas_sizeof_datatype(result_type) (utility.hpp) bytes per result, success, before any dispatch.
    x = dev([1, 2, 3, 4])
    set_pointer_mode(h, PointerMode.device)
    calls = [
        (1, ex.dot_ex, (0, x, f32, 1, x, f32, 1), (result_type, f32)),
        (1, ex.dotc_ex, (-1, x, f32, 1, x, f32, 1), (result_type, f32)),
        (1, ex.nrm2_ex, (4, x, f32, 0), (result_type, f32)),
        (1, ex.nrm2_ex, (0, x, f32, 1), (result_type, f32)),
        (2, ex.dot_strided_batched_ex, (0, x, f32, 1, 4, x, f32, 1, 4, 2), (result_type, f32)),
        (3, ex.nrm2_strided_batched_ex, (4, x, f32, -1, 4, 3), (result_type, f32)),
    ]
    for count, f, head, tail in calls:
        out = rm.to_device(np.full(64, 0xAB, np.uint8))
        assert f(h, *head, out, *tail) is None
        got = out.get()
        assert (got[: size * count] == 0).all() and (got[size * count:] == 0xAB).all(), (f.__name__, got)
    # batch_count 0 writes nothing (rocblas_nrm2_batched_ex_imp.hpp: memset only for batch_count > 0).
    out = rm.to_device(np.full(64, 0xAB, np.uint8))
    ex.nrm2_strided_batched_ex(h, 0, x, f32, 1, 4, 0, out, result_type, f32)
    assert (out.get() == 0xAB).all()


def test_reduction_ex_quick_return_host_results(h: Any) -> None:
    x = dev([1, 2, 3, 4])
    r = ex.dot_ex(h, 0, x, f32, 1, x, f32, 1, None, DT.i32_r, f32)
    assert r == 0 and r.dtype == np.int32
    r = ex.nrm2_ex(h, 0, x, f32, 1, None, DT.i8_r, f32)
    assert r == 0 and r.dtype == np.int8
    # A type without a rocmath precision: its zero bytes (none for an unknown value).
    assert ex.dot_ex(h, 0, x, f32, 1, x, f32, 1, None, UNKNOWN, f32).tobytes() == b""
    assert ex.nrm2_ex(h, 0, x, f32, 1, None, DT.f16_c, f32).tobytes() == bytes(4)
    host = np.full(12, 0xAB, np.uint8)  # a host result buffer, as in C
    ex.dot_batched_ex(h, 0, None, f32, 1, None, f32, 1, 2, host, DT.f16_c, f32)
    assert (host[:8] == 0).all() and (host[8:] == 0xAB).all()
    assert list(ex.dot_batched_ex(h, 0, None, f32, 1, None, f32, 1, 3, None, DT.i32_r, f32)) == [0, 0, 0]


# --- D4: geam's in-place rule compares bare pointers -----------------------------------------------------


def test_geam_null_c_aliases_null_a_or_b(h: Any) -> None:
    # rocblas_geam.hpp, rocblas_geam_arg_check: (C == A && (lda != ldc || transA != none)) or the same
    # for B is invalid_size before the quick return; null pointers compare equal.
    B = dev(np.ones((4, 4)))
    f = extensions.sgeam
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "C", f, h, "N", "N", 0, 2, 1.0, None, 1, 1.0, B, 4,
           None, 2)
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "C", f, h, "N", "N", 2, 2, 1.0, None, 2, 1.0, B, 4,
           None, 3)
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "C", f, h, "T", "N", 0, 2, 0.0, None, 4, 1.0, B, 4,
           None, 4)
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "C", f, h, "N", "C", 2, 0, 1.0, B, 4, 0.0, None, 4,
           None, 4)
    expect(RocblasInvalidSizeError, RocblasStatus.invalid_size, "C", extensions.sgeam_strided_batched, h, "N", "N",
           2, 2, 1.0, None, 2, 0, 1.0, B, 4, 0, None, 3, 0, 0)
    # The same layout aliases harmlessly: the quick return, or C's null check (before alpha and beta).
    assert f(h, "N", "N", 0, 2, 1.0, None, 4, 1.0, None, 4, None, 4) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "C", f, h, "N", "N", 2, 2, None, None, 4,
           None, None, 4, None, 4)
    np.testing.assert_array_equal(B.get(), 1.0)


# --- D5: device-mode alpha == 0, beta == 1 with a null C ---------------------------------------------------


@pytest.mark.parametrize("routine", ["ssyr2k", "ssyrkx", "csyr2k", "csyrkx", "dsyr2k_strided_batched",
                                     "zsyrkx_batched"])
def test_device_mode_syr2k_syrkx_nothing_to_do_with_null_c(h: Any, routine: str) -> None:
    # rocblas_syr2k_imp.hpp:62-66, rocblas_syrkx_imp.hpp:65 (and the batched forms): alpha and beta are
    # copied to the host (alpha as 0 when k == 0) and host pointer mode pushed before the argument
    # check, whose host rules return success on alpha == 0 (or k == 0) and beta == 1 before C.
    dt = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}[routine[0]]
    f = getattr(level3, routine)
    A = dev(np.ones((4, 4)), dt)
    set_pointer_mode(h, PointerMode.device)
    zero, one, two = dev([0.0], dt), dev([1.0], dt), dev([2.0], dt)
    strided = routine.endswith("strided_batched")
    batched = routine.endswith("_batched") and not strided

    def call(n: int, k: int, alpha: Any, a: Any, beta: Any, c: Any) -> Any:
        if strided:
            return f(h, "U", "N", n, k, alpha, a, 4, 16, a, 4, 16, beta, c, 4, 16, 2)
        if batched:
            return f(h, "U", "N", n, k, alpha, a, 4, a, 4, beta, c, 4, 2)
        return f(h, "U", "N", n, k, alpha, a, 4, a, 4, beta, c, 4)

    assert call(2, 2, zero, None, one, None) is None
    assert call(2, 0, two, None, one, None) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "C", call, 2, 2, zero, None, two, None)
    if not batched:  # a plain device matrix is no array of pointers
        expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "A", call, 2, 2, one, None, one, A)


@pytest.mark.parametrize("routine", ["ssymm", "chemm", "dsymm_strided_batched"])
def test_device_mode_symm_hemm_nothing_to_do_with_null_c(h: Any, routine: str) -> None:
    # rocblas_symm_hemm.hpp: the argument check tests no array in device mode; then
    # rocblas_symm_hemm_kernels.cpp:484 (and :824, batched) copies alpha and beta to the host and
    # returns success on alpha == 0 and beta == 1.
    dt = {"s": np.float32, "d": np.float64, "c": np.complex64}[routine[0]]
    f = getattr(level3, routine)
    strided = routine.endswith("strided_batched")
    set_pointer_mode(h, PointerMode.device)
    zero, one, two = dev([0.0], dt), dev([1.0], dt), dev([2.0], dt)

    def call(alpha: Any, a: Any, b: Any, beta: Any, c: Any) -> Any:
        if strided:
            return f(h, "L", "U", 2, 2, alpha, a, 2, 4, b, 2, 4, beta, c, 2, 4, 2)
        return f(h, "L", "U", 2, 2, alpha, a, 2, b, 2, beta, c, 2)

    assert call(zero, None, None, one, None) is None
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "C", call, zero, None, None, two, None)
    C = dev(np.full((2, 4) if strided else (2, 2), 3.0), dt)
    expect(RocblasInvalidPointerError, RocblasStatus.invalid_pointer, "A", call, one, None, C, one, C)
    call(zero, None, None, two, C)  # C := 2 C, A and B unread
    np.testing.assert_array_equal(C.get(), 6.0)
    A = dev(np.triu(np.full((2, 4) if strided else (2, 2), 2.0)), dt)
    B = dev(np.ones((2, 4) if strided else (2, 2)), dt)
    call(one, A, B, zero, C)  # symmetric (Hermitian) A from its upper triangle: all 2s
    np.testing.assert_array_equal(C.get(), 4.0)
