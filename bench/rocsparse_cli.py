"""``rocmath-bench sparse``: rocsparse-bench's command line, run on rocmath.sparse.

``rocmath-bench sparse -f csrmv -r d --dimx 100 --dimy 100 --alpha 1 --beta 0 -i 20`` takes
rocsparse-bench's flags (same names, short forms and defaults: ``-f``/``--function`` axpyi,
``-r``/``--precision`` s, ``-m``/``-n``/``-k`` 128, ``-z``/``--sizennz`` 32, ``--alpha`` 1,
``--beta`` 0, ``--transposeA``/``--transposeB`` N, ``--indexbaseA`` 0, ``--uplo`` L, ``--diag`` N,
``--indextype`` s, ``--format`` 0 (coo), ``--order``/``--orderB``/``--orderC`` 1 (column),
``--blockdim`` 2, ``--direction`` 0 (row), ``--hybpart`` 0 (auto), ``--hybellwidth`` 0,
``--batch_count``/``--batch_stride`` 128, ``--spmv_alg``/``--spmm_alg`` 0, ``-i`` 10, ``-v`` 0).

The matrix comes, as rocsparse-bench chooses it, from a file (``--mtx`` Matrix Market, read by
``scipy.io.mmread``; ``--rocalution`` rocALUTION's binary CSR; ``--file`` by extension), else a
Laplacian (``--dimx``/``--dimy``: 2D 5-point, with ``--dimz``: 3D 7-point; ``--laplacian-dim
100,100[,100]`` is rocmath's shorthand for the three), else a random ``m x n`` matrix with exactly
``-z`` nonzeros (rocsparse-bench's default).  A file or Laplacian overrides ``-m``, ``-n`` and ``-z``.
Square problems (the solves, csrilu0, csric0) take a dominant diagonal (the row's absolute sum plus 1;
csric0: of the Hermitian matrix its lower triangle makes); a random source gives exactly ``max(z, m)``
nonzeros, the diagonal included: the ``--uplo`` triangle for the solves, a general matrix for csrilu0
and csric0 (csric0 reads its lower triangle, as rocSPARSE).  ellmv's and hybmv's random matrices
spread the ``-z`` nonzeros evenly over the rows (``z // m`` or one more each), so that ``-z m*w``
gives ELL width ``w``.  bsrmv and bsrsv take ``--blockdim`` blocks in ``--direction`` order: a random
source gives ``ceil(z / blockdim^2)`` dense blocks (bsrsv: the block triangle, its diagonal blocks
included), a file or Laplacian is padded to whole blocks; ``M`` and ``N`` count the padded rows.

Functions: Level 1 axpyi, doti, dotci, gthr, gthrz, sctr, roti (a sparse vector of ``-z`` entries
into a dense one of ``max(n, z)``; roti's c and s are ``--alpha`` and ``--beta``); Level 2 csrmv
(``--spmv_alg 2``: analysed, csr_adaptive; otherwise stream), coomv, bsrmv (analysed first, as
rocsparse-bench), ellmv (ELL arrays built on the host), hybmv (``csr2hyb`` with ``--hybpart`` and
``--hybellwidth`` first), csrsv and bsrsv (analysis once, timed solves), the generic spmv
(``--format`` 0 coo, 2 csr, 3 csc) and spsv (0 coo, 2 csr; buffer size and preprocess once, timed
compute stage); Level 3 csrmm, csrsm (``-k`` right-hand sides in ``--transposeB`` layout; analysis
once) and the generic spmm (0 coo, 2 csr, 3 csc; dense B and C in ``--orderB``/``--orderC``); extra
csrgemm (buffer_size, nnz and compute in every timed call; ``B`` is ``A`` for a file or Laplacian,
else a random ``k x n`` matrix of ``-z`` nonzeros; ``--beta`` != 0 adds ``D``, a random ``m x n``
matrix) and the generic spgemm (``--format`` 2 csr; the same matrices, buffer size and nnz stages
once, timed compute stage); precond csrilu0 and csric0 (buffer size and analysis once; timed
factorizations), gtsv_no_pivot_strided_batch.  spmv, spsv, spmm and spgemm are rocmath's (named after
rocSPARSE's generic routines: rocsparse-bench's own function list has none of them), with its flags.
The in-place routines (csrsm, csrilu0, csric0) restore
their input by a device-to-device copy at the start of every call (so each one works on the same
data; rocsparse-bench repeats csrsm and csrilu0 on their own output): their times include that copy.

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
SciPy has no ILU(0) nor IC(0): csrilu0's and csric0's timed reference is the closest SciPy
operation, ``scipy.sparse.linalg.spilu`` (SuperLU's incomplete LU; natural order, no pivoting, no
drop tolerance, fill factor 1; of the Hermitian matrix for csric0), and ``-v 1`` checks the factors
against their defining equations with scipy.sparse products: ``(L U)_ij = a_ij`` (csric0:
``(L L^H)_ij = a_ij``) on the matrix's (lower) pattern, which determine them, and csric0's upper
triangle left as it was.  Their ``GFlop/s`` counts the factorization's multiply-adds on the pattern
and its divisions (rocsparse-bench prints none for them).

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
from functools import partial
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

__all__ = ["FUNCTIONS", "Bench", "UsageError", "balanced_matrix", "laplacian", "load_matrix", "main", "parse_args",
           "random_matrix", "run"]

SEED = 12345  # fixed, so runs are reproducible
COLD_CALLS = 2  # rocsparse-bench's number_cold_calls
_PRECISIONS = {"s": "s", "d": "d", "c": "c", "z": "z", "f32_r": "s", "f64_r": "d", "f32_c": "c", "f64_c": "z"}
_CTYPE = {"s": "f32_r", "d": "f64_r", "c": "f32_c", "z": "f64_c"}
_DTYPE = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
_INDEX = {"s": ("i32", "i32"), "d": ("i64", "i64"), "m": ("i64", "i32")}

LEVEL1 = ("axpyi", "doti", "dotci", "gthr", "gthrz", "sctr", "roti")
PRODUCTS = ("csrmv", "coomv", "bsrmv", "ellmv", "hybmv", "spmv")  # y := alpha op(A) x + beta y
SOLVES = ("csrsv", "bsrsv", "spsv", "csrsm")  # op(T) y = alpha x, one or several right-hand sides
FACTORIZATIONS = ("csrilu0", "csric0")
#: Every function ``-f`` accepts.
FUNCTIONS = (*LEVEL1, *PRODUCTS, *SOLVES, "csrmm", "spmm", "csrgemm", "spgemm", *FACTORIZATIONS,
             "gtsv_no_pivot_strided_batch")
GENERIC = ("spmv", "spsv", "spmm", "spgemm")  # the generic API: --format and --indextype m


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
    a("--blockdim", type=int, default=2, help="BSR block dimension (default 2)")
    a("--direction", type=choice((0, 1)), default=0, help="BSR block storage: 0 row, 1 column major (default 0)")
    a("--hybpart", type=choice((0, 1, 2)), default=0, help="HYB partition: 0 auto, 1 user, 2 max (default 0)")
    a("--hybellwidth", type=int, default=0, help="ELL width of the user HYB partition (default 0)")
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
    if args.indextype == "m" and args.function not in GENERIC:
        raise UsageError(f"--indextype m needs the generic API ({', '.join(GENERIC)})")
    if args.function in ("bsrmv", "bsrsv") and args.blockdim < 1:
        raise UsageError("Invalid value for --blockdim")
    if args.hybellwidth < 0:
        raise UsageError("Invalid value for --hybellwidth")
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


def _distinct_columns(counts: np.ndarray, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of ``counts[i]`` distinct random columns in each row ``i`` (counts <= n): draws
    with replacement, the repeats drawn again until none is left (quick while rows are at most half full)."""
    rows = np.repeat(np.arange(counts.size), counts)
    cols = rng.integers(0, max(n, 1), rows.size)
    while rows.size:
        key = rows * n + cols
        order = np.argsort(key, kind="stable")
        repeats = order[1:][np.diff(key[order]) == 0]
        if not repeats.size:
            break
        cols[repeats] = rng.integers(0, n, repeats.size)
    return rows, cols


