"""rocBLAS logging as rocBLAS writes it: trace lines (``ROCBLAS_LAYER=1``, logging.hpp's log_trace
and rocblas_ostream's formatting), the traced handle functions (rocblas_auxiliary.cpp), where the
lines go (handle.cpp's open_log_stream) and how the environment is read (handle.cpp: strtol/strtoul)."""

from __future__ import annotations

import ctypes
import os
import re
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rocmath as rm
import rocmath.blas as blas
from rocmath import errors
from rocmath.handle import c_strtol
from rocmath.log import ostream_text


def _read(path) -> list[str]:
    from rocmath.log import close_logs

    close_logs()  # flush (a later line reopens the file, appending)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.fixture
def env(monkeypatch):
    for name in ("ROCBLAS_LAYER", "ROCBLAS_LOG_PATH", "ROCBLAS_LOG_TRACE_PATH", "ROCBLAS_LOG_BENCH_PATH",
                 "ROCBLAS_LOG_PROFILE_PATH", "ROCBLAS_DEFAULT_ATOMICS_MODE", "ROCBLAS_CHECK_NUMERICS"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def trace_log(env, tmp_path):
    """ROCBLAS_LAYER=1 into a file; returns a function reading the lines written so far."""
    path = tmp_path / "trace.log"
    env.setenv("ROCBLAS_LAYER", "1")
    env.setenv("ROCBLAS_LOG_TRACE_PATH", str(path))
    return lambda: _read(path)


def _fields(line: str) -> list[str]:
    """A trace line's fields (a complex value ``(re,im)`` is one field)."""
    return re.findall(r"\([^)]*\)|[^,]+", line)


def _calls(lines: list[str], prefix: str) -> list[list[str]]:
    return [_fields(ln) for ln in lines if ln.startswith(prefix + ",")]


# --- values as rocblas_ostream prints them ----------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [
    (1.0, "1"), (0.0, "0"), (-2.5, "-2.5"), (0.1, "0.1"), (1 / 3, "0.333333"), (1e-5, "1e-05"), (1e20, "1e+20"),
    (np.float32(0.1), "0.1"), (float("nan"), "nan"), (float("-inf"), "-inf"), (0.5 - 0.25j, "(0.5,-0.25)"),
    (np.complex64(1 + 0j), "(1,0)"), (True, "1"), (7, "7"), (np.int64(-3), "-3"), ("x", "x"),
])
def test_ostream_text_is_cpp_default_formatting(value, text):
    assert ostream_text(value) == text


# --- trace lines ----------------------------------------------------------------------------------


def test_trace_line_ends_with_the_atomics_mode(trace_log):
    h = blas.create_handle()
    x, y = rm.zeros(8), rm.zeros(8)
    blas.set_atomics_mode(h, blas.AtomicsMode.not_allowed)
    blas.daxpy(h, 4, 1.0, x, 1, y, 1)
    blas.set_atomics_mode(h, blas.AtomicsMode.allowed)
    blas.daxpy(h, 4, 0.0, x, 1, y, 1)
    blas.destroy_handle(h)
    axpy = _calls(trace_log(), "rocblas_daxpy")
    assert axpy == [["rocblas_daxpy", "4", "1", f"0x{x.ptr:x}", "1", f"0x{y.ptr:x}", "1", "atomics_not_allowed"],
                    ["rocblas_daxpy", "4", "0", f"0x{x.ptr:x}", "1", f"0x{y.ptr:x}", "1", "atomics_allowed"]]


def test_enums_and_datatypes_print_as_rocblas_names(trace_log):
    h = blas.create_handle()
    blas.set_atomics_mode(h, 1)
    a = rm.zeros(16)
    blas.dgemm(h, blas.Operation.transpose, 111, 2, 2, 2, 0.1, a, 2, a, 2, 0.0, a, 2)
    blas.dtrsv(h, blas.Fill.lower, "C", blas.Diagonal.unit, 2, a, 2, a, 1)
    blas.gemm_ex(h, "N", blas.Operation.conjugate_transpose, 2, 2, 2, 1.0, a, blas.Datatype.f64_r, 2, a, 152, 2,
                 0.0, a, blas.Datatype.f64_r, 2, a, blas.Datatype.f64_r, 2, blas.Datatype.f64_r, 0, 0, 0)
    blas.destroy_handle(h)
    lines = trace_log()
    p = f"0x{a.ptr:x}"
    assert _calls(lines, "rocblas_dgemm") == [
        ["rocblas_dgemm", "T", "N", "2", "2", "2", "0.1", p, "2", p, "2", "0", p, "2", "atomics_allowed"]]
    assert _calls(lines, "rocblas_dtrsv") == [
        ["rocblas_dtrsv", "L", "C", "U", "2", p, "2", p, "1", "atomics_allowed"]]
    assert _calls(lines, "rocblas_gemm_ex") == [
        ["rocblas_gemm_ex", "N", "C", "2", "2", "2", "1", p, "f64_r", "2", p, "f64_r", "2", "0", p, "f64_r", "2",
         p, "f64_r", "2", "f64_r", "0", "0", "none", "atomics_allowed"]]


