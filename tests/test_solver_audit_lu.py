"""Audit of the LU and Cholesky families against rocSOLVER's source: the behaviours fixed.

Each test names the rocSOLVER file (library/src/...) whose behaviour it pins.  The audit
found rocmath's argument checks, check order, size queries and quick returns of getf2,
getrf (+ _npvt), getrs, gesv, getri (+ _npvt, _outofplace), laswp, potf2, potrf, potrs,
posv, potri, trtri and lauum to match rocSOLVER's (the family tests cover them); what
differed was which pivots the device work reads (so which calls fault):

- in-place getri interchanges columns with pivots 1..n-1 only, and only for an entry
  whose U has no zero on its diagonal (a singular entry returns before its pivots are
  read): a garbage last pivot, or garbage pivots of a singular entry, are not a
  MemoryAccessFault;
- laswp accesses a row only when its pivot moves it: a row past lda (k2 is not checked
  against lda) that stays is fine, one that moves is outside the matrix, so a
  MemoryAccessFault (it used to be written silently past the matrix).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import (
    BIG,
    FLAVOURS,
    Matrix,
    Vector,
    call,
    closing,
    factors,
    fn,
    info_array,
    inverse_ratio,
    random,
    same_bits,
)

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import MemoryAccessFault
from rocmath.precision import SDCZ, D, Precision

#: Pivots no valid factorization has: each would address a column or row outside the matrix.
GARBAGE = (0, -3, 10**6, 2**31 - 1)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def run_getri(handle: Any, routine: str, p: Precision, flavour: str, packed: np.ndarray, piv: np.ndarray,
              ) -> tuple[np.ndarray, np.ndarray]:
    """(in-place getri's output, info) for the stack ``packed``; ipiv must be left as it was and
    every operand's padding, gaps and margins untouched."""
    batch, n, _ = packed.shape
    A, P, info = Matrix(packed, n + 1, flavour, 2), Vector(batch, n, flavour, 1, piv), info_array(batch)
    with closing(A, P, info):
        call(handle, routine, p, flavour, batch, n=n, A=A, ipiv=P, info=info)
        A.check()
        P.check(logical=True)
        info.check_untouched()
        return A.get(), info.get()[:, 0]


# --- getri (in place): the pivots it reads -------------------------------------------------------------


@settings(max_examples=rt.examples(20))
@given(st.data())
def test_getri_in_place_does_not_read_the_last_pivot(handle: Any, data: st.DataObject) -> None:
    # lapack/roclapack_getri.hpp 81-96 (getri_pivot: j = n-2 down to 0) and specialized/
    # roclapack_getri_specialized_kernels.hpp 153-162 (the same loop): ipiv[n-1] is never read, as in
    # LAPACK's getri.  It used to be checked, so a garbage last pivot was a MemoryAccessFault.
    p, flavour = data.draw(st.sampled_from(SDCZ)), data.draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else data.draw(st.integers(1, 3))
    n = BIG if data.draw(st.integers(0, 4)) == 0 else data.draw(st.integers(1, 9))  # LAPACK path too
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a, packed, piv, _ = factors(p, batch, n, rng, True, ())
    bad = piv.copy()
    bad[:, n - 1] = data.draw(st.sampled_from(GARBAGE))
    ref, ref_info = run_getri(handle, "getri", p, flavour, packed, piv)
    got, info = run_getri(handle, "getri", p, flavour, packed, bad)
    assert np.array_equal(info, np.zeros(batch)) and np.array_equal(ref_info, info)
    assert same_bits(got, ref)
    assert inverse_ratio(a, got, p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("flavour", ("strided", "batched"))
@pytest.mark.parametrize("n", [5, BIG])
def test_getri_in_place_does_not_read_a_singular_entrys_pivots(handle: Any, flavour: str, n: int) -> None:
    # lapack/roclapack_getri.hpp 124-143 (getri_kernel_large2 interchanges only where info == 0)
    # and specialized/roclapack_getri_specialized_kernels.hpp 96-101, 129-130 (returns when info != 0, before the
    # pivots): a singular entry's pivots are not read, its A is left as it was.  They used to be
    # checked, so garbage there was a MemoryAccessFault for the whole batch.
    rng = np.random.default_rng(n)
    a, packed, piv, ref_info = factors(D, 3, n, rng, True, singular=(1,))
    bad = piv.copy()
    bad[1] = np.resize(GARBAGE, n)
    ref, _ = run_getri(handle, "getri", D, flavour, packed, piv)
    got, info = run_getri(handle, "getri", D, flavour, packed, bad)
    assert np.array_equal(info, ref_info) and info[1] > 0 and not info[[0, 2]].any()
    assert same_bits(got[1], packed[1])  # left as it was
    assert same_bits(got, ref)
    assert inverse_ratio(a[[0, 2]], got[[0, 2]], D) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("routine_bad", ["last", "singular"])
def test_getri_outofplace_still_reads_every_pivot(handle: Any, routine_bad: str) -> None:
    # lapack/roclapack_getri_outofplace.hpp 137-149 (C := I, then getrs on every entry, singular or
    # not) with roclapack_getrs.hpp 152-154, 183-185 (laswp over rows 1..n) and
    # auxiliary/rocauxiliary_laswp.hpp 58-65: the
    # out-of-place inverse reads all n pivots of every entry, so garbage anywhere is still a
    # MemoryAccessFault (nothing written: A, C and info keep their bits).
    n = 5
    _, packed, piv, _ = factors(D, 2, n, np.random.default_rng(3), True, singular=(0,))
    bad = piv.copy()
    if routine_bad == "last":
        bad[1, n - 1] = n + 1
    else:
        bad[0, 0] = 0
    A, P, info = Matrix(packed, n, "strided"), Vector(2, n, "strided", 0, bad), info_array(2)
    C = Matrix(np.full_like(packed, 7), n, "strided")
    with closing(A, P, info, C):
        call(handle, "getri_outofplace", D, "strided", 2, n=n, A=A, ipiv=P, C=C, info=info)
        with pytest.raises(MemoryAccessFault, match="ipiv"):
            rm.device_synchronize()
        for operand in (A, P, C):
            operand.check(logical=True)
        info.check_untouched(logical=True)


# --- laswp: rows past lda -------------------------------------------------------------------------


def laswp_reference(a: np.ndarray, k1: int, k2: int, ipiv: np.ndarray, incx: int) -> np.ndarray:
    out = a.copy()
    rows = range(k1, k2 + 1) if incx > 0 else range(k2, k1 - 1, -1)
    for i in rows:
        q = ipiv[k1 - 1 + (i - k1) * abs(incx)]
        if q != i:  # rocSOLVER touches a row only when it moves
            out[[i - 1, q - 1]] = out[[q - 1, i - 1]]
    return out


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("incx", [1, -2])
def test_laswp_moving_a_row_past_lda_is_a_memory_fault(handle: Any, p: Precision, incx: int) -> None:
    # auxiliary/rocauxiliary_laswp.hpp 86-97: the checks (n, lda, k1, k2 >= k1, incx) never compare k2
    # with lda, and the kernel (58-65) swaps A[i - 1 + c lda] with A[ipiv - 1 + c lda] for a moving row i:
    # a row past lda reaches outside the matrix.  It used to be written there silently.
    lda, n, k1, k2 = 4, 3, 2, 6
    rng = np.random.default_rng(4)
    ipiv = np.zeros(k1 + (k2 - k1) * abs(incx), np.int32)  # (the entries laswp skips are never read)
    for i in range(k1, k2 + 1):  # every row stays ...
        ipiv[k1 - 1 + (i - k1) * abs(incx)] = i
    ipiv[k1 - 1 + (5 - k1) * abs(incx)] = 1  # ... but row 5, past lda, moves
    a = random(p, (lda, n), rng)
    A, P = rt.poisoned_device_matrix(a, lda), rt.poisoned_device_vector(ipiv)
    with closing(A, P):
        fn("laswp", p)(handle, n, A.ptr, lda, k1, k2, P.ptr, incx)
        with pytest.raises(MemoryAccessFault, match="'k2': row 5"):
            rm.device_synchronize()
        A.check_untouched(logical=True)  # nothing written, margins included
        P.check_untouched(logical=True)


@settings(max_examples=rt.examples(20))
@given(st.data())
def test_laswp_rows_that_stay_are_not_accessed(handle: Any, data: st.DataObject) -> None:
    # auxiliary/rocauxiliary_laswp.hpp 58-65 (laswp_kernel swaps only if exch != i): a row whose pivot
    # is itself is not accessed, so rows past lda that stay are fine (they used to be refused as
    # pivots outside 1..lda); the moving rows are interchanged as before.
    p = data.draw(st.sampled_from(SDCZ))
    lda, n = data.draw(st.integers(1, 6)), data.draw(st.integers(0, 4))
    k1 = data.draw(st.integers(1, lda))
    k2 = data.draw(st.integers(lda, lda + 4))
    incx = data.draw(st.sampled_from((1, 2, -1, -3)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    count = k1 + (k2 - k1) * abs(incx)
    ipiv = rng.integers(1, lda + 1, count).astype(np.int32)
    for i in range(lda + 1, k2 + 1):  # past lda: each row stays
        ipiv[k1 - 1 + (i - k1) * abs(incx)] = i
    a = random(p, (lda, n), rng)
    A, P = rt.poisoned_device_matrix(a, lda), rt.poisoned_device_vector(ipiv)
    with closing(A, P):
        fn("laswp", p)(handle, n, A.ptr, lda, k1, k2, P.ptr, incx)
        rm.device_synchronize()
        A.check_untouched()
        P.check_untouched(logical=True)
        got = A.get()
    assert same_bits(got, laswp_reference(a, k1, k2, ipiv, incx))
