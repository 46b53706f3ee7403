"""A ``uarray`` backend for ``scipy.fft``: ``scipy.fft.set_backend(rocmath.fft.scipy_backend)``
runs SciPy's own ``scipy.fft`` calls on the simulated device.

NumPy arrays go in and come out: each call copies its input to the device on the current
stream, runs the rocFFT plan there and copies the result back.  Functions the backend does
not provide (DCTs, Hankel transforms...), and calls with a ``plan=``, return
``NotImplemented`` so SciPy falls back to its own implementation.  ``workers`` and
``overwrite_x`` are accepted and ignored (the device decides its threads; inputs are copied).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

import rocmath as rm

from . import _numpy

__all__ = ["scipy_backend"]

_FUNCS: dict[str, Callable[..., Any]] = {
    name: getattr(_numpy, name)
    for name in ("fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn",
                 "irfftn")
}


class _ScipyBackend:
    """The backend object (``__ua_domain__ = "numpy.scipy.fft"``)."""

    __ua_domain__ = "numpy.scipy.fft"

    @staticmethod
    def __ua_function__(method: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        fn = _FUNCS.get(getattr(method, "__name__", ""))
        if fn is None:
            return NotImplemented
        try:
            bound = inspect.signature(method).bind(*args, **kwargs)
        except TypeError:
            return NotImplemented
        params = dict(bound.arguments)
        if params.pop("plan", None) is not None:
            return NotImplemented
        params.pop("workers", None)
        params.pop("overwrite_x", None)
        x = np.asarray(params.pop("x"))
        if x.dtype.kind not in "biufc" or x.dtype == np.longdouble or x.dtype == np.clongdouble:
            return NotImplemented
        if x.dtype.kind in "bi" or x.dtype.kind == "u":
            x = x.astype(np.float64)
        d = rm.to_device(np.ascontiguousarray(x))
        result = fn(d, **params)
        return result.get()

    def __repr__(self) -> str:
        return "rocmath.fft.scipy_backend"


#: Pass to ``scipy.fft.set_backend`` / ``scipy.fft.set_global_backend``.
scipy_backend = _ScipyBackend()
