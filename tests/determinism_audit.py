"""Digests of the outputs of routines from each library, real and complex, computed in a given order.

``python determinism_audit.py ORDER OUT.json``, ORDER ``forward`` or ``reverse``: the order the routines
first run in, and so the order their kernels compile in.  test_determinism_audit.py runs it in fresh
processes on fresh kernel caches in both orders, and again on a filled cache, and compares the digests:
a kernel's bits must not depend on what its process compiled, or loaded, before it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as ssp

import rocmath as rm
import rocmath.blas as blas
import rocmath.blas.arrays as ba
import rocmath.fft as rfft
import rocmath.solver.arrays as sa
import rocmath.sparse as sp


def _data(dtype: Any, *shape: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def _dev(dtype: Any, *shape: int, seed: int = 0) -> Any:
    return rm.to_device(_data(dtype, *shape, seed=seed))


def _digest(x: Any) -> str:
    x = x.get() if hasattr(x, "get") else np.asarray(x)
    return hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()[:16]


_GEMV = {np.float32: "sgemv", np.float64: "dgemv", np.complex64: "cgemv", np.complex128: "zgemv"}


def _gemv(h: Any, dt: Any, trans: str, m: int, k: int) -> Any:
    a = rm.to_device(np.asfortranarray(_data(dt, m, k)))
    x = _dev(dt, k if trans == "N" else m, seed=1)
    y = _dev(dt, m if trans == "N" else k, seed=2)
    getattr(blas, _GEMV[dt])(h, trans, m, k, 1.25, a, m, x, 1, 0.5, y, 1)
    return y


def _spmv(dt: Any) -> Any:
    a = ssp.random(2000, 1500, density=0.01, random_state=3, format="csr").astype(dt)
    a.data = _data(dt, a.nnz, seed=4)
    return sp.csr_matrix(a) @ _dev(dt, 1500, seed=5)


def _hermitian(dt: Any) -> Any:
    a = _data(dt, 5, 16, 16)
    return rm.to_device(a + np.conj(np.swapaxes(a, -1, -2)))


def jobs() -> dict[str, Callable[[], Any]]:
    """Each routine's call, by name."""
    h = blas.create_handle()
    out: dict[str, Callable[[], Any]] = {}
    for dt in _GEMV:
        n = np.dtype(dt).name
        out |= {
            f"matmul {n} 50 x 8 x 8": lambda dt=dt: ba.matmul(_dev(dt, 50, 8, 8), _dev(dt, 50, 8, 8, seed=1)),
            f"matmul {n} 300": lambda dt=dt: ba.matmul(_dev(dt, 300, 300), _dev(dt, 300, 300, seed=1)),
            f"dot {n}": lambda dt=dt: np.array(ba.dot(_dev(dt, 100003), _dev(dt, 100003, seed=1))),
            f"nrm2 {n}": lambda dt=dt: np.array(ba.nrm2(_dev(dt, 100003))),
            f"axpy {n}": lambda dt=dt: ba.axpy(1.5, _dev(dt, 100003), _dev(dt, 100003, seed=1)),
            f"gemv N {n}": lambda dt=dt: _gemv(h, dt, "N", 700, 600),
            f"gemv T {n}": lambda dt=dt: _gemv(h, dt, "T", 700, 600),
            f"gemv small {n}": lambda dt=dt: _gemv(h, dt, "N", 30, 20),
            f"fft {n}": lambda dt=dt: rfft.fft(_dev(dt, 64, 360)),
            f"csr @ x {n}": lambda dt=dt: _spmv(dt),
            f"solve {n}": lambda dt=dt: sa.solve(rm.to_device(_data(dt, 20, 12, 12) + 4 * np.eye(12, dtype=dt)),
                                                 _dev(dt, 20, 12, 3, seed=1)),
            f"eigh {n}": lambda dt=dt: sa.eigh(_hermitian(dt))[0],
            f"svd {n}": lambda dt=dt: sa.svd(_dev(dt, 5, 16, 12), compute_uv=False),
        }
        if np.dtype(dt).kind == "f":
            out[f"rfft {n}"] = lambda dt=dt: rfft.rfft(_dev(dt, 64, 360))
    return out


def main(order: str, path: str) -> None:
    calls = jobs()
    names = list(calls)[::-1] if order == "reverse" else list(calls)
    with open(path, "w") as f:
        json.dump({name: _digest(calls[name]()) for name in names}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
