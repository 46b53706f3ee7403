"""rocBLAS's ILP64 API: the ``_64`` functions (``saxpy_64``, ``gemm_strided_batched_ex_64``...).

They are the LP64 routines with ``int64_t`` sizes (rocBLAS builds both from one template:
library/src/include/int64_helpers.hpp, ``ROCBLAS_API``), so each must give bitwise the
LP64 twin's results; amax/amin write ``int64_t`` results; logs name them
``rocblas_<name>_64`` and bench lines carry ``--api 1`` (``ROCBLAS_API_STR``,
``ROCBLAS_API_BENCH``).  The LP64 names take ``rocblas_int`` (int32) sizes: a wider value,
which C would truncate silently, is invalid_size naming the argument; strides are
``rocblas_stride`` (int64) in both APIs.
"""

from __future__ import annotations

import inspect
import io
import os
import shlex
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.blas as blas
from rocmath.bench.rocblas_cli import FAMILIES, main, parse_args, resolve
from rocmath.blas import _manifest
from rocmath.errors import RocblasInvalidSizeError
from rocmath.testing import examples

BIG32 = 1 << 31  # the first value a rocblas_int cannot hold


@pytest.fixture
def h() -> Any:
    handle = blas.create_handle()
    yield handle
    blas.destroy_handle(handle)


def _lp64_names() -> list[str]:
    return sorted(n for n in _manifest.compute_routines() if not n.endswith("_64"))


# --- names -------------------------------------------------------------------------------------------


def test_every_routine_but_trtri_trsm_ex_geam_ex_gemm_ex3_has_its_64_twin() -> None:
    for name in _lp64_names():
        twin = getattr(blas, f"{name}_64", None)
        no_twin = name.startswith(("strtri", "dtrtri", "ctrtri", "ztrtri", "trsm_", "geam_ex")) or name.endswith("_ex3")
        assert (twin is None) == no_twin, name
        if twin is None:
            continue
        lp64 = getattr(blas, name)
        assert twin.__name__ == f"{name}_64" and twin.__module__ == "rocmath.blas"
        assert inspect.signature(twin) == inspect.signature(lp64)  # rocBLAS's argument order, unchanged
        assert twin.__doc__.startswith(f"rocblas_{name}_64(handle")
    aux = {f"{n}_64" for n in _manifest.AUXILIARY_ILP64}
    assert aux <= set(dir(blas)) and len(aux) == 8
    assert sum(n.endswith("_64") for n in _manifest.all_names()) == 577  # rocblas-functions.h + auxiliary.h


# --- the same results as the LP64 twin -------------------------------------------------------------


def _dev(a: np.ndarray) -> Any:
    return rm.to_device(np.asfortranarray(a).reshape(-1, order="F"))


@settings(max_examples=examples(12), deadline=None, derandomize=True)
@given(n=st.integers(0, 40), incx=st.sampled_from([1, 2, -1]), incy=st.sampled_from([1, -3]),
       alpha=st.sampled_from([0.0, 1.0, -2.5]), letter=st.sampled_from("sdcz"))
def test_level1_64_bitwise_as_lp64(n: int, incx: int, incy: int, alpha: float, letter: str) -> None:
    h = blas.create_handle()
    try:
        dt = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}[letter]
        rng = np.random.default_rng([n, incx + 1])  # (seeds are non-negative: incx is -1 at the least)
        x = (rng.standard_normal(max(1, n * abs(incx))) + (1j if letter in "cz" else 0)).astype(dt)
        y = rng.standard_normal(max(1, n * abs(incy))).astype(dt)
        outs = []
        for suffix in ("", "_64"):
            dx, dy = rm.to_device(x), rm.to_device(y)
            f = lambda op, p=letter, s=suffix: getattr(blas, f"{p}{op}{s}")  # noqa: E731
            f("axpy")(h, n, alpha, dx, incx, dy, incy)
            dot = f("dotc" if letter in "cz" else "dot")(h, n, dx, incx, dy, incy)
            nrm = f("nrm2", {"s": "s", "d": "d", "c": "sc", "z": "dz"}[letter])(h, n, dx, incx)
            amax = f("amax", "i" + letter)(h, n, dy, incy)
            amin = f("amin", "i" + letter)(h, n, dy, incy)
            f("scal")(h, n, alpha, dy, incy)
            outs.append((dy.get().tobytes(), np.asarray(dot).tobytes(), np.asarray(nrm).tobytes(), amax, amin))
        assert outs[0] == outs[1]
    finally:
        blas.destroy_handle(h)