def test_gemm_ex3_traces_its_compute_type_by_name(trace_log):
    # rocblas_gemm_ex3's log_trace: gemm_ex's fields, the rocblas_computetype as rocblas_datatype_string
    # prints it; the strided form adds the strides after each ld and batch_count before the compute type.
    h = blas.create_handle()
    blas.set_atomics_mode(h, blas.AtomicsMode.allowed)
    a = rm.zeros(64, np.uint8)
    d = rm.zeros(16, np.float32)
    f8, f32 = blas.Datatype.f8_r, blas.Datatype.f32_r
    blas.gemm_ex3(h, "N", "T", 2, 2, 2, 0.5, a, f8, 2, a, f8, 2, 0.0, d, f32, 2, d, f32, 2, blas.ComputeType.f32, 0, 0,
                  0x20)
    with pytest.raises(errors.RocblasNotImplementedError):  # (f8_f8_f32 rounds no f8 input: logged all the same)
        blas.gemm_strided_batched_ex3(h, "N", "N", 2, 2, 2, 1.0, a, f8, 2, 4, a, f8, 2, 4, 0.0, d, f32, 2, 4, d, f32, 2,
                                      4, 2, 301, 0, 0, 0)
    blas.destroy_handle(h)
    lines = trace_log()
    pa, pd = f"0x{a.ptr:x}", f"0x{d.ptr:x}"
    assert _calls(lines, "rocblas_gemm_ex3") == [
        ["rocblas_gemm_ex3", "N", "T", "2", "2", "2", "0.5", pa, "f8_r", "2", pa, "f8_r", "2", "0", pd, "f32_r", "2",
         pd, "f32_r", "2", "f32", "0", "0", "stochastic_rounding", "atomics_allowed"]]
    assert _calls(lines, "rocblas_gemm_strided_batched_ex3") == [
        ["rocblas_gemm_strided_batched_ex3", "N", "N", "2", "2", "2", "1", pa, "f8_r", "2", "4", pa, "f8_r", "2", "4",
         "0", pd, "f32_r", "2", "4", pd, "f32_r", "2", "4", "2", "f8_f8_f32", "0", "0", "none", "atomics_allowed"]]


def test_complex_scalars_are_one_field(trace_log):
    h = blas.create_handle()
    z = rm.zeros(8, np.complex128)
    blas.zscal(h, 4, 0.5 - 0.25j, z, 1)
    blas.zdscal(h, 4, 2.0, z, 1)
    blas.destroy_handle(h)
    lines = trace_log()
    assert _calls(lines, "rocblas_zscal")[0][1:4] == ["4", "(0.5,-0.25)", f"0x{z.ptr:x}"]
    assert _calls(lines, "rocblas_zdscal")[0][1:3] == ["4", "2"]


def test_device_pointer_mode_scalars_are_read_back(trace_log):
    h = blas.create_handle()
    blas.set_pointer_mode(h, blas.PointerMode.device)
    x, y = rm.zeros(8), rm.zeros(8)
    alpha = rm.to_device(np.array([2.5]))
    blas.daxpy(h, 4, alpha, x, 1, y, 1)
    c = rm.zeros(4, np.complex64)
    blas.cgemv(h, "N", 2, 2, rm.to_device(np.array([1 - 2j], np.complex64)), c, 2, c, 1,
               rm.to_device(np.array([0j], np.complex64)), c, 1)
    # axpy_ex traces alpha only in host pointer mode (rocblas_axpy_ex_imp.hpp)
    blas.axpy_ex(h, 4, alpha, blas.Datatype.f64_r, x, blas.Datatype.f64_r, 1, y, blas.Datatype.f64_r, 1,
                 blas.Datatype.f64_r)
    blas.destroy_handle(h)
    lines = trace_log()
    assert _calls(lines, "rocblas_daxpy")[0][1:3] == ["4", "2.5"]
    gemv = _calls(lines, "rocblas_cgemv")[0]
    assert gemv[4] == "(1,-2)" and gemv[9] == "(0,0)"
    assert _calls(lines, "rocblas_axpy_ex")[0][1:4] == ["4", "f64_r", f"0x{x.ptr:x}"]


