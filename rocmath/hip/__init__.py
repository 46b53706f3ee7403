"""rocmath.hip: hip-python's bindings over rocmath, so hip-python programs run without a GPU.

``from rocmath.hip import hip, hipblas, hipfft, hipsparse, hipsolver, rccl, roctx`` gives modules with
hip-python's names, signatures and return conventions: every call returns a tuple whose first element
is the status enum (``hip.hipError_t``, ``hipblas.hipblasStatus_t``...) followed by
the C out-parameters; enums are IntEnum classes with the C values, and enum-typed
parameters reject plain ints with ``TypeError``; ``#define`` constants are module
ints.  Underneath are rocmath's simulated devices and :mod:`rocmath.blas`, :mod:`rocmath.fft`,
:mod:`rocmath.sparse` and :mod:`rocmath.solver`.

``python -m rocmath.hip SCRIPT`` runs an unmodified hip-python program: during that
run ``import hip`` (and ``rocm.bindings``) resolve here.  Nothing is redirected
outside the runner, so a real hip-python install keeps working.

Inside rocmath failures are exceptions; :mod:`rocmath.hip._api` turns them into
statuses in one place.  :func:`last_exception` gives the exception behind the last
failed call (``ROCMATH_HIP_TRACE=1`` prints each one).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ._api import last_exception

_BINDINGS = ("hip", "hipblas", "hipfft", "hipsparse", "hipsolver", "rccl", "roctx")
__all__ = [*_BINDINGS, "last_exception"]


def __getattr__(name: str) -> ModuleType:
    # The bindings load on first use: hipblas binds ~1500 functions and rocmath.blas.
    if name in _BINDINGS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
