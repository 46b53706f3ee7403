"""hip-python-as-cuda's ``cuda.cuda``/``cuda.cudart`` aliases (:mod:`rocmath.hip.cuda`), and CUDA Python
programs through the runner."""

from __future__ import annotations

import base64
import ctypes
import importlib.util
import os
import re
import sys
import zlib
from collections import defaultdict
from pathlib import Path

import pytest
from hip_util import check, run_in_process, run_through_runner

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
assert err == cudart.cudaError_t.cudaErrorInvalidValue, err
assert cudart.cudaGetLastError()[0] == cudart.cudaError_t.cudaErrorInvalidValue
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
    for hip_name in (*cu.RENAMED, *cu.HIP_ONLY):
        assert hasattr(hip, hip_name), hip_name
    members = {n for e in cu._ENUM_RULES for n in getattr(hip, e).__members__}
    assert set(cu.RENAMED_MEMBERS) | cu.HIP_ONLY_MEMBERS <= members
    assert not set(cu.RENAMED_MEMBERS) & cu.HIP_ONLY_MEMBERS


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
    assert hip.hipDeviceAttribute_t.hipDeviceAttributeMaxTexture2DWidth == \
        attr.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH == attr.cudaDevAttrMaxTexture2DWidth
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


# hip-python's typedefs (hip.pyx) that rocmath.hip.hip leaves out, for the CUDA names aliasing them.
_TYPEDEFS = {"hipStream_t": "ihipStream_t", "hipEvent_t": "ihipEvent_t"}


def _reference_text(pyx: str) -> str:
    """hip-python-as-cuda's names, read from its generated ``cudart.pyx``, one HIP object a line: ``hipX=a b``
    (``a = hip.hipX``), ``hipX<a b`` (``cdef class a(hip.hip.hipX)``), ``hipE:A B`` (enum classes ``A``, ``B`` over
    ``hipE``) followed by `` hipM s t`` lines (member ``hipM`` and its CUDA spellings ``s``, ``t``)."""
    aliases: defaultdict[str, list[str]] = defaultdict(list)
    subclasses: defaultdict[str, list[str]] = defaultdict(list)
    enums: dict[str, tuple[list[str], dict[str, list[str]]]] = {}
    members: dict[str, list[str]] | None = None
    for line in pyx.splitlines():
        if m := re.fullmatch(r"(\w+) = hip\.(\w+)", line):
            if m[1] != "hip":
                aliases[m[2]].append(m[1])
        elif m := re.fullmatch(r"cdef class (\w+)\(hip\.hip\.(\w+)\):", line):
            subclasses[m[2]].append(m[1])
        elif m := re.fullmatch(r"class (\w+)\(hip\._(\w+)__Base,metaclass=_\w+_EnumMeta\):", line):
            classes, members = enums.setdefault(m[2], ([], {}))
            classes.append(m[1])
            continue
        elif members is not None and (m := re.fullmatch(r" {4}(\w+) = hip\.chip\.(\w+)", line)):
            spellings = members.setdefault(m[2], [])
            if m[1] != m[2] and m[1] not in spellings:
                spellings.append(m[1])
            continue
        if not line.startswith(" "):
            members = None
    lines = [f"{h}={' '.join(names)}" for h, names in aliases.items()]
    lines += [f"{h}<{' '.join(names)}" for h, names in subclasses.items()]
    for h, (classes, spellings) in enums.items():
        lines.append(f"{h}:{' '.join(classes)}")
        lines += [f" {m} {' '.join(s)}".rstrip() for m, s in spellings.items()]
    return "\n".join(lines)


def _reference() -> tuple[dict[str, tuple[str, str]], dict[str, dict[str, str]]]:
    """hip-python-as-cuda's names -> (kind, HIP name), kind ``=`` (alias), ``<`` (subclass) or ``:`` (enum class);
    and each HIP enum's CUDA member spellings -> HIP member."""
    names: dict[str, tuple[str, str]] = {}
    spellings: defaultdict[str, dict[str, str]] = defaultdict(dict)
    hip_enum = ""
    for line in zlib.decompress(base64.b64decode("".join(_HIP_PYTHON_AS_CUDA.split()))).decode().splitlines():
        if line.startswith(" "):
            member, *cuda_names = line.split()
            spellings[hip_enum].update(dict.fromkeys(cuda_names, member))
            continue
        hip_name, kind, cuda_names = re.fullmatch(r"(\w+)([=<:])(.*)", line).groups()  # type: ignore[union-attr]
        names.update(dict.fromkeys(cuda_names.split(), (kind, hip_name)))
        hip_enum = hip_name
    return names, spellings


def _hip_object(name: str) -> object:
    """What a HIP name of hip-python stands for in rocmath.hip.hip; None if nothing."""
    if hasattr(hip, name):
        return getattr(hip, name)
    return getattr(hip, _TYPEDEFS[name]) if name in _TYPEDEFS else None


@pytest.mark.skipif("HIP_PYTHON_AS_CUDA_PYX" not in os.environ,
                    reason="set HIP_PYTHON_AS_CUDA_PYX to hip-python-as-cuda 6.2's cudart.pyx to check the reference")
def test_reference_is_hip_python_as_cudas():
    text = zlib.decompress(base64.b64decode("".join(_HIP_PYTHON_AS_CUDA.split()))).decode()
    assert _reference_text(Path(os.environ["HIP_PYTHON_AS_CUDA_PYX"]).read_text()) == text


def test_names_are_hip_python_as_cudas_for_the_hip_objects_there_are():
    names, spellings = _reference()
    expected = {cuda_name: (kind, hip_name) for cuda_name, (kind, hip_name) in names.items()
                if _hip_object(hip_name) is not None}
    provided = set(cu.__all__) - {"HIP_PYTHON", "hip", "hip_python_mod"}
    flags = {n for n in provided if re.fullmatch(r"HIP_PYTHON_\w+_HALLUCINATE", n)}
    assert provided - flags == set(expected)
    assert flags == {f"HIP_PYTHON_{name}_HALLUCINATE" for name, (kind, _) in expected.items() if kind == ":"}
    for cuda_name, (kind, hip_name) in expected.items():
        obj, target = getattr(cu, cuda_name), _hip_object(hip_name)
        if kind == "=":
            assert obj is target, cuda_name
        elif kind == "<":
            assert obj.__bases__ == (target,) and obj.__name__ == cuda_name, cuda_name
        else:
            assert obj.__bases__ == (target.__mro__[1],), cuda_name  # type: ignore[attr-defined]
            members = target.__members__  # type: ignore[attr-defined]
            spelled = {**{m: m for m in members}, **{s: m for s, m in spellings[hip_name].items() if m in members}}
            assert {n: int(v) for n, v in obj.__members__.items()} == {n: int(members[m]) for n, m in spelled.items()}


def test_hip_only_names_get_no_cuda_spelling():
    renamed = {c for cuda_names in cu.RENAMED.values() for c in cuda_names}
    for hip_name in cu.HIP_ONLY:
        assert "cuda" + hip_name[3:] in renamed or not hasattr(cu, "cuda" + hip_name[3:]), hip_name
    for name in ("cudaCtxCreate", "cudaDevicePrimaryCtxRetain", "cudaDrvMemcpy3D", "cudaMemcpyParam2D",
                 "cudaStreamWriteValue32", "cudaPointerGetAttribute", "cudaMemAllocHost", "cudaUUID", "cudaCtx_t",
                 "cudaDeviceAttribute_t", "cudaMemRangeCoherencyMode", "dim3"):
        assert not hasattr(cu, name), name
    assert hasattr(hip, "hipMemcpy_spt") and not [n for n in cu.__all__ if n.endswith("_spt")]
    for cls, member in ((cu.cudaError_t, "cudaErrorOutOfMemory"), (cu.CUresult, "CUDA_ERROR_MEMORY_ALLOCATION"),
                        (cu.cudaDeviceAttr, "cudaDevAttrLuid"),
                        (cu.CUdevice_attribute, "CU_DEVICE_ATTRIBUTE_MAX_TEXTURE2D_WIDTH"),
                        (cu.cudaDataType, "CUDA_R_64I"), (cu.cudaMemcpyKind, "cudaMemcpyDeviceToDeviceNoCU"),
                        (cu.cudaMemoryType, "cudaMemoryTypeUnregistered"), (cu.CUmemorytype, "CU_MEMORYTYPE_MANAGED")):
        with pytest.raises(AttributeError):
            getattr(cls, member)


