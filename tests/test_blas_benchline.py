"""ROCBLAS_LAYER=2 bench lines (blas/_benchline.py): the rocblas-bench command each call writes.

The round trip (every line parses back and replays to the same call) is tested with the
command line in tests/test_bench_rocblas_cli.py; here: the names, the tokens, where the
lines go, and that logging never gets in a call's way.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
from rocmath import errors
from rocmath.blas._benchline import bench_line, bench_name, functions_for, parse_name, stride_operand
from rocmath.blas._manifest import compute_routines


@pytest.fixture
def bench_log(monkeypatch, tmp_path):
    """ROCBLAS_LAYER=2 into a file; returns a function reading the lines written so far."""
    path = str(tmp_path / "bench.log")
    monkeypatch.setenv("ROCBLAS_LAYER", "2")
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", path)
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", path + ".trace")

    def lines() -> list[str]:
        from rocmath.log import close_logs

        close_logs()  # flush and reopen on the next line
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()

    return lines


def _handle(atomics: bool = True) -> blas.BlasHandle:
    h = blas.create_handle()
    blas.set_atomics_mode(h, 1 if atomics else 0)
    return h


def test_gemm_line_is_rocblas_documented_example(bench_log):
    h = _handle()
    a = rm.zeros(128 * 128, np.float32)
    blas.sgemm(h, "N", "N", 128, 128, 128, 1.0, a, 128, a, 128, 0.0, a, 128)
    blas.destroy_handle(h)
    assert bench_log() == ["rocmath-bench blas -f gemm -r f32_r --transposeA N --transposeB N -m 128 -n 128 -k 128 "
                           "--alpha 1 --lda 128 --ldb 128 --beta 0 --ldc 128"]


def test_strided_line_has_strides_batch_count_and_atomics(bench_log):
    h = _handle(atomics=False)
    a = rm.zeros(4096, np.complex128)
    blas.zgemm_strided_batched(h, "T", "C", 4, 5, 6, 0.5 - 2j, a, 6, 40, a, 5, 30, 0.1, a, 4, 20, 3)
    blas.destroy_handle(h)
    assert bench_log() == [
        "rocmath-bench blas -f gemm_strided_batched -r f64_c --transposeA T --transposeB C -m 4 -n 5 -k 6 "
        "--alpha 0.5 --alphai -2 --lda 6 --stride_a 40 --ldb 5 --stride_b 30 --beta 0.1 --ldc 4 --stride_c 20 "
        "--batch_count 3 --atomics_not_allowed"]


def test_names_follow_rocblas_bench():
    assert bench_name("isamax") == ("iamax", {"r": "f32_r"})
    assert bench_name("izamin_batched") == ("iamin_batched", {"r": "f64_c"})
    assert bench_name("cdotu") == ("dot", {"r": "f32_c"})
    assert bench_name("zdotc_strided_batched") == ("dotc_strided_batched", {"r": "f64_c"})
    assert bench_name("scnrm2") == ("nrm2", {"r": "f32_c"})
    assert bench_name("hgemm") == ("gemm", {"r": "f16_r"})
    # scal: x's type, then alpha's; rot: x's, c's, s's (rocBLAS's own lines)
    assert bench_name("csscal") == ("scal", {"a_type": "f32_c", "b_type": "f32_r"})
    assert bench_name("sscal") == ("scal", {"a_type": "f32_r", "b_type": "f32_r"})
    assert bench_name("zrot") == ("rot", {"a_type": "f64_c", "b_type": "f64_r", "c_type": "f64_c"})
    assert bench_name("zdrot") == ("rot", {"a_type": "f64_c", "b_type": "f64_r", "c_type": "f64_r"})
    assert bench_name("hssgemv_strided_batched") == (
        "gemv_strided_batched", {"a_type": "f16_r", "c_type": "f32_r", "compute_type": "f32_r"})
    assert parse_name("gemm_strided_batched_ex") == ("", "gemm", "_strided_batched", "_ex")
    assert parse_name("gemm_batched_ex3") == ("", "gemm", "_batched", "_ex3")
    assert parse_name("zher2k_batched") == ("z", "her2k", "_batched", "")
    assert parse_name("dsyr2") == ("d", "syr2", "", "")
    # gemm_ex3's compute type is a rocblas_computetype, under rocblas-bench's --composite_compute_type
    types = {"a_type": 170, "b_type": blas.Datatype.f32_r, "c_type": 170, "d_type": 170, "compute_type": 301}
    assert bench_name("gemm_ex3", types) == ("gemm_ex3", {"a_type": "f8_r", "b_type": "f32_r", "c_type": "f8_r",
                                                          "d_type": "f8_r", "composite_compute_type": "f8_f8_f32"})
    assert bench_name("gemm_ex3", {**types, "compute_type": 151})[1]["composite_compute_type"] == "invalid"
    assert stride_operand("stride_A") == "a" and stride_operand("stridex") == "x" and stride_operand("lda") is None
    with pytest.raises(ValueError):
        parse_name("sfoo")


def test_every_routine_has_a_name_and_the_index_inverts_it():
    names = [f for f in compute_routines() if not f.endswith(("_ex", "_ex3", "_64"))]
    seen = {}
    for fname in names:
        function, types = bench_name(fname)
        assert fname in functions_for(function)
        key = (function, tuple(sorted(types.items())))
        assert key not in seen, f"{fname} and {seen.get(key)} share {key}"
        seen[key] = fname
    assert functions_for("nope") == {}


def test_mixed_precision_type_flags_come_first(bench_log):
    h = _handle()
    x = rm.zeros(16, np.complex64)
    blas.csscal(h, 4, 2.0, x, 1)
    blas.csrot_batched(h, 3, rm.zeros(2, np.uint64), 1, rm.zeros(2, np.uint64), 2, 0.5, 0.25, 0)
    blas.destroy_handle(h)
    assert bench_log() == [
        "rocmath-bench blas -f scal --a_type f32_c --b_type f32_r -n 4 --alpha 2 --incx 1",
        "rocmath-bench blas -f rot_batched --a_type f32_c --b_type f32_r --c_type f32_r -n 3 --incx 1 --incy 2 "
        "--batch_count 0"]


def test_ex_lines_carry_their_types(bench_log):
    h = _handle()
    d = rm.zeros(256, np.float64)
    f64 = blas.Datatype.f64_r
    blas.gemm_ex(h, "N", "T", 4, 4, 4, 2.0, d, f64, 4, d, f64, 4, 0.0, d, f64, 4, d, f64, 4, f64, 0, 0, 0)
    blas.nrm2_ex(h, 4, d, f64, 1, None, f64, f64)
    blas.trsm_ex(h, "L", "U", "N", "N", 2, 2, 1.0, d, 2, d, 2, None, 0, f64)
    blas.destroy_handle(h)
    assert bench_log() == [
        "rocmath-bench blas -f gemm_ex --transposeA N --transposeB T -m 4 -n 4 -k 4 --alpha 2 --a_type f64_r --lda 4 "
        "--b_type f64_r --ldb 4 --beta 0 --c_type f64_r --ldc 4 --d_type f64_r --ldd 4 --compute_type f64_r "
        "--algo 0 --solution_index 0 --flags 0",
        "rocmath-bench blas -f nrm2_ex -r f64_r -n 4 --incx 1",
        "rocmath-bench blas -f trsm_ex -r f64_r --side L --uplo U --transposeA N --diag N -m 2 -n 2 --alpha 1 "
        "--lda 2 --ldb 2"]


def test_outofplace_is_marked(bench_log):
    h = _handle()
    a, b, c = rm.zeros(16), rm.zeros(16), rm.zeros(16)
    blas.dtrmm(h, "L", "U", "N", "N", 2, 2, 1.0, a, 2, b, 2, b, 2)
    blas.dtrmm(h, "L", "U", "N", "N", 2, 2, 1.0, a, 2, b, 2, c, 2)
    blas.destroy_handle(h)
    first, second = bench_log()
    assert not first.endswith("--outofplace") and second.endswith("--ldc 2 --outofplace")


def test_scalars_device_mode_null_and_shortest_text(bench_log):
    h = _handle()
    x = rm.zeros(8, np.float32)
    blas.saxpy(h, 4, np.float32(0.1), x, 1, x, 1)        # float32 0.1 prints as 0.1, not 0.100000001
    blas.daxpy(h, 4, 1 / 3, rm.zeros(8), 1, rm.zeros(8), 1)
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.saxpy(h, 4, None, x, 1, x, 1)                # logged before validation, alpha as nan
    blas.set_pointer_mode(h, blas.PointerMode.device)
    blas.saxpy(h, 4, rm.to_device(np.array([-2.5], np.float32)), x, 1, x, 1)   # read back from the device
    blas.zscal(h, 2, rm.to_device(np.array([1 + 0.5j])), rm.zeros(4, np.complex128), 1)
    with pytest.raises(errors.RocmathError):
        blas.saxpy(h, 4, 12345, x, 1, x, 1)               # no device memory there: nan, the call reports it
    blas.destroy_handle(h)
    alphas = [ln.split("--alpha ", 1)[1].split(" --incx")[0] for ln in bench_log()]
    assert alphas == ["0.1", "0.3333333333333333", "nan", "-2.5", "1 --alphai 0.5", "nan"]


def test_lines_only_with_the_bench_bit_and_invalid_arguments_do_not_break_logging(bench_log, monkeypatch):
    h = _handle()
    with pytest.raises(errors.RocblasInvalidValueError):
        blas.sgemv(h, "Q", 2, 2, 1.0, None, 2, None, 1, 0.0, None, 1)
    with pytest.raises(errors.RocblasInvalidSizeError):
        blas.sgemv(h, "N", "two", 2, 1.0, None, 2, None, 1, 0.0, None, 1)
    blas.destroy_handle(h)
    assert bench_log() == [
        "rocmath-bench blas -f gemv -r f32_r --transposeA Q -m 2 -n 2 --alpha 1 --lda 2 --incx 1 --beta 0 --incy 1",
        "rocmath-bench blas -f gemv -r f32_r --transposeA N -m two -n 2 --alpha 1 --lda 2 --incx 1 --beta 0 --incy 1"]
    monkeypatch.setenv("ROCBLAS_LAYER", "1")  # trace only
    h = _handle()
    blas.sscal(h, 0, 1.0, None, 1)
    blas.destroy_handle(h)
    assert len(bench_log()) == 2


def test_bench_line_is_callable_directly():
    h = _handle()
    names = ("handle", "n", "x", "incx", "result")
    line = bench_line(h, "dasum", names, {"handle": h, "n": 7, "x": 0, "incx": 3, "result": None})
    blas.destroy_handle(h)
    assert line == "rocmath-bench blas -f asum -r f64_r -n 7 --incx 3"


def test_every_routine_writes_a_line_the_command_line_parses():
    import inspect
    import shlex

    from rocmath.bench.rocblas_cli import parse_args
    from rocmath.blas._benchline import ENUM_FLAGS

    h = _handle()
    letters = {"side": "L", "uplo": "U"}
    for fname in sorted(f for f in compute_routines() if not f.endswith("_64")):
        names = tuple(inspect.signature(getattr(blas, fname)).parameters)
        values: dict = {"handle": h}
        for name in names[1:]:
            if name in ENUM_FLAGS:
                values[name] = letters.get(name, "N")
            elif name.endswith("_type"):
                values[name] = blas.Datatype.f32_r
            else:
                values[name] = 0.5 if name in ("alpha", "beta") else 2
        line = bench_line(h, fname, names, values)
        tokens = shlex.split(line)
        assert tokens[:3] == ["rocmath-bench", "blas", "-f"], line
        args = parse_args(tokens[2:])
        assert args.function == bench_name(fname, values)[0] and args.api == 0
        if hasattr(blas, f"{fname}_64"):  # the ILP64 twin's line: --api 1 after the command, as rocBLAS's
            tokens = shlex.split(bench_line(h, fname, names, values, ilp64=True))
            assert tokens[:5] == ["rocmath-bench", "blas", "--api", "1", "-f"]
            args = parse_args(tokens[2:])
            assert args.function == bench_name(fname, values)[0] and args.api == 1
    blas.destroy_handle(h)


def _line_of(fname: str, **given) -> str:
    """The bench line of a call of ``fname`` with the arguments given (the others 2, enums N/U)."""
    import inspect

    from rocmath.blas._benchline import ENUM_FLAGS

    h = _handle()
    names = tuple(inspect.signature(getattr(blas, fname)).parameters)
    values = {"handle": h}
    for name in names[1:]:
        values[name] = given.get(name, "U" if name == "uplo" else "N" if name in ENUM_FLAGS else 2)
    line = bench_line(h, fname, names, values)
    blas.destroy_handle(h)
    return line


@pytest.mark.parametrize("fname", ["chpmv_strided_batched", "zhpr_strided_batched", "chpr2_strided_batched",
                                   "sspr_strided_batched", "dspr2_strided_batched", "stpsv_strided_batched",
                                   "ztpmv_strided_batched", "dspmv_strided_batched"])
def test_packed_strided_lines_carry_the_ap_stride_as_stride_a(fname):
    # rocBLAS logs the packed matrix's stride as --stride_a whatever its parameter is called (stride_ap here)
    tokens = _line_of(fname, stride_ap=77, stride_a=77).split()  # (whichever the function has)
    assert tokens[tokens.index("--stride_a") + 1] == "77"
    assert tokens.count("--stride_a") == 1 and "--stride_x" in tokens


def test_rotg_lines_name_a_and_c_types_and_all_strides():
    assert bench_name("crotg") == ("rotg", {"a_type": "f32_c", "b_type": "f32_r"})
    assert bench_name("zrotg_batched") == ("rotg_batched", {"a_type": "f64_c", "b_type": "f64_r"})
    assert bench_name("srotg") == ("rotg", {"a_type": "f32_r", "b_type": "f32_r"})
    assert functions_for("rotg")["crotg"] == {"a_type": "f32_c", "b_type": "f32_r"}
    assert _line_of("zrotg", a=0, b=0, c=0, s=0) == (
        "rocmath-bench blas -f rotg --a_type f64_c --b_type f64_r")
    assert _line_of("crotg_strided_batched", stride_a=1, stride_b=2, stride_c=3, stride_s=4, batch_count=5) == (
        "rocmath-bench blas -f rotg_strided_batched --a_type f32_c --b_type f32_r --stride_a 1 --stride_b 2 "
        "--stride_c 3 --stride_d 4 --batch_count 5")


def test_rotmg_strided_line_has_rocblas_strides():
    line = _line_of("drotmg_strided_batched", stride_d1=1, stride_d2=2, stride_x1=3, stride_y1=4, stride_param=5,
                    batch_count=6)
    assert line == ("rocmath-bench blas -f rotmg_strided_batched -r f64_r --batch_count 6 --stride_a 1 --stride_b 2 "
                    "--stride_c 5 --stride_x 3 --stride_y 4")


def test_packed_rotg_and_rotmg_lines_parse_back():
    import shlex

    from rocmath.bench.rocblas_cli import parse_args

    args = parse_args(shlex.split(_line_of("crotg_strided_batched", stride_s=4))[2:])
    assert (args.function, args.a_type, args.b_type, args.stride_d) == ("rotg_strided_batched", "f32_c", "f32_r", 4)
    args = parse_args(shlex.split(_line_of("chpmv_strided_batched", stride_ap=9))[2:])
    assert args.stride_a == 9