@pytest.mark.parametrize("trans", ["N", "T"])
def test_level2_level3_ex_64_bitwise_as_lp64(h: Any, trans: str) -> None:
    rng = np.random.default_rng(3)
    m, n, k, batch = 5, 4, 3, 3
    a = rng.standard_normal((7, 6 * batch))
    b = rng.standard_normal((7, 6 * batch))
    c = rng.standard_normal((7, 6 * batch))
    x, y = rng.standard_normal(12), rng.standard_normal(12)
    tri = np.tril(rng.standard_normal((7, 7))) + 4 * np.eye(7)
    outs = []
    for s in ("", "_64"):
        dA, dB, dC, dx, dy, dT = _dev(a), _dev(b), _dev(c), rm.to_device(x), rm.to_device(y), _dev(tri)
        getattr(blas, f"dgemv{s}")(h, trans, m, n, 0.5, dA, 7, dx, 2, 1.5, dy, -1)
        getattr(blas, f"dger{s}")(h, m, n, -1.0, dx, 1, dy, 2, dC, 7)
        getattr(blas, f"dgemm_strided_batched{s}")(h, trans, "N", m, n, k, 1.25, dA, 7, 42, dB, 7, 42, -0.5, dC, 7,
                                                   42, batch)
        getattr(blas, f"dtrsm{s}")(h, "L", "L", trans, "N", 4, 3, 2.0, dT, 7, dB, 7)
        getattr(blas, f"dsyrk{s}")(h, "U", trans, 4, 3, 1.0, dA, 7, 0.0, dC, 7)
        getattr(blas, f"dgeam{s}")(h, trans, "N", 3, 3, 1.0, dA, 7, 2.0, dB, 7, dC, 7)
        getattr(blas, f"dgemmt{s}")(h, "L", "N", trans, 3, 2, 1.0, dA, 7, dB, 7, 1.0, dC, 7)
        f64 = blas.Datatype.f64_r
        getattr(blas, f"gemm_ex{s}")(h, trans, "T", m, n, k, 1.0, dA, f64, 7, dB, f64, 7, 1.0, dC, f64, 7, dC, f64,
                                     7, f64, 0, 0, 0)
        dot = getattr(blas, f"dot_ex{s}")(h, 5, dx, f64, 1, dy, f64, 1, None, f64, f64)
        outs.append((dC.get().tobytes(), dB.get().tobytes(), dy.get().tobytes(), np.float64(dot).tobytes()))
    assert outs[0] == outs[1]


# --- every family through rocblas-bench --api 1, checked against NumPy/SciPy ------------------------


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_every_family_64_verifies(key: str) -> None:
    """``rocmath-bench blas --api 1 -v 1`` runs the ``_64`` function of each family (one flavour
    each, in turn) and checks it against the reference; the families without ``_64`` forms (gemm_ex3 too)
    are usage errors, as in rocblas-bench."""
    op, tail = key.removesuffix("_ex"), "_ex" if key.endswith("_ex") else ""
    flavour = ("", "_batched", "_strided_batched")[sorted(FAMILIES).index(key) % 3]
    r = {"hemv": "c", "herk": "z", "her2k": "c", "hemm": "z", "dotc": "c", "geru": "c", "gerc": "z", "ger": "d",
         "rot": "c --b_type s", "gemm_ex": "d", "hbmv": "z", "her": "c", "her2": "z", "herkx": "c", "hpmv": "z",
         "hpr": "c", "hpr2": "z"}.get(key, "d")
    argv = (f"-f {op}{flavour}{tail} -r {r} -m 7 -n 6 -k 5 --batch_count 2 -v 1 --api 1 --incx -2 --alpha 1.5 "
            f"--beta 0.5 -i 1 -j 0").split()
    out = io.StringIO()
    if key in ("trtri", "trsm_ex", "geam_ex", "gemm_ex3"):
        try:
            rc = main(argv, out)
        except SystemExit as e:  # argparse-level usage errors exit; resolve-level ones return
            rc = e.code
        assert rc == 2
        return
    assert main(argv, out) == 0, out.getvalue()


