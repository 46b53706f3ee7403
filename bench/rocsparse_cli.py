"""``rocmath-bench sparse``: rocsparse-bench's command line, run on rocmath.sparse.

``rocmath-bench sparse -f csrmv -r d --dimx 100 --dimy 100 --alpha 1 --beta 0 -i 20`` takes
rocsparse-bench's flags (same names, short forms and defaults: ``-f``/``--function`` axpyi,
``-r``/``--precision`` s, ``-m``/``-n``/``-k`` 128, ``-z``/``--sizennz`` 32, ``--alpha`` 1,
``--beta`` 0, ``--transposeA``/``--transposeB`` N, ``--indexbaseA`` 0, ``--uplo`` L, ``--diag`` N,
``--indextype`` s, ``--format`` 0 (coo), ``--order``/``--orderB``/``--orderC`` 1 (column),
``--batch_count``/``--batch_stride`` 128, ``--spmv_alg``/``--spmm_alg`` 0, ``-i`` 10, ``-v`` 0).

The matrix comes, as rocsparse-bench chooses it, from a file (``--mtx`` Matrix Market, read by
``scipy.io.mmread``; ``--rocalution`` rocALUTION's binary CSR; ``--file`` by extension), else a
Laplacian (``--dimx``/``--dimy``: 2D 5-point, with ``--dimz``: 3D 7-point; ``--laplacian-dim
100,100[,100]`` is rocmath's shorthand for the three), else a random ``m x n`` matrix with exactly
``-z`` nonzeros (rocsparse-bench's default).  A file or Laplacian overrides ``-m``, ``-n`` and ``-z``.
Triangular solves (csrsv) take the ``--uplo`` triangle with a dominant diagonal (a random source
gives a triangle of exactly ``max(z, m)`` nonzeros, the diagonal included).

Functions: Level 1 axpyi, doti, dotci, gthr, gthrz, sctr, roti (a sparse vector of ``-z`` entries
into a dense one of ``max(n, z)``; roti's c and s are ``--alpha`` and ``--beta``); Level 2 csrmv
(``--spmv_alg 2``: analysed, csr_adaptive; otherwise stream), coomv, csrsv (analysis once, timed
solves), the generic spmv (``--format`` 0 coo, 2 csr, 3 csc); Level 3 csrmm and the generic spmm
(csr, csc; dense B and C in ``--orderB``/``--orderC``); extra csrgemm (buffer_size, nnz and compute
in every timed call; ``B`` is ``A`` for a file or Laplacian, else a random ``k x n`` matrix of ``-z``
nonzeros; ``--beta`` != 0 adds ``D``, a random ``m x n`` matrix); precond gtsv_no_pivot_strided_batch.

As rocsparse-bench, the function runs 2 cold calls then ``-i`` timed ones between stream
synchronizations and prints its table: a legend line and a value line, columns padded to the
longest name plus 4, doubles with 2 decimals: the function's parameters, ``GFlop/s``, ``GB/s``
(rocSPARSE's counts), ``msec`` (mean per call), then ``iter``, ``verified``, ``function``,
``import`` (the matrix: rand, L2D, L3D or the file's stem), ``ctype``, ``itype``, ``jtype``.  Four
columns are rocmath's own and come last: ``ref-msec``, the scipy.sparse (or NumPy/SciPy)
reference timed the same way in the same process (the timed calls run in up to 11 rounds,
rocmath's then the reference's, interleaved), ``ratio``, the reference's median time per call
over the rounds divided by rocmath's (> 1: rocmath is faster), and ``ratio-lo``/``ratio-hi``, its
bootstrap 95 % interval.  ``-v 1`` compares one call on fresh data with the reference first.

The ``ROCSPARSE_LAYER=2`` bench log of rocmath.sparse writes these commands; each replays the
call's sizes, scalars, operations and index base (the matrix is regenerated, random by default).

Exit status: 0 on success, 1 when ``-v 1`` finds an error above tolerance (or the run fails), 2
for a usage error (unknown function or flag, a bad value, arguments rocSPARSE rejects).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import scipy.sparse as sp

from ._cli_common import (
    Parser,
    UsageError,
    choice,
    device_line,
    letter,
    print_help,
    select_device,
    time_rounds,
    usage_failure,
)

__all__ = ["FUNCTIONS", "Bench", "UsageError", "laplacian", "load_matrix", "main", "parse_args", "random_matrix",
           "run"]

SEED = 12345  # fixed, so runs are reproducible
COLD_CALLS = 2  # rocsparse-bench's number_cold_calls
_PRECISIONS = {"s": "s", "d": "d", "c": "c", "z": "z", "f32_r": "s", "f64_r": "d", "f32_c": "c", "f64_c": "z"}
_CTYPE = {"s": "f32_r", "d": "f64_r", "c": "f32_c", "z": "f64_c"}
_DTYPE = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
_INDEX = {"s": ("i32", "i32"), "d": ("i64", "i64"), "m": ("i64", "i32")}

LEVEL1 = ("axpyi", "doti", "dotci", "gthr", "gthrz", "sctr", "roti")
#: Every function ``-f`` accepts.
FUNCTIONS = (*LEVEL1, "csrmv", "coomv", "csrsv", "spmv", "csrmm", "spmm", "csrgemm", "gtsv_no_pivot_strided_batch")


# --- the command line ------------------------------------------------------------------------


def _parser() -> Parser:
    p = Parser(prog="rocmath-bench sparse", add_help=False, allow_abbrev=False,
                description="rocsparse-bench's command line on rocmath.sparse: time one rocSPARSE function on the "
                            "simulated device and print rocsparse-bench's table, plus ref-msec (the scipy.sparse "
                            "reference timed the same way, interleaved in rounds), ratio (median reference / "
                            "median rocmath time over the rounds; >1: rocmath is faster) and ratio-lo, ratio-hi "
                            "(its bootstrap 95% interval).",
                epilog="Examples: rocmath-bench sparse -f csrmv -r d --dimx 300 --dimy 300;  rocmath-bench sparse "
                       "-f spmv -r s --format 2 --mtx A.mtx -i 50;  rocmath-bench sparse -f axpyi -r d -n 100000 "
                       f"-z 1000.  Functions: {', '.join(FUNCTIONS)}.")
    a = p.add_argument
    a("-h", "--help", action="store_true", help="print this help and exit")
    a("-f", "--function", default="axpyi", help="function (default axpyi)")
    a("-r", "--precision", default="s", help="s, d, c, z (or f32_r, f64_r, f32_c, f64_c; default s)")
    a("--indextype", default="s", choices=tuple(_INDEX), help="index types: s int32, d int64, m int64/int32")
    a("-m", "--sizem", dest="M", type=int, default=128, help="rows (default 128)")
    a("-n", "--sizen", dest="N", type=int, default=128, help="columns, dense vector length (default 128)")
    a("-k", "--sizek", dest="K", type=int, default=128, help="inner size of Level 3 and csrgemm (default 128)")
    a("-z", "--sizennz", dest="nnz", type=int, default=32, help="nonzeros of a random matrix or sparse vector "
                                                                "(default 32)")
    a("--mtx", default="", help="read the matrix from a Matrix Market file (overrides -m, -n, -z)")
    a("--rocalution", default="", help="read the matrix from a rocALUTION binary CSR file")
    a("--file", default="", help="read the matrix from a file, format by extension (.mtx, .csr)")
    for d in ("dimx", "dimy", "dimz"):
        a(f"--{d}", type=int, default=0, help="Laplacian grid dimension (dimx and dimy: 2D; with dimz: 3D)")
    a("--laplacian-dim", dest="laplacian_dim", default="", help="rocmath's shorthand: DIMX,DIMY[,DIMZ]")
    a("--alpha", type=float, default=1.0, help="alpha (default 1)")
    a("--alphai", type=float, default=0.0, help="imaginary part of alpha (rocmath's; default 0)")
    a("--beta", type=float, default=0.0, help="beta (default 0)")
    a("--betai", type=float, default=0.0, help="imaginary part of beta (rocmath's; default 0)")
    a("--transposeA", type=letter("NTC"), default="N", help="N, T or C (default N)")
    a("--transposeB", type=letter("NTC"), default="N", help="N, T or C (default N)")
    for key in "ABCD":
        a(f"--indexbase{key}", type=choice((0, 1)), default=0, help="0 or 1 (default 0)")
    a("--matrix_type", type=choice((0, 1, 2, 3)), default=0, help="0 general (the only one benchmarked)")
    a("--diag", type=letter("NU"), default="N", help="N non-unit, U unit diagonal (default N)")
    a("--uplo", type=letter("LU"), default="L", help="L lower, U upper fill (default L)")
    a("--storage", type=choice((0, 1)), default=0, help="0 sorted, 1 unsorted (default 0)")
    a("--apolicy", type=letter("RF"), default="R", help="R reuse, F force (default R)")
    a("--order", type=choice((0, 1)), default=1, help="dense order: 0 row, 1 column (default 1)")
    a("--orderB", type=choice((0, 1)), default=None, help="order of B (default --order)")
    a("--orderC", type=choice((0, 1)), default=None, help="order of C (default --order)")
    a("--format", "--formatA", dest="format", type=choice((0, 1, 2, 3, 4, 5, 6)), default=0,
      help="sparse format of the generic API: 0 coo, 2 csr, 3 csc (default 0)")
    a("--denseld", type=int, default=128, help="dense leading dimension (accepted; the minimum is used)")
    a("--batch_count", type=int, default=128, help="batch count (default 128)")
    a("--batch_stride", type=int, default=128, help="batch stride, raised to -m (default 128)")
    a("--spmv_alg", type=choice((0, 1, 2, 3, 4, 5, 6, 7)), default=0, help="spmv algorithm (default 0)")
    a("--spmm_alg", type=choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9)), default=0, help="spmm algorithm (default 0)")
    a("-v", "--verify", type=int, default=0, help="1: check one call against the reference (default 0)")
    a("-i", "--iters", type=int, default=10, help="timed calls (default 10)")
    a("-d", "--device", type=int, default=0, help="device id (default 0)")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse rocsparse-bench's flags.

    Raises
    ------
    UsageError
        For an unknown flag or function, a bad value or negative sizes.
    """
    args = _parser().parse_args(list(argv))
    if args.help:
        return args
    if args.function not in FUNCTIONS:
        raise UsageError(f"function {args.function!r} is not in rocmath.sparse's bench (functions: "
                         f"{', '.join(FUNCTIONS)})")
    if args.precision not in _PRECISIONS:
        raise UsageError(f"invalid precision {args.precision!r} (s, d, c, z)")
    args.precision = _PRECISIONS[args.precision]
    if min(args.M, args.N, args.K, args.nnz) < 0:
        raise UsageError("Invalid dimension")
    if args.iters < 0:
        raise UsageError("Invalid value for -i")
    if args.laplacian_dim:
        try:
            dims = [int(t) for t in args.laplacian_dim.replace("x", ",").split(",")]
        except ValueError:
            raise UsageError(f"--laplacian-dim: expected DIMX,DIMY[,DIMZ], got {args.laplacian_dim!r}") from None
        if len(dims) not in (2, 3) or min(dims) < 1:
            raise UsageError(f"--laplacian-dim: two or three positive dimensions, got {args.laplacian_dim!r}")
        args.dimx, args.dimy, args.dimz = (*dims, 0)[:3]
    args.orderB = args.order if args.orderB is None else args.orderB
    args.orderC = args.order if args.orderC is None else args.orderC
    if args.function == "roti" and args.precision in "cz":
        raise UsageError("roti is real only (s, d)")
    if args.function == "dotci" and args.precision in "sd":
        raise UsageError("dotci is complex only (c, z)")
    if args.indextype == "m" and args.function not in ("spmv", "spmm"):
        raise UsageError("--indextype m needs the generic API (spmv, spmm)")
    return args


