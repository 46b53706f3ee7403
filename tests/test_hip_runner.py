"""``python -m rocmath.hip``: unmodified hip-python programs, through the import shim."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest
from hip_util import hip_check_source, run_in_process, run_through_runner

from rocmath.hip import _shim

HELPER = hip_check_source("hipblas")

PROGRAMS = {
    "saxpy": '''
import ctypes
import numpy as np
from hip import hip, hipblas
''' + HELPER + '''
n = 100
alpha = ctypes.c_float(2)
x_h = np.random.rand(n).astype(np.float32)
y_h = np.random.rand(n).astype(np.float32)
expected = 2 * x_h + y_h
x_d = hip_check(hip.hipMalloc(n * 4))
y_d = hip_check(hip.hipMalloc(n * 4))
hip_check(hip.hipMemcpy(x_d, x_h, x_d.size, hip.hipMemcpyKind.hipMemcpyHostToDevice))
hip_check(hip.hipMemcpy(y_d, y_h, y_d.size, hip.hipMemcpyKind.hipMemcpyHostToDevice))
handle = hip_check(hipblas.hipblasCreate())
hip_check(hipblas.hipblasSaxpy(handle, n, ctypes.addressof(alpha), x_d, 1, y_d, 1))
hip_check(hipblas.hipblasDestroy(handle))
hip_check(hip.hipMemcpy(y_h, y_d, y_d.size, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert np.allclose(expected, y_h)
hip_check(hip.hipFree(x_d)); hip_check(hip.hipFree(y_d))
print("ok")
''',
    "sgemm_rocm_bindings": '''
import ctypes
import numpy as np
from rocm.bindings import hip, hipblas
from rocm.version import ROCM_VERSION_TUPLE
''' + HELPER + '''
assert len(ROCM_VERSION_TUPLE) == 3
m, n, k = 6, 5, 4
A = np.asfortranarray(np.random.rand(m, k).astype(np.float32))
B = np.asfortranarray(np.random.rand(k, n).astype(np.float32))
C = np.zeros((m, n), np.float32, order="F")
d = [hip_check(hip.hipMalloc(a.nbytes)) for a in (A, B, C)]
stream = hip_check(hip.hipStreamCreate())
start, stop = hip_check(hip.hipEventCreate()), hip_check(hip.hipEventCreate())
hip_check(hip.hipEventRecord(start, stream))
for dev, host in zip(d, (A, B)):
    hip_check(hip.hipMemcpyAsync(dev, host, host.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice, stream))
h = hip_check(hipblas.hipblasCreate())
hip_check(hipblas.hipblasSetStream(h, stream))
one, zero = ctypes.c_float(1), ctypes.c_float(0)
N = hipblas.hipblasOperation_t.HIPBLAS_OP_N
hip_check(hipblas.hipblasSgemm(h, N, N, m, n, k, ctypes.addressof(one), d[0], m, d[1], k, ctypes.addressof(zero),
                               d[2], m))
hip_check(hip.hipMemcpyAsync(C, d[2], C.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost, stream))
hip_check(hip.hipEventRecord(stop, stream))
hip_check(hip.hipEventSynchronize(stop))
assert hip_check(hip.hipEventElapsedTime(start, stop)) >= 0
assert np.allclose(C, A @ B, rtol=1e-5)
_, props = hip.hipGetDeviceProperties(0)
assert props.gcnArchName.decode().startswith("gfx")
hip_check(hipblas.hipblasDestroy(h)); hip_check(hip.hipStreamDestroy(stream))
for ptr in d:
    hip_check(hip.hipFree(ptr))
print("ok")
''',
    "subarray_scal": '''
import ctypes
import sys
import numpy as np
import hip as hip_pkg
from hip import hip, hipblas
from hip._util.types import DeviceArray
''' + HELPER + '''
assert hip_pkg.hipblas is hipblas and sys.argv[1:] == ["--rows", "3"]
shape = (3, 20)
x_h = np.ones(shape, dtype="float32")
x_d = hip_check(hip.hipMalloc(x_h.nbytes)).configure(typestr="float32", shape=shape)
assert isinstance(x_d, DeviceArray)
hip_check(hip.hipMemcpy(x_d, x_h, x_h.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
handle = hip_check(hipblas.hipblasCreate())
for r in range(shape[0]):
    row = x_d[r, :]
    alpha = ctypes.c_float(r)
    hip_check(hipblas.hipblasSscal(handle, row.size, ctypes.addressof(alpha), row, 1))
    hip_check(hip.hipDeviceSynchronize())
hip_check(hipblas.hipblasDestroy(handle))
hip_check(hip.hipMemcpy(x_h, x_d, x_h.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert (x_h == np.arange(3)[:, None]).all()
hip_check(hip.hipFree(x_d))
try:
    from hip import hiprand  # noqa: F401
except ImportError as exc:
    assert "rocmath.hip" in str(exc)
else:
    raise AssertionError("hiprand is not provided")
print("ok")
''',
    "rccl_allreduce_roctx": '''
import numpy as np
import hip as hip_pkg
from hip import hip, rccl, roctx
from rocm.bindings import rccl as rccl_new, roctx as roctx_new
''' + hip_check_source() + '''
def nccl_check(result):
    if result[0] != rccl.ncclResult_t.ncclSuccess:
        raise RuntimeError(rccl.ncclGetErrorString(result[0])[0])
    return result[1] if len(result) == 2 else result[1:]
assert hip_pkg.rccl is rccl is rccl_new and hip_pkg.roctx is roctx is roctx_new
assert roctx.roctxRangePushA("allreduce") == (0,)
ndev = hip_check(hip.hipGetDeviceCount())
handles = np.zeros(ndev, dtype=np.uint64)
nccl_check(rccl.ncclCommInitAll(handles, ndev, None))
comms = [rccl.ncclComm.fromObj(int(h)) for h in handles]
bufs = []
for d in range(ndev):
    hip_check(hip.hipSetDevice(d))
    x = np.full(4, d + 1, dtype=np.float32)
    bufs.append(hip_check(hip.hipMalloc(x.nbytes)))
    hip_check(hip.hipMemcpy(bufs[d], x, x.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
nccl_check(rccl.ncclGroupStart())
for d in range(ndev):
    nccl_check(rccl.ncclAllReduce(bufs[d], bufs[d], 4, rccl.ncclDataType_t.ncclFloat32, rccl.ncclRedOp_t.ncclSum,
                                  comms[d], None))
nccl_check(rccl.ncclGroupEnd())
for d in range(ndev):
    hip_check(hip.hipSetDevice(d))
    hip_check(hip.hipDeviceSynchronize())
    out = np.zeros(4, dtype=np.float32)
    hip_check(hip.hipMemcpy(out, bufs[d], out.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
    assert (out == ndev * (ndev + 1) / 2).all()
    hip_check(hip.hipFree(bufs[d]))
    nccl_check(rccl.ncclCommDestroy(comms[d]))
assert roctx.roctxRangePop() == (0,)
print("ok")
''',
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_run_in_process_through_the_shim(tmp_path, name):
    assert run_in_process(tmp_path, PROGRAMS[name], "--rows", "3", name=f"{name}.py").strip().endswith("ok")


def test_shim_is_not_installed_outside_the_runner():
    assert _shim._finder not in sys.meta_path
    assert "hip" not in sys.modules or getattr(sys.modules["hip"], "__spec__", None) is None or not isinstance(
        sys.modules["hip"].__spec__.loader, _shim._Loader)


def _fake_hip_python(root):
    """A stand-in for a real hip-python install: a ``hip`` package with its own ``hipblas``."""
    package = root / "hip"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("REAL = True\n")
    (package / "hipblas.py").write_text("REAL = True\n")
    return root


def test_runner_subprocess(tmp_path):
    # A real hip-python on the path loses to the runner: the program gets rocmath's modules.
    real = _fake_hip_python(tmp_path / "site")
    done = run_through_runner(tmp_path, PROGRAMS["subarray_scal"] + "\nimport sys; sys.exit(3)\n", "--rows", "3",
                              first_on_path=str(real))
    assert done.stdout.strip() == "ok", done.stderr
    assert done.returncode == 3  # the program's exit status passes through
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    usage = subprocess.run([sys.executable, "-m", "rocmath.hip"], capture_output=True, text=True, env=env,
                           timeout=300)
    assert usage.returncode == 2 and "usage" in usage.stdout


def test_a_real_hip_python_is_not_shadowed_outside_the_runner(tmp_path, monkeypatch):
    real = _fake_hip_python(tmp_path / "site")
    monkeypatch.syspath_prepend(str(real))
    for name in ("hip", "hip.hipblas"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    from rocmath.hip import hipblas  # noqa: F401  (importing rocmath.hip installs nothing)

    assert importlib.import_module("hip.hipblas").REAL
    for name in ("hip", "hip.hipblas"):
        del sys.modules[name]
    program = "from hip import hipblas\nimport hip\nassert not hasattr(hip, 'REAL')\nprint('ok')\n"
    assert run_in_process(tmp_path, program).strip() == "ok"  # the shim wins while it is installed...
    assert importlib.import_module("hip").REAL and importlib.import_module("hip.hipblas").REAL  # ...and only then


def test_multi_gpu_program_through_the_runner(tmp_path, monkeypatch):
    # An unmodified RCCL program over two simulated devices (the device count comes from the environment).
    monkeypatch.setenv("ROCMATH_DEVICE_COUNT", "2")
    done = run_through_runner(tmp_path, PROGRAMS["rccl_allreduce_roctx"])
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