def balanced_matrix(m: int, n: int, nnz: int, rng: np.random.Generator) -> sp.csr_matrix:
    """An ``m x n`` matrix with exactly ``min(nnz, m n)`` nonzeros spread evenly over the rows (``nnz // m``
    each, one more in the first ``nnz % m``) at distinct random columns, values as :func:`random_matrix`'s
    (ellmv's and hybmv's random matrices: ``nnz = m w`` gives ELL width ``w``)."""
    nnz = min(nnz, m * n)
    per = (nnz // m + (np.arange(m) < nnz % m)).astype(np.int64) if m else np.zeros(0, np.int64)
    if per.max(initial=0) > n // 2:  # rows more than half full: draw the columns left out instead
        rows, cols = _distinct_columns(n - per, n, rng)
        keep = np.ones((m, n), bool)
        keep[rows, cols] = False
        rows, cols = np.nonzero(keep)
    else:
        rows, cols = _distinct_columns(per, n, rng)
    vals = rng.uniform(0.1, 1.0, rows.size) * rng.choice([-1.0, 1.0], rows.size)
    a = sp.csr_matrix((vals, (rows, cols)), shape=(m, n))
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
    from rocmath.testing.matrices import read_mtx

    path = args.file or args.rocalution or args.mtx
    if path:
        try:
            if (args.file and path.endswith(".csr")) or (not args.file and args.rocalution):
                a = _read_rocalution(path)
            else:
                a = read_mtx(path)
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

    def sparse(self, m: int, n: int, nnz: int, balanced: bool = False) -> sp.csr_matrix:
        """The matrix of the flags, or a random ``m x n`` one of ``nnz`` entries (``balanced``: spread evenly
        over the rows), in the bench's precision."""
        make = balanced_matrix if balanced else random_matrix
        a = self.matrix if self.matrix is not None else make(m, n, nnz, self.rng)
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

    def bsr(self, a: sp.bsr_matrix) -> tuple[Any, Any, Any]:
        """A BSR matrix's values (blocks in ``--direction`` order), block row pointer and block columns."""
        blocks = a.data if self.args.direction == 0 else a.data.transpose(0, 2, 1)
        return (self.dev(blocks.astype(self.dtype).ravel()), self.dev(a.indptr.astype(self.itype) + self.base),
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


def _mv_bytes(s: _Setup, xlen: int, ylen: int, values: int, indices: int) -> float:
    """rocSPARSE's byte count of a product: the stored values and indices, x read once, y written (and read
    when beta != 0)."""
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    return (indices * jsz + (values + xlen + ylen * (2 if s.beta != 0 else 1)) * isz) / 1e9


def _padded(a: sp.spmatrix, rows: int, cols: int) -> sp.csr_matrix:
    """``a`` with zero rows and columns appended up to ``rows x cols`` (whole BSR blocks)."""
    a = sp.csr_matrix(a)
    a.resize((rows, cols))
    return a


def _blocks(s: _Setup, mb: int, nb: int, flat: np.ndarray) -> sp.bsr_matrix:
    """An ``mb x nb`` block matrix of dense random ``--blockdim`` blocks at the (sorted, row-major) block
    positions ``flat``."""
    bd = s.args.blockdim
    ptr = np.concatenate([[0], np.cumsum(np.bincount(flat // max(nb, 1), minlength=mb))])
    return sp.bsr_matrix((s.values((flat.size, bd, bd)), flat % max(nb, 1), ptr), shape=(mb * bd, nb * bd))


def _bsr_general(s: _Setup) -> sp.bsr_matrix:
    """bsrmv's matrix: the flags' matrix padded to whole blocks, or ``ceil(z / blockdim^2)`` random dense
    blocks of a ``ceil(m / blockdim) x ceil(n / blockdim)`` block matrix."""
    a, bd = s.args, s.args.blockdim
    if s.matrix is not None:
        full = s.sparse(0, 0, 0)
        mb, nb = -(-full.shape[0] // bd), -(-full.shape[1] // bd)
        b = sp.bsr_matrix(_padded(full, mb * bd, nb * bd), blocksize=(bd, bd))
    else:
        mb, nb = -(-a.M // bd), -(-a.N // bd)
        count = min(-(-a.nnz // (bd * bd)), mb * nb)
        b = _blocks(s, mb, nb, np.sort(s.rng.choice(mb * nb, count, replace=False)) if count else
                    np.zeros(0, np.int64))
    b.sort_indices()
    return b


def _dominant(t: sp.spmatrix, dtype: np.dtype[Any], hermitian: bool = False) -> sp.csr_matrix:
    """``t`` with a dominant diagonal: its row's absolute sum plus 1 (``hermitian``: the off-diagonal
    absolute sum of the Hermitian matrix that ``t``'s strict lower triangle makes, plus 1)."""
    t = sp.csr_matrix(t, dtype=dtype)
    if hermitian:
        off = abs(sp.tril(t, -1))
        weight = off.sum(axis=1).A1 + off.sum(axis=0).A1
    else:
        weight = np.abs(t).sum(axis=1).A1
    t = t - sp.diags(t.diagonal()) + sp.diags(weight + 1.0)
    t = sp.csr_matrix(t, dtype=dtype)
    t.sort_indices()
    return t


def _square(s: _Setup, part: str, hermitian: bool = False) -> sp.csr_matrix:
    """A square matrix with a full, dominant diagonal (:func:`_dominant`): ``part`` L or U that triangle
    (the solves), G the whole matrix (csrilu0, csric0) of the flags' matrix; random: exactly ``max(z, m)``
    nonzeros at distinct places of that part."""
    a = s.args
    if s.matrix is not None:
        if s.matrix.shape[0] != s.matrix.shape[1]:
            raise UsageError(f"{a.function} needs a square matrix, got {s.matrix.shape[0]} x {s.matrix.shape[1]}")
        t = {"L": sp.tril, "U": sp.triu, "G": sp.csr_matrix}[part](s.matrix)
    else:
        m = a.M
        lower = np.tri(m, m, -1, bool)
        strict = np.flatnonzero({"L": lower, "U": lower.T, "G": ~np.eye(m, dtype=bool)}[part].ravel())
        extra = max(0, min(a.nnz, strict.size + m) - m)
        flat = np.sort(s.rng.choice(strict, extra, replace=False)) if extra else np.zeros(0, np.int64)
        t = sp.csr_matrix((s.values(flat.size), (flat // max(m, 1), flat % max(m, 1))), shape=(m, m))
    return _dominant(t, s.dtype, hermitian)


def _bsr_triangle(s: _Setup) -> tuple[sp.bsr_matrix, sp.csr_matrix]:
    """bsrsv's matrix and the scalar triangle it solves with: the ``--uplo`` triangle (dominant, as
    :func:`_square`) of the flags' matrix padded to whole blocks, or of a random block triangle of its
    ``ceil(m / blockdim)`` diagonal blocks and up to ``ceil(z / blockdim^2)`` blocks in all."""
    a, bd = s.args, s.args.blockdim
    lower = a.uplo == "L"
    cut = sp.tril if lower else sp.triu
    if s.matrix is not None:
        m = s.matrix.shape[0]
        if m != s.matrix.shape[1]:
            raise UsageError(f"bsrsv needs a square matrix, got {m} x {s.matrix.shape[1]}")
        mb = -(-m // bd)
        t = cut(_padded(s.sparse(0, 0, 0), mb * bd, mb * bd))
    else:
        mb = -(-a.M // bd)
        tri = np.tri(mb, mb, -1, bool)
        strict = np.flatnonzero((tri if lower else tri.T).ravel())
        extra = max(0, min(-(-a.nnz // (bd * bd)), mb * (mb + 1) // 2) - mb)
        flat = np.concatenate([np.arange(mb) * (mb + 1), s.rng.choice(strict, extra, replace=False)])
        t = cut(_blocks(s, mb, mb, np.sort(flat).astype(np.int64)).tocsr())
    t = _dominant(t, s.dtype)
    b = sp.bsr_matrix(t, blocksize=(bd, bd))
    b.sort_indices()
    return b, t


def _level2(s: _Setup) -> Bench:
    a, f = s.args, s.args.function
    rs, h, trans = s.rs, s.handle, a.transposeA
    blocks = _bsr_general(s) if f == "bsrmv" else None
    A = sp.csr_matrix(blocks) if blocks is not None else s.sparse(a.M, a.N, a.nnz, f in ("ellmv", "hybmv"))
    m, n = A.shape
    xlen, ylen = (n, m) if trans == "N" else (m, n)
    x, y0 = s.values(xlen), s.values(ylen)
    dx, dy = s.dev(x), s.dev(y0)
    ref_a = _op(A, trans).tocsr()
    descr = s.descr()
    # what the call reads (rocSPARSE's counts): stored values and indices, and the entries of its flop count
    stored, indices, entries = A.nnz, m + 1 + A.nnz, A.nnz
    sizes: list[tuple[str, Any]] = [("nnz", A.nnz)]
    extra: list[tuple[str, Any]] = []
    if f == "csrmv":
        dv, dp, dc = s.csr(A)
        info = None
        if a.spmv_alg == 2:  # rocsparse-bench's csrmv: the adaptive algorithm is the analysed one
            info = rs.create_mat_info()
            s.fn("csrmv_analysis")(h, trans, m, n, A.nnz, descr, dv, dp, dc, info)
        call = partial(s.fn("csrmv"), h, trans, m, n, A.nnz, s.alpha, descr, dv, dp, dc, info, dx, s.beta, dy)
        extra.append(("algorithm", "adaptive" if info is not None else "stream"))
    elif f == "coomv":
        coo = A.tocoo()
        dv = s.dev(coo.data.astype(s.dtype))
        dr, dc = s.dev(coo.row.astype(s.itype) + s.base), s.dev(coo.col.astype(s.itype) + s.base)
        call = partial(s.fn("coomv"), h, trans, m, n, A.nnz, s.alpha, descr, dv, dr, dc, dx, s.beta, dy)
        indices = 2 * A.nnz
    elif f == "bsrmv":
        assert blocks is not None
        bd, nnzb = a.blockdim, int(blocks.indptr[-1])
        direction = rs.Direction(a.direction)
        head = (h, direction, trans, m // bd, n // bd, nnzb)
        dv, dp, dc = s.bsr(blocks)
        info = rs.create_mat_info()  # rocsparse-bench analyses first
        s.fn("bsrmv_analysis")(*head, descr, dv, dp, dc, bd, info)
        call = partial(s.fn("bsrmv"), *head, s.alpha, descr, dv, dp, dc, bd, info, dx, s.beta, dy)
        stored = entries = nnzb * bd * bd
        indices = m // bd + 1 + nnzb
        sizes = [("nnzb_A", nnzb), ("bdim_A", bd), ("bdir_A", direction.name)]
    elif f == "ellmv":
        counts = np.diff(A.indptr)
        width = int(counts.max(initial=0))
        slot, rows = np.arange(A.nnz) - np.repeat(A.indptr[:-1], counts), np.repeat(np.arange(m), counts)
        col, val = np.full((width, m), -1, s.itype), np.zeros((width, m), s.dtype)  # column-major; padding -1, 0
        col[slot, rows], val[slot, rows] = A.indices + s.base, A.data
        call = partial(s.fn("ellmv"), h, trans, m, n, s.alpha, descr, s.dev(val.ravel()), s.dev(col.ravel()), width,
                       dx, s.beta, dy)
        stored = indices = entries = m * width
        sizes = [("ell_nnz", m * width), ("ell_width", width)]
    elif f == "hybmv":
        dv, dp, dc = s.csr(A)
        hyb, part = rs.create_hyb_mat(), rs.HybPartition(a.hybpart)
        s.fn("csr2hyb")(h, m, n, descr, dv, dp, dc, hyb, a.hybellwidth, part)
        s.keep.append(hyb)
        call = partial(s.fn("hybmv"), h, trans, s.alpha, descr, hyb, dx, s.beta, dy)
        stored, indices = hyb.ell_nnz + hyb.coo_nnz, hyb.ell_nnz + 2 * hyb.coo_nnz
        extra = [("partition", part.name), *([("ell_width", hyb.ell_width)] if part is rs.HybPartition.user else [])]
    else:
        fmt = {0: "coo", 2: "csr", 3: "csc"}.get(a.format, "")
        if not fmt:
            raise UsageError(f"spmv: --format {a.format} is not in rocmath.sparse (0 coo, 2 csr, 3 csc)")
        mat, ct = s.generic(A, fmt)
        vx, vy = rs.create_dnvec_descr(xlen, dx, ct), rs.create_dnvec_descr(ylen, dy, ct)
        alg = _algorithm(rs.SpMVAlg, a.spmv_alg, "--spmv_alg")
        s.keep += [vx, vy]
        call = _staged(s, rs.spmv, rs.SpMVStage, (h, trans, s.alpha, mat, vx, s.beta, vy, ct, alg))
        indices = 2 * A.nnz if fmt == "coo" else indices
        extra = [("algorithm", alg.name), ("format", fmt)]
    columns = [("M", m), ("N", n), *sizes, ("alpha", s.alpha), ("beta", s.beta), *extra]

    def reference(y: np.ndarray = y0.copy()) -> np.ndarray:
        return s.alpha * (ref_a @ x) + s.beta * y

    def check() -> float:
        _upload(s, dy, y0)
        call()
        return _rel(reference(y0.copy()), dy.get(s.stream))

    gflop = (2.0 * entries + (ylen if s.beta != 0 else 0)) / 1e9
    return Bench(call, reference, check, columns, gflop, _mv_bytes(s, xlen, ylen, stored, indices), s.stream,
                 max(A.getnnz(axis=1).max(initial=1), 1) * 8 * _eps(s))


def _restoring(s: _Setup, dst: Any, src: Any, work: Callable[[], Any]) -> Callable[[], None]:
    """An in-place routine's call: first ``dst := src`` (a device-to-device copy on the stream), then ``work``."""
    nbytes = int(src.nbytes)

    def call() -> None:
        if nbytes:
            s.rm.memcpy_async(dst, src, nbytes, s.rm.MemcpyKind.DeviceToDevice, s.stream)
        work()

    return call


def _solve(s: _Setup) -> Bench:
    """csrsv, bsrsv, spsv (one right-hand side) and csrsm (``-k`` of them): analysis once (timed as
    ``analysis msec``), then timed solves of ``op(T) Y = alpha op(B)``."""
    from scipy.sparse.linalg import spsolve_triangular

    a, f, rs, h = s.args, s.args.function, s.rs, s.handle
    trans, lower, unit = a.transposeA, a.uplo == "L", a.diag == "U"
    blocks, T = _bsr_triangle(s) if f == "bsrsv" else (None, _square(s, a.uplo))
    m = T.shape[0]
    nrhs, tb = (a.K, a.transposeB) if f == "csrsm" else (1, "N")
    bshape = (m, nrhs) if tb == "N" else (nrhs, m)
    B0 = s.values(bshape)
    fill = rs.FillMode.lower if lower else rs.FillMode.upper
    diag = rs.DiagType.unit if unit else rs.DiagType.non_unit
    descr = s.descr()
    rs.set_mat_fill_mode(descr, fill)
    rs.set_mat_diag_type(descr, diag)
    policy = rs.AnalysisPolicy.reuse if a.apolicy == "R" else rs.AnalysisPolicy.force
    auto, info = rs.SolvePolicy.auto, rs.create_mat_info()
    stored = T.nnz
    sizes: list[tuple[str, Any]] = []
    extra: list[tuple[str, Any]] = []
    if f == "csrsm":
        dv, dp, dc = s.csr(T)
        flat = B0.ravel(order="F")
        dB, dB0 = s.dev(flat), s.dev(flat)
        head = (h, trans, tb, m, nrhs, T.nnz, s.alpha, descr, dv, dp, dc, dB, bshape[0], info)
        tmp = s.dev(np.zeros(max(1, s.fn("csrsm_buffer_size")(*head, auto)), np.uint8))
        analyse = partial(s.fn("csrsm_analysis"), *head, policy, auto, tmp)
        call = _restoring(s, dB, dB0, partial(s.fn("csrsm_solve"), *head, auto, tmp))

        def result() -> np.ndarray:  # op(X), m x nrhs
            return _op(dB.get(s.stream).reshape(bshape, order="F"), tb)

        sizes = [("nrhs", nrhs)]
        ops = [("transA", trans), ("transB", tb)]
    else:
        dx, dy = s.dev(B0[:, 0]), s.dev(np.zeros(m, s.dtype))
        if f == "csrsv":
            dv, dp, dc = s.csr(T)
            head = (h, trans, m, T.nnz)
            matrix = (descr, dv, dp, dc, info)
            tmp = s.dev(np.zeros(max(1, s.fn("csrsv_buffer_size")(*head, *matrix)), np.uint8))
            analyse = partial(s.fn("csrsv_analysis"), *head, *matrix, policy, auto, tmp)
            call = partial(s.fn("csrsv_solve"), *head, s.alpha, *matrix, dx, dy, auto, tmp)
        elif f == "bsrsv":
            assert blocks is not None
            bd, nnzb = a.blockdim, int(blocks.indptr[-1])
            direction = rs.Direction(a.direction)
            head = (h, direction, trans, m // bd, nnzb)
            dv, dp, dc = s.bsr(blocks)
            tmp = s.dev(np.zeros(max(1, s.fn("bsrsv_buffer_size")(*head, descr, dv, dp, dc, bd, info)), np.uint8))
            analyse = partial(s.fn("bsrsv_analysis"), *head, descr, dv, dp, dc, bd, info, policy, auto, tmp)
            call = partial(s.fn("bsrsv_solve"), *head, s.alpha, descr, dv, dp, dc, bd, info, dx, dy, auto, tmp)
            stored = nnzb * bd * bd
            sizes = [("bdim_A", bd), ("bdir_A", direction.name)]
        else:
            fmt = {0: "coo", 2: "csr"}.get(a.format, "")
            if not fmt:
                raise UsageError(f"spsv: --format {a.format} is not in rocmath.sparse's spsv (0 coo, 2 csr)")
            mat, ct = s.generic(T, fmt)
            rs.spmat_set_attribute(mat, rs.SpMatAttribute.fill_mode, fill)
            rs.spmat_set_attribute(mat, rs.SpMatAttribute.diag_type, diag)
            vx, vy = rs.create_dnvec_descr(m, dx, ct), rs.create_dnvec_descr(m, dy, ct)
            s.keep += [vx, vy]
            head = (h, trans, s.alpha, mat, vx, vy, ct, rs.SpSVAlg.default)
            tmp = s.dev(np.zeros(max(1, rs.spsv(*head, rs.SpSVStage.buffer_size)), np.uint8))
            analyse = partial(rs.spsv, *head, rs.SpSVStage.preprocess, None, tmp)
            call = partial(rs.spsv, *head, rs.SpSVStage.compute, None, tmp)
            extra = [("algorithm", rs.SpSVAlg.default.name), ("format", fmt)]

        def result() -> np.ndarray:
            return dy.get(s.stream)[:, None]

        ops = [("trans", trans)]
    t0 = time.perf_counter_ns()
    analyse()
    s.stream.synchronize()
    analysis_ms = (time.perf_counter_ns() - t0) / 1e6
    op, rhs = _op(T, trans).tocsr(), s.alpha * _op(B0, tb)
    solves_lower = lower == (trans == "N")

    def reference() -> np.ndarray:
        return spsolve_triangular(op, rhs, lower=solves_lower, unit_diagonal=unit)

    def check() -> float:
        call()
        return _rel(reference(), result())

    columns: list[tuple[str, Any]] = [("M", m), ("nnz", stored), *sizes, ("alpha", s.alpha), *ops,
                                      ("diag_type", diag.name), ("fill_mode", fill.name)]
    if f != "spsv":
        columns.append(("analysis_policy", policy.name))
    columns += [("analysis msec", analysis_ms), *extra]
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    gflop = nrhs * (2.0 * stored + m + (m if not unit else 0)) / 1e9
    gbyte = ((m + 1) * jsz + stored * (jsz + isz) + 2 * m * nrhs * isz) / 1e9
    return Bench(call, reference, check, columns, gflop, gbyte, s.stream, 1e3 * _eps(s))


def _factor(s: _Setup) -> Bench:
    """csrilu0 and csric0: buffer size and analysis once (timed as ``analysis msec``), then timed
    factorizations of the same values (restored first)."""
    from scipy.sparse.linalg import spilu

    a, f, rs, h = s.args, s.args.function, s.rs, s.handle
    ic = f == "csric0"
    A = _square(s, "G", hermitian=ic)
    m, nnz = A.shape[0], A.nnz
    descr, info = s.descr(), rs.create_mat_info()
    dv, dp, dc = s.csr(A)
    dv0 = s.dev(A.data)
    head = (h, m, nnz, descr, dv, dp, dc, info)
    tmp = s.dev(np.zeros(max(1, s.fn(f"{f}_buffer_size")(*head)), np.uint8))
    policy = rs.AnalysisPolicy.reuse if a.apolicy == "R" else rs.AnalysisPolicy.force
    t0 = time.perf_counter_ns()
    s.fn(f"{f}_analysis")(*head, policy, rs.SolvePolicy.auto, tmp)
    s.stream.synchronize()
    analysis_ms = (time.perf_counter_ns() - t0) / 1e6
    call = _restoring(s, dv, dv0, partial(s.fn(f), *head, rs.SolvePolicy.auto, tmp))
    # the matrix factorized: A, or the Hermitian matrix A's lower triangle makes
    full = sp.tril(A) + sp.tril(A, -1).conj().T if ic else A
    ref_in = sp.csc_matrix(full)

    def reference() -> Any:  # SciPy has no ILU(0) / IC(0): SuperLU's incomplete LU, as close as it gets
        return spilu(ref_in, drop_tol=0.0, fill_factor=1.0, permc_spec="NATURAL", diag_pivot_thresh=0.0)

    wide = np.complex128 if s.dtype.kind == "c" else np.float64
    pattern = sp.csr_matrix((np.ones(nnz), A.indices, A.indptr), shape=A.shape)
    exact = sp.csr_matrix(A, dtype=wide)

    def check() -> float:
        call()
        got = sp.csr_matrix((dv.get(s.stream).astype(wide), A.indices, A.indptr), shape=A.shape)
        if ic:  # (L L^H)_ij = a_ij on the lower pattern; the strict upper triangle as it was
            low = sp.tril(got)
            residual = (low @ low.conj().T).multiply(sp.tril(pattern)) - sp.tril(exact)
            residual = sp.vstack([residual, sp.triu(got, 1) - sp.triu(exact, 1)])
        else:  # (L U)_ij = a_ij on the pattern, L unit lower, U upper
            lu = (sp.tril(got, -1) + sp.identity(m)) @ sp.triu(got)
            residual = lu.multiply(pattern) - exact
        scale = float(abs(exact).max()) if nnz else 1.0
        return float(abs(residual).max()) / scale if residual.nnz else 0.0

    # multiply-adds a_ij -= l_ik u_kj (IC: l_ik conj(l_jk)) over k < i, j on the pattern, and one division or
    # square root per entry of L's strict part (IC: of L)
    strict = sp.tril(pattern, -1).tocsr()
    if ic:
        mults, singles = (strict @ strict.T).multiply(sp.tril(pattern)).sum(), sp.tril(pattern).nnz
    else:
        mults, singles = (strict @ sp.triu(pattern, 1)).multiply(pattern).sum(), strict.nnz
    isz, jsz = s.dtype.itemsize, np.dtype(s.itype).itemsize
    columns: list[tuple[str, Any]] = [("M", m), ("nnz", nnz), ("analysis_policy", policy.name),
                                      ("solve_policy", rs.SolvePolicy.auto.name), ("analysis msec", analysis_ms)]
    gbyte = ((m + 1 + nnz) * jsz + 2 * nnz * isz) / 1e9
    return Bench(call, reference, check, columns, (2.0 * float(mults) + singles) / 1e9, gbyte, s.stream,
                 1e3 * _eps(s))


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
        fmt = {0: "coo", 2: "csr", 3: "csc"}.get(a.format, "")
        if not fmt:
            raise UsageError(f"spmm: --format {a.format} is not in rocmath.sparse's spmm (0 coo, 2 csr, 3 csc)")
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


def _gemm(s: _Setup) -> Bench:
    """csrgemm (every stage in each timed call) and the generic spgemm (buffer size and nnz stages once, timed
    as ``analysis msec``; timed compute stage): ``C := alpha A B (+ beta D)``."""
    a, f, rs, h, rm = s.args, s.args.function, s.rs, s.handle, s.rm
    ta, tb = a.transposeA, a.transposeB
    A = s.sparse(a.M, a.K, a.nnz)
    m, k = A.shape
    B = A.copy() if s.matrix is not None else sp.csr_matrix(random_matrix(k, a.N, a.nnz, s.rng), dtype=s.dtype)
    if s.matrix is not None and m != k:
        raise UsageError(f"{f} multiplies the matrix by itself: it must be square, got {m} x {k}")
    n = B.shape[1]
    use_d = s.beta != 0
    D = sp.csr_matrix(random_matrix(m, n, a.nnz, s.rng), dtype=s.dtype) if use_d else sp.csr_matrix((m, n),
                                                                                                     dtype=s.dtype)
    beta = s.beta if use_d else None
    out: dict[str, Any] = {}
    extra: list[tuple[str, Any]] = []
    if f == "csrgemm":
        da, db, dd = s.descr(), s.descr(), s.descr()
        dc_descr = s.descr()
        av, ap, ai = s.csr(A)
        bv, bp, bi = s.csr(B)
        dv, dp, di = s.csr(D) if use_d else (None, None, None)
        nnz_d = D.nnz if use_d else 0
        gemm_bs, gemm = s.fn("csrgemm_buffer_size"), s.fn("csrgemm")

        def call() -> None:
            info = rs.create_mat_info()
            need = gemm_bs(h, ta, tb, m, n, k, s.alpha, da, A.nnz, ap, ai, db, B.nnz, bp, bi, beta, dd, nnz_d, dp, di,
                           info)
            tmp = rm.empty(max(1, need), np.uint8)
            cp = rm.empty(m + 1, s.itype)
            nnz_c = rs.csrgemm_nnz(h, ta, tb, m, n, k, da, A.nnz, ap, ai, db, B.nnz, bp, bi, dd, nnz_d, dp, di,
                                   dc_descr, cp, None, info, tmp)
            cv, ci = rm.empty(max(nnz_c, 1), s.dtype), rm.empty(max(nnz_c, 1), s.itype)
            gemm(h, ta, tb, m, n, k, s.alpha, da, A.nnz, av, ap, ai, db, B.nnz, bv, bp, bi, beta, dd, nnz_d, dv, dp,
                 di, dc_descr, cv, cp, ci, info, tmp)
            out.update(nnz=int(nnz_c), val=cv, ptr=cp, ind=ci, tmp=tmp)
    else:
        if a.format != 2:
            raise UsageError(f"spgemm: --format {a.format} is not in rocmath.sparse's spgemm (2 csr)")
        (ma, ct), (mb, _), (md, _) = (s.generic(x, "csr") for x in (A, B, D))
        it, jt = (rs.IndexType[t] for t in _INDEX[a.indextype])
        ptype, itype = (np.int64 if t is rs.IndexType.i64 else np.int32 for t in (it, jt))
        cp = s.dev(np.zeros(m + 1, ptype))
        mc = rs.create_csr_descr(m, n, 0, cp, None, None, it, jt, s.base, ct)
        s.keep.append(mc)
        head = (h, ta, tb, s.alpha, ma, mb, beta, md, mc, ct, rs.SpGEMMAlg.default)
        t0 = time.perf_counter_ns()
        tmp = rm.empty(max(1, rs.spgemm(*head, rs.SpGEMMStage.buffer_size)), np.uint8)
        rs.spgemm(*head, rs.SpGEMMStage.nnz, None, tmp)
        nnz_c = rs.spmat_get_size(mc)[2]
        cv, ci = rm.empty(max(nnz_c, 1), s.dtype), rm.empty(max(nnz_c, 1), itype)
        rs.csr_set_pointers(mc, cp, ci, cv)
        s.stream.synchronize()
        extra.append(("analysis msec", (time.perf_counter_ns() - t0) / 1e6))
        out.update(nnz=int(nnz_c), val=cv, ptr=cp, ind=ci, tmp=tmp)
        call = partial(rs.spgemm, *head, rs.SpGEMMStage.compute, None, tmp)

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
                                      ("beta", s.beta), *extra]
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
    if f in PRODUCTS:
        return _level2(s)
    if f in SOLVES:
        return _solve(s)
    if f in ("csrmm", "spmm"):
        return _level3(s)
    if f in ("csrgemm", "spgemm"):
        return _gemm(s)
    if f in FACTORIZATIONS:
        return _factor(s)
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
