"""Replays of identical rocSOLVER calls (rocmath.plans over rocmath.launch.Replay).

A call of one launch that comes again with the same arguments on the same handle state runs its
checked launch again without the checks; everything else (a logging session, a size query, a
changed workspace, a freed or reallocated operand) takes the first path, with its checks and
errors.  Every result must be the first path's, bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
import rocmath.solver as solver
from rocmath import errors
from rocmath.solver import _api
from rocmath.solver import auxiliary as aux

COUNT, N = 5, 6


@pytest.fixture
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    rm.device_synchronize()
    blas.destroy_handle(h)


@pytest.fixture
def binds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the calls that took the first path (bound their arguments) from now on."""
    seen: list[str] = []
    bind = _api.bind_arguments

    def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(name)
        return bind(name, *args, **kwargs)

    monkeypatch.setattr(_api, "bind_arguments", counted)
    return seen


def _stack(seed: int) -> np.ndarray:
    a = np.random.default_rng(seed).integers(-4, 5, (COUNT, N, N)).astype(np.float64)
    a[1] = 0  # a singular entry: info 1, its right-hand side left as it was
    return a


def _gesv(h: Any, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    da, db = rm.to_device(a.transpose(0, 2, 1).copy()), rm.to_device(b.copy())
    ipiv, info = rm.empty((COUNT, N), np.int32), rm.empty(COUNT, np.int32)
    outs = []
    for _ in range(3):
        da.set(a.transpose(0, 2, 1).copy())
        db.set(b)
        solver.dgesv_strided_batched(h, N, 1, da, N, N * N, ipiv, N, db, N, N, info, COUNT)
        outs.append((da.get(), ipiv.get(), db.get(), info.get()))
    return tuple(outs)


def test_a_repeated_call_replays_with_the_first_paths_bits(handle: Any, binds: list[str]) -> None:
    a, b = _stack(1), np.random.default_rng(2).standard_normal((COUNT, N, 1))
    outs = _gesv(handle, a, b)
    assert binds == ["dgesv_strided_batched"] * 2  # the third call replayed
    fresh = blas.create_handle()
    fresh._plans = None  # never replays
    ref = _gesv(fresh, a, b)[0]
    blas.destroy_handle(fresh)
    for out in outs:
        for got, want in zip(out, ref, strict=True):
            assert got.tobytes() == want.tobytes()
    assert ref[3][1] == 1  # the zero entry: singular at its first column


def test_a_quick_return_replays_its_info_reset(handle: Any, binds: list[str]) -> None:
    info = rm.to_device(np.full(COUNT, 7, np.int32))
    for _ in range(3):
        info.set(np.full(COUNT, 7, np.int32))
        solver.dgetrf_strided_batched(handle, 0, N, None, 1, 0, None, 1, info, COUNT)
        assert list(info.get()) == [0] * COUNT
    assert len(binds) == 2


def test_ilp64_calls_replay_their_staged_integers(handle: Any, binds: list[str]) -> None:
    a = _stack(3)
    da = rm.to_device(a.transpose(0, 2, 1).copy())
    ipiv, info = rm.empty((COUNT, N), np.int64), rm.empty(COUNT, np.int64)
    got = []
    for _ in range(3):
        da.set(a.transpose(0, 2, 1).copy())
        ipiv.set(np.full((COUNT, N), -1, np.int64))
        solver.dgetrf_strided_batched_64(handle, N, N, da, N, N * N, ipiv, N, info, COUNT)
        got.append((da.get().tobytes(), ipiv.get().tobytes(), info.get().tobytes()))
    assert len(binds) == 2 and got[0] == got[1] == got[2]
    assert info.get()[1] == 1 and (ipiv.get() >= 1).all()


def test_state_and_memory_changes_take_the_first_path(handle: Any, binds: list[str]) -> None:
    a = _stack(4)
    da = rm.to_device(a.transpose(0, 2, 1).copy())
    ipiv, info = rm.empty((COUNT, N), np.int32), rm.empty(COUNT, np.int32)

    def call(h: Any = handle, ptr: Any = da) -> Any:
        return solver.dgetrf_strided_batched(h, N, N, ptr, N, N * N, ipiv, N, info, COUNT)

    call(), call(), call()
    assert len(binds) == 2
    # A size query reports the workspace, whatever plan there is.
    blas.start_device_memory_size_query(handle)
    call()
    assert blas.stop_device_memory_size_query(handle) > 0
    assert len(binds) == 3
    # A workspace of the user's: the plans checked against the handle's own are gone.
    ws = rm.malloc(1 << 20)
    blas.set_workspace(handle, ws, 1 << 20)
    call()
    assert len(binds) == 4
    blas.set_workspace(handle, 0, 0)
    rm.free(ws)
    call(), call(), call()
    assert len(binds) == 6
    # A freed operand is reported as on a first call.
    ptr = rm.malloc(a.nbytes)
    rm.DeviceArray.from_pointer(ptr, a.size).set(a.transpose(0, 2, 1).ravel())
    call(ptr=ptr), call(ptr=ptr)
    rm.free(ptr)
    with pytest.raises(errors.InvalidDevicePointerError):
        call(ptr=ptr)
    # A destroyed handle too.
    h2 = blas.create_handle()
    again = rm.to_device(a.transpose(0, 2, 1).copy())
    call(h2, again), call(h2, again)
    blas.destroy_handle(h2)
    with pytest.raises(errors.RocblasInvalidHandleError):
        call(h2, again)


def test_a_logging_session_sees_every_call(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any,
                                           binds: list[str]) -> None:
    # Logging is not handle state: calls under a session are logged, plan or none.
    for name in ("ROCSOLVER_LAYER", "ROCSOLVER_LEVELS", "ROCSOLVER_LOG_TRACE_PATH", "ROCSOLVER_LOG_BENCH_PATH",
                 "ROCSOLVER_LOG_PROFILE_PATH"):
        monkeypatch.delenv(name, raising=False)
    log = tmp_path / "rocsolver.log"
    monkeypatch.setenv("ROCSOLVER_LOG_PATH", str(log))
    info = rm.empty(1, np.int32)
    for _ in range(3):
        solver.sgetrf(handle, 0, 0, None, 1, None, info)
    assert len(binds) == 2
    aux.log_begin()
    aux.log_set_layer_mode(1)
    solver.sgetrf(handle, 0, 0, None, 1, None, info)
    aux.log_end()
    from rocmath.log import close_logs

    close_logs()
    assert log.read_text().splitlines()[-1].startswith("rocsolver_sgetrf,0,0,")


def test_a_replay_checks_the_device_data_a_first_call_checks(handle: Any, binds: list[str]) -> None:
    # Pivots read from the device are checked when the work runs: a replayed call faults as a first one.
    a = _stack(5) + 8 * np.eye(N)
    da = rm.to_device(a.transpose(0, 2, 1).copy())
    ipiv, info = rm.empty((COUNT, N), np.int64), rm.empty(COUNT, np.int64)
    solver.dgetrf_strided_batched_64(handle, N, N, da, N, N * N, ipiv, N, info, COUNT)
    b = rm.to_device(np.ones((COUNT, N, 1)))
    for _ in range(3):
        solver.dgetrs_strided_batched_64(handle, "N", N, 1, da, N, N * N, ipiv, N, b, N, N, COUNT)
    rm.device_synchronize()
    assert binds.count("dgetrs_strided_batched_64") == 2
    pivots = ipiv.get()
    pivots[1, 2] = 0
    ipiv.set(pivots)
    with pytest.raises(errors.MemoryAccessFault, match="pivot 3 is 0"):
        solver.dgetrs_strided_batched_64(handle, "N", N, 1, da, N, N * N, ipiv, N, b, N, N, COUNT)
        rm.device_synchronize()
    assert binds.count("dgetrs_strided_batched_64") == 2  # (the replay faulted)
