"""``rocmath-bench blas`` (bench/rocblas_cli.py): rocblas-bench's flags and defaults, its CSV, ``-v 1``
for every family, and ROCBLAS_LAYER=2 bench lines that replay to the same call.

Sizes are tiny and every run makes one or two calls (``-i 1 -j 0``): these test the
command line, not speed.
"""

from __future__ import annotations

import inspect
import io
import os
import shlex
from typing import Any

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
from rocmath.bench import cli
from rocmath.bench.rocblas_cli import FAMILIES, UsageError, main, parse_args, resolve
from rocmath.blas._benchline import ENUM_FLAGS, bench_name, parse_name, scalar_precision
from rocmath.blas._types import ComputeType, Datatype, as_enum
from rocmath.precision import Precision, S

FAST = ["-i", "1", "-j", "0"]


def _run(argv: str | list[str], capsys: Any = None) -> tuple[int, list[str]]:
    out = io.StringIO()
    rc = main(argv.split() if isinstance(argv, str) else argv, out)
    return rc, out.getvalue().splitlines()


def _parse(text: str) -> Any:
    return parse_args(shlex.split(text))


def _csv(lines: list[str]) -> dict[str, str]:
    """The two CSV lines as {column: value}."""
    head, values = lines[-2].split(","), [v.strip() for v in lines[-1].split(",")]
    assert len(head) == len(values), lines
    return dict(zip(head, values, strict=True))


# --- flags and defaults ---------------------------------------------------------------------------


def test_rocblas_bench_defaults():
    a = _parse("-f gemm")
    assert (a.M, a.N, a.K, a.kl, a.ku) == (128, 128, 128, 32, 32)
    assert (a.precision, a.alpha, a.alphai, a.beta, a.betai) == ("f32_r", 1.0, 0.0, 0.0, 0.0)
    assert (a.transposeA, a.transposeB, a.side, a.uplo, a.diag) == ("N", "N", "L", "U", "N")
    assert (a.incx, a.incy, a.batch_count, a.iters, a.cold_iters, a.verify) == (1, 1, 1, 10, 2, 0)
    assert (a.initialization, a.algo, a.solution_index, a.flags, a.any_stride) == ("hpl", 0, 0, 0, False)
    p = resolve(a)
    assert p.fname == "sgemm" and p.ld == {"lda": 128, "ldb": 128, "ldc": 128}
    p = resolve(_parse("-f gemm_strided_batched -r d --batch_count 3"))
    assert p.fname == "dgemm_strided_batched" and {k: g.stride for k, g in p.geometry.items()} == dict.fromkeys(
        "abc", 128 * 128)


def test_short_and_long_forms():
    short = _parse("-f axpy -r d -m 3 -n 4 -k 5 -i 6 -j 7 -v 1 -t 1 -z 1")
    long = _parse("--function axpy --precision d --sizem 3 --sizen 4 --sizek 5 --iters 6 --cold_iters 7 --verify 1 "
                  "--test 1 --z true")
    assert vars(short) == vars(long)
    assert short.log_function_name and short.log_datatype
    assert _parse("-f axpy --batch 5").batch_count == 5  # rocblas-bench's deprecated alias
    assert _parse("-f axpy --incx -2 --alpha -1.5").incx == -2


@pytest.mark.parametrize(("argv", "fname"), [
    ("-f gemm -r s", "sgemm"), ("-f gemm -r f64_c", "zgemm"), ("-f gemm -r h", "hgemm"),
    ("-f gemm --a_type d", "dgemm"), ("-f axpy_batched -r c", "caxpy_batched"),
    ("-f scal -r c", "cscal"), ("-f scal -r c --b_type s", "csscal"), ("-f scal_strided_batched -r z --b_type d",
                                                                        "zdscal_strided_batched"),
    ("-f rot -r c --b_type s", "crot"), ("-f rot -r z --b_type d --c_type d", "zdrot"),
    ("-f iamax -r z", "izamax"), ("-f iamin_batched -r d", "idamin_batched"), ("-f dot -r c", "cdotu"),
    ("-f dotc -r z", "zdotc"), ("-f nrm2 -r c", "scnrm2"), ("-f asum_batched -r z", "dzasum_batched"),
    ("-f geru -r c", "cgeru"), ("-f herk_strided_batched -r z", "zherk_strided_batched"),
    ("-f gemm_strided_batched_ex -r d", "gemm_strided_batched_ex"), ("-f trsm_ex -r c", "trsm_ex"),
    ("-f gemm_ex3 -r f8_r --composite_compute_type f32", "gemm_ex3"),
    ("-f gemm_batched_ex3 -r h --composite_compute_type bf8_bf8_f32", "gemm_batched_ex3"),
])
def test_function_and_types_select_the_rocmath_function(argv, fname):
    assert resolve(parse_args(argv.split())).fname == fname


@pytest.mark.parametrize("argv", [
    "-f nosuch", "-f gemm --nosuchflag 1", "-f gemm -r q", "-f gemm -m -1", "-f gemm -v 2",
    "-f rot -r z",                          # rocBLAS has no rot with a complex c
    "-f hemv -r s",                         # no real hemv
    "-f gemm --transposeA X", "-f gemm --initialization denorm",
    "-f gemm_batched_ex3",                  # no --composite_compute_type: rocblas-bench's is invalid
    "-f gemm_ex3_batched", "-f gemm_ex_strided_batched",  # the flavour goes before _ex/_ex3
    "-f gemv -m 200 --lda 100 -i 1 -j 0",  # an explicit leading dimension the call rejects
    "-f gemm -i 1 -j 0 --device 99", "-f gemm -i",
])
def test_usage_errors_exit_2(argv, capsys):
    rc, _ = _run(argv)
    assert rc == 2
    assert capsys.readouterr().err.startswith("rocmath-bench blas:")