def test_reductions_trace_no_result(trace_log):
    h = blas.create_handle()
    x = rm.to_device(np.arange(1.0, 9.0))
    blas.ddot(h, 4, x, 1, x, 1)
    blas.idamax(h, 4, x, 1)
    blas.destroy_handle(h)
    lines = trace_log()
    p = f"0x{x.ptr:x}"
    assert _calls(lines, "rocblas_ddot") == [["rocblas_ddot", "4", p, "1", p, "1", "atomics_not_allowed"]]
    assert _calls(lines, "rocblas_idamax") == [["rocblas_idamax", "4", p, "1", "atomics_not_allowed"]]


def test_null_pointers_and_invalid_calls_are_traced(trace_log):
    h = blas.create_handle()
    with pytest.raises(rm.RocmathError):
        blas.daxpy(h, 7, None, None, 1, None, 1)   # logged before validation: alpha nan, pointers 0
    blas.destroy_handle(h)
    assert _calls(trace_log(), "rocblas_daxpy") == [
        ["rocblas_daxpy", "7", "nan", "0", "1", "0", "1", "atomics_not_allowed"]]


def test_handle_functions_are_traced(trace_log):
    h = blas.create_handle()
    s = rm.Stream()
    blas.set_pointer_mode(h, blas.PointerMode.device)
    blas.get_pointer_mode(h)
    blas.set_atomics_mode(h, blas.AtomicsMode.allowed)   # traced before it acts: the old mode ends the line
    blas.get_atomics_mode(h)
    blas.set_math_mode(h, blas.MathMode.default_math)
    blas.set_math_mode(h, 99)
    blas.get_math_mode(h)
    blas.set_stream(h, s)
    blas.get_stream(h)
    blas.set_stream(h, None)
    blas.destroy_handle(h)
    s.synchronize()
    assert trace_log() == [
        "rocblas_create_handle,atomics_not_allowed",
        "rocblas_set_pointer_mode,1,atomics_not_allowed",
        "rocblas_get_pointer_mode,1,atomics_not_allowed",
        "rocblas_set_atomics_mode,atomics_allowed,atomics_not_allowed",
        "rocblas_get_atomics_mode,atomics_allowed,atomics_allowed",
        "rocblas_set_math_mode,0,atomics_allowed",
        "rocblas_set_math_mode,99,is not supported,atomics_allowed",
        "rocblas_get_math_mode,0,atomics_allowed",
        f"rocblas_set_stream,0x{s.ident:x},atomics_allowed",
        f"rocblas_get_stream,0x{s.ident:x},atomics_allowed",
        "rocblas_set_stream,0,atomics_allowed",
        "rocblas_destroy_handle,atomics_allowed",
    ]


def test_no_trace_lines_without_the_trace_bit(env, tmp_path):
    path = tmp_path / "t.log"
    env.setenv("ROCBLAS_LAYER", "6")
    env.setenv("ROCBLAS_LOG_TRACE_PATH", str(path))
    env.setenv("ROCBLAS_LOG_BENCH_PATH", str(tmp_path / "b.log"))
    env.setenv("ROCBLAS_LOG_PROFILE_PATH", str(tmp_path / "p.log"))
    h = blas.create_handle()
    blas.set_pointer_mode(h, 0)
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    assert _read(path) == []


# --- destinations ---------------------------------------------------------------------------------


def test_rocblas_log_path_is_the_fallback(env, tmp_path):
    common, bench = tmp_path / "all.log", tmp_path / "bench.log"
    env.setenv("ROCBLAS_LAYER", "3")
    env.setenv("ROCBLAS_LOG_PATH", str(common))
    h = blas.create_handle()
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    lines = _read(common)
    assert [ln.split(",")[0].split(" ")[0] for ln in lines] == [
        "rocblas_create_handle", "rocblas_daxpy", "rocmath-bench", "rocblas_destroy_handle"]
    env.setenv("ROCBLAS_LOG_BENCH_PATH", str(bench))  # a kind's own variable wins
    h = blas.create_handle()
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    assert len(_read(bench)) == 1 and not any(ln.startswith("rocmath-bench") for ln in _read(common)[4:])


