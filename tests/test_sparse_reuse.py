"""rocsparse_analysis_policy_reuse across routines: an analysis with the reuse policy takes over the first
analysis of the same triangle another routine made (csrsv, csrsm, csrilu0, csric0 and their BSR twins, in
rocSPARSE's order: rocmath.sparse._solve.SHARED_ANALYSES), runs nothing (the info's zero pivot stays), and
the solve or factorization after it computes what it computes after an analysis of its own."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs
from rocmath.sparse._solve import SHARED_ANALYSES, held_analysis
from rocmath.sparse._types import FillMode

N, T = rs.Operation.none, rs.Operation.transpose
REUSE, FORCE = rs.AnalysisPolicy.reuse, rs.AnalysisPolicy.force
AUTO = rs.SolvePolicy.auto
M, BD, MISSING = 12, 2, 2  # rows; block dim of the BSR twin; the block row (row pair) without diagonal
NRHS = 3


def structure(rng: np.random.Generator, full_diagonal: bool) -> sp.csr_matrix:
    """A structurally unsymmetric sorted CSR matrix with a dominant diagonal; without ``full_diagonal`` the
    rows (and block rows) of block row MISSING lack their diagonal entries (a structural zero pivot)."""
    a = sp.random(M, M, density=0.3, format="csr", random_state=rng) + sp.diags(np.full(M, 2.0 * M))
    a = sp.csr_matrix(a)
    if not full_diagonal:
        a = a.tolil()
        for r in range(MISSING * BD, MISSING * BD + BD):
            for c in range(MISSING * BD, MISSING * BD + BD):
                a[r, c] = 0
        a = a.tocsr()
        a.eliminate_zeros()
    a.sort_indices()
    return a


class Env:
    """A matrix on the device in CSR and in BSR (block dim BD, row-major blocks), one handle, one info."""

    def __init__(self, a: sp.csr_matrix, base: int = 0):
        self.a, self.base = a, base
        self.h, self.info = rs.create_handle(), rs.create_mat_info()
        self.val = rm.to_device(a.data.astype(np.float64))
        self.ptr = rm.to_device((a.indptr + base).astype(np.int32))
        self.ind = rm.to_device((a.indices + base).astype(np.int32))
        b = sp.bsr_matrix(a, blocksize=(BD, BD))
        b.sort_indices()
        self.mb, self.nnzb = M // BD, b.indices.size
        self.bval = rm.to_device(np.ascontiguousarray(b.data).ravel())
        self.bptr = rm.to_device((b.indptr + base).astype(np.int32))
        self.bind = rm.to_device((b.indices + base).astype(np.int32))
        self.B = rm.to_device(np.ones(M * NRHS))
        self.buf = rm.empty(1 << 16, np.uint8)

    def descr(self, fill: FillMode, unit: bool = False):
        d = rs.create_mat_descr()
        rs.set_mat_index_base(d, self.base)
        rs.set_mat_fill_mode(d, fill)
        rs.set_mat_diag_type(d, rs.DiagType.unit if unit else rs.DiagType.non_unit)
        return d

    def analyse(self, key, policy, unit: bool = False) -> None:
        kind, transposed, fill = key
        d, op, h, info, nnz = self.descr(fill, unit), T if transposed else N, self.h, self.info, self.a.nnz
        csr = (self.val, self.ptr, self.ind)
        bsr = (self.bval, self.bptr, self.bind, BD)
        rowd = rs.Direction.row
        if kind == "csrsv":
            rs.dcsrsv_analysis(h, op, M, nnz, d, *csr, info, policy, AUTO, self.buf)
        elif kind == "csrsm":
            rs.dcsrsm_analysis(h, op, N, M, NRHS, nnz, 1.0, d, *csr, self.B, M, info, policy, AUTO, self.buf)
        elif kind in ("csrilu0", "csric0"):
            getattr(rs, f"d{kind}_analysis")(h, M, nnz, d, *csr, info, policy, AUTO, self.buf)
        elif kind == "bsrsv":
            rs.dbsrsv_analysis(h, rowd, op, self.mb, self.nnzb, d, *bsr, info, policy, AUTO, self.buf)
        elif kind == "bsrsm":
            rs.dbsrsm_analysis(h, rowd, op, N, self.mb, NRHS, self.nnzb, d, *bsr, info, policy, AUTO, self.buf)
        else:
            getattr(rs, f"d{kind}_analysis")(h, rowd, self.mb, self.nnzb, d, *bsr, info, policy, AUTO, self.buf)

    def pivot(self) -> int:
        """The info's zero pivot (-1: none), as csrsm_zero_pivot reports it once any analysis made it."""
        try:
            return int(rs.csrsm_zero_pivot(self.h, self.info, None))
        except rs.SparseZeroPivotError as e:
            return int(e.position)


def family(key) -> list:
    """Every analysis key of key's format (CSR or BSR) but key itself."""
    bsr = key[0].startswith("bsr")
    kinds = ("bsrsv", "bsrsm", "bsrilu0", "bsric0") if bsr else ("csrsv", "csrsm", "csrilu0", "csric0")
    out = []
    for kind, transposed, fill in itertools.product(kinds, (False, True), (FillMode.lower, FillMode.upper)):
        factor = kind.endswith(("ilu0", "ic0"))
        if factor and (transposed or fill is FillMode.upper):
            continue
        if (kind, transposed, fill) != key:
            out.append((kind, transposed, fill))
    return out