def test_help_version_and_no_arguments(capsys):
    for argv in ([], ["-h"], ["--help"]):
        rc, lines = _run(argv)
        assert rc == 0 and any("--transposeA" in ln for ln in lines)
    rc, lines = _run(["--version"])
    assert rc == 0 and lines[0].startswith("rocBLAS version: rocmath-")


def test_leading_dimensions_and_strides_derived_or_raised():
    p = resolve(_parse("-f gemv -m 300 -n 20"))
    assert p.ld == {"lda": 300, "incx": 1, "incy": 1}          # 128 raised to m
    p = resolve(_parse("-f gemm -m 64 -n 32 -k 16 --lda 8 --ldb 200"))
    assert p.ld["lda"] == 64 and p.ld["ldb"] == 200 and p.info == ["lda < min_lda, set lda = 64"]
    rc, lines = _run("-f gemm -m 16 -n 4 -k 4 --lda 8 " + " ".join(FAST))
    assert rc == 0 and lines[2] == "rocmath-bench blas INFO: lda < min_lda, set lda = 16" and lines[-1].startswith(
        "N,N,16,4,4,1,16,")
    p = resolve(_parse("-f gemm_strided_batched -m 200 -n 200 -k 4 --batch_count 2 --stride_c 7 --stride_a 0"))
    assert p.geometry["c"].stride == 200 * 200 and p.geometry["a"].stride == 0     # inputs as given
    assert p.info == ["stride_c < min_stride_c, set stride_c = 40000"]
    p = resolve(_parse("-f gemm_strided_batched -m 200 -n 200 --batch_count 2 --stride_c 7 --any_stride 1"))
    assert p.geometry["c"].stride == 7
    p = resolve(_parse("-f gemm -m 4 --batch_count 5"))
    assert p.batch_count == 1 and "batch_count can only be 1" in p.info[0]


# --- the CSV --------------------------------------------------------------------------------------


def test_gemm_csv_columns_and_values():
    rc, lines = _run("-f gemm -r s --transposeB T -m 8 -n 6 -k 4 --lda 9 --alpha 2 -i 2 -j 1")
    assert rc == 0
    assert lines[-2] == ("transA,transB,M,N,K,alpha,lda,beta,ldb,ldc,cold_iters,hot_iters,rocblas-Gflops,us,"
                         "ref-us,ratio,ratio-lo,ratio-hi")
    row = _csv(lines)
    assert [row[c] for c in ("transA", "transB", "M", "N", "K", "alpha", "lda", "beta", "ldb", "ldc")] == [
        "N", "T", "8", "6", "4", "2", "9", "0", "128", "128"]
    assert (row["cold_iters"], row["hot_iters"]) == ("1", "2")
    us, ref = float(row["us"]), float(row["ref-us"])
    assert us > 0 and ref > 0
    assert float(row["rocblas-Gflops"]) == pytest.approx(2 * 8 * 6 * 4 / 1e9 / (us * 1e-6), rel=1e-4)
    assert float(row["ratio"]) == pytest.approx(ref / us, rel=1e-4)
    assert ", 1, 2, " in lines[-1]  # rocblas-bench's ", " before the performance values


def test_csv_of_strided_batched_verified_and_memory_bound_functions():
    rc, lines = _run("-f gemm_strided_batched -r z -m 3 -n 2 -k 2 --batch_count 2 --alphai 1 -v 1 " + " ".join(FAST))
    assert rc == 0
    assert lines[-2] == ("transA,transB,M,N,K,alpha,lda,stride_a,beta,ldb,stride_b,ldc,stride_c,batch_count,"
                         "cold_iters,hot_iters,rocblas-Gflops,us,CPU-Gflops,CPU-us,norm_error_1,ref-us,ratio,ratio-lo,ratio-hi")
    assert _csv(lines)["alpha"] == "(1: 1)"
    rc, lines = _run("-f axpy_strided_batched -r d -n 10 --batch_count 2 -v 1 " + " ".join(FAST))
    assert lines[-2] == ("N,alpha,incx,incy,stride_x,stride_y,batch_count,cold_iters,hot_iters,rocblas-Gflops,"
                         "rocblas-GB/s,us,CPU-Gflops,CPU-us,norm_error_1,norm_error_2,ref-us,ratio,ratio-lo,ratio-hi")
    rc, lines = _run("-f iamax -r s -n 10 -v 1 " + " ".join(FAST))
    assert lines[-2] == ("N,incx,cold_iters,hot_iters,rocblas-GB/s,us,CPU-us,norm_error_1,norm_error_2,"
                         "ref-us,ratio,ratio-lo,ratio-hi")
    rc, lines = _run("-f trmm -r d -m 3 -n 2 " + " ".join(FAST))
    assert lines[-2].startswith("side,uplo,transA,diag,M,N,alpha,lda,ldb,ldc,outofplace,cold_iters")
    rc, lines = _run("-f rot -r s -n 5 -v 1 " + " ".join(FAST))
    assert lines[-2].endswith("CPU-us,norm_error_1,norm_error_2,norm_error_3,norm_error_4,"
                              "ref-us,ratio,ratio-lo,ratio-hi")


