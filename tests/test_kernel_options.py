"""rocmath.kernel's compile options: vector_bits narrows the loop vectorizer for one kernel only,
without LLVM's remarks reaching stderr."""

from __future__ import annotations

import numpy as np
import pytest

import rocmath
from rocmath.kernel import Kernel

SOURCE = '''
def total(x, y, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    out[0] = s
'''


def _fresh(**options: object) -> Kernel:
    # Defined from a string: no source file, so never cached, always compiled here.
    namespace: dict[str, object] = {}
    exec(SOURCE, namespace)
    return rocmath.kernel(parallel=False, fastmath={"reassoc"}, contiguous=True, **options)(namespace["total"])


def _vector_registers(asm: str) -> set[str]:
    """The register widths of the packed double-precision arithmetic in ``asm``."""
    ops = [line for line in asm.splitlines() if any(f"v{op}pd" in line for op in ("add", "mul", "fmadd231"))]
    return {reg for reg in ("xmm", "ymm", "zmm") for line in ops if f"%{reg}" in line}


def test_vector_bits_limits_the_vector_width_of_one_kernel(capfd: pytest.CaptureFixture[str]) -> None:
    x = np.arange(1000.0)
    out = np.zeros(1)
    narrow = _fresh(vector_bits=128)
    narrow(x, x, out)
    assert out[0] == float(np.dot(x, x))  # integer-valued: exact in any order
    asm = narrow.dispatcher.inspect_asm(narrow.dispatcher.signatures[0])
    assert _vector_registers(asm) == {"xmm"}  # still vectorized, two lanes wide

    # The setting does not leak into later compilations.
    wide = _fresh()
    wide(x, x, out)
    plain = wide.dispatcher.inspect_asm(wide.dispatcher.signatures[0])
    assert _vector_registers(plain) - {"xmm"}, "the default compilation uses wider vectors (AVX2 or AVX-512)"
    err = capfd.readouterr().err
    assert "remark:" not in err


def test_stream_kernels_ask_for_256_bits() -> None:
    from rocmath.blas import _kernels_l1, _kernels_l2

    for k in (_kernels_l1.dot, _kernels_l1.nrm2, _kernels_l1.asum, _kernels_l1.axpy, _kernels_l2.gemv_flat):
        assert k.vector_bits == 256