PAIRS = [(key, other) for key, others in SHARED_ANALYSES.items() for other in others]


def _name(key) -> str:
    return f"{key[0]}{'T' if key[1] else ''}{key[2].name[0]}"


@pytest.mark.parametrize(("key", "other"), PAIRS, ids=[f"{_name(k)}<-{_name(o)}" for k, o in PAIRS])
def test_reuse_takes_over_without_running(key, other) -> None:
    env = Env(structure(np.random.default_rng(5), full_diagonal=False), base=1)
    env.analyse(other, FORCE)
    missing = MISSING * (1 if key[0].startswith("bsr") else BD) + env.base
    assert env.pivot() == missing
    # A unit-diagonal analysis that ran would clear the pivot: taken over, nothing runs.
    env.analyse(key, REUSE, unit=True)
    assert env.pivot() == missing
    taken = held_analysis(env.info, key)
    assert taken is not None
    if key[0] in ("csrilu0", "csric0") and other[1]:
        # A transposed upper analysis walks the transposed structure: the factorization's schedule is made
        # again for the matrix as given, the pivot left as the reuse leaves it.
        assert taken is not held_analysis(env.info, other) and taken.t_ptr is None
    else:
        assert taken is held_analysis(env.info, other)
    env.analyse(key, FORCE, unit=True)  # the force policy always runs
    assert env.pivot() == -1
    assert held_analysis(env.info, key) is not held_analysis(env.info, other)


def test_reuse_order_and_what_is_not_shared() -> None:
    env = Env(structure(np.random.default_rng(6), full_diagonal=False))
    for key, shared in SHARED_ANALYSES.items():
        # All the shared ones held: the first in rocSPARSE's order serves.
        env.info = rs.create_mat_info()
        for other in reversed(shared):
            env.analyse(other, FORCE)
        env.analyse(key, REUSE, unit=True)
        first = held_analysis(env.info, shared[0])
        if not (key[0] in ("csrilu0", "csric0") and shared[0][1]):
            assert held_analysis(env.info, key) is first, key
        # Any other analysis of the format: a new one runs (the unit diagonal clears the pivot).
        for other in family(key):
            if other in shared:
                continue
            env.info = rs.create_mat_info()
            env.analyse(other, FORCE)
            env.analyse(key, REUSE, unit=True)
            assert env.pivot() == -1, (key, other)
            assert held_analysis(env.info, key) is not held_analysis(env.info, other)
    # Keys outside the table share nothing: bsrsv's upper and transposed analyses (rocSPARSE's bsrsm branches
    # are commented out).
    assert {k for k in family(("bsrsv", False, FillMode.lower)) if k[0] == "bsrsv"} - set(SHARED_ANALYSES) == {
        ("bsrsv", False, FillMode.upper), ("bsrsv", True, FillMode.upper), ("bsrsv", True, FillMode.lower)}


def _csr_result(env: Env, kind: str) -> np.ndarray:
    """Run ``kind``'s solve or factorization after its analysis; returns what it wrote."""
    d = env.descr(FillMode.lower)
    if kind in ("csrilu0", "csric0"):
        val = rm.to_device(env.a.data.astype(np.float64))
        getattr(rs, f"d{kind}")(env.h, M, env.a.nnz, d, val, env.ptr, env.ind, env.info, AUTO, env.buf)
        return val.get()
    y = rm.zeros(M)
    x = rm.to_device(np.arange(1.0, M + 1))
    rs.dcsrsv_solve(env.h, N, M, env.a.nnz, 2.0, d, env.val, env.ptr, env.ind, env.info, x, y, AUTO, env.buf)
    return y.get()


@pytest.mark.parametrize(("kind", "other"), [("csrilu0", ("csrsv", True, FillMode.upper)),
                                             ("csric0", ("csrsm", True, FillMode.upper)),
                                             ("csrilu0", ("csric0", False, FillMode.lower)),
                                             ("csrsv", ("csrilu0", False, FillMode.lower)),
                                             ("csrsv", ("csrsm", False, FillMode.lower))])
@pytest.mark.parametrize("base", [0, 1])
def test_taken_over_analysis_computes_the_same(kind, other, base) -> None:
    a = structure(np.random.default_rng(7), full_diagonal=True)
    if kind == "csric0":
        a = sp.csr_matrix(a + a.T)
        a.sort_indices()
    own = Env(a, base)
    own.analyse((kind, False, FillMode.lower), FORCE)
    expected = _csr_result(own, kind)
    env = Env(a, base)
    env.analyse(other, FORCE)
    env.analyse((kind, False, FillMode.lower), REUSE)
    got = _csr_result(env, kind)
    np.testing.assert_array_equal(got, expected)
    if kind == "csrsv":
        lower = sp.tril(a).toarray()
        np.testing.assert_allclose(lower @ got, 2.0 * np.arange(1.0, M + 1), rtol=1e-12)