def test_csv_prefix_columns_and_warmup_only():
    rc, lines = _run("-f dot -r d -n 5 -z 1 " + " ".join(FAST))
    assert lines[-2].startswith("function,a_type,b_type,c_type,d_type,compute_type,N,incx,incy,algo,")
    assert lines[-1].startswith("dot,f64_r,f64_r,f64_r,f64_r,f64_r,5,1,1,0,")
    rc, lines = _run("-f dot -r d -n 5 -i 0 -j 1")
    assert rc == 0 and lines[0].startswith("Device ID 0 :") and lines[1:] == [""]  # no CSV for warm-up only runs


def test_dispatch_from_rocmath_bench():
    out = io.StringIO()
    assert cli.main(["blas", "-f", "scal", "-r", "d", "-n", "4", *FAST], out=out) == 0
    assert out.getvalue().splitlines()[-2].startswith("N,alpha,incx,cold_iters")


def test_verification_failure_exits_1(monkeypatch, capsys):
    fam = FAMILIES["axpy"]
    monkeypatch.setitem(FAMILIES, "axpy", type(fam)(**{**fam.__dict__,
                                                        "reference": lambda p, o, s: {"y": o["y"] + 1}}))
    rc, lines = _run("-f axpy -r d -n 8 -v 1 " + " ".join(FAST))
    assert rc == 1 and "error above tolerance" in capsys.readouterr().err
    assert float(_csv(lines)["norm_error_1"]) > 1e-3


# --- -v 1 for every family ------------------------------------------------------------------------

#: Per family: the precisions to run in and option sets cycling over the flavours.
_PRECISIONS = {"hemv": "c", "herk": "z", "her2k": "c", "hemm": "z", "dotc": "c", "geru": "c", "gerc": "z",
               "ger": "d", "rot": "c --b_type s", "gemm_ex": "d", "hbmv": "z", "hpmv": "c", "her": "z", "her2": "c",
               "hpr": "c", "hpr2": "z", "herkx": "c", "sbmv": "d", "spmv": "s", "spr2": "d", "dotc_ex": "z",
               "rot_ex": "c --c_type s", "nrm2_ex": "z --b_type d --compute_type d", "rotg": "c --b_type s",
               "rotm": "d", "rotmg": "s",
               "gemm_ex3": "s --b_type bf8_r --c_type bf8_r --d_type bf8_r --composite_compute_type f8_bf8_f32"}
_VARIANTS = [
    "--transposeA N --transposeB N --side L --uplo U --diag N --alpha 1.5 --beta 0.5",
    "--transposeA T --transposeB C --side R --uplo L --diag U --incx -2 --incy 3 --alpha -0.5 --alphai 1 --beta 2",
    "--transposeA C --transposeB T --side L --uplo L --initialization rand_int --outofplace --beta 0",
]


def _variant(key: str, i: int) -> str:
    v = _VARIANTS[i]
    if key in ("syrk", "syr2k", "syrkx"):  # complex symmetric rank updates take N or T
        v = v.replace("--transposeA C", "--transposeA T")
    if key in ("herk", "her2k", "herkx"):  # Hermitian ones N or C
        v = v.replace("--transposeA T", "--transposeA C")
    return v


def _assert_verified(argv: str) -> None:
    """The command runs, and checks (-v 1) its results: finite norm_error columns."""
    rc, lines = _run(argv)
    assert rc == 0, (argv, lines)
    norms = [float(v) for c, v in _csv(lines).items() if c.startswith("norm_error")]
    assert norms and all(np.isfinite(norms)), (argv, lines)


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_verify_passes_for_every_family(key):
    tail = next((t for t in ("_ex3", "_ex") if key.endswith(t)), "")
    op = key[: len(key) - len(tail)]
    for i, flavour in enumerate(("", "_batched", "_strided_batched")):
        if not hasattr(blas, f"{op}{flavour}{tail}"):  # geam_ex: plain only
            continue
        r = _PRECISIONS.get(key, "s" if i % 2 == 0 else "z")
        argv = (f"-f {op}{flavour}{tail} -r {r} -m 7 -n 6 -k 5 --kl 2 --ku 1 --batch_count 3 -v 1 "
                f"{_variant(key, i)} " + " ".join(FAST))
        _assert_verified(argv)


# --- rotg, rotm, rotmg: host values in host pointer mode ------------------------------------------


@pytest.mark.parametrize(("function", "types"), [
    ("rotg", "-r s"), ("rotg", "-r d"), ("rotg", "--a_type c --b_type s"), ("rotg", "--a_type f64_c --b_type d"),
    ("rotm", "-r s"), ("rotm", "-r d"), ("rotmg", "-r s"), ("rotmg", "-r d"),
])
def test_rotg_rotm_rotmg_check_every_flavour_and_api(function, types):
    for flavour in ("", "_batched", "_strided_batched"):
        for api in (0, 1):
            argv = (f"-f {function}{flavour} {types} -n 9 --incx -2 --incy 3 --alpha 3 --alphai 1 --beta 4 "
                    f"--betai -2 --batch_count 3 -v 1 --api {api} " + " ".join(FAST))
            _assert_verified(argv)