def test_runtime_enums_have_cudas_member_spellings():
    for line in """
cudaMemPoolAttr CUmemPool_attribute_enum: hipMemPoolAttrReleaseThreshold cudaMemPoolAttrReleaseThreshold
 CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
cudaMemPoolAttr CUmemPool_attribute: hipMemPoolReuseAllowOpportunistic cudaMemPoolReuseAllowOpportunistic
 CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC
CUmemPool_attribute: hipMemPoolAttrUsedMemHigh CU_MEMPOOL_ATTR_USED_MEM_HIGH cudaMemPoolAttrUsedMemHigh
cudaMemLocationType CUmemLocationType: hipMemLocationTypeDevice CU_MEM_LOCATION_TYPE_DEVICE cudaMemLocationTypeDevice
cudaMemAccessFlags CUmemAccess_flags: hipMemAccessFlagsProtReadWrite cudaMemAccessFlagsProtReadWrite
 CU_MEM_ACCESS_FLAGS_PROT_READWRITE
cudaMemAllocationType CUmemAllocationType: hipMemAllocationTypePinned CU_MEM_ALLOCATION_TYPE_PINNED
cudaMemAllocationHandleType CUmemAllocationHandleType: hipMemHandleTypeWin32Kmt CU_MEM_HANDLE_TYPE_WIN32_KMT
 cudaMemHandleTypeWin32Kmt
cudaSharedMemConfig CUsharedconfig: hipSharedMemBankSizeFourByte CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE
 cudaSharedMemBankSizeFourByte
cudaFuncCache CUfunc_cache_enum: hipFuncCachePreferL1 CU_FUNC_CACHE_PREFER_L1 cudaFuncCachePreferL1
cudaDeviceP2PAttr CUdevice_P2PAttribute: hipDevP2PAttrHipArrayAccessSupported cudaDevP2PAttrCudaArrayAccessSupported
 CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED CU_DEVICE_P2P_ATTRIBUTE_ARRAY_ACCESS_ACCESS_SUPPORTED
CUpointer_attribute: HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE
CUpointer_attribute_enum: HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE
cudaMemRangeAttribute CUmem_range_attribute: hipMemRangeAttributeLastPrefetchLocation
 cudaMemRangeAttributeLastPrefetchLocation CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION
cudaDriverEntryPointQueryResult CUdriverProcAddressQueryResult: HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
 CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT cudaDriverEntryPointVersionNotSufficent
cudaMemoryType CUmemorytype: hipMemoryTypeDevice cudaMemoryTypeDevice CU_MEMORYTYPE_DEVICE
cudaMemoryType: hipMemoryTypeManaged cudaMemoryTypeManaged
CUmemorytype_enum: hipMemoryTypeUnified CU_MEMORYTYPE_UNIFIED
cudaLimit CUlimit: hipLimitMallocHeapSize CU_LIMIT_MALLOC_HEAP_SIZE cudaLimitMallocHeapSize
cudaMemoryAdvise CUmem_advise: hipMemAdviseSetAccessedBy CU_MEM_ADVISE_SET_ACCESSED_BY cudaMemAdviseSetAccessedBy
""".strip().replace("\n ", " ").splitlines():
        classes, names = line.split(":")
        hip_member, *cuda_names = names.split()
        for cls in (getattr(cu, c) for c in classes.split()):
            hip_enum = next(e for e, (cuda, _) in cu._ENUM_RULES.items() if cls.__name__ in cuda)
            assert getattr(hip, hip_enum).__mro__[1] in cls.__mro__
            value = getattr(hip, hip_enum)[hip_member]
            for name in (hip_member, *cuda_names):
                assert cls[name] == value and cls[name].name == hip_member, (cls, name)


def test_runtime_calls_through_the_cuda_names():
    """The driver API's names run HIP's functions: CUDA structs are HIP structs, CUDA enum members pass."""
    props = cu.CUmemPoolProps(allocType=hip.hipMemAllocationType.hipMemAllocationTypePinned,
                              handleTypes=hip.hipMemAllocationHandleType.hipMemHandleTypeNone)
    props.location.type = hip.hipMemLocationType.hipMemLocationTypeDevice
    props.location.id = 0
    assert isinstance(props, hip.hipMemPoolProps)
    pool = check(cu.cuMemPoolCreate(props))
    stream = check(cu.cudaStreamCreate())
    try:
        assert isinstance(pool, cu.CUmemoryPool)
        check(cu.cuMemPoolSetAttribute(pool, cu.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                       ctypes.c_uint64(1 << 20)))
        threshold = ctypes.c_uint64()
        check(cu.cudaMemPoolGetAttribute(pool, cu.cudaMemPoolAttr.cudaMemPoolAttrReleaseThreshold, threshold))
        assert threshold.value == 1 << 20
        ptr = check(cu.cuMemAllocFromPoolAsync(4096, pool, stream))
        used, kind = ctypes.c_uint64(), ctypes.c_uint()
        check(cu.cuMemPoolGetAttribute(pool, cu.CUmemPool_attribute.CU_MEMPOOL_ATTR_USED_MEM_CURRENT, used))
        check(cu.cuPointerGetAttribute(kind, cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr))
        assert used.value == 4096 and kind.value == cu.CUmemorytype.CU_MEMORYTYPE_DEVICE
        check(cu.cuMemFreeAsync(ptr, stream))
        check(cu.cudaStreamSynchronize(stream))
    finally:
        check(cu.cuMemPoolDestroy(pool))
        check(cu.cudaStreamDestroy(stream))
    assert isinstance(check(cu.cuCtxGetCurrent()), cu.CUcontext) and check(cu.cuCtxGetDevice()) == 0
    assert isinstance(check(cu.cuDeviceGetUuid(0)), cu.CUuuid)
    assert check(cu.cuGetErrorName(cu.CUresult.CUDA_ERROR_INVALID_VALUE)) == "hipErrorInvalidValue"
    assert check(cu.cudaThreadGetCacheConfig()) == cu.cudaFuncCache.cudaFuncCachePreferNone


def test_cuda_program_in_process(tmp_path):
    assert run_in_process(tmp_path, PROGRAM, name="cuda_prog.py").strip().endswith("ok")


def test_cuda_is_not_served_outside_the_runner():
    assert _shim._finder not in sys.meta_path
    spec = importlib.util.find_spec("cuda")
    assert spec is None or not isinstance(spec.loader, (_shim._Loader, _shim._Missing))


def test_cuda_program_through_the_runner(tmp_path):
    done = run_through_runner(tmp_path, PROGRAM)
    assert done.stdout.strip() == "ok", done.stderr


