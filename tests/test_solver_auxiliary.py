"""rocSOLVER's auxiliary functions (solver/auxiliary.py): the version string, the multi-level logging session
driving the routines' logging (rocsolver_logger.cpp), and the refactorization info object (rocsolver_rfinfo.cpp)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas, solver, sparse
from rocmath.errors import (
    RocblasInternalError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.handle import LayerMode
from rocmath.log import close_logs
from rocmath.precision import D
from rocmath.solver import _api
from rocmath.solver import auxiliary as aux
from rocmath.solver._api import SolverCall, SolverRoutine, bind

LOG_FUNCTIONS = [aux.log_end, lambda: aux.log_set_layer_mode(1), lambda: aux.log_set_max_levels(1),
                 lambda: aux.log_set_max_levels(0), aux.log_restore_defaults, aux.log_write_profile,
                 aux.log_flush_profile]
ROW = re.compile(r'- \{ function: (\w+), calls: (\d+), device_us: ([\d.]+), .*problem: "(.*)" \}')


@pytest.fixture(autouse=True)
def no_session(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    """Every test starts and ends without a logging session, with the ROCSOLVER_ variables of its own."""
    for name in ("ROCSOLVER_LAYER", "ROCSOLVER_LEVELS", "ROCSOLVER_LOG_TRACE_PATH", "ROCSOLVER_LOG_BENCH_PATH",
                 "ROCSOLVER_LOG_PROFILE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ROCSOLVER_LOG_PATH", str(tmp_path / "rocsolver.log"))  # never stderr
    assert _api.current_session() is None
    yield
    if _api.current_session() is not None:
        aux.log_end()
    close_logs()
    assert _api.current_session() is None and not _api.entries_in_progress()


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def lines(path: Any) -> list[str]:
    close_logs()
    return path.read_text().splitlines()


def header() -> list[str]:
    return ["ROCSOLVER LOG FILE", f"rocSOLVER Version: {aux.get_version_string()}",
            f"rocBLAS Version: {blas.get_version_string()}"]


# --- version -----------------------------------------------------------------------------------------------


def test_version_string() -> None:
    version = aux.get_version_string()
    assert re.fullmatch(r"3\.28\.0\..+", version) and rm.__version__ in version  # MAJOR.MINOR.PATCH.TWEAK
    size = aux.get_version_string_size()
    assert size == len(version.encode()) + 1  # C's buffer, NUL included
    buf = bytearray(b"x" * (size + 3))
    assert aux.get_version_string(buf, size) == version
    assert bytes(buf) == version.encode() + b"\0xxx"
    arr = np.full(size, 0xFF, np.uint8)
    aux.get_version_string(arr)  # len: the buffer's size
    assert arr.tobytes() == version.encode() + b"\0"
    with pytest.raises(RocblasInvalidSizeError) as e:
        aux.get_version_string(bytearray(size), size - 1)  # one byte short: invalid_size
    assert e.value.status == RocblasStatus.invalid_size and e.value.arg == "len"
    with pytest.raises(RocblasInvalidSizeError):
        aux.get_version_string(bytearray(size - 1))
    with pytest.raises(RocblasInvalidSizeError):
        aux.get_version_string(len=size - 1)
    assert aux.get_version_string(len=size) == version
    with pytest.raises(RocblasInvalidPointerError):  # a null buffer, before its length
        aux.get_version_string(None, 0)


def test_log_file_header_reports_both_versions(tmp_path: Any, handle: Any) -> None:
    aux.log_begin()  # ROCSOLVER_LOG_PATH: one file, one header
    aux.log_end()
    assert lines(tmp_path / "rocsolver.log") == header()


# --- logging: statuses -------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", LOG_FUNCTIONS, ids=["end", "layer", "levels", "levels0", "restore", "write",
                                                     "flush"])
def test_log_functions_need_a_session(call: Any) -> None:
    with pytest.raises(RocblasInternalError) as e:  # the session is checked first (even before max_levels)
        call()
    assert e.value.status == RocblasStatus.internal_error


def test_begin_twice_and_end_twice() -> None:
    aux.log_begin()
    with pytest.raises(RocblasInternalError):
        aux.log_begin()
    aux.log_end()
    with pytest.raises(RocblasInternalError):
        aux.log_end()
    aux.log_begin()  # a new session after the end
    aux.log_end()


def test_max_levels_at_least_one() -> None:
    aux.log_begin()
    for bad in (0, -1, 2**31):
        with pytest.raises(RocblasInvalidValueError) as e:
            aux.log_set_max_levels(bad)
        assert e.value.status == RocblasStatus.invalid_value and e.value.arg == "max_levels"
    aux.log_set_max_levels(3)
    assert _api.current_session().max_levels == 3  # type: ignore[union-attr]
    aux.log_set_layer_mode(LayerMode.log_trace | LayerMode.log_profile)
    assert _api.current_session().layer == LayerMode.log_trace | LayerMode.log_profile  # type: ignore[union-attr]
    aux.log_restore_defaults()
    session = _api.current_session()
    assert session is not None and (session.layer, session.max_levels) == (LayerMode.none, 1)


@pytest.mark.parametrize(("layer", "levels", "expect"), [
    ("0x6", "2", (LayerMode.log_bench | LayerMode.log_profile, 2)),  # strtol, base 0
    ("010", None, (LayerMode.none, 1)),  # octal 8: no bit rocmath logs
    (" 3 and more", "+4", (LayerMode.log_trace | LayerMode.log_bench, 4)),  # the leading number
    ("", None, (LayerMode.none, 1)),  # set but empty: strtol's 0
])
def test_log_begin_reads_the_environment(monkeypatch: pytest.MonkeyPatch, layer: str, levels: str | None,
                                         expect: tuple[LayerMode, int]) -> None:
    monkeypatch.setenv("ROCSOLVER_LAYER", layer)
    if levels is not None:
        monkeypatch.setenv("ROCSOLVER_LEVELS", levels)
    aux.log_begin()
    session = _api.current_session()
    assert session is not None and (session.layer, session.max_levels) == expect


@pytest.mark.parametrize(("name", "value"), [("ROCSOLVER_LAYER", "-1"), ("ROCSOLVER_LAYER", str(2**32)),
                                             ("ROCSOLVER_LEVELS", "0"), ("ROCSOLVER_LEVELS", str(2**31)),
                                             ("ROCSOLVER_LEVELS", "")])
def test_log_begin_refuses_bad_variables(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("ROCSOLVER_LAYER" if name == "ROCSOLVER_LEVELS" else "ROCSOLVER_LEVELS", "1")
    with pytest.raises(RocblasInternalError):
        aux.log_begin()
    session = _api.current_session()  # begun all the same (as rocSOLVER's logger), logging nothing
    assert session is not None and session.layer == LayerMode.none
    with pytest.raises(RocblasInternalError):
        aux.log_begin()
    aux.log_end()


def test_log_begin_unopenable_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("ROCSOLVER_LAYER", "1")
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(tmp_path / "no" / "such" / "dir.log"))
    with pytest.raises(RocblasInternalError):
        aux.log_begin()
    assert _api.current_session().layer == LayerMode.none  # type: ignore[union-attr]
    aux.log_end()


# --- logging: what the routines write ----------------------------------------------------------------------


def test_session_trace_goes_to_the_log_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    log = tmp_path / "rocsolver.log"
    aux.log_begin()  # no ROCSOLVER_LAYER: no logging
    solver.sgetrs(handle, "N", 0, 0, None, 1, None, None, 1)
    aux.log_set_layer_mode(LayerMode.log_trace)
    monkeypatch.setenv("ROCSOLVER_LAYER", "2")  # the session decides, not the variables of the moment
    monkeypatch.setenv("ROCSOLVER_LOG_PATH", str(tmp_path / "elsewhere.log"))
    solver.sgetrs(handle, "T", 0, 0, None, 1, None, None, 1)
    with pytest.raises(RocblasInvalidSizeError):  # logged before it is checked
        solver.dgetrf_strided_batched(handle, 4, 4, 0, 3, 16, 0, 4, 0, 2)
    aux.log_restore_defaults()
    solver.sgetrs(handle, "C", 0, 0, None, 1, None, None, 1)
    aux.log_end()
    assert lines(log) == [*header(), "rocsolver_sgetrs,T,0,0,0,1,0,0,1",
                          "rocsolver_dgetrf_strided_batched,4,4,0,3,16,0,4,0,2"]
    assert not (tmp_path / "elsewhere.log").exists()


def test_session_files_per_kind(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    trace, bench = tmp_path / "trace.log", tmp_path / "bench.log"
    trace.write_text("from an earlier run\n")
    monkeypatch.setenv("ROCSOLVER_LAYER", "3")
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(trace))
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    aux.log_begin()
    solver.sgetrs(handle, "T", 0, 0, None, 1, None, None, 1)
    aux.log_end()
    solver.sgetrs(handle, "N", 0, 0, None, 1, None, None, 1)  # after the session: ROCSOLVER_LAYER of the call
    assert lines(trace) == [*header(), "rocsolver_sgetrs,T,0,0,0,1,0,0,1", "rocsolver_sgetrs,N,0,0,0,1,0,0,1"]
    assert lines(bench) == [*header(), "rocmath-bench solver -f getrs -r s --trans T -n 0 --nrhs 0 --lda 1 --ldb 1",
                            "rocmath-bench solver -f getrs -r s --trans N -n 0 --nrhs 0 --lda 1 --ldb 1"]
    assert lines(tmp_path / "rocsolver.log") == header()  # the profile's file (ROCSOLVER_LOG_PATH)


# Routines calling routines, as rocSOLVER's templates call each other: douter -> dinner -> dpotrf.

def _sizes(c: SolverCall) -> int:
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    return n


def _inner(c: SolverCall) -> None:
    solver.dpotrf(c.values["handle"], "L", c.dims, c.values["A"], c.values["lda"], c.values["info"])


def _outer(c: SolverCall) -> None:
    dinner(c.values["handle"], c.dims, c.values["A"], c.values["lda"], c.values["info"])


_PARAMS = ("n", "A", "lda", "info")
dinner = bind(SolverRoutine("inner", _PARAMS, {"A": "lda"}, _inner, check=_sizes), D)
douter = bind(SolverRoutine("outer", _PARAMS, {"A": "lda"}, _outer, check=_sizes), D)


def _spd(n: int) -> Any:
    return rm.to_device(np.asfortranarray(np.eye(n) * n + 1).reshape(-1))


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_max_levels_limit_nested_trace(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any,
                                       levels: int) -> None:
    log = tmp_path / "rocsolver.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "3")
    aux.log_begin()
    if levels > 1:
        aux.log_set_max_levels(levels)
    A, info = _spd(4), rm.zeros(1, np.int32)
    douter(handle, 4, A, 4, info)
    aux.log_end()
    got = lines(log)[3:]
    trace = ["rocsolver_douter,4,{A},4,{info}", "    rocsolver_dinner,4,{A},4,{info}",
             "        rocsolver_dpotrf,L,4,{A},4,{info}"]
    ptrs = {"A": f"0x{A.ptr:x}", "info": f"0x{info.ptr:x}"}
    # the outermost entry's bench line only (rocSOLVER writes it at ROCSOLVER_ENTER_TOP)
    assert got == [trace[0].format(**ptrs), "rocmath-bench solver -f outer -r d -n 4 --lda 4",
                   *(t.format(**ptrs) for t in trace[1:levels])]
    assert info.get()[0] == 0 and np.allclose(np.tril(A.get().reshape(4, 4).T), np.linalg.cholesky(np.eye(4) * 4 + 1))


def _profile(path: Any) -> list[list[tuple[str, int]]]:
    """The profile blocks of a log: each ``------- PROFILE -------`` line, its rows (function, calls), a blank."""
    blocks: list[list[tuple[str, int]]] = []
    rows = iter(lines(path))
    for line in rows:
        if line == "------- PROFILE -------":
            blocks.append([])
            for row in rows:
                if not row:
                    break
                m = ROW.fullmatch(row)
                assert m, row
                blocks[-1].append((m[1], int(m[2])))
    return blocks


def test_profile_at_write_flush_and_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    log = tmp_path / "rocsolver.log"
    env_table = _api.profile_table()  # the session's profile is its own, not the one of ROCSOLVER_LAYER alone
    env_rows = dict(env_table.rows)
    monkeypatch.setenv("ROCSOLVER_LAYER", "4")
    aux.log_begin()
    info = rm.zeros(1, np.int32)
    aux.log_write_profile()  # nothing profiled yet: nothing written
    for _ in range(3):
        solver.dpotrf(handle, "L", 8, _spd(8), 8, info)
    aux.log_write_profile()  # written, kept
    solver.dpotrf(handle, "L", 8, _spd(8), 8, info)
    aux.log_flush_profile()  # written, emptied
    aux.log_flush_profile()  # empty: nothing
    solver.dpotrf(handle, "L", 8, _spd(8), 8, info)
    aux.log_set_layer_mode(LayerMode.none)
    aux.log_flush_profile()  # without the profile layer: neither written nor emptied
    aux.log_set_layer_mode(LayerMode.log_profile)
    solver.dpotrf(handle, "L", 8, _spd(8), 8, info)
    aux.log_end()  # written at the end
    potrf = "rocsolver_dpotrf"
    assert _profile(log) == [[(potrf, 3)], [(potrf, 4)], [(potrf, 2)]]
    assert lines(log)[:3] == header()
    assert env_table.rows == env_rows


@pytest.mark.parametrize(("levels", "rows"), [(1, {"rocsolver_douter"}),
                                              (3, {"rocsolver_douter", "rocsolver_dinner", "rocsolver_dpotrf"})])
def test_max_levels_limit_nested_profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any,
                                         levels: int, rows: set[str]) -> None:
    monkeypatch.setenv("ROCSOLVER_LAYER", "4")
    monkeypatch.setenv("ROCSOLVER_LEVELS", str(levels))
    aux.log_begin()
    douter(handle, 16, _spd(16), 16, rm.zeros(1, np.int32))
    rm.device_synchronize()
    table = _api.current_session().profile  # type: ignore[union-attr]
    got = {function: (calls, ns) for (function, _), (calls, ns, _) in table.rows.items()}
    aux.log_end()
    assert set(got) == rows and all(calls == 1 for calls, _ in got.values())
    # potrf's kernel time goes to the deepest profiled entry: the outer one at one level
    assert got["rocsolver_dpotrf" if levels == 3 else "rocsolver_douter"][1] > 0


def test_log_end_waits_for_logged_entries(monkeypatch: pytest.MonkeyPatch, handle: Any) -> None:
    monkeypatch.setenv("ROCSOLVER_LAYER", "1")
    aux.log_begin()
    raised: list[Exception] = []

    def end_inside() -> None:
        try:
            aux.log_end()
        except RocblasInternalError as exc:
            raised.append(exc)

    routine = SolverRoutine("ender", ("n",), {}, lambda c: end_inside(), check=lambda c: c.sizes("n"))
    bind(routine, D)(handle, 0)  # a routine ending the session while it runs
    assert len(raised) == 1 and _api.current_session() is not None
    aux.log_end()


# --- refactorization info ------------------------------------------------------------------------------------


def test_rfinfo_lifecycle(handle: Any) -> None:
    stream = rm.Stream()
    blas.set_stream(handle, stream)
    try:
        rf = aux.create_rfinfo(handle)
    finally:
        blas.set_stream(handle, None)
    assert aux.get_rfinfo_mode(rf) is solver.RfinfoMode.lu  # the default
    assert sparse.get_stream(rf.sphandle) is stream  # rocSPARSE works on the handle's stream
    assert sparse.get_mat_fill_mode(rf.descrL) == sparse.FillMode.lower
    assert sparse.get_mat_diag_type(rf.descrL) == sparse.DiagType.unit
    assert sparse.get_mat_fill_mode(rf.descrU) == sparse.FillMode.upper
    assert sparse.get_mat_diag_type(rf.descrU) == sparse.DiagType.non_unit
    assert sparse.get_mat_index_base(rf.descrT) == sparse.IndexBase.zero
    aux.set_rfinfo_mode(rf, solver.RfinfoMode.cholesky)
    assert aux.get_rfinfo_mode(rf) is solver.RfinfoMode.cholesky
    assert sparse.get_mat_diag_type(rf.descrL) == sparse.DiagType.non_unit  # Cholesky: L = U^T, non-unit
    aux.set_rfinfo_mode(rf, 271)
    assert aux.get_rfinfo_mode(rf) is solver.RfinfoMode.lu
    assert sparse.get_mat_diag_type(rf.descrL) == sparse.DiagType.unit
    for bad in (0, 270, 273, "lu", None):
        with pytest.raises(RocblasInvalidValueError) as e:
            aux.set_rfinfo_mode(rf, bad)
        assert e.value.arg == "mode"
    assert aux.get_rfinfo_mode(rf) is solver.RfinfoMode.lu
    aux.destroy_rfinfo(rf)
    for call in (lambda: aux.get_rfinfo_mode(rf), lambda: aux.set_rfinfo_mode(rf, 271),
                 lambda: aux.destroy_rfinfo(rf)):
        with pytest.raises(RocblasInvalidPointerError):
            call()
    stream.destroy()


def test_rfinfo_statuses() -> None:
    for call in (lambda: aux.get_rfinfo_mode(None), lambda: aux.destroy_rfinfo(None),
                 lambda: aux.set_rfinfo_mode(None, 999),  # the rfinfo before the mode
                 lambda: aux.get_rfinfo_mode(blas.create_handle())):
        with pytest.raises(RocblasInvalidPointerError) as e:
            call()
        assert e.value.status == RocblasStatus.invalid_pointer and e.value.arg == "rfinfo"
    with pytest.raises(RocblasInvalidHandleError):
        aux.create_rfinfo(None)
    h = blas.create_handle()
    blas.destroy_handle(h)
    with pytest.raises(RocblasInvalidHandleError):
        aux.create_rfinfo(h)