@pytest.mark.parametrize(("argv", "head"), [
    # plain rotg and rotmg: rocblas-bench's bare line (testing_rotg.hpp, testing_rotmg.hpp)
    ("-f rotg -r s -v 1", "rocblas-us,CPU-us,norm_error_host_ptr,norm_error_dev_ptr,ref-us"),
    ("-f rotmg -r d", "rocblas-us,CPU-us,ref-us"),
    ("-f rotg_strided_batched --a_type c --b_type s -v 1",
     "stride_a,stride_b,stride_c,stride_d,batch_count,cold_iters,hot_iters,us,CPU-us,norm_error_1,norm_error_2,ref-us"),
    ("-f rotmg_strided_batched -r s", "stride_a,stride_b,stride_x,stride_y,stride_c,batch_count,cold_iters,hot_iters,"
                                      "us,ref-us"),
    ("-f rotmg_batched -r s -v 1", "batch_count,cold_iters,hot_iters,us,CPU-us,norm_error_1,norm_error_2,ref-us"),
    # rotm: x and y apart, host and device; the batched forms have device pointer mode alone
    ("-f rotm -r s -v 1", "N,incx,incy,cold_iters,hot_iters,rocblas-Gflops,rocblas-GB/s,us,CPU-Gflops,CPU-us,"
                          "norm_error_1,norm_error_2,norm_error_3,norm_error_4,ref-us"),
    ("-f rotm_strided_batched -r d -v 1", "N,incx,incy,stride_x,stride_y,batch_count,cold_iters,hot_iters,"
                                          "rocblas-Gflops,rocblas-GB/s,us,CPU-Gflops,CPU-us,norm_error_1,"
                                          "norm_error_2,ref-us"),
])
def test_rotg_rotm_rotmg_csv(argv, head):
    rc, lines = _run(f"{argv} -n 5 --batch_count 2 " + " ".join(FAST))
    assert rc == 0 and lines[-2].startswith(head), lines


@pytest.mark.parametrize(("function", "flags", "device"), [
    ("srotg", "", False), ("srotg_batched", "", True), ("srotg_batched", "--pointer_mode host", False),
    ("drotmg", "", False), ("drotmg_strided_batched", "", True), ("drotm", "", True),
    ("drotm", "--pointer_mode 0", False),
])
def test_rotg_rotm_rotmg_timed_in_rocblas_bench_pointer_mode(function, flags, device, monkeypatch):
    # rocblas-bench times plain rotg and rotmg in host pointer mode (host values in, results
    # returned), their batched forms and every rotm in device pointer mode
    fn, seen = getattr(blas, function), []

    def record(*args: Any) -> Any:
        seen.append((int(blas.get_pointer_mode(args[0])), args[1]))
        return fn(*args)

    record.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    monkeypatch.setattr(blas, function, record)
    _, op, flavour, _ = parse_name(function)
    rc, lines = _run(f"-f {op}{flavour} -r {function[0]} -n 4 --batch_count 2 {flags} " + " ".join(FAST))
    assert rc == 0 and len(seen) == 1, lines
    mode, first = seen[0]
    assert mode == int(device)
    if op != "rotm":  # a, d1: device memory or host values
        assert isinstance(first, rm.DeviceArray) == device


def test_rotg_rotmg_without_batch_entries():
    for f in ("rotg_batched -r s", "rotmg_strided_batched -r d"):  # host mode returns nothing to check
        rc, lines = _run(f"-f {f} --batch_count 0 -v 1 " + " ".join(FAST))
        assert rc == 0 and _csv(lines)["batch_count"] == "0", lines


def test_rotm_batched_has_no_host_pointer_mode(capsys):
    rc, _ = _run("-f rotm_batched -r d -n 4 --batch_count 2 --pointer_mode host " + " ".join(FAST))
    assert rc == 2 and "device pointer mode" in capsys.readouterr().err


def test_rotmg_reference_derives_d1_d2_x1_as_rocblas():
    # SciPy's ?rotmg gives param alone: the reference works out d1, d2, x1 from H, across the
    # rescaled magnitudes (d1, d2 beyond 4096^(+-2)) and the zeroing and identity cases
    from types import SimpleNamespace

    rng = np.random.default_rng(5)
    n = 400
    d1, d2 = (rng.uniform(-0.2, 1, n) * 10.0 ** rng.integers(-9, 9, n) for _ in range(2))
    x1, y1 = (rng.uniform(-1, 1, n) * 10.0 ** rng.integers(-4, 4, n) for _ in range(2))
    y1[:5] = 0
    param = rng.uniform(-1, 1, (n, 5))
    ops = {"d1": d1[:, None], "d2": d2[:, None], "x1": x1[:, None], "y1": y1[:, None], "param": param}
    want = FAMILIES["rotmg"].reference(SimpleNamespace(), ops, {})
    h = blas.create_handle()
    got = dict(zip(("d1", "d2", "x1", "param"),
                   blas.drotmg_batched(h, d1, d2, x1, y1, param.reshape(-1), n), strict=True))
    blas.destroy_handle(h)
    assert set(np.unique(got["param"][:, 0])) == {-2.0, -1.0, 0.0, 1.0}
    for key, value in got.items():
        np.testing.assert_allclose(np.asarray(value).reshape(n, -1), want[key].reshape(n, -1), rtol=1e-13, atol=0)


def test_complex_rotg_reference_takes_blas_a_zero_case():
    from types import SimpleNamespace

    a, b = np.array([[0j], [1 + 1j]]), np.array([[2 - 1j], [0j]])
    out = FAMILIES["rotg"].reference(SimpleNamespace(complex=True), {"a": a, "b": b, "c": np.zeros((2, 1)),
                                                                     "s": np.zeros((2, 1), complex)}, {})
    assert out["c"][0, 0] == 0 and out["s"][0, 0] == 1 and out["a"][0, 0] == 2 - 1j  # r = b
    h = blas.create_handle()
    r, _, c, s = blas.zrotg(h, 0j, 2 - 1j)
    blas.destroy_handle(h)
    assert (r, c, s) == (2 - 1j, 0, 1)


