"""rocSPARSE's debug switches (rocsparse_debug.cpp's couplings and their effects here), its status strings,
and the deprecated spmv_ex."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs
from rocmath.errors import MemoryAccessFault
from rocmath.memory import checking

_SWITCHES = ("", "_arguments", "_arguments_verbose", "_verbose", "_kernel_launch", "_force_host_assert")


def _states() -> dict[str, int]:
    return {s: getattr(rs, f"state_debug{s}")() for s in _SWITCHES}


@pytest.fixture
def switches_off() -> Any:
    """Every switch off for the test, and restored after (the states are the process's)."""
    before = _states()
    for s in _SWITCHES:
        getattr(rs, f"disable_debug{s}")()
    yield
    for s, on in before.items():
        getattr(rs, f"{'enable' if on else 'disable'}_debug{s}")()


def test_couplings_are_rocsparse_debug_cpp(switches_off: Any) -> None:
    assert set(_states().values()) == {0}
    rs.enable_debug()  # debug, and the argument reports with their verbose form
    assert _states() == {"": 1, "_arguments": 1, "_arguments_verbose": 1, "_verbose": 0, "_kernel_launch": 0,
                         "_force_host_assert": 0}
    rs.disable_debug()
    assert set(_states().values()) == {0}
    rs.enable_debug_verbose()  # verbose brings the arguments' verbose form, not the argument reports
    assert (_states()["_verbose"], _states()["_arguments_verbose"], _states()["_arguments"]) == (1, 1, 0)
    rs.disable_debug_arguments()  # ... which their disable takes away again
    assert _states()["_arguments_verbose"] == 0 and _states()["_verbose"] == 1
    rs.enable_debug_kernel_launch()
    rs.enable_debug_force_host_assert()
    assert (_states()["_kernel_launch"], _states()["_force_host_assert"]) == (1, 1)


@pytest.mark.parametrize(("env", "want"), [
    ({"ROCSPARSE_DEBUG": "1"}, {"": 1, "_arguments": 1, "_arguments_verbose": 1, "_verbose": 1,
                                "_kernel_launch": 0, "_force_host_assert": 1}),
    ({"ROCSPARSE_DEBUG": "1", "ROCSPARSE_DEBUG_VERBOSE": "0", "ROCSPARSE_DEBUG_ARGUMENTS": "0"},
     {"": 1, "_arguments": 0, "_arguments_verbose": 0, "_verbose": 0, "_kernel_launch": 0, "_force_host_assert": 1}),
    ({"ROCSPARSE_DEBUG_ARGUMENTS": "1", "ROCSPARSE_DEBUG_KERNEL_LAUNCH": "1"},
     {"": 0, "_arguments": 1, "_arguments_verbose": 1, "_verbose": 0, "_kernel_launch": 1, "_force_host_assert": 0}),
])
def test_initial_states_come_from_the_environment(env: dict[str, str], want: dict[str, int]) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ROCSPARSE_DEBUG")}
    code = ("import rocmath.sparse as rs; print(','.join(str(getattr(rs, 'state_debug' + s)()) for s in "
            f"{_SWITCHES!r}))")
    out = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert dict(zip(_SWITCHES, map(int, out.split(",")), strict=True)) == want


def test_argument_reports_and_traces_on_stderr(switches_off: Any, capsys: Any) -> None:
    h = rs.create_handle()
    ptr = rm.to_device(np.array([0, 1, 2], np.int32))
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.csr2coo(h, ptr, 2, -1, rm.empty(2, np.int32), 0)
    assert capsys.readouterr().err == ""  # off: nothing written
    rs.enable_debug_arguments()
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.csr2coo(h, ptr, 2, -1, rm.empty(2, np.int32), 0)
    err = capsys.readouterr().err
    assert err.startswith("rocsparse_csr2coo: argument 'm' (#4): rocsparse_status_invalid_size:")
    assert "Traceback" not in err
    rs.enable_debug_verbose()
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.csr2coo(h, ptr, 2, -1, rm.empty(2, np.int32), 0)
    err = capsys.readouterr().err
    assert "rocsparse_csr2coo returned rocsparse_status_invalid_size:" in err and "Traceback" in err
    rs.destroy_handle(h)


def test_kernel_launch_debug_raises_a_kernel_fault_at_its_call(switches_off: Any) -> None:
    """Checking mode finds a column past the matrix when the kernel task runs: with the kernel-launch switch the
    call that launched it raises it (rocSPARSE checks HIP errors around each launch), not a later sync."""
    h = rs.create_handle()
    s = rm.Stream()
    rs.set_stream(h, s)
    A = sp.random(5, 5, density=0.5, format="csr", random_state=1)
    cols = A.indices.astype(np.int32).copy()
    cols[0] = 9  # outside the 5 columns
    args = (rm.to_device(A.indptr.astype(np.int32)), rm.to_device(cols), rm.to_device(A.data))
    x, y = rm.to_device(np.ones(5)), rm.to_device(np.zeros(5))
    descr = rs.create_mat_descr()
    call = (h, rs.Operation.none, 5, 5, A.nnz, 1.0, descr, args[2], args[0], args[1], None, x, 0.0, y)
    with checking(True):
        rs.dcsrmv(*call)  # switch off: the call returns, the stream's next synchronization raises
        with pytest.raises(MemoryAccessFault):
            s.synchronize()
        rs.enable_debug_kernel_launch()
        with pytest.raises(MemoryAccessFault):
            rs.dcsrmv(*call)
    assert (y.get() == 0).all()  # the scan came first: nothing was written
    rs.destroy_mat_descr(descr)
    rs.destroy_handle(h)


def test_status_names_and_descriptions() -> None:
    assert rs.get_status_name(rs.Status.success) == "rocsparse_status_success"
    assert rs.get_status_name(14) == "rocsparse_status_continue"
    assert rs.get_status_name(99) == rs.get_status_description(-1) == "Unrecognized status code"
    descriptions = {rs.get_status_description(s) for s in rs.Status}
    assert len(descriptions) == len(rs.Status) and all(descriptions)


def test_spmv_ex_is_spmv() -> None:
    h = rs.create_handle()
    A = sp.random(7, 6, density=0.4, format="csr", random_state=3)
    arrays = [rm.to_device(a) for a in (A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data)]
    mat = rs.create_csr_descr(7, 6, A.nnz, *arrays, rs.IndexType.i32, rs.IndexType.i32, rs.IndexBase.zero,
                              rs.Datatype.f64_r)
    xh = np.arange(6.0)
    out = []
    for fn in (rs.spmv, rs.spmv_ex):
        x = rs.create_dnvec_descr(6, rm.to_device(xh), rs.Datatype.f64_r)
        yd = rm.to_device(np.full(7, 2.0))
        y = rs.create_dnvec_descr(7, yd, rs.Datatype.f64_r)
        args = (h, rs.Operation.none, 1.5, mat, x, 0.5, y, rs.Datatype.f64_r, rs.SpMVAlg.csr_stream)
        size = fn(*args, rs.SpMVStage.buffer_size)
        fn(*args, rs.SpMVStage.compute, size, rm.empty(max(size, 1), np.uint8))
        out.append(yd.get())
    np.testing.assert_array_equal(out[0], out[1])
    np.testing.assert_allclose(out[1], 1.5 * (A @ xh) + 1.0)
    rs.destroy_handle(h)
