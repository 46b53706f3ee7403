"""Helpers shared by the hip-python-style tests: status checking, host<->device copies, and running
unmodified hip-python programs (in process through the import shim, or through ``python -m rocmath.hip``)."""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rocmath
from rocmath import mempool
from rocmath.hip import _shim, hip, last_exception
from rocmath.memory import address_space

K = hip.hipMemcpyKind

#: Each binding's status enum and its success member, as hip-python's examples test them.
STATUSES = {
    "hip": ("hipError_t", "hipSuccess"),
    "hipblas": ("hipblasStatus_t", "HIPBLAS_STATUS_SUCCESS"),
    "hipfft": ("hipfftResult", "HIPFFT_SUCCESS"),
    "hipsparse": ("hipsparseStatus_t", "HIPSPARSE_STATUS_SUCCESS"),
    "hipsolver": ("hipsolverStatus_t", "HIPSOLVER_STATUS_SUCCESS"),
}


def check(result: tuple[Any, ...]) -> Any:
    """Raise on a failed status (any library's), naming the exception behind it; return the outputs (one
    unwrapped)."""
    err, rest = result[0], result[1:]
    if err != 0:
        raise RuntimeError(f"{err.name}: {last_exception()}")
    return rest[0] if len(rest) == 1 else rest


@pytest.fixture
def hip_clean_state() -> Iterator[None]:
    """No allocation, memory-pool block, host registration or last error outlives a test (a module makes
    it autouse with ``pytestmark = pytest.mark.usefixtures("hip_clean_state")``)."""
    live = address_space.live_count
    yield
    rocmath.device_synchronize()
    for pool in mempool._live_pools(None):
        pool.trim_to(0)
    hip.hipGetLastError()
    assert not hip._registered, "host memory left registered"
    assert address_space.live_count <= live, "device memory left allocated"


class DeviceMemory:
    """HIP allocations of each kind, freed (in reverse order, after a device synchronize) by
    :meth:`release`: what the ``mem`` fixture (conftest) hands a test."""

    def __init__(self) -> None:
        self.made: list[tuple[Any, Any]] = []

    def device(self, nbytes: int, fill: int | None = None) -> Any:
        """hipMalloc'd bytes, set to ``fill`` when given."""
        p = check(hip.hipMalloc(nbytes))
        self.made.append((hip.hipFree, p))
        if fill is not None:
            check(hip.hipMemset(p, fill, nbytes))
        return p

    def pitched(self, width: int, height: int) -> tuple[Any, int]:
        p, pitch = check(hip.hipMallocPitch(width, height))
        self.made.append((hip.hipFree, p))
        return p, pitch

    def pinned(self, nbytes: int, flags: int = hip.hipHostMallocDefault) -> Any:
        p = check(hip.hipHostMalloc(nbytes, flags))
        self.made.append((hip.hipHostFree, p))
        return p

    def managed(self, nbytes: int) -> Any:
        p = check(hip.hipMallocManaged(nbytes, hip.hipMemAttachGlobal))
        self.made.append((hip.hipFree, p))
        return p

    def release(self) -> None:
        rocmath.device_synchronize()
        for free, p in reversed(self.made):
            check(free(p))
        self.made.clear()


def to_device(a: np.ndarray) -> Any:
    """A hipMalloc'd copy of a host array."""
    d = check(hip.hipMalloc(a.nbytes))
    check(hip.hipMemcpy(d, a, a.nbytes, K.hipMemcpyHostToDevice))
    return d


def to_host(d: Any, like: np.ndarray) -> np.ndarray:
    """Device memory copied into a new array shaped and typed like ``like``."""
    out = np.empty_like(like)
    check(hip.hipMemcpy(out, d, out.nbytes, K.hipMemcpyDeviceToHost))
    return out


def free(*ptrs: Any) -> None:
    """hipFree each pointer (a failure raises)."""
    for d in ptrs:
        check(hip.hipFree(d))


def hip_check_source(*libs: str) -> str:
    """The source of the ``hip_check`` helper hip-python's examples define, for a program that imports
    ``hip`` and the bindings ``libs`` (each status enum tested against its success member)."""
    lines = ["def hip_check(call_result):", "    err, result = call_result[0], call_result[1:]",
             "    if len(result) == 1:", "        result = result[0]"]
    for lib in ("hip", *libs):
        enum, success = STATUSES[lib]
        lines += [f"    if isinstance(err, {lib}.{enum}) and err != {lib}.{enum}.{success}:",
                  "        raise RuntimeError(str(err))"]
    return "\n".join([*lines, "    return result", ""])


def _script(tmp_path: Path, source: str, name: str) -> Path:
    script = tmp_path / name
    script.write_text(textwrap.dedent(source))
    return script


def run_through_runner(tmp_path: Path, source: str, *args: str, name: str = "prog.py", first_on_path: str = "",
                       timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``source`` unmodified as ``python -m rocmath.hip SCRIPT ARGS`` in a fresh interpreter (with
    ``first_on_path`` ahead of this interpreter's ``sys.path``: where a real hip-python would be)."""
    script = _script(tmp_path, source, name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (first_on_path, *sys.path) if p)}
    return subprocess.run([sys.executable, "-m", "rocmath.hip", str(script), *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=timeout)


def assert_runs_ok(tmp_path: Path, source: str, *args: str, name: str = "prog.py") -> None:
    """The program runs through the runner, exits 0 and prints ``ok`` (its stderr is the failure message)."""
    done = run_through_runner(tmp_path, source, *args, name=name)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def run_in_process(tmp_path: Path, source: str, *args: str, name: str = "prog.py") -> str:
    """Run ``source`` as ``__main__`` in this interpreter with the import shim installed (as the runner
    does, without a new process); returns what it printed."""
    script = _script(tmp_path, source, name)
    argv, out = sys.argv, io.StringIO()
    _shim.install()
    sys.argv = [str(script), *args]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
        _shim.uninstall()
    return out.getvalue()