# --- ROCBLAS_LAYER=2 lines replay to the same call -----------------------------------------------

_M, _N, _K, _BATCH, _LD = 5, 4, 3, 2, 9
_STRIDE = _LD * 8  # above every entry's span here: entries never overlap


def _precision(fname: str, types: dict[str, str]) -> Precision:
    _, t = bench_name(fname, types)
    return Precision.from_datatype(t.get("r") or t.get("a_type") or types["compute_type"])


def _direct_call(fname: str, opts: dict[str, Any]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A direct call of ``fname``: the function, its arguments (sizes m=5, n=4, k=3, generous
    buffers of ones, leading dimension 9, the enums, scalars and types of ``opts``) and the
    buffers the batched pointer arrays point into (keep them alive)."""
    import inspect

    fn = getattr(blas, fname)
    names = list(inspect.signature(fn).parameters)
    _, op, flavour, ex = parse_name(fname)
    types = {n: ComputeType[v] if ex == "_ex3" and n == "compute_type" else Datatype[v]
             for n, v in opts.get("types", {}).items()}
    p = S if ex == "_ex3" else _precision(fname, {"compute_type": "f32_r", **opts.get("types", {})})
    h = blas.create_handle()
    if opts.get("device"):  # rotg, rotm, rotmg: device arrays need device pointer mode
        blas.set_pointer_mode(h, 1)
    strides = opts.get("strides", {})
    values: dict[str, Any] = {"handle": h}
    buffers: dict[str, Any] = {}

    def array(name: str) -> Any:
        if opts.get("in_place") and name in ("C", "d"):  # trmm C = B, gemm_ex D = C
            return values["B" if name == "C" else "c"]
        dt = _dtype(str(types[f"{name}_type"])) if f"{name}_type" in types else p.dtype
        dt = opts.get("dtypes", {}).get(name, dt)
        buf = buffers[name] = rm.to_device(np.ones((_BATCH + 1) * max([_STRIDE, *strides.values()]), dt))
        if flavour == "_batched":
            return rm.to_device(np.array([buf.ptr + i * _STRIDE * buf.itemsize for i in range(_BATCH)], np.uint64))
        return buf

    for name in names[1:]:
        if name in ENUM_FLAGS:
            values[name] = opts.get(name, {"side": "L", "uplo": "U"}.get(name, "N"))
        elif name in ("m", "n", "k", "kl", "ku"):
            values[name] = {"m": _M, "n": _N, "k": _K, "kl": 2, "ku": 1}[name]
        elif name.startswith("ld"):
            values[name] = opts.get("ldc", _LD) if name == "ldc" and opts.get("in_place") else _LD
        elif name.startswith("inc"):
            values[name] = opts.get(name, 2 if name == "incx" else -3)
        elif name.startswith("stride"):
            values[name] = strides.get(name, _STRIDE)
        elif name == "batch_count":
            values[name] = _BATCH
        elif name in ("alpha", "beta") or (op == "rot" and name in ("c", "s")):
            sp = scalar_precision(fname, name, types)
            base = {"alpha": 0.5, "beta": 1.5, "c": 0.6, "s": 0.8}[name]
            values[name] = complex(base, -0.25) if sp.is_complex else base
        elif name in ("result", "results") or (name == "invA" and op == "trsm"):  # trsm_ex: no inverse given
            values[name] = None
        elif name in types:
            values[name] = types[name]
        elif name in ("algo", "solution_index", "flags", "invA_size", "geam_ex_op"):
            values[name] = opts.get(name, 0)
        else:
            values[name] = array(name)
    return fn, values, buffers


def _dtype(datatype: str) -> np.dtype[Any]:
    """The storage of a datatype: gemm_ex3's float8 codes are uint8."""
    return np.dtype(np.uint8) if datatype in ("f8_r", "bf8_r") else Precision.from_datatype(datatype).dtype


def _comparable(fname: str, names: list[str], values: dict[str, Any]) -> dict[str, Any]:
    """The arguments a bench line carries: enums as letters, scalars rounded to their type,
    types, sizes; not the arrays (nor rot's c and s, which rocblas-bench draws itself)."""
    _, op, _, _ = parse_name(fname)
    out: dict[str, Any] = {}
    for name in names[1:]:
        v = values[name]
        if name in ("invA_size", "stride_invA"):  # trsm_ex's optional inverse: not in rocBLAS's lines either
            continue
        if name in ENUM_FLAGS:
            out[name] = as_enum(ENUM_FLAGS[name][1], v, name).letter
        elif name in ("alpha", "beta"):
            sp = scalar_precision(fname, name, values)
            out[name] = complex(np.array([v]).astype(sp.dtype)[0])
        elif name.endswith("_type"):  # gemm_ex3's compute_type is a ComputeType
            out[name] = int(as_enum(ComputeType if isinstance(v, ComputeType) else Datatype, v, name))
        elif isinstance(v, (int, np.integer)) and not isinstance(v, bool) and not (op == "rot" and name in "cs"):
            out[name] = int(v)
    return out


_F32 = {f"{r}_type": "f32_r" for r in "abcd"} | {"compute_type": "f32_r"}
_REPLAY = [
    ("saxpy", {}), ("zaxpy", {"incx": -1}), ("ddot", {}), ("cdotu", {}), ("zdotc", {}), ("snrm2", {}),
    ("dzasum", {}), ("csscal", {}), ("zscal", {}), ("idamax", {}), ("icamin", {}), ("ccopy", {}), ("dswap", {}),
    ("srot", {}), ("crot", {}), ("zdrot", {}), ("sgemv", {}), ("zgemv", {"trans": "C"}), ("dger", {}),
    ("cgerc", {}), ("strsv", {"uplo": "L", "transA": "T", "diag": "U"}), ("ztrmv", {"transA": "C"}),
    ("dsymv", {"uplo": "L"}), ("chemv", {}), ("sgemm", {"transB": "T"}), ("zgemm", {"transA": "C"}),
    ("dtrsm", {"side": "R", "uplo": "L", "transA": "T", "diag": "U"}), ("ctrmm", {"transA": "C"}),
    ("dtrmm", {"side": "R", "in_place": True}), ("ssyrk", {"transA": "T"}), ("zherk", {"transA": "C"}),
    ("dsyr2k", {"trans": "T"}), ("cher2k", {"trans": "C"}), ("zsymm", {"side": "R"}), ("chemm", {}),
    ("dgeam", {"transA": "T"}), ("gemm_ex", {"types": _F32, "transA": "T"}),
    ("gemm_ex", {"types": _F32, "in_place": True}), ("trsm_ex", {"types": {"compute_type": "f64_r"}}),
    # band, packed, rank-1 and the other families added with them; mixed-precision gemv
    ("dgbmv", {"trans": "T"}), ("zhbmv", {"uplo": "L"}), ("ssbmv", {}), ("chpmv", {}), ("dspmv", {"uplo": "L"}),
    ("ctbmv", {"trans": "C", "diag": "U"}), ("dtbsv", {"uplo": "L", "transA": "T"}), ("ztpmv", {}),
    ("stpsv", {"transA": "C"}), ("cher", {"uplo": "L"}), ("zher2", {}), ("dsyr", {}), ("csyr2", {"uplo": "L"}),
    ("zhpr", {}), ("chpr2", {"uplo": "L"}), ("sspr", {}), ("dspr2", {}), ("zherkx", {"trans": "C"}),
    ("ssyrkx", {"trans": "T"}), ("cgemmt", {"uplo": "L", "transB": "C"}), ("dtrtri", {"uplo": "L", "diag": "U"}),
    ("zdgmm", {"side": "R"}), ("geam_ex", {"types": _F32, "transA": "T"}),
    ("axpy_ex", {"types": {"alpha_type": "f32_r", "x_type": "f16_r", "y_type": "f16_r", "execution_type": "f32_r"}}),
    ("dot_ex", {"types": {"x_type": "f32_c", "y_type": "f32_c", "result_type": "f32_c", "execution_type": "f32_c"}}),
    ("dotc_ex", {"types": {"x_type": "f64_c", "y_type": "f64_c", "result_type": "f64_c", "execution_type": "f64_c"}}),
    ("nrm2_ex", {"types": {"x_type": "f32_c", "result_type": "f32_r", "execution_type": "f32_r"}}),
    ("scal_ex", {"types": {"alpha_type": "f32_r", "x_type": "f32_c", "execution_type": "f32_c"}}),
    ("rot_ex", {"types": {"x_type": "f64_c", "y_type": "f64_c", "cs_type": "f64_r", "execution_type": "f64_c"}}),
    ("hssgemv", {"transA": "T", "dtypes": {"y": np.float32}}), ("tstgemv", {}),
    # the rotation constructors and rotm: rotm's stride_param is in no line (rocBLAS's neither):
    # rocblas-bench takes --stride_c, default 128 * 128
    ("srotg", {"device": True}), ("drotg", {"device": True}), ("crotg", {"device": True, "dtypes": {"c": np.float32}}),
    ("zrotg", {"device": True, "dtypes": {"c": np.float64}}),
    ("srotm", {"device": True, "strides": {"stride_param": 128 * 128}}),
    ("drotm", {"device": True, "incx": -1, "strides": {"stride_param": 128 * 128}}),
    ("srotmg", {"device": True}), ("drotmg", {"device": True}),
    # gemm_ex3 (rocBLAS's beta API), checked too (-v 1): a float operand rounded into bf8 by the compute
    # type, an f8 output in place, stochastic rounding (--flags 32) into bf8, half operands into f8/bf8
    *(("gemm_ex3", {"types": dict(zip(("a_type", "b_type", "c_type", "d_type", "compute_type"), t.split(),
                                      strict=True)), "verify": True, **extra})
      for t, extra in (("f32_r bf8_r f32_r f32_r f8_bf8_f32", {"transB": "T"}),
                       ("f8_r f8_r f8_r f8_r f32", {"in_place": True, "transA": "T"}),
                       ("bf8_r f32_r bf8_r bf8_r bf8_bf8_f32", {"flags": 32, "transA": "C"}),
                       ("f16_r f16_r f16_r f16_r f8_bf8_f32", {"flags": 4}))),
]


def _flavoured(fname: str, flavour: str) -> str:
    tail = next((t for t in ("_ex3", "_ex") if fname.endswith(t)), "")
    return f"{fname[: len(fname) - len(tail)]}{flavour}{tail}"


def _replay_id(fname: str, opts: dict[str, Any]) -> str:
    types = opts.get("types", {})
    ex3 = f"-{types['a_type']}-{types['b_type']}-{types['c_type']}" if fname.endswith("_ex3") else ""
    return f"{fname}{ex3}{'-inplace' if opts.get('in_place') else ''}"


@pytest.mark.parametrize(("fname", "opts"), _REPLAY, ids=[_replay_id(f, o) for f, o in _REPLAY])
def test_bench_lines_replay_to_the_same_call(fname, opts, monkeypatch, tmp_path):
    import inspect

    path = str(tmp_path / "bench.log")
    monkeypatch.setenv("ROCBLAS_LAYER", "2")
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", path)
    for flavour in ("", "_batched", "_strided_batched"):
        name = _flavoured(fname, flavour)
        if not hasattr(blas, name):
            continue  # geam_ex is plain only, the mixed gemv batched only
        fn, values, _buffers = _direct_call(name, opts)
        names = list(inspect.signature(fn).parameters)
        fn(**values)
        rm.device_synchronize()
        blas.destroy_handle(values["handle"])

        recorded: list[dict[str, Any]] = []

        def record(*args: Any, _fn: Any = fn, _names: list[str] = names, _to: list[Any] = recorded) -> Any:
            _to.append(dict(zip(_names, args, strict=True)))
            return _fn(*args)

        record.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]

        from rocmath.log import close_logs

        close_logs()
        with open(path, encoding="utf-8") as f:
            line = f.read().splitlines()[-1]
        tokens = shlex.split(line)
        assert tokens[:3] == ["rocmath-bench", "blas", "-f"]
        assert resolve(parse_args(tokens[2:])).fname == name, line
        monkeypatch.setattr(blas, name, record)
        check = ["-v", "1"] if opts.get("verify") else []  # two more calls: host and device pointer mode
        rc, lines = _run([*tokens[2:], *check, *FAST])
        monkeypatch.setattr(blas, name, fn)
        assert rc == 0, (line, lines)
        assert len(recorded) == 1 + 2 * bool(check)
        if check:
            assert all(np.isfinite(float(v)) for c, v in _csv(lines).items() if c.startswith("norm_error")), lines
        assert _comparable(name, names, recorded[-1]) == _comparable(name, names, values), line
        close_logs()
        with open(path, encoding="utf-8") as f:
            replayed = f.read().splitlines()[-1]
        assert replayed == line  # the replay logs the line it came from
    os.remove(path)