# --- amax / amin: int64_t results ----------------------------------------------------------------------


@pytest.mark.parametrize("flavour", ["", "_batched", "_strided_batched"])
def test_amax_amin_64_write_int64_results_in_device_mode(h: Any, flavour: str) -> None:
    x = np.array([1.0, -5.0, 3.0, 5.0, -0.5, 2.0])
    batch = 2
    dx = rm.to_device(np.concatenate([x, x[::-1]]))
    xs = dx if flavour != "_batched" else rm.to_device(np.array([dx.ptr, dx.ptr + 6 * 8], np.uint64))
    blas.set_pointer_mode(h, 1)
    for op, want in (("amax", [2, 3]), ("amin", [5, 2])):
        for s, dt in (("", np.int32), ("_64", np.int64)):
            res = rm.to_device(np.full(4, -1, dtype=np.int64))  # a sentinel in every byte
            fn = getattr(blas, f"id{op}{flavour}{s}")
            if flavour == "":
                fn(h, 6, xs, 1, res)
            elif flavour == "_batched":
                fn(h, 6, xs, 1, batch, res)
            else:
                fn(h, 6, xs, 1, 6, batch, res)
            got = res.get()
            count = 1 if flavour == "" else batch
            if dt is np.int64:
                assert got[:count].tolist() == want[:count] and (got[count:] == -1).all()
            else:  # 4 bytes per result: the rest of the int64 buffer keeps its sentinel bytes
                as32 = got.view(np.int32)
                assert as32[:count].tolist() == want[:count] and (as32[count:] == -1).all()
    # n = 0: the quick return writes a zero int64_t
    res = rm.to_device(np.full(1, -1, dtype=np.int64))
    blas.idamax_64(h, 0, dx, 1, res) if flavour == "" else None
    if flavour == "":
        assert res.get().tolist() == [0]


def test_amax_64_host_mode_returns_the_index(h: Any) -> None:
    dx = rm.to_device(np.array([1.0, -7.0, 3.0], np.float32))
    assert blas.isamax_64(h, 3, dx, 1) == blas.isamax(h, 3, dx, 1) == 2
    out = blas.isamin_strided_batched_64(h, 3, dx, 1, 0, 2)
    assert list(out) == [1, 1]


# --- integer widths ---------------------------------------------------------------------------------------


def test_lp64_sizes_must_fit_rocblas_int_the_64_ones_int64(h: Any) -> None:
    x = rm.to_device(np.arange(4.0))
    y = rm.to_device(np.ones(4))
    for bad in (BIG32, -BIG32 - 1, 1 << 40):
        with pytest.raises(RocblasInvalidSizeError) as e:
            blas.daxpy(h, 1, 1.0, x, bad, y, 1)
        assert e.value.arg == "incx" and "rocblas_int" in str(e.value)
    # incx = 2^31 is a valid ILP64 increment: one element read, at x[0]
    blas.daxpy_64(h, 1, 2.0, x, BIG32, y, 1)
    assert y.get().tolist() == [1.0, 1.0, 1.0, 1.0]
    blas.daxpy_64(h, 1, 2.0, rm.to_device(np.array([3.0])), BIG32, y, 1)
    assert y.get().tolist() == [7.0, 1.0, 1.0, 1.0]
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.daxpy_64(h, 1 << 63, 1.0, x, 1, y, 1)
    assert e.value.arg == "n" and "int64_t" in str(e.value)
    # a quick return with a leading dimension only the ILP64 API can hold
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.dgemm(h, "N", "N", 0, 0, 0, 1.0, x, BIG32, x, 1, 0.0, y, 1)
    assert e.value.arg == "lda"
    blas.dgemm_64(h, "N", "N", 0, 0, 0, 1.0, x, BIG32, x, 1, 0.0, y, 1)
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.ddot_strided_batched(h, 4, x, 1, 0, y, 1, 0, BIG32)
    assert e.value.arg == "batch_count"


