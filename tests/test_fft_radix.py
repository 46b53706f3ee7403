"""rocmath.fft's radix 7, 11 and 13 stages, the short-run stage shapes, Bluestein's work buffer,
and the generated stage module being what its generator writes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rocmath as rm
import rocmath.fft as F
from rocmath.fft import _codegen
from rocmath.fft._plan import SCRATCH_GROUPS, good_size, radices

PL, TT, P = F.ResultPlacement, F.TransformType, F.Precision


def _rel_error(n: int, dtype: type, axis: int = -1, batch: int = 3) -> float:
    """Relative L2 error of a batch of length-n transforms against numpy.fft in double, per eps log2 n."""
    rng = np.random.default_rng(n)
    cd = np.complex64 if dtype == np.float32 else np.complex128
    shape = (batch, n) if axis == -1 else (n, batch)
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cd)
    y = F.fft(rm.to_device(x), axis=axis).get()
    ref = np.fft.fft(x.astype(np.complex128), axis=axis)
    return float(np.linalg.norm(y - ref) / np.linalg.norm(ref) / np.finfo(dtype).eps / max(1.0, math.log2(n)))


@pytest.mark.parametrize("n", [7, 11, 13, 49, 121, 169, 7 * 8, 11 * 16, 13 * 9, 1001, 3 * 7 * 11 * 13, 7 ** 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_new_radices_accuracy(n: int, dtype: type) -> None:
    assert all(r in (2, 3, 4, 5, 7, 8, 11, 13) for r in radices(n) or [0])
    # Contiguous lines (first stage along the line) and strided ones (several lines per chunk).
    assert _rel_error(n, dtype) < 2.0
    assert _rel_error(n, dtype, axis=0, batch=40) < 2.0


@pytest.mark.parametrize("n", [16, 64, 1000, 1024, 2187, 4096])
def test_short_runs_single_precision(n: int) -> None:
    # The stages after the first run on 2, 4 or 8 values (constant-length specializations).
    assert _rel_error(n, np.float32, batch=5) < 2.0
    assert _rel_error(n, np.float32, axis=0, batch=24) < 2.0


def test_bluestein_work_buffer_holds_its_buffers() -> None:
    n, batch = 4099, 3
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [n], batch)
    m = good_size(2 * n - 1)
    need = F.plan_get_work_buffer_size(plan)
    assert need == 4 * m * 8 * min(batch, SCRATCH_GROUPS)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n))
    dx, dy = rm.to_device(x), rm.empty((batch, n), np.complex128)
    info = F.execution_info_create()
    assert F.plan_get_work_buffer_size(plan) > 0
    small = rm.empty(need - 8, np.uint8)
    F.execution_info_set_work_buffer(info, small, need - 8)
    with pytest.raises(F.RocfftInvalidWorkBuffer):
        F.execute(plan, [dx], [dy], info)
    work = rm.empty(need, np.uint8)
    F.execution_info_set_work_buffer(info, work, need)
    F.execute(plan, [dx], [dy], info)
    rm.device_synchronize()
    np.testing.assert_allclose(dy.get(), np.fft.fft(x), rtol=0, atol=1e-9 * np.abs(np.fft.fft(x)).max())
    # Single precision: float32 buffers; a smooth length needs none.
    p32 = F.plan_create(PL.notinplace, TT.complex_forward, P.single, 1, [n], 1)
    assert F.plan_get_work_buffer_size(p32) == 4 * m * 4
    assert F.plan_get_work_buffer_size(F.plan_create(PL.notinplace, TT.complex_forward, P.single, 1, [1000], 8)) == 0
    assert "work buffer: " + str(need) in plan.exec_plan.describe()


def test_generated_stages_are_up_to_date() -> None:
    assert _codegen.TARGET.read_text(encoding="utf-8") == _codegen.generate(), \
        "fft/_stages.py is stale: run python -m rocmath.fft._codegen"


def test_butterfly_constants_are_correctly_rounded() -> None:
    for r in (3, 5, 7, 11, 13):
        for k in range(1, (r - 1) // 2 + 1):
            c, s = _codegen._cos_sin(k, r)
            assert abs(c - math.cos(2 * math.pi * k / r)) <= 4e-16 and abs(s - math.sin(2 * math.pi * k / r)) <= 4e-16
    assert _codegen._cos_sin(1, 3)[0] == -0.5