def test_value_flags_take_the_next_token_whatever_it_is():
    # rocblas-bench's program_options takes the token after a value flag as its value: negative
    # scalars printed with an exponent, or -inf, as bench lines print them
    a = _parse("-f gemm --alpha -1e-05 --alphai -1e-20 --beta -1e+20 --betai -inf -m 3 --incx -2")
    assert (a.alpha, a.alphai, a.beta, a.betai, a.M, a.incx) == (-1e-05, -1e-20, -1e20, float("-inf"), 3, -2)
    rc, lines = _run("-f axpy -r d -n 4 --alpha -inf " + " ".join(FAST))
    assert rc == 0 and _csv(lines)["alpha"] == "-inf"
    with pytest.raises(UsageError):
        _parse("-f gemm --alpha --beta 1")  # a flag taken as alpha's value is not a number


@pytest.mark.parametrize("types", ["--a_type bf16_r --c_type f32_r", "--a_type f16_r --c_type f32_r",
                                   "--a_type f16_r --c_type f16_r"])
def test_mixed_precision_gemv_runs_with_y_of_c_type(types):
    for f in ("gemv_batched", "gemv_strided_batched"):
        rc, lines = _run(f"-f {f} {types} --compute_type f32_r -m 5 -n 4 --transposeA T --incy -2 --beta 2 "
                         "--batch_count 2 -v 1 " + " ".join(FAST))
        assert rc == 0, lines
        p = resolve(_parse(f"-f {f} {types} --compute_type f32_r"))
        assert p.operand_precision("y").datatype == types.split()[-1]