def test_log_files_are_started_anew_by_a_run(env, tmp_path):
    bench, trace = tmp_path / "bench.log", tmp_path / "trace.log"
    bench.write_text("a line of an earlier run\n")
    trace.write_text("an earlier trace\n")
    env.setenv("ROCBLAS_LAYER", "2")
    env.setenv("ROCBLAS_LOG_BENCH_PATH", str(bench))
    env.setenv("ROCBLAS_LOG_TRACE_PATH", str(trace))
    h = blas.create_handle()
    assert _read(bench) == []            # opened, truncated, when the handle is made (O_TRUNC)
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    h = blas.create_handle()             # another handle of the same run keeps the lines before it
    blas.daxpy(h, 1, 0.0, None, 1, None, 1)  # (alpha 0: a quick return)
    blas.destroy_handle(h)
    assert [ln.split(" -n ")[1][0] for ln in _read(bench)] == ["0", "1"]
    assert _read(trace) == ["an earlier trace"]  # the trace layer is off: its file is not opened


# --- the environment --------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("2", 2), ("02", 2), ("010", 8), ("0x2", 2), ("0X1f", 31), (" \t2", 2), ("2junk", 2), ("+3", 3), ("-1", -1),
    ("08", 0), ("junk", 0), ("", 0), ("0x", 0), ("99999999999999999999", 2**63 - 1),
])
def test_c_strtol(text, value):
    assert c_strtol(text) == value


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's strtol as the reference")
@given(st.text(" \t\n+-0123456789xXabcfg", max_size=24), st.sampled_from([0, 10]), st.booleans())
def test_c_strtol_reads_as_libcs(text, base, unsigned):
    libc = ctypes.CDLL(None)
    f = libc.strtoul if unsigned else libc.strtol
    f.restype = ctypes.c_ulong if unsigned else ctypes.c_long
    f.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
    assert c_strtol(text, unsigned, base) == f(text.encode(), None, base)


@pytest.mark.parametrize(("text", "layers"), [
    ("02", "bench"), ("2junk", "bench"), (" 2", "bench"), ("0x2", "bench"), ("010", ""), ("verbose", ""),
    ("-1", "trace bench"), ("3", "trace bench"),
])
def test_rocblas_layer_is_read_with_strtol(env, tmp_path, text, layers):
    path = tmp_path / "log"
    env.setenv("ROCBLAS_LAYER", text)
    env.setenv("ROCBLAS_LOG_PATH", str(path))
    h = blas.create_handle()
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    lines = _read(path)
    found = [kind for kind, start in (("trace", "rocblas_daxpy,"), ("bench", "rocmath-bench blas -f axpy "))
             if any(ln.startswith(start) for ln in lines)]
    assert " ".join(found) == layers


@pytest.mark.parametrize(("text", "mode"), [
    ("1", "allowed"), ("7", "allowed"), ("0x1", "allowed"), ("2", "allowed"), ("-1", "allowed"), ("1x", "allowed"),
    ("0", "not_allowed"), ("00", "not_allowed"), ("0x0", "not_allowed"), ("junk", "not_allowed"),
    ("", "not_allowed"),
])
def test_default_atomics_mode_any_nonzero_value_allows(env, text, mode):
    env.setenv("ROCBLAS_DEFAULT_ATOMICS_MODE", text)
    h = blas.create_handle()
    assert blas.get_atomics_mode(h) is blas.AtomicsMode[mode]
    blas.destroy_handle(h)


@pytest.mark.parametrize(("text", "mode"), [("02", 2), ("4junk", 4), ("0x9", 9), ("junk", 0), ("-1", 15)])
def test_check_numerics_is_read_with_strtol(env, text, mode):
    env.setenv("ROCBLAS_CHECK_NUMERICS", text)
    h = blas.create_handle()
    assert int(h.check_numerics) == mode
    blas.destroy_handle(h)


def test_device_alpha_of_an_empty_product_is_traced_as_zero(trace_log):
    # gemm copies device alpha to the host only when k > 0 (rocblas_copy_alpha_beta_to_host_if_on_device)
    h = blas.create_handle()
    blas.set_pointer_mode(h, blas.PointerMode.device)
    a = rm.zeros(16)
    alpha, beta = rm.to_device(np.array([3.0])), rm.to_device(np.array([0.5]))
    blas.dgemm(h, "N", "N", 2, 2, 0, alpha, a, 2, a, 2, beta, a, 2)
    blas.dgemm(h, "N", "N", 2, 2, 1, alpha, a, 2, a, 2, beta, a, 2)
    blas.destroy_handle(h)
    assert [f[6] + " " + f[11] for f in _calls(trace_log(), "rocblas_dgemm")] == ["0 0.5", "3 0.5"]