def test_strides_are_int64_in_both_apis(h: Any) -> None:
    x = rm.to_device(np.array([2.0, 3.0]))
    y = rm.to_device(np.array([1.0, 1.0]))
    for fn in (blas.daxpy_strided_batched, blas.daxpy_strided_batched_64):
        fn(h, 2, 1.0, x, 1, 1 << 40, y, 1, 1 << 40, 1)  # one entry: the strides are never used
    assert y.get().tolist() == [5.0, 7.0]
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.daxpy_strided_batched(h, 2, 1.0, x, 1, 1 << 63, y, 1, 0, 1)
    assert e.value.arg == "stride_x" and "int64_t" in str(e.value)


def test_gemm_ex_64_solution_index_stays_int32(h: Any) -> None:
    x = rm.to_device(np.ones(4))
    f64 = blas.Datatype.f64_r
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.gemm_ex_64(h, "N", "N", 0, 0, 0, 1.0, x, f64, 1, x, f64, 1, 0.0, x, f64, 1, x, f64, 1, f64, 0, BIG32, 0)
    assert e.value.arg == "solution_index" and "int32_t" in str(e.value)


def test_set_get_vector_and_matrix_64(h: Any) -> None:
    host = np.arange(12.0)
    dev = rm.to_device(np.zeros(12))
    blas.set_vector_64(6, 8, host, 2, dev, 1)
    back = np.zeros(12)
    blas.get_vector_64(6, 8, dev, 1, back, 2)
    assert back.tolist() == [v if i % 2 == 0 else 0.0 for i, v in enumerate(host)]
    blas.set_matrix_64(2, 3, 8, host, 4, dev, 2)
    out = np.full(12, -1.0)
    blas.get_matrix_64(2, 3, 8, dev, 2, out, 4)
    assert out.reshape(3, 4)[:, :2].tolist() == host.reshape(3, 4)[:, :2].tolist()
    assert (out.reshape(3, 4)[:, 2:] == -1).all()
    s = rm.Stream()
    blas.set_vector_async_64(3, 8, host, 1, dev, 1, s)
    blas.get_matrix_async_64(3, 1, 8, dev, 3, out, 3, s)
    s.synchronize()
    assert out[:3].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.set_vector(BIG32, 8, host, 1, dev, 1)
    assert e.value.arg == "n"
    blas.set_vector_64(0, 8, host, BIG32, dev, 1)  # n = 0 with an int64 increment: success, nothing copied
    with pytest.raises(RocblasInvalidSizeError) as e:
        blas.get_matrix(1, 1, 8, dev, BIG32, out, 1)
    assert e.value.arg == "lda"


# --- logging -------------------------------------------------------------------------------------------