def test_usage_error_class_is_exported():
    with pytest.raises(UsageError):
        parse_args(["--nosuchflag"])


# --- gemm_ex3 (rocBLAS's beta API): its compute type, float8 types and data ----------------------


@pytest.mark.parametrize("value", ["f16_r", "F32", "f8", ""])
def test_gemm_ex3_bad_composite_compute_type_is_a_usage_error(value, capsys):
    rc, _ = _run(["-f", "gemm_ex3", "-r", "f8_r", "--composite_compute_type", value, *FAST])
    err = capsys.readouterr().err
    assert rc == 2 and f"Invalid value for --composite_compute_type {value}" in err, err
    assert "f8_bf8_f32" in err  # the names it takes


@pytest.mark.parametrize(("types", "given"), [
    ("-r f32_r --composite_compute_type f32", "--a_type f32_r --b_type f32_r --c_type f32_r --d_type f32_r "
                                              "--composite_compute_type f32 "),
    ("--a_type f32_r --b_type bf8_r --c_type f16_r --d_type f16_r --composite_compute_type f8_bf8_f32", "f8_bf8_f32"),
    ("-r f8_r --d_type f32_r --composite_compute_type f32", "--c_type f8_r --d_type f32_r"),  # c_type != d_type
    ("-r f8_r", "--composite_compute_type (none given"),  # rocblas-bench's default: an invalid compute type
    ("-r f8_r --composite_compute_type invalid", "--composite_compute_type invalid ("),  # as bench lines print it
])
def test_gemm_ex3_refuses_a_combination_it_does_not_implement(types, given, capsys):
    for f in ("gemm_ex3", "gemm_batched_ex3", "gemm_strided_batched_ex3"):
        with pytest.raises(UsageError) as e:
            resolve(_parse(f"-f {f} {types}"))
        assert f"Invalid combination --function {f} " in str(e.value) and given in str(e.value)
        assert "gemm_ex3 has" in str(e.value) and "f32_r bf8_r f32_r f8_bf8_f32" in str(e.value)
    rc, _ = _run(f"-f gemm_ex3 {types} " + " ".join(FAST))
    assert rc == 2 and "Invalid combination --function gemm_ex3" in capsys.readouterr().err


