"""hip-python-as-cuda's ``cuda.cuda``/``cuda.cudart`` aliases (:mod:`rocmath.hip.cuda`), and CUDA Python
programs through the runner."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from hip_util import run_in_process, run_through_runner

from rocmath.hip import _shim, hip
from rocmath.hip import cuda as cu

PROGRAM = '''
import ctypes
import numpy as np
from cuda import cuda, cudart
from cuda.bindings import runtime
from hip import hipblas


def check(call_result):
    err, *result = call_result
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError(cudart.cudaGetErrorString(err)[1])
    return result[0] if len(result) == 1 else tuple(result)


assert cudart.HIP_PYTHON and runtime.cudaMalloc is cudart.cudaMalloc
check(cuda.cuInit(0))
assert check(cudart.cudaGetDeviceCount()) >= 1
props = check(cudart.cudaGetDeviceProperties(0))
assert props.multiProcessorCount == check(cudart.cudaDeviceGetAttribute(
    cudart.cudaDeviceAttr.cudaDevAttrMultiProcessorCount, 0))

n = 256
x_h = np.arange(n, dtype=np.float32)
y_h = np.ones(n, dtype=np.float32)
x_d = check(cudart.cudaMalloc(x_h.nbytes))
y_d = check(cuda.cuMemAlloc(y_h.nbytes))
stream = check(cudart.cudaStreamCreate())
check(cudart.cudaMemcpyAsync(x_d, x_h, x_h.nbytes, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice, stream))
check(cuda.cuMemcpyHtoDAsync(y_d, y_h, y_h.nbytes, stream))
check(cudart.cudaStreamSynchronize(stream))

handle = check(hipblas.hipblasCreate())
check(hipblas.hipblasSetStream(handle, stream))
alpha = ctypes.c_float(3)
check(hipblas.hipblasSaxpy(handle, n, ctypes.addressof(alpha), x_d, 1, y_d, 1))
check(hipblas.hipblasDestroy(handle))

out = np.empty_like(y_h)
start, stop = check(cudart.cudaEventCreate()), check(cudart.cudaEventCreate())
check(cudart.cudaEventRecord(start, stream))
check(cudart.cudaMemcpyAsync(out, y_d, out.nbytes, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream))
check(cudart.cudaEventRecord(stop, stream))
check(cudart.cudaEventSynchronize(stop))
assert check(cudart.cudaEventElapsedTime(start, stop)) >= 0
assert np.array_equal(out, 3 * x_h + 1)

check(cudart.cudaMemset(x_d, 0, x_h.nbytes))
check(cudart.cudaMemcpy(x_h, x_d, x_h.nbytes, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost))
assert not x_h.any()
err, = cudart.cudaFree(0x1234)
assert err == cudart.cudaError_t.cudaErrorInvalidDevicePointer, err
assert cudart.cudaGetLastError()[0] == cudart.cudaError_t.cudaErrorInvalidDevicePointer
for obj in (stream,):
    check(cudart.cudaStreamDestroy(obj))
check(cudart.cudaFree(x_d))
check(cuda.cuMemFree(y_d))
try:
    from cuda import nvrtc  # noqa: F401
except ImportError as exc:
    assert "rocmath.hip" in str(exc)
else:
    raise AssertionError("nvrtc is not provided")
print("ok")
'''


def test_functions_and_constants_alias_the_hip_objects():
    assert cu.cudaMalloc is hip.hipMalloc and cu.cudaMemcpyAsync is hip.hipMemcpyAsync
    assert cu.cuMemAlloc_v2 is hip.hipMalloc and cu.cuStreamCreate is hip.hipStreamCreateWithFlags
    assert cu.cudaMallocHost is hip.hipHostMalloc and cu.cudaFreeHost is hip.hipHostFree
    assert cu.cudaStreamNonBlocking == hip.hipStreamNonBlocking == cu.CU_STREAM_NON_BLOCKING
    assert cu.cudaStream_t is hip.ihipStream_t and issubclass(cu.cudaDeviceProp, hip.hipDeviceProp_t)
    assert cu.hip is hip and cu.HIP_PYTHON
    # HIP-only names get no CUDA spelling
    assert not hasattr(cu, "cudaHostMalloc") and not hasattr(cu, "cudaExtMallocWithFlags")


def test_every_table_target_exists():
    for hip_name in cu.RENAMED:
        assert hasattr(hip, hip_name), hip_name
    members = {n for e in (hip.hipError_t, hip.hipDeviceAttribute_t) for n in e.__members__}
    assert set(cu.RENAMED_MEMBERS) <= members


def test_enums_derive_from_the_hip_bases():
    for cls in (cu.cudaError_t, cu.CUresult, cu.cudaError):
        assert issubclass(cls, hip.hipError_t.__mro__[1]) and not issubclass(cls, hip.hipError_t)
        assert cls.cudaSuccess == cls.CUDA_SUCCESS == hip.hipError_t.hipSuccess
    e = cu.cudaError_t
    assert e.cudaErrorMemoryAllocation.name == "hipErrorOutOfMemory"  # the HIP name comes first
    assert e.CUDA_ERROR_INVALID_VALUE == e.cudaErrorInvalidValue == 1
    assert e.cudaErrorInvalidKernelImage == hip.hipError_t.hipErrorInvalidImage
    assert hip.hipError_t.hipErrorLaunchFailure == e.CUDA_ERROR_LAUNCH_FAILED
    attr = cu.cudaDeviceAttr
    assert attr.cudaDevAttrMaxThreadsPerBlock == attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    assert hip.hipDeviceAttribute_t.hipDeviceAttributeMaxTexture2DWidth == attr.CU_DEVICE_ATTRIBUTE_MAX_TEXTURE2D_WIDTH
    assert cu.cudaDataType.CUDA_C_64F == hip.hipDataType.HIP_C_64F
    # HIP's enum-typed parameters accept the CUDA members, and still refuse plain ints
    assert hip.hipGetErrorString(e.cudaErrorInvalidValue)[1] == "invalid argument"
    assert hip.hipDeviceGetAttribute(attr.cudaDevAttrWarpSize, 0)[1] > 0
    with pytest.raises(TypeError):
        hip.hipMemcpy(bytearray(4), bytearray(4), 4, 1)


def test_hallucination_is_off_by_default_and_switchable(monkeypatch):
    with pytest.raises(AttributeError):
        cu.cudaError_t.cudaErrorStartupFailure  # noqa: B018
    monkeypatch.setattr(cu, "HIP_PYTHON_cudaError_t_HALLUCINATE", True)
    made = cu.cudaError_t.cudaErrorStartupFailure
    other = cu.cudaError_t.cudaErrorTimeout
    assert isinstance(made, cu.cudaError_t) and made is cu.cudaError_t.cudaErrorStartupFailure
    assert made != cu.cudaError_t.cudaSuccess and made != other and made.value != other.value
    assert made.value not in {int(m) for m in cu.cudaError_t}
    with pytest.raises(AttributeError):
        cu.CUresult.CUDA_ERROR_TIMEOUT  # noqa: B018  (each enum has its own switch)


def test_cuda_program_in_process(tmp_path):
    assert run_in_process(tmp_path, PROGRAM, name="cuda_prog.py").strip().endswith("ok")


def test_cuda_is_not_served_outside_the_runner():
    assert _shim._finder not in sys.meta_path
    spec = importlib.util.find_spec("cuda")
    assert spec is None or not isinstance(spec.loader, (_shim._Loader, _shim._Missing))


def test_cuda_program_through_the_runner(tmp_path):
    done = run_through_runner(tmp_path, PROGRAM)
    assert done.stdout.strip() == "ok", done.stderr