# hip-python-as-cuda 6.2's names: _reference_text() of its cudart.pyx (branch release/rocm-rel-6.2.0 of
# ROCm/hip-python, hip-python-as-cuda/cuda/cudart.pyx; cuda.pyx holds the same names), zlib-compressed, base64.
_HIP_PYTHON_AS_CUDA = """
eNqdfdl647jR9nmugrfQsmeSP0/PAS1RMjPaQkrd7TnRw5ZomxlZ1EdJPe1c/Y8dVUABpHNiC7W8VViIfXnM17tNUaa71ZesKPJJtpuuikW6+W28Jel/
e5QK012RpZNdWu7y5SabZYVS8OhWYckB5vkf2WQ3Xq2KSb5MN1lp9Gi2VS+L2YMR5oG/vTbnTf3zeuvqzfu5/jT5bX87VIjiiIw8kZErcueJ3Lki49v3
+q06u3KK7Hk1r97rrj74zimG52NAYRRQUHYDWpgrUnOebpfjx906LdLF7mE7nWbFbr3i2SUyMcIOqpcs20K6nOcrZsuJp8BoPG75eb+o3+bVf9+zU/X9
WK/rukv3+/py4Rr5erxbZAum+ccT00gf5tlunTE76XiclWXC4x9GEI5wiMd0OWGayvFJ6hITZQqQuG/ltaurt0n9XN2OV+5OuWHlfbGbZNN0O98I60jG
Ki3b08Ox3f/ZnF6A4nK13D3MV+Pf8+UMaANhjpD9qE9XYDX7ki03yCiUMBoaonw/7a2aNrcrn5ZjqwyFrc3mwhNw07wpt5XlvBQJv8kX2m9f3IDkp2vd
nbtWZ6HEECVqXaxMrnmyHOCxvVwX1ZH5pqPPRTk1BUQsuW67K3eD22JF5XFVbtI5izQrxsWG+50gDC2OQRbV+cw+Jxdikn3Jx9kiXWMMKY0RvnbNtR63
b9+bEwH0tcg32Xi1eMiX2QSDIUWOyQpzer1W+9fZsf1eHRXWLt1sUvbxzOarh3QuIBxBpMvhHU3uDdbjQkirZBlpUlLrlSzTVSo6gjoFivqlubCcdDPN
obviRM4V2SwvN6IOcjLPVXLBvBw0UH4mYh0XKW9ZNNvuncLKV4yyKp48KK3EwSb1j2Zfl/vX+nA71unt2nKo8ebbrhw/sgYv3W5WAsAX9NXLc3PC6uU6
XxLqXNBXf2rq4wHrP+XZfEIACFEfwa1WOBCuVBC6X99IOAhDGHfrI8xdVJc/cSQWafk7AcMFrTrLX/0dcE1WBOxHgCSsyvytfivqS/PfetMuqp9adc6/
hyLjDcNus2JI3wCIo8PB0q6r3uHnAAlGQLfioklKiyJ9upuwpu4pK1QlAaWMVnnrnitmta0O5bXtaqxebotpOs5284mKKKljwHT3BmGMtw/me4FSRkt1
OWbV9bXusO4m+7bZFtlulm4es8JCIBUOtNrvb+fqtH8HLd1qPN6u0+X4CbV2riTXHrftue6qa/Ojnle30/51wRiNzI9lu+5qVVyZZ6x/uc6KdJN/yXQP
ZMGgc1UxsEZ5ty4MyxTbQRYGuMKK18d8YSX0o84oG8Kb802Sc/HZK9zxeitxLFd0vk4/qmNzIBTy5RfWPZel0JGynZyvVXP9Uh1v9exag17O1zTf7Jj6
lpWC7N+EePZ/tDQpnJ4OtHQqO5CO+LLtaHE24uDi223O+6K3W3MQkePhHagAztdux8viQYcS8Hv34xMOjswnIZQq/suW+Z391Hf79nS57kBloCmiAW7O
b6ItslBviCRbX0eK0IRWaJYcYqmPdJKVY1kwISXxKCzeQo/VgKttMYaKiJT4JE/1S559pfQNPQnQORIv4Cy7WYfptTqd6uOkvuxFZD0qGDetvv+n3l9F
ql7rnzKUgN88V8FASouLwiXrTYBwYRQDYQMaw1EQDl9/Ck2WAcwkGCNIPPETDAakkhzUPFanw7EWcg0gJDiobWMdhSL62RgHkBKXALCQpihrLW9iZekU
Pzlxymqja9OeBPlZBQSE5ag+5rptj1JbdJV4UPcqJcuMIYRUzX/ZsYJky9pvXXXV20VkPCRAf5CgKFFw9FkmPkmVr+wn686dqqPsz8n4i2ImNNhHkRXL
dL6T/UA9YrTlNiKg0zZkwbf+cHt+5t3nkHU16A5bBwK0dWvBty5zAZEIBJVtilbyfsIr62EEE67kXYvHFatZwmlHyrgRIEyRnqBoGCoNFYhM2bywICxM
hKtlPuMEWL76pIJRggb7JZySa2R4o9jjtGgge1wGMkGHrak+vnJ21jFGs7+wjnN76/a8//DikHYX+fm7opS6yGQXgNSWWSyoVslKAvayPQBcHrJikmdE
s5/13orykBWVPNH3uNQdaEpuJih7IoCrasxZfaq7Zi/mCSpeq4GK/C3ITmJMlfz5qeG9BP5P9H061rPsZvX1S91dmCxjuSQ54HGIXLe4na7NW42UD5VH
tV0sRuP4+rdljNu384214tW5+t4cm+u7EfM4CG1ZvdUQkYeRwJb19qDAVvb+UFh15gxtPVqn12vXfGd2f7ODPYcDUSAdQ43zh9slPzgwioogFA2pP7zT
AJYOISzVgmzaq6iuTRpoQuISUCrwMcVr157YyBZYBlTZbXpl3ZYDoFoA9s3VV6AqwkAp+ymLX1lfpYCQNSHxeSHWjGSNW1bYYP4KQoIUBAklK8xdn5ig
pKbzVY1HVf8FwmAOxsI8kNq1h2RJcK6j9nVnNeUFaR7omsRZd3x4eW3qC05lS0dujqv9K0vQ03Pz8hvyCzBg0UAM5DSNNAshzcJI8+atuWIMQWLarAOu
QygarkqJVEpPhYGUr1VXH1gSUj47TJTC02P14iSuICGHwugliV766KWHPn5t20sNviFIUIMEWSxkA/Gb6v5DGksRh6IUV+f65GkiolRFJKU7PjI3PGVM
ldqYZn0GIxTgNRzeaL8BDXhO6Dtk672DwIcZJa5D5IindCoLRXMLuk8GwlQ5oFmqjM2ryzXrurbTJcwQuMC6rv9MHRmHpnDEb9WaChxDgAJsnMrXh6CI
JMmexA8HyIUBEgbJx5GDYTms/82OjiXBFfjaXF/1NwDpiatoBCmEdde0nex1hFgkoGbimkIIaVZRnV6cXgQhYOoqggfXIy/XrrVeqnDihFlLjhYoBdGi
/PtWdxZDhIC4CFth3BHwaEDR6QbYyTnx/RhlQwGqhmYVWVLgbNUEoKZJSMvLSkDDujDzJDE9HMbV8fi92v9p1AENqAMqMRN5N0LRVbSEoKlOl0P/9d7X
//U+IWhYn68neg4AYkIRAxDQB0BMKKKCEFnof5aAbOd0iI8S0H9z5Ay7qPdtd9CgMmRBZRgspOvPBQYTHNQfC6QZBFz6XZLVc8q+oGXH6nypD5vmzegC
ktUFRKOrP1EbsPLmA123DV9Ed9oiggqEYYdWdhsoRkDBonv94u5HwEAIPn87t93VmyzgA1OaI+cmaZ4ov2JWxGNd0gtfgmGlNsaXX3ZMgpsQ1VTQQIQr
4CN82XyIokelSIilevc0009ktbbtpjCY3qMY/uQg7wyK1QU5g8iLaYxPTBw6EkT0ja8knYq49VbuymC6fM8C/5nYn/prlzJ6BwT/LZaLrSAPJjioajm7
8eM3i2T2U6g9JafqRezR0vqKAmwrip4g7+rn+rp/1YVJTo1DonQGkbT7hx/NpdZKMqRcF7+VmOhLzNyOK8WQyh45hHMJAl0CSKDFlptKuK/6OyXIsOFF
DJvkIOFsGGSgEZ92dW2FTUiKmiBYt9h0zdum/Q0sV0iKyhATBiolkcou3aqXfhpz8iwAMiNBZjQIx5Zb6hw3BBH7sNd7sQCkpzvzdWeELmjGEcVq2YZd
EWxrbXRsi40JNtunXSsYbvYjOigGiA6MZz95zbdpxSCLbzICY8O4iHUuIACsyPqV+xCxExSyloIiXoxU8+vHQzFc7xXZ85nAQQzXN4BjtrvJ6tAE8V44
LWknoIxFpeRykiBHV/IUD9jR/VOLYgcYkODuErMqmpJ4FOiCpmmc7anzkCzNqFmSLe7rhtX9oJiLMGzFtAAKJ05YNWS8svvNVHu2AtS+89/aZyyrGkcp
ArYS7s/m82U/LfHx2k6ktgokMKDckYTJtX00ojyQwIArOoGiEyiKUbkZXUU4lMSjeP5gTUNJPIrnnqc58TSxTbG4zgqe2gDK5DAl8ShKk08dvL99ZzXb
4dDpOtslIsFSz+0jihJZd6zJNEiYYGbXxYpQdrryBf3mBAoBqwMFICgMmuQLoS6PS7fiorZzUS2REnSRHY5VcQUhWy9jyJ+WOPmHzFfxM7E/bRkQQVAC
bBgIfPrVMj/9moDfGOjTrw6SIgARMeg3vxPwG0GhyOowgnEsKYIVUccrdAAyXHBFsSJ3UPduAhmu7h3SZQUuPz230i0VSGDAdO0NBfQO+T4o2DvkYbsT
UndWQChBIbjdy/ZTYNCw7yYYTocTJ6zzRPijU0UFTD/VuG1CUMeNlaIYV2ySqY1nIF10mO+d6JrzVUwO+8SEIsLUuJuQIA45ocmovrSlSgQsQ2weGNmq
fmQr+hGu5pUkrnVHTp07Imp5p+BaChTZtCDBMY0Q8wEhA1aDLqqHyestV8jQoGlKEFBJUd9PzAK1JGyaU9g0p27TzNrSFDa1KWxlUyR6B7P9bgIZrmug
Qph0P4C6/pnYn3o128rhUnHnlIo7VCrUwnF1kgMbfq7IbkiAVLDAiugWxDvbZDW8Q0tGSZ2vIbU8nq0gVQOtlxx8YkIR8SdU216+CmKmmymGpjY8mtrP
/E7Ab2WLhW01agMJDFjRdXse37pOriKgcOKEgc7t8oqVLCFxCVaNL8xBLRtWAjNHYEYImBVXGLTs9NzY7TIuCZhB64YeDTjsCpYBQX9xkaRbF0iFWUgB
T5ZjgsXUoy4QUkziSyGouvgQXwhFtt/Uumvequ5dL7NVYPeHz6LUivpYVxdKS3GSIAdVK5B7rZoTCcgZtMoF7KFy6EmAHjBf2twIsZIwCw1Z+PESM1rh
Acvano6QKYNosKM37sLhjqbptXF/wtGjUqJM0iWpEQ4nP7yDEYVDQx5uapaQz9A/ScEJMKmuFUoETvBFsp+eUPYTiInty7/X3anmjsGgKwTOhjjyHqdX
FRwrCaMAIbslm/JC784m/RjkQRDB8UFGyhwUWlSsObiy6ripjuJkmRrmxgWGAsFlzYGSNHS65xES0qy/0Ik4qdOwohM9WPZ/gA9FYpgSOsA1ICbgENeQ
uPxPsfiAjWA8yFKDgelys+7a5+ZYd6zd6HjNjMKif4goWKU9I4327Ci0Z3nOjDezt67mew7kTi5IURvCbmxE9nJ7k10TsR/MUuxn9/C+vnbg+7Ic7+N1
v1gxEXgTvT9MSKyOJqHO92iyPVXH5uWk18QwLSFouksmeo3oeA449IPoYBXRl6cYqiFwzxNhkhJCino/OVQJCsQAvjT1X70gWogCUoEgBuCrU1GSbjrp
DgUJ2R66S0JizKaTICFWSA0kQ4ztquPIBzhgURYdigPTJpih514IcZ+s8gQT5/WP2nQpCJZ/eM9kB0X2xW3GkHRfgW8LVE7RDK7y0JwO+kKRloh9hI+L
JusX1WxAZPdtu3SVkSzMN6233aHuxu1RtBYUGYlrfzDBipRmbMtaxdoIYjIWR4glhThtjvzOAAfQUrGwapQwAYu03Vt1RTKC4mSDm+wOW02YIYqXkYH8
I7It5RUvbytWz8960jvIFWdaTt8dXxEFZ5tZS3BJiU9Sdb9LRuk/C2TojMytGZ1bMze3Zl5uzbzcmsHcMiTe7zg1l5Z9gGdUPhEDq4hviPbW5RGK4sN9
aKqLr2dYIbXxsXo7B/QEz1VcoMrAUYPVgPu5EV9g4pNQjluyKOE+MaGIcvqfot8haDqjymBGlXQVVQaqqDKSr2UsX8twvpaRfC0j+VrG8rV0c89Xg/kq
d9881C/NaVyd1RfvExOKiPcjQw6NvGnF6TnSgOIF8BTXwmang+uuJQEQS0SbiRVNraJQZLylGDBCOCwxAlBoI25+kRy5Sd6jAbOAatW350MlDs3JftC5
Ph1YyytP+fRIAOigjChG6hzX/pVPIqud8VJUl/q4BDoNFpAxxyxNFwmE7EFL21MSQdtBgkErDjpKIswqCyeNKLLVdxgGp6jf2h81BeVzLJrPM4D8cMTh
xcLosFXWFKjCT6hCFRFGKoICVYq29dQMDakaKjosK6a5/WgTLHyQ1mGGMLFvJDOIS3vL78xz8DjJQ+FEt1wtZfF2SV75WqICfGxPtvzyACi+PIg8nLJ+
VH5COg4ZewoYBic/Xa4Vn6+w3w0gJT5J19MunUKE0y9BHomGZmAoprniIcwMAtvbIARXzkloKBmyunYCRAS3ZzVRDUJWWIZhlQGLgQqiKgJlPz8K7lRL
gISPjLvVE6fJqhiqSgrWlDTopJzDcVy1ROSwJRsES+J7gFDGECyLRjAJzDKMWcYwSw+TRz6CG2DjxAvg80NrKoHkLJWTmJYI0x2J2iQmhC0JJrFSIZiE
YhlTLOMZAJdKItxANuBVFS/nI+CzHvAZBc6zKRrtgACdM+omWYoRS2SoRrL73IUAQRHaZWcXXEwgFgUKJirWFyUKsFeUjiLaPBhmx6LnQ0SE+qLmg/UI
OtG6yO6WGx1FhtFQJK+mJVgJjJnLJDDLMGYZw6RrWhoXp04QgEWfLxI4tagmoQZJE42uJnhJ5DEsjsfy0MoQWhlGoxMmiEgycfMTRuaHTV+b48H09kC6
YQZKPcyyHVFE5vuI1WA7wgVdVZKPEgGLkEkREMEJEhCCyZK9na9ue2xoKDEMFanbQ6MuCOZgKMyzccd0ffeAiTfNBnGmBUL4ZRy/7MMvPXyW5n02wiI4
7/ps6WTkhyKppNd0P+E1ByeLppKJ7jKdJHHZNHIZQy7jyOGkDqKHBIhkDlqRDY049+H3WQ05cRomw4DNiCFSjZPPRE2Jz3Y85OtqVBOp6dARTaP88HjI
DY+LLm0wzlJXA3lMfK+Ox0ZXu4SRyzhyGUXWLH740PoKiNBHQMa3kZlpNZfk3EtmJ9gsze6H82iOtqK66mrzm0vylPVeODVbxoOWbWfYMB3Or2EOgBJu
UVgOA4I5LDA59P32Mmn5tRL2O0ZEOEEEyMTQadzyTdVgu1uUTw2fsASaW+L1hNhUeYBTS5aKZ5Ys3Z1CI0BmAZCZD8Lrc+80PNUcBIVw2xAUi1uUh/57
bVqxHqtWEFT2YSGidzRAGDYCA8QjnoC2o88PTzTmhSc8KDVmH0mN2cdSY/aB1JgNT43ZR1JjRg4aPlg+Bio4HYUPlhNKI1JWBon3eUSWGTz7ZsfS9Eha
3HkgFn7tgVVAwCJ8a3T3A0spmhK0+3LqN3RePXxcPMwExzT0hnUYBGxzbyeL5Ol2rNR1RhEupWxv8OMzLtDBXjEFFzuuHmMr9YV4O0n+sCR06Mgl6Ssm
TM/CBgyLN+bu1aZakuIpxRKnu3vhwfb0pt0VP+FNs8xFvRfNlHmHjO6bhQyIU96+a7q5AUUvvffKIAtBKeqCXCNhj9T3iST9ImixKCIHPRIpSyUlZiBc
zMJo+oC8uUkYIrpMB9Vl292m6CJ3sNsU0cFuU1+eYugXCHbXz/INgh18fIR/hYxju+ycAK5hMl05JeSS1X2PYtuq3J3ENz9+lpc+OlRzdvOzerZA37Ys
SxC/sl886SGu3i7y9WZVfLYPfQBqQlI5Gs0QTyjQjIjSyHp0N6F9QvQkQMcmMEvuvNjpXcgSepEtxuun0SRBIQNjCDpagEAIjfxtmZ/dtx50Rjjbb9x3
G5jYZ/+hBlmc4H5bkf1oA673koOBcqkQS2/ARXhmVy79xIMPDFmiZPOrKFg1ce1kiTZBfePUSRZ1+VN+CxdV+C/wmCjrLLxJBqIIx2T636EcvUM5eufm
6J2bo3dEjsoDpldnY+tn8bREVz9z6Su961VvTP4M3p0Q6XiRtYUFcwl/a/STEszOnv1n6diAJyU+6yclVAKjRyFEdjSY4j8dcaHejtCqmEa9FaEc0q9F
fBavRWCqXCIRPP5khGHKy2P0JeefxT3mgCId4wcLbJX3WZ8CA7VgY9+R+KzekdiZ60nmql8g0XUoQSGZz5Cg7r0H+robKfoPIi+Fhg0nTtiAApKFtURw
7Q6v/y82GUQwwUGDaikW1NAg5rWTfVN+5AxgQ3JCk7EtxHFsQl7oVY6dqhvwIxyXa+wRDlOhxJ7ZoCDsOxdBCPhWxqXvUQsfhX6z4tL/oEQMCr8WEQAD
bytEoOArDup7E/2gz+rRAoVuZms+g3cPII8P2z6Dhw4Uz86FfYYvGyiuOBB0Ejn+Kn6aC46m6n0YvfAlIyJjwR9r2y1Xkwy9UOFSTaXsMVShxNDcmJ0h
g+Z+Z0mWzX2DPt2YJFjKqGvC3nGiTNorTpCAmSeHnonXGMVDkp5zJAu2UwQXtGwk1/RAPHdEr1Heb9Aem/371+Z0aP/iXUiPmFBE08n0OPaAmanIxb2y
DPtIkBOavLud9FMVFJjuDZQZKigmkR16EqDD5HVZ4HUTsCsNZuasYF/kLl+Wm3S5ydMNthbiosdQPOQIy7Z8eLivmitESwiabbYwOfDmjJ1RgnFm9RGv
inR95qVxmG/SOiKiy3NMZDRARKdxb6SGSX0ZBavrUPqISjqYOi7XSxtPwE0ZX2DUKxBMFRyRITJf7JVBi+rMt7vr0acKJjgoI4gostjZjTdONcl65eQX
7NBBDYdw5AAa7jiA+OPHfD5RX6hnJMDUlihUc9MzWSTEu8mBAkHyTEb5kM7V2bStIhuviknIms9F9lxglUt6vdVtzaZFltGNmcsBWYXBUG/F4L9gSuJR
UEVKoPGN9Kpr/ALDiRNGOEbIo6jqV59pkLfFg2Eaca28lVKJyPqvfAf6P/XLeVe+Rx0GdvXp9qZTSUn/LUHKdq6rPjgscZGjfOyY9YM3T+sMvRUNpBxF
OUnlqMoHRB1ldVMDVkfXIbtUR1bOfmJLYgrHi2bz3DBMLLld5tM8E7spxTMTuytLy66+3I6qBHOi/WWTU0kLI+VNXnkrSmq5tQ/QK4YQEgrqwVTdUeGf
UFGsCv2oqnyQ1OJDcQuyul1Xz+qma4Cx2m52q+kOPEMtpKWgbaItTpizbK/8/a+GGf+vSDJjZLniL7bnrP8xz/9QbxErV5W8gJJPh4BoR5iTuqFtTTLS
0pj96K7ynhh+qMkA6WsR1CU/CGtdrKb5nA/i5JP1AM9V8wHDyWFgg+lCY/g20iM/6PQu7oAI2EjnRZZOnnasA1hsKBsYI2Kj5ZOHPTZW63XUhsDwSra+
eKIyj30GuZ6umOKTn4araFmelpwx8jTUXltX2r0iGCvhq4BdXXUna9PVezJ2Dh/qX27Pz82+4U9IiFtRoa7LAx9oc7mwEh5IU4oL87xpOznSmVbNUR9n
DPAC6TSFr7aG2bDiMDU/qDJgzY/EAmapmtGFQAoeTv7GWgoKJl+kMx9FDsmFElWi+VQtBTZeLfkUu4WT3rCWhvrSFZD6gPRdcwBWwZlvcLwtCta/AuWh
OvP8wp8uf7t+muaoSmOCclpLTrVIJYQTY4slNd/QdkmZEsIxNNE+5xe56Afx5FJOXvIYoKoGaQAgmXAEkEovDwcqwDL60Jyq7n3adrPzzSmpD/kyLZ52
UxaaqZfRlRIoI1Od055z6f7/buz7J91Lx//e5gXhoFZC7a8fTd7EuFE0goRuetFdIwJil5YyAwgspUhC6pozCLpe5awUFySsV7Fm4zFjj9uOV5m88YW4
jMnKHBtasPHFhrfZFpOxtqe9VYNl93I78/nl+iBf7EMFuNyu1yvedu7m+SLfwFKM1UJfbc73Cca+2Xy525aZWyNAbVBFm1sIgXnUKme8RRbdSeg8qMgp
BK8GkyV32hzJGnG9+eY3t9efHopeGo/Uh2KIm49Lv2KkMfy2XK7EE9BykdBv5eXavMHhkWQlatreTigleedGFNTparsECQjlLYq8v1JWZ7IfQWGWjyn7
mnerh3+x8rkrnxYPqzllI4xGW+TdRL/2xdZ4V9OrimkQMG6QF+WdXsp3Ntp7Q2OHdVakm3w5Y/EoN9nCgjpKXpaZh4W9LJOLHV6W6QVitfvGxQuyj8f6
pTqK2zeRtfk8m/HljE26gcaAOKrIvGykciyQS4xS8O/YVRefPqrxhJjnvL7ghHA/nUwKPWokVCyU7LaJIaDdEAMA1ZqZGgzq1XUATAG48PyxMSZB4G7y
RcawXTiu0N6uVN2m6j697zdQven6M1u6o7MAEGWKJXyPGZ5bERMWAHya9XV1kncGruUtgXjgxHqUrMNg2oHxJv8CyqGv7TUt+UXtB8Jua0TWQZpk5aZY
PaFBsKcL+iKXS92hzEvLMitApkkJqyHerFKzASKRCzMjBGHEMppaE9UZVmSznNUYqF8TgaNsiu+lz578zmK2EIxbovUYyC/Rbi0aGBeBe0ZVkW/bedW9
OL0BVZF+ycwHs1qxnwUcdAShUE1TUj0CngpEPwCKg5ILb0sJdDFYwcrSxW6crsVOIbKXEcIJWFIVeRW3pFqJNGwJ4AQsLWon/R0biwylu68bTKu3Suw2
iqbUIt2MHyPppDCCNv7DesM9Jv7FOtMRCxIhlA2X9qg3sAQzoVzNWWldLUNZoDFCNt7Ox2aPe9muicV6no9hX5tEAB+aZMjTfOjjkogTueoAPieoEHD0
a9eeXuRdQhFfvxYr1gPaPPKaLeAvALKmnPs1iLpGLv5k3zI2pFnzQi+qHWbTmqFB4Mjmz1P71wkPaH5frr4u4TBGyFil4na6sqZZPX7oklfXVzga23w/
2B2nYEfpP8fbg6DtKnMMzSfZqXELILAdvLG4nvbtzMoVa2jF7VyUWLbf27Zczf7s0s2myB+2LPn44BA25Eybq1otChPuLVhUP+X2AnFPLyXMN5xnJ+Ze
PWbdwCvpRlo+LbkjM/adstp/y8olJTZbb3erL1kxT9fQW88E4M3Ot9WPujtWZzIRqxMbVNu2j7Q6Tpdidgg0o9CCixGww4asXEaN3aes8JhGdiEGEbRh
NgqWhtWEgJhSsQ0498dxJm6I9I7fs1zIAQHhxXw1/n1X6GGBNqR1SEBWLtk/cfsYCblarPn/xWqCQa1eBHbd1fXbmVensG0PW1kXWbZY8+rZafOxVQKW
duK0l3OOcj7gErC9VNOOagdTiS06GHFDasEu1atjUXOLdJnO+BySXT7zrCJA2rbTtQpYdbtp2JyD0WMIXDg/0OZiO9/kWiTqgIdN+SKDkdpCLkmoxDM7
SsV5HrXA67k7yfmsm8kUsR9MDqGmxWphV4GVy3ELlE/ydbr5J/ESSfx7mM1XD2yIPP/EKhbW46I/BhqPsiw2/YnUTa/tW7OPG5dbB2W+pZvVIh/T9oOo
lAs5q+Feuipkk1eYsyJ1LFglEvIiygprNh7aqqNxZbnjjdHDKi0wOFanLMhPnvdQ1GiftKH2PYquDpwsUHY8EMrSfCRzkb+hTtmYj3RJyP9A9TBQJHHb
/cAix5qO3hJHopFmb02QLkl8s8miuvwZaTxY/7P63hybK+u5/Kftog0H68+mD/k83/A1kX+tCqLRcOAow/ZrDnUwQO3g9C2QLg3+E7/AsDavPESkJ83b
t4An33YPor2f5IvdN+yK1e3BfhqA/RTAfurB/mMA9h8B7D8C2LOOFaBYkswKvnJKpIjWjAM/9QM/0cBPceA/+oH/oIFDSaHO0n2ahJDzxXbBvuNimo6z
T5Pd13yyeXRMGIyvzeH62mdoXr2r+aoh9ubpk+j2Ru0qyAHmR4PiOZrsHrN89rgZKBxxbjR5rJuX12uIO8jnDyTZyCbZh6IwIJ2NH/EYDc+Mu0GZIU4U
rplTw2SHx/ouGtu7yaQ+X19DzFga3A3J1fHtO9/RO8TR8faBnzmJeavQhtv9QJHS5gcUEQwe80ad0FN1RtQNdRozUPlgoD5rQ6Jt7cVi7EIOM9+c6qob
aj1fZmnRY1wADrItD78OtL3I12prQtS8OVA7wIPR8KweRc2OJoOsqS90mDlVawTsSag+g7OKTwsONDhLN49ZMaS28nSiSSOdIGsnR2ZQIn7ge2EOyp1J
H4qTVJFRGqbxgebNV4qmXax5c4WGpd7gz31kPvePRUvqrPPN+PFjKvGEEH73pIOQEftL4yKDUmp45TSCldOHEmtQnTaydVo8/h+p+u6GV313Ue/uJoOs
Da/67uJV392gqk93lYbZk525gDkB1GctPV4/YmuXzsXR3U32oRT5sJrIN6AVi2J6vMZTPCIgigDjx5NpSP9S+R7rX2K0AaXvA/1Lx/yAOvoD/Uux1Hhh
I9+4wLruxGxBcGAtVzXL3Zq1vGLGwfUM4/Raw5M2g8yK6cd1seLTyHhSKoIccERW2CGrsiHBBoQGiaauAbiEKzc1A22uAyj9zJXzzxgrbC2+cqXs0AtY
DsCwKcPm9IEpw3zZN2XI4cjIwTnkWdfezjmaMqX4QRzzJmt4+RWXKLUA69pbIxzK3PZ0u9SHTxRrXb2Im8vUdqbwStY6nWV8Odrsj/KWsSiooSa3l/oi
FkcZb8OZH3GCr8WWajGWCezEZupe13yTpLP7hpX2nK4g1+NcfCy4EGiVAJykRBAV0QPViiHc9q1qTvkkjLtapPmSwJWKNG7dXZoL3x6rlh74HEJg9YGx
9Ip2f3WtV8phhU3JUnK43vNsDvANf38DnYxW72F0yh11zeJB7mjmV8fEfTdyrPT2Jq3aSa0+kXjyhmSdWSPCPOWpF53VmRWdjzq6W603+XKACwK9z4/+
zChZ6T7Wm3bS3lgtsO7qfXPhVz3U3XPBN4fRCZcvZ6we2qzYZ7XlNdKadZDyku9lYBGZ8lYtX8E49FkhPRM7s8RptobfUBlf01ObvdZFviryTc6qRHJZ
LwhKeiDnC83rp7RhOf/IutT5bLnIcBPlIlBWNvu9OjZIwW/G492kyL9k6JszOiSg82grjatujyPddhEiVkTHa5gp0W+LGsRgpNX2Wh3HrbzsJLJ4uVlt
WJduvJL3qRBrmARQ0J7p/dHdC3HyXG3l568zUv6ok+j6JAD7fqAzHka4HzOiWF+r7hxcT/+aFmtvLV1rhDux/D6vnm9O112r1TzwuVFQlMkvTXe96Q62
XF7mJSBu/ktebLa24y7Xq3nJsr6EdojoBmvA7hDdDIY3hnhg8UQ1YvIQDL+94NK/lTI70Zse3w7lmdWmz80+uNlSjCb4/UDdTRzoDQ0sZAG7G9YKD+xE
+K1ctCMRNRL2+T7M+oUsAgdxR8nxdnkdn67HgAjL16gIvZPLbA3n56f/BzW1FP4/aOoNBf+Dqkl3evOROL/wUHX0TtpmXzDSRW8kJzeZynaXX06jb8cI
byxVTbm45kZcmbFbiotdP6ix+/IJli7d6/x/ZGERJ3/Vl0kOBV7fWTxZDTVszDltTvzdjeYUgfxaHY/RgT74tgNf/5f6dGg7XAGIa9N514B7qVqUf9/q
7r0Q957w7d4RdhJng23gQio7XXml1pyuQOhvCb9ubZZt+MUTY93kmatTWEYGeRSyuWaFRnVPZpLw1PFNz45zLpA0x/phopsrj+pMp/k4z+S28KGilOkv
fKDZnsRBH35dhLryFmw8Ztm2l6E3uX0ZhGymuDuVQXhSP1cyf/WsEN/mzD6pacoqZFdbSbsg2c89qxCZ7y5M9m0835b6bByl4UKx8vXafG9U0wuxWCI+
5g+5bmhJnaBj9hAf7d9OtTxBP/U5Pn55Ka/8Z+ut3P5aTBbpVzZoqC8rsR37wrLkOS6R9ErYrOsxJiIcl9G7facspo9iH6ja5ssFd1/ZqIgNilZyx7nZ
4dsPOcAyazdW4oLaQbZ5X2BdDrAuYcUFXYRId6j5q+csFyLcJMq1qR8REvGP8Jf8OWb+/QciXUyygh+9Xq6WWZ8tjtVnb/XXSQ4V+wyuvi7VoLEPrc9k
ejzKhucyxG46n6uWuuyzboG9G+x/b06Hf3o32HOq/PZdKr+EUd0pFuDRetvTJaKpubTu9NhWV1pRsGitpX6/m+SYixJ3kv5PfU3/swgmOChKsGyq0gk/
hLNIN/yYJxtis153vtz8g+dYgBXT+/RrWPHTrzHNu1FY827kagY9jfgZ9jLmY9jDmH+P6XyKpTnFlZrOV+kGiwkSvEdf3OQH79A3l/VBgn3tw6N6svih
AE/JeUfA1VbbPlwtSfakxczMaOKJKzq/YLdTZHMxobxrD9MSTJMJaV4JsNf78cQkyJS83TER0HQEKAy538RXlXRKQ0xmyY26JIOnSCX7zzvTSeMfs0tL
ME3a2hSmGyn6L1+LdM1NUXRaYzxPF6SKYNA6i5wfPKWUJIfWehA1P6UlOTwlnpsjfzUGJoRLShDJmJrmfKuCxBOHDZUhj05q2HwlGe47F6rKdV+6kGT9
TViKqck9qi+rWxJW6XeffCXEjmuP4tqjuPZ9XPve1y5jfpcxr8uYz2XM4zLmbxnzVkemfGXD7khCS36P/qhHf9Sjf9+jH0ztkPdl1Pcy6nkZ9buMel1G
fdZxyk+xFOfcqO4oqjuK6t5HdYPpTHtcRvwtI96WEV/LiKdlxM/H6vhMuCjItPSIlh7R0ve0NOGJ6NISrkh6QH4UkB8F5O8D8pFSJ6Y9+VCet6H1IVIC
XcnBmKPBmKPBmHeDMe8GY94Pxgx+Ef2I5UC8gOVfBvv4y0Affxno4y+Dffz1cbCTvz4O9JLCLIciBoz/fbCbf4c9dCvt9tMdTkJxTG9YPuqlxjtiekN2
hj06rbFlnbbdp2//oLQ0L6I5imiOopr3Ec37kGYZ8baMeltGvC2j3pYRb8uotyr95Pg4yIymbkR3FNe9j+neB3XLmM9l3Ocy5nMZ97mM+VzGfVZJKWcU
gsxoOkd0R3Hd+5jufVC3jPlcxn0uYz6XcZ/LmM9l3GcxmxIsHJYb0x5FtUc92vdR7fse7VByW27c85j2qEf7PqodTnMzcfcw/kQWM8DvRRj1IPT7cNeD
cNeLcN+DcB8qtzH9Pm2A/0uP/V967P8Stf9Lr/1fH3sc4D2PqAc0Qq8+MPH3Hhf+bl/5MSsANqgf/WBBvjS1acWal5WxRE9S3T3vyuIHSvgF/4LgIUMy
Ie2hYwbSkOuwUNSutVLKy3a8hW8p2kvZ/imf0cTEhCKCdYLpdjnuPT3Cl/IGyJGIassP33G2e3jaZCWB5smQSGL7XhzIFSFx5H0vURxXhMRZbhd8Oxil
r1mk3nrzTe8GIFQBl9RWl9aHAbAAnZLiohs5/5tSyQj5wXIyeVqm4oqkATkcladTqcimWSEE0aaxcVp8ERcNEUnXoxKKCe0veHEbfWNnl5YQNPCF6Tvx
UCkVN6Yzs0FmSFdFia8t0PpAIIShNk7p2/tJGCwTQoKX/tE4UCKEsh6td5vV79mypDEsP4QgbmZUOwlICCAQwlAPv8pDIxF2SF88biHuSKIBLL8nX1bF
hH3C82i+KJmIL/yq8fHTjvPz9Vie+ZpnQdeUuLhwFMiHDBTpcpbJx4nEIg+N60r1oPFNyTEcxg9+FvKtDPqLELyQJn/59Gumb7AX302gDFGSkQxwN0b0
5UBAPui3uqFvns5C/gKJSHXC92vr+/tDNQqQAU+Xqw2BYkMaeMEckEUvBoS/dtVZvvyKaa7c+Fi9eYKC6EouGvNom0d1ZR9avtHElZVUEK2pWHd0Y2Wp
cguUCYo2Qu5fwjRHDqywu0RgnD8m4JrWNDURKAPZUeyJ56vuatrPoyP5JZ+tE68U2X0qAZ54qVAeVXngmx+r7t24RNCFGUj4o+5age8SPcmNLg8u0ZO0
JcKj2nuMWUPBN8PaO4wVwbnGGFLdm4wVT2+vVUF+Momn0WlfF9UJHjfjbRNoqbJCDGKWY1FpmbNjNIxjRB7FpM4gYCPqu/YOINAwjpG+yzCxqZ67MGOY
jt1HtY/pg5H04hqUF3eyfFRLNHdINRRHfvyCioB4sJq/IiSuzj6qZ4jEf1u07DND4ld5rfZ/6gM64nEi3kaOf7fHcrCY1Vx3rF55njbPLVZfF6zSnu6m
+XTlgGANi7So+FOQj3V1xkgL+RL4Y5auHSSsYZFYSX6p7ROl6eFHc1GPlO4qEUhgwH2kVMrr4a4MlfVVVk2X61E/98k6EF9yvrk/k2+wsOFJuZk/mRfK
fUWMuT1dIqjbZRTXUfa8XXf1c9119WGuntcknLajEz66NBfxR2GIKPSZkjHpM0ZDefGShb0+PFC5IL8YPk/j54JVJKIQRJW+B3EdZc/bcVt1F3nQgrAK
uZIpSm4Khna8lHaciAZ3BBUVYgyjLWOqX/BknxYe7vbKXgiCNhEsGK6lcNnoAaTt+rnpGiQyNARBm5hXF1lYr/vXvtjN01IVf368NB5DCpf2YNy+1l19
2ssOj5Tgp/dUd+NNhtxig2mo0GhlbY6Hi/p2qactq2b/Eu9bTOpzfTowq43caq074jyyrLzwo07TFR+UqLe5J9k6W06y5ThXe60H4Hr2+RPBf61E63Y7
8esO9gHTYji0W4nmcrvMy00+9oz6YLQ9ft01fzB+QIylWTFGYQPgeJyD2NALeRrsWFeXmt9Lc3ltjwfC9jxLmXU+51k+ruYTNx9dBN+CPG/GSPY1UNdG
mRVf1AXs6qZ834wLEzH02Ly8xq085rPHiAkO4OJvL9FIbMt4BLB6AJx03CBTTgNF9XXq79k+mQ4piUdBXydkaB8hTT1XpOsgXcvILb/qtSMKS+lRkOgV
dQcRP6bua6koq4v4j9XLRcZYEnbPnJJ4FBRjoGvaTktad+1Vn2yBzwPwqQV+hmpjz7PQigHMQr7RE8A0T/PQihFMca4kDizOqUTQBYROWPNsui1NmJYQ
NJy+iGVcR1SnVImeeLhckbo08Lo5ydenSNx1vtQPTwU0adRF9TMEySfVSTym46WpPfjupqzlJEFOIJWtgHbeUmBJBpN5qAxjaR9j3V6an/xF0Ul92XfN
+SpPvbuQ61WZf5Mvkk6yclzk64065d6H5pv82pzk0r1r5Gu+vBv5oEI+APP72zWItPt9sQmgMTWeff9qrvJMHsuw/7CBbntWPTIbUAsgUBjeDIQ51H10
hskPRvP3IzA1Pz238/ZFPkYdYfGx6sP7tXYsytf/aH3MCwDwv2/Nf0VZm9c/6qMTI35E/srfRIHP3zpsTJuyeH7nI/4rf/fj5R1zZ/WJH9hnBeT77YXH
ELOZu1/q7nt7qWk1Ps/oa8lbrPQUniGXb3c/2S/XvcuVbyBsjo708vamT6WqZWk7pBKTnZAi50QhhZWKyfup4lNH4LYHMSnhaYdlfVwzeoGi44r1bPhr
Jh50VJz0mnRPJ4FIWTElxFffd3seTGAAHPXV4saKCEmHdFUlliflsqwcvtnKitCgkGS8aCy5XEqhSS0Kb/6Jxpp/onDmnyiM7P9u1ZGGyf69TecUktAR
M9Q6o9gX9tzwk78XQdmLYIKDNrkdNeGWoT1UJzHjBo7H26VkvjQ7zWf6kPzuIV2CKbsQBm1g2t46XqvQFqarbSGWxvtsaBjaSMYvZQ1bkTfGDjFjgHi6
Zz/leEp+Ik5DzHKhjvGTMF++bBhgyocLA8zVufq/Wz0VhTv7pgaGah0ctm6rdfrvLRszT6KmNNoAk6ZFHmDVNtIDMIfaVs34UPOmZR8GHfVicjf5NOKz
wX0OCEExoRw1bfD6rerDeMMs6/OY/dY1bq8Hnz7iwafhHnz6uAcDSgB2orcMuPBRX5Y/Sn7D5zOsGEp+3fFr29XhuiEkkkRFkNsEH3lK8Ml6ouT3OD+u
imxAVRHBHGbbrzCi5v06I478ASfcctPvh1dweg30uSM+uml9cr4j2hX5MU+zpfMdRXGHePBpkKQo6OW7usMrIvh7/c7aTtYb/DlcckBa8RHQkXXiDau/
yHkqsozwyz3488PN/qKHY3rK6IWiJwE6uC6FYstbRCiOuSKFv5Ocj0t7p56corFXo4S0w9h85mZ1kqssIXyx0rJaqnWWKEzYkJgemjSXvXp/MWRMTDPt
Jnk51o8w9sKFjarNF/O2OpTXtoumor6IdD5Rd/sMQgzbVntR7IMxIcP6fk/58kvYNAI0pZK/jqimgl5gOHHCTunTZOu/pshHKI3DrHRNVI0iX6/0MaSG
jyR3Y1NIrNEdr598JKlBIl3qawCpzDYk0kVNGCC6vuXJxTE3OnnSPoYIUCAi7KOIgA+TvZ2vZOrwd42JxBHyPgy/FFA/B+9BiSv97JPwtCLhGicX9b4F
3yp0UKyeFdl4BT9RQplA/nk11Ss/vlmRJY19EaJVK8XhiJQocz5O3BaPbNwST6q4HY5Blk0xixoonXKqlyygQo0EnHZ1HcKbFllGwnGl0EfIJ9bkBX0h
iU0b4psXBlxv7IsCvry4h0m+KN/xqzOv7/zyFkRIXIKtorCm3JaISHIDnrgySC5WrAv+gvTmid9cuVAFhlIhsOTdmurmYRdOXo2p7xsOKBKg9u57CnXN
zxqUGxrWqoq9UuJla3vR5oTvmnJpCUEDu6lcltyLhKnKh/bY7N9Zv+fQ/iX2OIn3t/1tZuvVPB/zJ72Wk9VXyogPRxkF16qS1sC74JQRoE6hq2vK30lo
ddP5E4WrFU0jy59k3p4Plbh8X94C+kLRkwDdaXxdtv3mLEdd22m/O/Fo9HY9ScWl6fa+T1qPghTz9DRgJm4uIuAysy+YYmzac3tsX975VWwv9SGCvdus
WJlZzZ5240e+AWUSNOZgBm2b6qbfNqiyeow7oEHj+jDZAON8qlYs9PXZdjCDttdVV73VfFFogPV1WqSLTDxD0Wffw40kPb5aPJzuG2d/aB9a0OT2dNEy
OJ1i9rdLY93NhqA3QUNiCl3U+OPqzDvi6l7Zi0tLCBqYTndZcirapco788U8tLyceZyuxShBHDKTTy7ReFKTRpXrhuJt9hC0PKQoD/TRBgAIbaWoj9VP
WTIoC0U2T7+p8hDS9RK7vFbX28VNbklNSGogySXTd1zS9VDb8bvcpJstGGgHNEOo6V63cDRuOjYtXFA7hK32MVRXMsGVAbUTIt1Qye7h2MSX34WSg/vB
9ATIJS5mdtIMknNzLG4dJEh6OBBSIDnSycQkibcBLoYBjPD9slEjfCtujxEaw3Qz+JjAvJwBxvQLvhkc7JT0iU4HwwWy1ari+JvSZB0qBizBbWlhhJAB
vTEthG62pgV0PVx6W6ADH9wYGEeKGQtEhN4cGMHgec3i162+/6feX/VndDMU88W4JJvDjrrw2tKW7aSWT1W0HZ9+5U6z5C52q4d/8aNyyxXfWLMptuMN
ayH5MU8H1AXAHhf1tWpOvt+STngPGVQcAKBNf8tetD9AEw8jslh9Aa041jBfVC4fqGlYPYLmbAHd+EwznC/LBbQ+O5z0dm35iHx1koOLRBydkdHI5bM6
Oe+p8DnAXbrdrMTAfsc6KHKoEjTpAgc92J6PrdgtGLa7Xc9X6SRoSiIEDci9lAOip44S9UQMwoUjdamX4ip7M7SLxK7MZNcfjfUGoJriIzYPTdorKjua
iAsOpjqlBuHYuCGy2o5kC/ske9iytOOPLoh54i9Z8bAqswAq3M3kc+UUrYgj7+VfwlbkJK9KNz54KAMGXciAZTm7NMSynBQeYNmFDFu+1NeBlnnjPcgy
ggxY5tPGQ+yKs/79VjFcwKaYdR1iVE7e9lt1AENm5fzoRc7BDrLvzO0OcSVgpMcnPl/7MY/EdPlwf7CB3k/PdMkGfn5msqr/E7TQoSIpVjljZVEsHQeL
oFSn2lU8I+YxkhAj3LC6k2KAZWfFyGrfmxfzVUlYPTNGgjpzY64aCahGU6XoR93EwiOJrQZmO9khYyMH0o6LRprkxWAlp0PVUzh2hoa0LcqYml817+x4
kzVDLJD+yMfHjurExWWIR/Jts3m2G2++lQMcipjwNs0z3dPtWPHmXTbR7t55TyDpE7BbtkOWFs2peRO7dOxSEI/3cjtPC/WcNH8lPQrCl9Le3vho8RAG
4otxiwUfc07+5m5glzF1zwY4O4n8fe9iK7Q5zYb2lsyyZVbkY2XJlAlrDJESn4RMIs5CbpDjFm3ZVGck1qQGf4UtpLNdci39Jkh55iday9v3Dj4qoZ4E
IZlJjGkjEUaXRLHhXSwEiaPzJWtd+Jng7QN++0DR56yJnvfgLpozGzcNwFzk602az0GXVk08vMMZBkxNSKrXp0UqAbpNI4IJdg3rRklNmzzpc1z2ea2w
fgh+3bUsGm9vlTqTSdtYFyvGWCxSfR6zB0ncnlFdK/UgyfdjddHBndwnr4MosNMX/+7uRlNZAYqfmvrrvaGyn5r66VdDZT819R+5Jv4jl7SxRR1b1LFF
HVvUsUUdW9SxQR0bVIa/NZa2Rm5r5LY2TrmNE/Aptz7lVnZrZbdWdmtltzb+DyABHkAMHkAUHkzK3Bvb98bevbFxD3BzC5Vb6tZStzZncpucuaVuLdXI
/mO6y+4Xd7vpcvsHpP2yGAna/wdlwAKC
"""