def test_float8_types_belong_to_gemm_ex3_alone(capsys):
    for argv in ("-f gemm_ex --a_type f8_r", "-f gemm_strided_batched_ex -r bf8_r", "-f gemm -r f8_r",
                 "-f dot_ex --b_type f8_r"):
        rc, _ = _run(f"{argv} " + " ".join(FAST))
        assert rc == 2 and "Invalid combination" in capsys.readouterr().err, argv
    with pytest.raises(UsageError, match="takes f8_r and bf8_r in gemm_ex3 and its batched forms alone"):
        resolve(_parse("-f gemm_ex --a_type f8_r"))


def test_gemm_ex3_in_function_listings_and_help():
    rc, lines = _run(["--help"])
    text = "\n".join(lines)
    assert rc == 0 and "--composite_compute_type" in text and "f8_r, bf8_r" in text
    assert all(f"{f}," in text or f"{f}." in text for f in ("gemm_ex3", "gemm_batched_ex3", "gemm_strided_batched_ex3"))
    with pytest.raises(UsageError) as e:
        resolve(_parse("-f nosuch"))
    assert "gemm_strided_batched_ex3" in str(e.value)


def test_gemm_ex3_problem_types_and_data():
    p = resolve(_parse("-f gemm_strided_batched_ex3 --a_type f32_r --b_type bf8_r --c_type bf8_r --d_type bf8_r "
                       "--composite_compute_type f8_bf8_f32 -m 4 -n 3 -k 2 --batch_count 2 --flags 32"))
    assert p.precision is S and p.operand_precision("a") is S
    assert [p.operand_precision(k).datatype for k in "bcd"] == ["bf8_r"] * 3
    assert p.type_arguments() == {"a_type": Datatype.f32_r, "b_type": Datatype.bf8_r, "c_type": Datatype.bf8_r,
                                  "d_type": Datatype.bf8_r, "compute_type": ComputeType.f8_bf8_f32}
    assert p.scalar_precision("alpha") is S and p.scalar_precision("beta") is S
    from rocmath.bench.rocblas_cli import SEED, _initial_data
    from rocmath.float8 import BF8, to_f8

    host = _initial_data(p)
    assert host["a"].dtype == np.float32 and host["b"].dtype == host["c"].dtype == np.uint8
    # rocblas-bench's hpl data (uniform in [-0.5, 0.5], drawn operand after operand) rounded to nearest into bf8
    rng = np.random.default_rng(SEED)
    drawn = {k: rng.uniform(-0.5, 0.5, p.geometry[k].size) for k in "abc"}
    assert np.array_equal(host["a"], drawn["a"].astype(np.float32))
    assert np.array_equal(host["b"], to_f8(drawn["b"], BF8)) and np.array_equal(host["c"], to_f8(drawn["c"], BF8))


def test_gemm_ex3_flags_reach_the_call(monkeypatch):
    fn, seen = blas.gemm_ex3, []

    def record(*args: Any) -> Any:
        seen.append(dict(zip(inspect.signature(fn).parameters, args, strict=True)))
        return fn(*args)

    record.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    monkeypatch.setattr(blas, "gemm_ex3", record)
    rc, lines = _run("-f gemm_ex3 --a_type bf8_r --b_type f32_r --c_type f32_r --d_type f32_r "
                     "--composite_compute_type bf8_f8_f32 -m 5 -n 4 -k 6 --flags 36 --algo 0 --solution_index 0 "
                     "-v 1 " + " ".join(FAST))
    assert rc == 0, lines
    assert {s["flags"] for s in seen} == {36} and {s["compute_type"] for s in seen} == {ComputeType.bf8_f8_f32}
    assert seen[-1]["d"] is seen[-1]["c"]  # rocblas-bench's D is C unless --outofplace


def test_gemm_ex3_out_of_place_call_logs_outofplace(monkeypatch, tmp_path):
    # rocblas-bench runs D in C without --outofplace: a call writing D apart from C says so
    path = str(tmp_path / "bench.log")
    monkeypatch.setenv("ROCBLAS_LAYER", "2")
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", path)
    h = blas.create_handle()
    a = rm.to_device(np.full(64, 0x38, np.uint8))  # f8 1.0
    c, d = rm.to_device(np.zeros(64, np.float32)), rm.to_device(np.zeros(64, np.float32))
    blas.gemm_ex3(h, "N", "N", 3, 2, 4, 1.0, a, Datatype.f8_r, 3, a, Datatype.f8_r, 4, 0.0, c, Datatype.f32_r, 5,
                  d, Datatype.f32_r, 6, ComputeType.f32, 0, 0, 0)
    rm.device_synchronize()
    blas.destroy_handle(h)
    from rocmath.log import close_logs

    close_logs()
    with open(path, encoding="utf-8") as f:
        line = f.read().splitlines()[-1]
    assert ("--ldc 5 --d_type f32_r --ldd 6 --composite_compute_type f32 --algo 0 --solution_index 0 --flags 0 "
            "--outofplace") in line, line
    p = resolve(parse_args(shlex.split(line)[2:]))
    assert (p.ld["ldc"], p.ld["ldd"]) == (5, 6) and p.geometry["d"].buffer == "d"
    rc, lines = _run([*shlex.split(line)[2:], "-v", "1", *FAST])
    assert rc == 0, lines
