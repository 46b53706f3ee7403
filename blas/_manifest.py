"""The rocBLAS names rocmath.blas provides: the contract ``tests/test_blas_manifest.py`` checks.

Written as rocBLAS's own tables (rocblas-functions.h): each operation with the
precision prefixes it has; every one comes plain, ``_batched`` and
``_strided_batched`` unless noted.  The ILP64 API (``_64``: ``int64_t`` sizes, amax/amin
results) covers every compute routine but those :data:`NO_ILP64` lists, and the
set/get vector/matrix functions.
"""

from __future__ import annotations

FLAVOURS = ("", "_batched", "_strided_batched")

LEVEL1 = {
    "scal": "s d c z cs zd", "copy": "s d c z", "dot": "s d h bf", "dotu": "c z", "dotc": "c z",
    "swap": "s d c z", "axpy": "h s d c z", "asum": "s d sc dz", "nrm2": "s d sc dz",
    "amax": "is id ic iz", "amin": "is id ic iz", "rot": "s d c cs z zd", "rotg": "s d c z",
    "rotm": "s d", "rotmg": "s d",
}

LEVEL2 = {
    "gbmv": "s d c z", "gemv": "s d c z", "hbmv": "c z", "hemv": "c z", "her": "c z", "her2": "c z",
    "hpmv": "c z", "hpr": "c z", "hpr2": "c z", "trmv": "s d c z", "tpmv": "s d c z", "tbmv": "s d c z",
    "tbsv": "s d c z", "trsv": "s d c z", "tpsv": "s d c z", "symv": "s d c z", "spmv": "s d", "sbmv": "s d",
    "ger": "s d", "geru": "c z", "gerc": "c z", "spr": "s d c z", "spr2": "s d", "syr": "s d c z",
    "syr2": "s d c z",
}

#: Mixed-precision gemv: batched and strided batched only.
GEMV_MIXED = ("hshgemv", "hssgemv", "tstgemv", "tssgemv")

LEVEL3 = {
    "gemm": "h s d c z", "symm": "s d c z", "hemm": "c z", "syrk": "s d c z", "herk": "c z",
    "syr2k": "s d c z", "her2k": "c z", "syrkx": "s d c z", "herkx": "c z", "trmm": "s d c z",
    "trsm": "s d c z", "trtri": "s d c z",
}

EXTENSIONS = {"dgmm": "s d c z", "geam": "s d c z", "gemmt": "s d c z"}

#: The _ex functions (flavour before ``_ex``: ``gemm_strided_batched_ex``).
EX = ("gemm", "axpy", "dot", "dotc", "nrm2", "rot", "scal", "trsm")
EX_PLAIN_ONLY = ("geam_ex",)
#: The beta API (rocblas-beta.h): gemm_ex3 in three flavours, no _64 forms.
EX3 = ("gemm_ex3", "gemm_batched_ex3", "gemm_strided_batched_ex3")
#: The beta API's gemm_ex solution queries: no _64 forms, by_type has no strided form.  They compute
#: nothing (no log line, no launch): not compute routines.
GET_SOLUTIONS = ("gemm_ex_get_solutions", "gemm_batched_ex_get_solutions", "gemm_strided_batched_ex_get_solutions",
                 "gemm_ex_get_solutions_by_type", "gemm_batched_ex_get_solutions_by_type")

#: Compute operations without ``_64`` forms (rocblas-functions.h).
NO_ILP64 = frozenset({"trtri", "trsm_ex", "geam_ex", "gemm_ex3"})

#: Auxiliary functions with ``_64`` forms.
AUXILIARY_ILP64 = ("set_vector", "get_vector", "set_matrix", "get_matrix", "set_vector_async", "get_vector_async",
                   "set_matrix_async", "get_matrix_async")

AUXILIARY = (
    "create_handle", "destroy_handle", "set_stream", "get_stream", "set_pointer_mode", "get_pointer_mode",
    "set_atomics_mode", "get_atomics_mode", "set_math_mode", "get_math_mode", "set_performance_metric",
    "get_performance_metric", "start_device_memory_size_query", "stop_device_memory_size_query",
    "is_device_memory_size_query", "get_device_memory_size", "set_device_memory_size", "set_workspace",
    "is_managing_device_memory", "set_vector", "get_vector", "set_matrix", "get_matrix", "set_vector_async",
    "get_vector_async", "set_matrix_async", "get_matrix_async", "status_to_string", "pointer_to_mode",
    "get_version_string", "get_version_string_size", "is_user_managing_device_memory", "initialize", "abort",
)


def _expand(table: dict[str, str]) -> list[str]:
    return [f"{p}{op}{f}" for op, precs in table.items() for p in precs.split() for f in FLAVOURS]


def _lp64_routines() -> list[tuple[str, str]]:
    """(name, operation) of every LP64 compute routine."""
    names = [(n, op) for table in (LEVEL1, LEVEL2, LEVEL3, EXTENSIONS) for op, precs in table.items()
             for n in _expand({op: precs})]
    names += [(f"{g}{f}", "gemv") for g in GEMV_MIXED for f in FLAVOURS[1:]]
    names += [(f"{op}{f}_ex", f"{op}_ex") for op in EX for f in FLAVOURS] + [(n, n) for n in EX_PLAIN_ONLY]
    names += [(n, "gemm_ex3") for n in EX3]
    return names


def compute_routines() -> frozenset[str]:
    """Every rocBLAS compute routine name (without ``rocblas_``), ``_64`` ones included."""
    names = _lp64_routines()
    return frozenset([n for n, _ in names] + [f"{n}_64" for n, op in names if op not in NO_ILP64])


def all_names() -> frozenset[str]:
    """Compute routines, the solution queries and auxiliary functions."""
    return (compute_routines() | frozenset(GET_SOLUTIONS) | frozenset(AUXILIARY)
            | frozenset(f"{n}_64" for n in AUXILIARY_ILP64))
