"""scipy's LAPACK as symbols numba kernels call by name (``rocmath_dgetrf``...).

As :mod:`rocmath.blas._kernels_l3` does for BLAS, :func:`ensure_lapack` registers
the Fortran-API function pointers of ``scipy.linalg.cython_lapack`` as LLVM symbols
once, so compiled (and cached) kernels call them by name; it also registers the
BLAS symbols (``rocmath_dgemm``, ``rocmath_dtrsm``...) through
:func:`~rocmath.blas._kernels_l3.ensure_blas`.  Every argument of a Fortran routine
is a pointer; integers are int32 (LP64).

A family that needs more LAPACK routines adds them to :data:`ROUTINES` (name ->
argument count) and declares its externals with :func:`external`.
"""

from __future__ import annotations

import ctypes
import threading

from numba import types

#: LAPACK routine -> number of (pointer) arguments of its Fortran API; all four precisions.
ROUTINES: dict[str, int] = {
    "getrf": 6,  # m, n, a, lda, ipiv, info
    "getrs": 9,  # trans, n, nrhs, a, lda, ipiv, b, ldb, info
    "gesv": 8,  # n, nrhs, a, lda, ipiv, b, ldb, info
    "getri": 7,  # n, a, lda, ipiv, work, lwork, info
    "potrf": 5,  # uplo, n, a, lda, info
    "potrs": 8,  # uplo, n, nrhs, a, lda, b, ldb, info
    "posv": 8,  # uplo, n, nrhs, a, lda, b, ldb, info
    "potri": 5,  # uplo, n, a, lda, info
    "trtri": 6,  # uplo, diag, n, a, lda, info
    "lauum": 5,  # uplo, n, a, lda, info
    "sytf2": 6,  # uplo, n, a, lda, ipiv, info
    "sytrf": 8,  # uplo, n, a, lda, ipiv, work, lwork, info
    "labrd": 13,  # m, n, nb, a, lda, d, e, tauq, taup, x, ldx, y, ldy
    "latrd": 9,  # uplo, n, nb, a, lda, e, tau, w, ldw
    "lasyf": 10,  # uplo, n, nb, kb, a, lda, ipiv, w, ldw, info
    "stein": 13,  # n, d, e, m, w, iblock, isplit, z, ldz, work, iwork, ifail, info
}

_VP = types.voidptr
_registered = False
_lock = threading.Lock()


def external(name: str, nargs: int) -> types.ExternalFunction:
    """The numba declaration of symbol ``rocmath_<name>`` taking ``nargs`` pointers."""
    return types.ExternalFunction(f"rocmath_{name}", types.void(*([_VP] * nargs)))


def _capsule_address(capsule: object) -> int:
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get_pointer(capsule, get_name(capsule)))


def ensure_lapack() -> None:
    """Register the LAPACK routines of :data:`ROUTINES` (and rocmath.blas's BLAS symbols).

    Call it on the calling thread before a kernel using them is compiled or loaded
    from numba's cache; after the first time it only checks a flag.  Lazy, so that
    ``import rocmath.solver`` does not import scipy.linalg.
    """
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        import llvmlite.binding as ll
        import scipy.linalg.cython_lapack as clapack

        from rocmath.blas._kernels_l3 import ensure_blas

        ensure_blas()
        for name in ROUTINES:
            for p in "sdcz":
                ll.add_symbol(f"rocmath_{p}{name}", _capsule_address(clapack.__pyx_capi__[p + name]))
        _registered = True