# --- matrices --------------------------------------------------------------------------------


def laplacian(dimx: int, dimy: int, dimz: int = 0) -> sp.csr_matrix:
    """rocsparse-bench's Laplacian: the 5-point (2D) or 7-point (3D) stencil of a grid, 4 or 6 on the
    diagonal and -1 off it, rows ordered x fastest."""
    def path(k: int) -> sp.spmatrix:
        e = np.ones(k)
        return sp.diags([-e[:-1], -e[:-1]], [-1, 1], shape=(k, k))

    dims = [d for d in (dimx, dimy, dimz) if d > 0]
    n = math.prod(dims)
    a = sp.csr_matrix((n, n))
    for i, d in enumerate(dims):
        left = sp.identity(math.prod(dims[i + 1:]))
        right = sp.identity(math.prod(dims[:i]))
        a = a + sp.kron(sp.kron(left, path(d)), right)
    a = (a + 2.0 * len(dims) * sp.identity(n)).tocsr()
    a.sort_indices()
    return a


def random_matrix(m: int, n: int, nnz: int, rng: np.random.Generator) -> sp.csr_matrix:
    """An ``m x n`` matrix with exactly ``min(nnz, m n)`` nonzeros at distinct random places, values
    uniform in [-1, 1) (never 0)."""
    total = m * n
    nnz = min(nnz, total)
    flat = np.sort(rng.choice(total, nnz, replace=False)) if nnz else np.zeros(0, np.int64)
    vals = rng.uniform(0.1, 1.0, nnz) * rng.choice([-1.0, 1.0], nnz)
    a = sp.csr_matrix((vals, (flat // max(n, 1), flat % max(n, 1))), shape=(m, n))
    a.sort_indices()
    return a


def _read_rocalution(path: str) -> sp.csr_matrix:
    """A rocALUTION binary CSR file: a header line, then int32 version, m, n, nnz, the row offsets,
    columns and double values (complex files: pairs of doubles)."""
    raw = Path(path).read_bytes()
    end = raw.index(b"\n") + 1
    _, m, n, nnz = np.frombuffer(raw, np.int32, 4, end)
    pos = end + 16
    ptr = np.frombuffer(raw, np.int32, m + 1, pos)
    pos += 4 * (m + 1)
    ind = np.frombuffer(raw, np.int32, nnz, pos)
    pos += 4 * nnz
    complex_values = len(raw) - pos >= 16 * nnz > 0
    val = np.frombuffer(raw, np.complex128 if complex_values else np.float64, nnz, pos)
    return sp.csr_matrix((val.copy(), ind.copy(), ptr.copy()), shape=(int(m), int(n)))


def load_matrix(args: argparse.Namespace) -> tuple[sp.csr_matrix | None, str]:
    """The matrix the flags name, in rocsparse-bench's order of precedence (file, Laplacian), and its
    ``import`` label; ``(None, "rand")`` when the matrix is random."""
    import scipy.io

    path = args.file or args.rocalution or args.mtx
    if path:
        try:
            if (args.file and path.endswith(".csr")) or (not args.file and args.rocalution):
                a = _read_rocalution(path)
            else:
                a = sp.csr_matrix(scipy.io.mmread(path))
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read {path}: {exc}") from None
        a.sum_duplicates()
        a.sort_indices()
        return a, Path(path).stem
    if args.dimx and args.dimy:
        return laplacian(args.dimx, args.dimy, args.dimz), "L3D" if args.dimz else "L2D"
    return None, "rand"


# --- one benchmark ------------------------------------------------------------------------------


@dataclass
class Bench:
    """One problem set up on the device: the call, its reference and what the table shows.

    Attributes
    ----------
    call
        One rocSPARSE call (queued on ``stream``).
    reference
        The same operation by scipy.sparse/NumPy on host data.
    check
        Runs one call on fresh data and returns its relative error against the reference.
    columns
        The function's parameter columns, (name, value) in rocsparse-bench's order.
    gflop, gbyte
        rocSPARSE's flop and byte counts of one call (GFlop, GB).
    """

    call: Callable[[], Any]
    reference: Callable[[], Any]
    check: Callable[[], float]
    columns: list[tuple[str, Any]]
    gflop: float
    gbyte: float
    stream: Any
    tol: float
    keep: list[Any] = field(default_factory=list)


def _rel(expected: Any, got: Any) -> float:
    e, g = np.asarray(expected), np.asarray(got)
    scale = max(float(np.abs(e).max()) if e.size else 0.0, 1e-30)
    return float(np.abs(e - g).max() / scale) if e.size else 0.0


class _Setup:
    """Shared state of the family builders: flags, precision, handle, random generator."""

    def __init__(self, args: argparse.Namespace, matrix: sp.csr_matrix | None):
        import rocmath as rm
        import rocmath.sparse as rs

        self.rm, self.rs, self.args = rm, rs, args
        self.p = args.precision
        self.dtype = np.dtype(_DTYPE[self.p])
        self.real = np.dtype(self.dtype.char.lower() if self.dtype.kind == "c" else self.dtype.char)
        self.itype = np.int64 if args.indextype == "d" else np.int32
        self.rng = np.random.default_rng(SEED)
        self.matrix = matrix
        self.stream = rm.Stream()
        self.handle = rs.create_handle()
        rs.set_stream(self.handle, self.stream)
        self.base = args.indexbaseA
        self.keep: list[Any] = []
        complex_ = self.dtype.kind == "c"
        self.alpha = self.dtype.type(complex(args.alpha, args.alphai) if complex_ else args.alpha)
        self.beta = self.dtype.type(complex(args.beta, args.betai) if complex_ else args.beta)

    def fn(self, name: str) -> Any:
        return getattr(self.rs, f"{self.p}{name}")

    def values(self, shape: Any) -> np.ndarray:
        v = self.rng.uniform(-1.0, 1.0, shape)
        if self.dtype.kind == "c":
            v = v + 1j * self.rng.uniform(-1.0, 1.0, shape)
        return v.astype(self.dtype)

    def sparse(self, m: int, n: int, nnz: int) -> sp.csr_matrix:
        """The matrix of the flags, or a random ``m x n`` one of ``nnz`` entries, in the bench's precision."""
        a = self.matrix if self.matrix is not None else random_matrix(m, n, nnz, self.rng)
        a = a.astype(self.dtype)
        if self.dtype.kind == "c" and not np.iscomplexobj(self.matrix if self.matrix is not None else a.data[:0]):
            a.data = a.data + 0.5j * a.data[::-1] if a.nnz else a.data
        return a

    def dev(self, host: np.ndarray) -> Any:
        d = self.rm.to_device(np.ascontiguousarray(host), self.stream)
        self.keep.append(d)
        return d

    def csr(self, a: sp.csr_matrix) -> tuple[Any, Any, Any]:
        return (self.dev(a.data.astype(self.dtype)), self.dev(a.indptr.astype(self.itype) + self.base),
                self.dev(a.indices.astype(self.itype) + self.base))

    def descr(self) -> Any:
        d = self.rs.create_mat_descr()
        self.rs.set_mat_index_base(d, self.base)
        return d

    def generic(self, a: sp.csr_matrix, fmt: str) -> tuple[Any, Any]:
        """The generic API's descriptor of ``a`` stored as ``fmt`` (csr, csc or coo) with
        ``--indextype``'s index types, and the compute type."""
        rs = self.rs
        ct = rs.Datatype[_CTYPE[self.p]]
        it, jt = (rs.IndexType[t] for t in _INDEX[self.args.indextype])
        ptype, itype = (np.int64 if t is rs.IndexType.i64 else np.int32 for t in (it, jt))
        m, n = a.shape
        if fmt == "coo":
            coo = a.tocoo()
            mat = rs.create_coo_descr(m, n, a.nnz, self.dev(coo.row.astype(ptype) + self.base),
                                      self.dev(coo.col.astype(ptype) + self.base), self.dev(coo.data), it, self.base,
                                      ct)
        else:
            c = a.tocsr() if fmt == "csr" else a.tocsc()
            c.sort_indices()
            make = rs.create_csr_descr if fmt == "csr" else rs.create_csc_descr
            mat = make(m, n, a.nnz, self.dev(c.indptr.astype(ptype) + self.base),
                       self.dev(c.indices.astype(itype) + self.base), self.dev(c.data), it, jt, self.base, ct)
        self.keep.append(mat)
        return mat, ct

    def close(self) -> None:
        self.stream.synchronize()
        self.rs.destroy_handle(self.handle)


def _op(a: Any, trans: str) -> Any:
    return a if trans == "N" else (a.T if trans == "T" else a.conj().T)


def _level1(s: _Setup) -> Bench:
    a, f = s.args, s.args.function
    nnz = a.nnz
    n = max(a.N, nnz)
    ind = np.sort(s.rng.choice(n, nnz, replace=False)).astype(s.itype)
    xv, y0 = s.values(nnz), s.values(n)
    dxv, dind, dy = s.dev(xv), s.dev(ind + s.base), s.dev(y0)
    h, fn, isz, jsz = s.handle, s.fn(f), s.dtype.itemsize, np.dtype(s.itype).itemsize
    c, sn = s.real.type(a.alpha), s.real.type(a.beta)
    calls: dict[str, Callable[[], Any]] = {
        "axpyi": lambda: fn(h, nnz, s.alpha, dxv, dind, dy, s.base),
        "doti": lambda: fn(h, nnz, dxv, dind, dy, None, s.base),
        "dotci": lambda: fn(h, nnz, dxv, dind, dy, None, s.base),
        "gthr": lambda: fn(h, nnz, dy, dxv, dind, s.base),
        "gthrz": lambda: fn(h, nnz, dy, dxv, dind, s.base),
        "sctr": lambda: fn(h, nnz, dxv, dind, dy, s.base),
        "roti": lambda: fn(h, nnz, dxv, dind, dy, c, sn, s.base),
    }
    hy, hx = y0.copy(), xv.copy()

    def reference(y: np.ndarray = hy, x: np.ndarray = hx) -> Any:
        if f == "axpyi":
            y[ind] += s.alpha * x
            return y
        if f in ("doti", "dotci"):
            return np.dot(np.conj(x) if f == "dotci" else x, y[ind])
        if f in ("gthr", "gthrz"):
            x[:] = y[ind]
            if f == "gthrz":
                y[ind] = 0
            return x
        if f == "sctr":
            y[ind] = x
            return y
        xi = x.copy()
        x[:] = c * xi + sn * y[ind]
        y[ind] = c * y[ind] - sn * xi
        return np.concatenate([x, y])

    def check() -> float:
        _upload(s, dxv, xv)
        _upload(s, dy, y0)
        got = calls[f]()
        s.stream.synchronize()
        expected = reference(y0.copy(), xv.copy())
        if f in ("doti", "dotci"):
            return _rel(expected, got)
        gx, gy = dxv.get(s.stream), dy.get(s.stream)
        result = {"axpyi": gy, "sctr": gy, "gthr": gx, "gthrz": np.concatenate([gx, gy]),
                  "roti": np.concatenate([gx, gy])}[f]
        if f == "gthrz":
            yz = y0.copy()
            yz[ind] = 0
            expected = np.concatenate([expected, yz])
        return _rel(expected, result)

    flops = {"axpyi": 2.0 * nnz, "doti": 2.0 * nnz, "dotci": 2.0 * nnz, "roti": 6.0 * nnz}.get(f, 0.0)
    moved = {"axpyi": nnz * (jsz + 3 * isz), "doti": nnz * (jsz + 2 * isz), "dotci": nnz * (jsz + 2 * isz),
             "gthr": nnz * (jsz + 2 * isz), "gthrz": nnz * (jsz + 3 * isz), "sctr": nnz * (jsz + 2 * isz),
             "roti": nnz * (jsz + 4 * isz)}[f]
    cols: list[tuple[str, Any]] = [("nnz", nnz)]
    if f == "axpyi":
        cols.append(("alpha", s.alpha))
    if f == "roti":
        cols += [("c", float(c)), ("s", float(sn))]
    return Bench(calls[f], reference, check, cols, flops / 1e9, moved / 1e9, s.stream, 1e2 * _eps(s))


def _eps(s: _Setup) -> float:
    return float(np.finfo(s.real).eps)


def _upload(s: _Setup, dst: Any, host: np.ndarray) -> None:
    """Copy host values into an existing device array (fresh data for a check)."""
    dst.set(np.ascontiguousarray(host), s.stream)
    s.stream.synchronize()


def _algorithm(cls: Any, value: int, flag: str) -> Any:
    """The member of an algorithm enum a flag names; a bad value is a usage error."""
    try:
        return cls(value)
    except ValueError:
        raise UsageError(f"Invalid value for {flag} {value}") from None


def _staged(s: _Setup, fn: Callable[..., Any], stage: Any, args: tuple[Any, ...]) -> Callable[[], None]:
    """The generic API's protocol (spmv, spmm): the buffer size and preprocess stages run once here
    (untimed, as rocsparse-bench); the call returned runs the compute stage."""
    buffer = s.dev(np.zeros(max(1, fn(*args, stage.buffer_size)), np.uint8))
    fn(*args, stage.preprocess, None, buffer)

    def call() -> None:
        fn(*args, stage.compute, None, buffer)

    return call


def _mv_bytes(s: _Setup, m: int, n: int, nnz: int, trans: str, coo: bool) -> float:
    """rocSPARSE's csrmv/coomv byte count: the matrix, x read once, y written (and read when beta != 0)."""
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    xlen, ylen = (n, m) if trans == "N" else (m, n)
    index = 2 * nnz * jsz if coo else (m + 1) * jsz + nnz * jsz
    return (index + nnz * isz + (xlen + ylen * (2 if s.beta != 0 else 1)) * isz) / 1e9


def _level2(s: _Setup) -> Bench:
    a, f = s.args, s.args.function
    rs, h, trans = s.rs, s.handle, a.transposeA
    A = s.sparse(a.M, a.N, a.nnz)
    m, n = A.shape
    xlen, ylen = (n, m) if trans == "N" else (m, n)
    x, y0 = s.values(xlen), s.values(ylen)
    dx, dy = s.dev(x), s.dev(y0)
    ref_a = _op(A, trans).tocsr()
    columns: list[tuple[str, Any]] = [("M", m), ("N", n), ("nnz", A.nnz), ("alpha", s.alpha), ("beta", s.beta)]
    fmt = "csr"
    if f == "csrmv":
        descr = s.descr()
        dv, dp, dc = s.csr(A)
        info = None
        if a.spmv_alg == 2:  # rocsparse-bench's csrmv: the adaptive algorithm is the analysed one
            info = rs.create_mat_info()
            s.fn("csrmv_analysis")(h, trans, m, n, A.nnz, descr, dv, dp, dc, info)
        fn = s.fn("csrmv")

        def call() -> None:
            fn(h, trans, m, n, A.nnz, s.alpha, descr, dv, dp, dc, info, dx, s.beta, dy)

        columns.append(("algorithm", "adaptive" if info is not None else "stream"))
    elif f == "coomv":
        descr = s.descr()
        coo = A.tocoo()
        dv = s.dev(coo.data.astype(s.dtype))
        dr, dc = s.dev(coo.row.astype(s.itype) + s.base), s.dev(coo.col.astype(s.itype) + s.base)
        fn = s.fn("coomv")
        fmt = "coo"

        def call() -> None:
            fn(h, trans, m, n, A.nnz, s.alpha, descr, dv, dr, dc, dx, s.beta, dy)
    else:
        fmt = {0: "coo", 2: "csr", 3: "csc"}.get(a.format, "")
        if not fmt:
            raise UsageError(f"spmv: --format {a.format} is not in rocmath.sparse (0 coo, 2 csr, 3 csc)")
        mat, ct = s.generic(A, fmt)
        vx, vy = rs.create_dnvec_descr(xlen, dx, ct), rs.create_dnvec_descr(ylen, dy, ct)
        alg = _algorithm(rs.SpMVAlg, a.spmv_alg, "--spmv_alg")
        s.keep += [vx, vy]
        call = _staged(s, rs.spmv, rs.SpMVStage, (h, trans, s.alpha, mat, vx, s.beta, vy, ct, alg))

        columns += [("algorithm", alg.name), ("format", fmt)]

    def reference(y: np.ndarray = y0.copy()) -> np.ndarray:
        return s.alpha * (ref_a @ x) + s.beta * y

    def check() -> float:
        _upload(s, dy, y0)
        call()
        return _rel(reference(y0.copy()), dy.get(s.stream))

    gflop = (2.0 * A.nnz + (ylen if s.beta != 0 else 0)) / 1e9
    return Bench(call, reference, check, columns, gflop, _mv_bytes(s, m, n, A.nnz, trans, fmt == "coo"), s.stream,
                 max(A.getnnz(axis=1).max(initial=1), 1) * 8 * _eps(s))


def _triangle(s: _Setup) -> sp.csr_matrix:
    """The ``--uplo`` triangle, diagonal included and dominant, of the flags' matrix (random: exactly
    ``max(z, m)`` nonzeros)."""
    a = s.args
    m = a.M
    lower = a.uplo == "L"
    if s.matrix is not None:
        full = s.matrix
        m = full.shape[0]
        t = sp.tril(full) if lower else sp.triu(full)
    else:
        extra = max(0, min(a.nnz, m * (m + 1) // 2) - m)
        strict = np.flatnonzero(np.tri(m, m, -1, bool).ravel() if lower else np.tri(m, m, -1, bool).T.ravel())
        flat = np.sort(s.rng.choice(strict, extra, replace=False)) if extra else np.zeros(0, np.int64)
        vals = s.rng.uniform(-1.0, 1.0, flat.size)
        t = sp.csr_matrix((vals, (flat // m, flat % m)), shape=(m, m))
    t = sp.csr_matrix(t, dtype=s.dtype)
    t = t - sp.diags(t.diagonal()) + sp.diags(np.abs(t).sum(axis=1).A1 + 1.0)
    t = sp.csr_matrix(t, dtype=s.dtype)
    t.sort_indices()
    return t


def _csrsv(s: _Setup) -> Bench:
    from scipy.sparse.linalg import spsolve_triangular

    a, rs, h = s.args, s.rs, s.handle
    T = _triangle(s)
    m, trans = T.shape[0], a.transposeA
    descr = s.descr()
    rs.set_mat_fill_mode(descr, rs.FillMode.lower if a.uplo == "L" else rs.FillMode.upper)
    rs.set_mat_diag_type(descr, rs.DiagType.unit if a.diag == "U" else rs.DiagType.non_unit)
    info = rs.create_mat_info()
    dv, dp, dc = s.csr(T)
    x = s.values(m)
    dx, dy = s.dev(x), s.dev(np.zeros(m, s.dtype))
    need = s.fn("csrsv_buffer_size")(h, trans, m, T.nnz, descr, dv, dp, dc, info)
    tmp = s.dev(np.zeros(max(1, need), np.uint8))
    policy = rs.AnalysisPolicy.reuse if a.apolicy == "R" else rs.AnalysisPolicy.force
    t0 = time.perf_counter_ns()
    s.fn("csrsv_analysis")(h, trans, m, T.nnz, descr, dv, dp, dc, info, policy, rs.SolvePolicy.auto, tmp)
    s.stream.synchronize()
    analysis_ms = (time.perf_counter_ns() - t0) / 1e6
    fn = s.fn("csrsv_solve")

    def call() -> None:
        fn(h, trans, m, T.nnz, s.alpha, descr, dv, dp, dc, info, dx, dy, rs.SolvePolicy.auto, tmp)

    op = _op(T, trans).tocsr()
    lower = (a.uplo == "L") == (trans == "N")

    def reference() -> np.ndarray:
        return spsolve_triangular(op, s.alpha * x, lower=lower, unit_diagonal=a.diag == "U")

    def check() -> float:
        call()
        return _rel(reference(), dy.get(s.stream))

    columns: list[tuple[str, Any]] = [("M", m), ("nnz", T.nnz), ("alpha", s.alpha), ("trans", trans),
                                      ("diag_type", "unit" if a.diag == "U" else "non_unit"),
                                      ("fill_mode", "lower" if a.uplo == "L" else "upper"),
                                      ("analysis_policy", "reuse" if a.apolicy == "R" else "force"),
                                      ("analysis msec", analysis_ms)]
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    gflop = (2.0 * T.nnz + m + (m if a.diag == "N" else 0)) / 1e9
    gbyte = ((m + 1) * jsz + T.nnz * (jsz + isz) + 2 * m * isz) / 1e9
    return Bench(call, reference, check, columns, gflop, gbyte, s.stream, 1e3 * _eps(s))


def _level3(s: _Setup) -> Bench:
    a, f, rs, h = s.args, s.args.function, s.rs, s.handle
    ta, tb = a.transposeA, a.transposeB
    A = s.sparse(a.M, a.K, a.nnz)
    m, k = A.shape
    n = a.N
    arows, inner = (m, k) if ta == "N" else (k, m)
    bshape = (inner, n) if tb == "N" else (n, inner)
    Bh, C0 = s.values(bshape), s.values((arows, n))
    ref_a = _op(A, ta).tocsr()
    ref_b = _op(Bh, tb)
    columns: list[tuple[str, Any]] = [("M", m), ("N", n), ("K", k), ("nnz", A.nnz), ("alpha", s.alpha),
                                      ("beta", s.beta), ("transA", ta), ("transB", tb)]
    if f == "csrmm":
        descr = s.descr()
        dv, dp, dc = s.csr(A)
        dB, dC = s.dev(Bh.ravel(order="F")), s.dev(C0.ravel(order="F"))
        ldb, ldc = bshape[0], arows
        fn = s.fn("csrmm")

        def call() -> None:
            fn(h, ta, tb, m, n, k, A.nnz, s.alpha, descr, dv, dp, dc, dB, ldb, s.beta, dC, ldc)

        def result() -> np.ndarray:
            return dC.get(s.stream).reshape((n, arows)).T

        def upload() -> None:
            _upload(s, dC, C0.ravel(order="F"))
    else:
        fmt = {2: "csr", 3: "csc"}.get(a.format, "")
        if not fmt:
            raise UsageError(f"spmm: --format {a.format} is not in rocmath.sparse's spmm (2 csr, 3 csc)")
        mat, ct = s.generic(A, fmt)
        ob, oc = rs.Order(a.orderB), rs.Order(a.orderC)
        flat_b = Bh.ravel(order="F" if ob is rs.Order.column else "C")
        flat_c = C0.ravel(order="F" if oc is rs.Order.column else "C")
        dB, dC = s.dev(flat_b), s.dev(flat_c)
        mb = rs.create_dnmat_descr(*bshape, bshape[0] if ob is rs.Order.column else bshape[1], dB, ct, ob)
        mc = rs.create_dnmat_descr(arows, n, arows if oc is rs.Order.column else n, dC, ct, oc)
        alg = _algorithm(rs.SpMMAlg, a.spmm_alg, "--spmm_alg")
        s.keep += [mb, mc]
        call = _staged(s, rs.spmm, rs.SpMMStage, (h, ta, tb, s.alpha, mat, mb, s.beta, mc, ct, alg))

        def result() -> np.ndarray:
            flat = dC.get(s.stream)
            return flat.reshape((n, arows)).T if oc is rs.Order.column else flat.reshape((arows, n))

        def upload() -> None:
            _upload(s, dC, flat_c)

        columns += [("algorithm", alg.name), ("format", fmt)]

    def reference() -> np.ndarray:
        return s.alpha * (ref_a @ ref_b) + s.beta * C0

    def check() -> float:
        upload()
        call()
        return _rel(reference(), result())

    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    gflop = (2.0 * A.nnz * n + (arows * n if s.beta != 0 else 0)) / 1e9
    gbyte = ((m + 1) * jsz + A.nnz * (jsz + isz) + (inner * n + arows * n * (2 if s.beta != 0 else 1)) * isz) / 1e9
    return Bench(call, reference, check, columns, gflop, gbyte, s.stream,
                 max(A.getnnz(axis=1).max(initial=1), 1) * 8 * _eps(s))


def _csrgemm(s: _Setup) -> Bench:
    a, rs, h, rm = s.args, s.rs, s.handle, s.rm
    ta, tb = a.transposeA, a.transposeB
    A = s.sparse(a.M, a.K, a.nnz)
    m, k = A.shape
    B = A.copy() if s.matrix is not None else sp.csr_matrix(random_matrix(k, a.N, a.nnz, s.rng), dtype=s.dtype)
    if s.matrix is not None and m != k:
        raise UsageError(f"csrgemm multiplies the matrix by itself: it must be square, got {m} x {k}")
    n = B.shape[1]
    use_d = s.beta != 0
    D = sp.csr_matrix(random_matrix(m, n, a.nnz, s.rng), dtype=s.dtype) if use_d else sp.csr_matrix((m, n))
    da, db, dd = s.descr(), s.descr(), s.descr()
    dc_descr = s.descr()
    av, ap, ai = s.csr(A)
    bv, bp, bi = s.csr(B)
    dv, dp, di = s.csr(D) if use_d else (None, None, None)
    beta = s.beta if use_d else None
    nnz_d = D.nnz if use_d else 0
    gemm_bs, gemm = s.fn("csrgemm_buffer_size"), s.fn("csrgemm")
    out: dict[str, Any] = {}

    def call() -> None:
        info = rs.create_mat_info()
        need = gemm_bs(h, ta, tb, m, n, k, s.alpha, da, A.nnz, ap, ai, db, B.nnz, bp, bi, beta, dd, nnz_d, dp, di,
                       info)
        tmp = rm.empty(max(1, need), np.uint8)
        cp = rm.empty(m + 1, s.itype)
        nnz_c = rs.csrgemm_nnz(h, ta, tb, m, n, k, da, A.nnz, ap, ai, db, B.nnz, bp, bi, dd, nnz_d, dp, di, dc_descr,
                               cp, None, info, tmp)
        cv, ci = rm.empty(max(nnz_c, 1), s.dtype), rm.empty(max(nnz_c, 1), s.itype)
        gemm(h, ta, tb, m, n, k, s.alpha, da, A.nnz, av, ap, ai, db, B.nnz, bv, bp, bi, beta, dd, nnz_d, dv, dp, di,
             dc_descr, cv, cp, ci, info, tmp)
        out.update(nnz=int(nnz_c), val=cv, ptr=cp, ind=ci, tmp=tmp)

    def reference() -> sp.csr_matrix:
        c = s.alpha * (A @ B)
        if use_d:
            c = c + s.beta * D
        c = sp.csr_matrix(c)
        c.sort_indices()
        return c

    def check() -> float:
        call()
        s.stream.synchronize()
        ref = reference()
        z = out["nnz"]
        ptr, ind = out["ptr"].get(s.stream) - s.base, out["ind"].get(s.stream)[:z] - s.base
        if z != ref.nnz or not (np.array_equal(ptr, ref.indptr) and np.array_equal(ind, ref.indices)):
            return math.inf
        return _rel(ref.data, out["val"].get(s.stream)[:z])

    ref_c = reference()
    products = float(np.diff(B.indptr)[A.indices].sum()) if A.nnz else 0.0
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    gflop = (2.0 * products + (D.nnz if use_d else 0)) / 1e9
    gbyte = sum((x.shape[0] + 1) * jsz + x.nnz * (jsz + isz) for x in (A, B, ref_c, *((D,) if use_d else ()))) / 1e9
    columns: list[tuple[str, Any]] = [("M", m), ("N", n), ("K", k), ("nnz_A", A.nnz), ("nnz_B", B.nnz),
                                      ("nnz_C", ref_c.nnz), ("nnz_D", D.nnz if use_d else 0), ("alpha", s.alpha),
                                      ("beta", s.beta)]
    return Bench(call, reference, check, columns, gflop, gbyte, s.stream, max(k, 1) * 8 * _eps(s))


def _gtsv(s: _Setup) -> Bench:
    from scipy.linalg import solve_banded

    a, h = s.args, s.handle
    m, count = a.M, a.batch_count
    if count < 0:
        raise UsageError("Invalid value for --batch_count")
    stride = max(a.batch_stride, m)
    dl, du, rhs = s.values((count, stride)), s.values((count, stride)), s.values((count, stride))
    d = s.values((count, stride)) + 4.0
    dl[:, 0] = 0
    if m:
        du[:, m - 1] = 0
    ddl, dd, ddu, dx = (s.dev(v.ravel()) for v in (dl, d, du, rhs))
    need = s.fn("gtsv_no_pivot_strided_batch_buffer_size")(h, m, ddl, dd, ddu, dx, count, stride)
    tmp = s.dev(np.zeros(max(1, need), np.uint8))
    fn = s.fn("gtsv_no_pivot_strided_batch")

    def call() -> None:
        fn(h, m, ddl, dd, ddu, dx, count, stride, tmp)

    bands = np.zeros((count, 3, m), s.dtype)
    if m:
        bands[:, 0, 1:], bands[:, 1], bands[:, 2, :-1] = du[:, :m - 1], d[:, :m], dl[:, 1:m]

    def reference() -> np.ndarray:
        return np.stack([solve_banded((1, 1), bands[b], rhs[b, :m], check_finite=False) for b in range(count)]
                        ) if m else np.zeros((count, 0), s.dtype)

    def check() -> float:
        _upload(s, dx, rhs.ravel())
        call()
        return _rel(reference(), dx.get(s.stream).reshape(count, stride)[:, :m])

    isz = s.dtype.itemsize
    columns: list[tuple[str, Any]] = [("M", m), ("batch_count", count), ("batch_stride", stride)]
    return Bench(call, reference, check, columns, 8.0 * m * count / 1e9, 5.0 * m * count * isz / 1e9, s.stream,
                 1e3 * _eps(s))


def _build(s: _Setup) -> Bench:
    f = s.args.function
    if f in LEVEL1:
        return _level1(s)
    if f in ("csrmv", "coomv", "spmv"):
        return _level2(s)
    if f == "csrsv":
        return _csrsv(s)
    if f in ("csrmm", "spmm"):
        return _level3(s)
    if f == "csrgemm":
        return _csrgemm(s)
    return _gtsv(s)


# --- timing and output ---------------------------------------------------------------------------


def _cell(value: Any) -> str:
    """A value as rocsparse-bench's ostream prints it (fixed, 2 decimals for doubles)."""
    if isinstance(value, (complex, np.complexfloating)):
        return f"({value.real:.2f},{value.imag:.2f})"
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.2f}"
    return str(value)


def table(columns: Sequence[tuple[str, Any]]) -> str:
    """rocsparse-bench's two lines: names and values, each padded to the longest name + 4, left aligned."""
    width = max(len(name) for name, _ in columns) + 4

    def pad(text: str) -> str:  # a value as wide as the column still gets one space (setw would not)
        return f"{text:<{width}}" if len(text) < width else text + " "

    legend = "".join(pad(name) for name, _ in columns)
    values = "".join(pad(_cell(v)) for _, v in columns)
    return f"{legend.rstrip()}\n{values.rstrip()}\n"


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Set up, (with ``-v 1``) check, time and report one problem.

    Parameters
    ----------
    args
        The flags, from :func:`parse_args`.
    out
        Where the report goes.

    Returns
    -------
    int
        0, or 1 when the check finds an error above tolerance.
    """
    matrix, source = load_matrix(args)
    out.write(device_line() + "\n")
    s = _Setup(args, matrix)
    try:
        b = _build(s)
        error = b.check() if args.verify else None
        timed = time_rounds(b.call, s.stream.synchronize, b.reference, COLD_CALLS, args.iters)
    finally:
        s.close()
    ms = timed.mean_ns / 1e6
    it, jt = _INDEX[args.indextype]
    columns = [*b.columns, ("GFlop/s", b.gflop / ms * 1e3 if ms > 0 else 0.0),
               ("GB/s", b.gbyte / ms * 1e3 if ms > 0 else 0.0), ("msec", ms), ("iter", args.iters),
               ("verified", "yes" if args.verify else "no"), ("function", args.function), ("import", source),
               ("ctype", _CTYPE[args.precision]), ("itype", it), ("jtype", jt),
               ("ref-msec", timed.reference_mean_ns / 1e6), ("ratio", timed.ratio), ("ratio-lo", timed.interval[0]),
               ("ratio-hi", timed.interval[1])]
    out.write(table(columns))
    if error is not None and not error <= b.tol:
        sys.stderr.write(f"rocmath-bench sparse: {args.function}: relative error {error:.3g} above tolerance "
                         f"{b.tol:.3g}\n")
        return 1
    return 0


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """``rocmath-bench sparse``: the exit status.

    Parameters
    ----------
    argv
        The arguments after ``sparse``.
    out
        Where the report goes (stdout when None).
    """
    from rocmath.errors import RocmathError
    from rocmath.sparse import SparseInvalidPointerError, SparseInvalidSizeError, SparseInvalidValueError
    from rocmath.sparse import SparseNotImplementedError as NotImplementedStatus

    prog = "rocmath-bench sparse"
    out = out or sys.stdout
    try:
        if not argv:
            return print_help(_parser(), out)
        args = parse_args(argv)
        if args.help:
            return print_help(_parser(), out)
        select_device(args.device, "Invalid Device ID")
        return run(args, out)
    except (UsageError, SparseInvalidSizeError, SparseInvalidValueError, SparseInvalidPointerError,
            NotImplementedStatus) as e:
        return usage_failure(prog, e)
    except RocmathError as e:
        sys.stderr.write(f"{prog}: {argv[argv.index('-f') + 1] if '-f' in argv else 'run'} failed: {e}\n")
        return 1