def test_64_calls_log_their_name_and_bench_lines_replay_with_api_1(monkeypatch: Any, tmp_path: Any) -> None:
    trace, bench = str(tmp_path / "trace.log"), str(tmp_path / "bench.log")
    monkeypatch.setenv("ROCBLAS_LAYER", "3")
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", trace)
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", bench)
    h = blas.create_handle()
    x, y = rm.to_device(np.ones(8)), rm.to_device(np.ones(8))
    blas.daxpy_64(h, 4, 2.0, x, 2, y, 1)
    blas.daxpy(h, 4, 2.0, x, 2, y, 1)
    rm.device_synchronize()
    blas.destroy_handle(h)
    from rocmath.log import close_logs

    close_logs()
    with open(trace, encoding="utf-8") as f:
        names = [line.split(",")[0] for line in f.read().splitlines()]
    # (the handle's creation and destruction are traced too, as rocBLAS's rocblas_auxiliary.cpp)
    assert names == ["rocblas_create_handle", "rocblas_daxpy_64", "rocblas_daxpy", "rocblas_destroy_handle"]
    with open(bench, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("rocmath-bench blas --api 1 -f axpy -r f64_r -n 4 ")
    assert lines[1].startswith("rocmath-bench blas -f axpy -r f64_r -n 4 ")
    args = parse_args(shlex.split(lines[0])[2:])
    assert args.api == 1 and resolve(args).fname == "daxpy"
    monkeypatch.delenv("ROCBLAS_LAYER")
    assert main([*shlex.split(lines[0])[2:], "-i", "1", "-j", "0", "-v", "1"], io.StringIO()) == 0
    os.remove(trace)
    os.remove(bench)


def test_an_unused_stride_may_be_anything_up_to_int64() -> None:
    # C may pass any int64 as a stride, increment or leading dimension of an axis of extent 1,
    # which rocBLAS never uses (entry b at ptr + b * stride, b = 0 only): such calls succeed
    # (in bytes the stride would overflow a view's).
    h = blas.create_handle()
    big = 1 << 60
    x, y = rm.to_device(np.array([2.0])), rm.to_device(np.array([1.0]))
    blas.daxpy_strided_batched(h, 1, 1.0, x, 1, big, y, 1, big, 1)
    blas.daxpy_64(h, 1, 1.0, x, big, y, big)
    assert blas.ddot_64(h, 1, x, big, y, big) == 10.0
    a, c = rm.to_device(np.array([3.0])), rm.to_device(np.array([0.0]))
    blas.dgemm_64(h, "N", "N", 1, 1, 1, 1.0, a, big, a, big, 0.0, c, big)
    blas.dtrsm_64(h, "L", "U", "N", "N", 1, 1, 1.0, a, big, c, big)
    z, w = rm.to_device(np.array([1 + 1j])), rm.to_device(np.array([1 + 0j]))
    blas.zaxpy_strided_batched(h, 1, 1.0, z, 1, big // 2, w, 1, big // 2, 1)
    rm.device_synchronize()
    np.testing.assert_array_equal([y.get()[0], c.get()[0], w.get()[0]], [5.0, 3.0, 2 + 1j])
    blas.destroy_handle(h)


def test_64_sizes_rocblas_launchers_refuse_are_invalid_size() -> None:
    # After the argument checks, rocBLAS's 64-bit launchers refuse sizes "exceeding practical
    # memory" (src64/*_kernels_64.cpp): invalid_size naming the size, nothing touched.
    h = blas.create_handle()
    a, x = rm.to_device(np.ones(4)), rm.to_device(np.ones(4))
    big = 1 << 31
    cases = [
        (lambda: blas.dtrmv_64(h, "U", "N", "N", big, a, big, x, 1), "n"),
        (lambda: blas.dsymv_64(h, "U", big, 1.0, a, big, x, 1, 0.0, x, 1), "n"),
        (lambda: blas.dsyrk_64(h, "U", "N", big, 1, 1.0, a, big, 0.0, a, big), "n"),
        (lambda: blas.dtbsv_64(h, "U", "N", "N", 1, big, a, big + 1, x, 1), "k"),
        (lambda: blas.dgbmv_64(h, "N", 1, 1, big, 0, 1.0, a, big + 1, x, 1, 0.0, x, 1), "kl"),
        (lambda: blas.dtrsm_64(h, "R", "U", "N", "N", 1, big, 1.0, a, big, a, 1), "n"),
        (lambda: blas.dtrmm_64(h, "L", "U", "N", "N", (1 << 28) + 1, 1, 1.0, a, (1 << 28) + 1, a, (1 << 28) + 1, a,
                               (1 << 28) + 1), "m"),
        (lambda: blas.dgemm_64(h, "N", "N", 1 << 36, 1, 1, 1.0, a, 1 << 36, a, 1, 0.0, a, 1 << 36), "m"),
    ]
    for call, arg in cases:
        with pytest.raises(RocblasInvalidSizeError) as err:
            call()
        assert err.value.arg == arg
    rm.device_synchronize()
    np.testing.assert_array_equal(a.get(), 1.0)
    np.testing.assert_array_equal(x.get(), 1.0)
    blas.destroy_handle(h)
