"""Plans: immutable decisions built once from canonical parameters, and the bounded plan cache.

A :class:`PlanSpec` is the canonical form of a ``rocfft_plan_create`` call (defaults filled
in as rocFFT's ``init_defaults`` does); it is the cache key, so the stream and the data
pointers are never part of it.  :func:`build` turns a spec into an :class:`ExecPlan`: a
list of :class:`Pass` es (one per dimension, plus a copy when an in-place 1D layout would
otherwise race), each with its FFT :class:`Program` (radix stages and precomputed
twiddles, or Bluestein's chirp and kernel) and the line starts it reads and writes.
Executing a plan only launches its passes (see :mod:`rocmath.fft._api`).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rocmath.kernel import pool_threads

from . import _kernels as k
from ._types import ArrayType, Precision, ResultPlacement, TransformType

#: Largest prime factor done by a direct (generic radix) DFT stage; larger ones use Bluestein.
#: Not Rader: for a prime p it convolves over length p - 1, which is only cheaper than
#: Bluestein's two FFTs of the 2^a 3^b 5^c length M >= 2p - 1 when p - 1 is itself smooth, and
#: the bench's primes are not (4099 - 1 = 2 * 3 * 683 would need Bluestein inside Rader).
MAX_GENERIC_RADIX = 61
#: Elements (rows x lanes) of a chunk, sized so four chunk buffers stay in a core's L2 cache.
CHUNK_BYTES = 512 * 1024
MAX_LANES = 64
#: Chunk groups a pass splits its lines into at most (``fft_pass`` runs ``4 * threads``).
SCRATCH_GROUPS = 4 * pool_threads()
_SPECIALIZED = (2, 3, 4, 5, 7, 8, 11, 13)


# --- twiddles ----------------------------------------------------------------------------------


def expi(num: np.ndarray | int, den: int) -> np.ndarray:
    """``exp(-2 pi i num / den)`` in double precision, exact at multiples of a quarter turn.

    The angle is reduced with integer arithmetic to an octant first, so large indices lose no
    accuracy and ``cos``/``sin`` are only evaluated on ``[0, pi/4]``.
    """
    num = np.asarray(num, dtype=np.int64) % den
    quarter = (4 * num) // den  # which quarter turn
    rem = 4 * num - quarter * den  # the rest, in units of (pi/2)/den
    upper = 2 * rem > den  # past the octant: use the complement
    frac = np.where(upper, den - rem, rem) / den * (math.pi / 2)
    c0, s0 = np.cos(frac), np.sin(frac)
    c = np.where(upper, s0, c0)
    s = np.where(upper, c0, s0)
    # Rotate (c, s) by `quarter` quarter turns.
    cq = np.choose(quarter, [c, -s, -c, s])
    sq = np.choose(quarter, [s, c, -s, -c])
    return cq - 1j * sq


def factorize(n: int) -> dict[int, int]:
    """The prime factorization of ``n`` (>= 1) as ``{prime: exponent}``."""
    out: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def radices(n: int, single: bool = False) -> list[int] | None:
    """The radix stages for length ``n``: eights (with a four or two for the rest of the power of
    two), threes, fives, sevens, elevens, thirteens (all specialized stages), then direct stages
    for other primes; None when a prime factor is too large for a direct stage (Bluestein then).

    ``single``: the stages compute in single precision, where ``2^(3k+1)`` (``k >= 3``) runs as
    8...8 x 2 (measured 5-8% faster at 1024 and 8192 points: the second stage then runs on runs of
    8 values, a full single-precision vector, rather than 4) instead of 4 x 8...8 x 4."""
    f = factorize(n)
    if any(p > MAX_GENERIC_RADIX for p in f):
        return None
    twos = f.pop(2, 0)
    eights, rest = divmod(twos, 3)
    out = [8] * eights
    if rest == 1 and single and eights >= 3:
        out.append(2)
    elif rest == 1:
        # 4 x 8...8 x 4 rather than 8...8 x 4 x 4: a cheaper first stage (the one along the line).
        out = [4] + [8] * (eights - 1) + [4] if eights else [2]
    elif rest == 2:
        out.append(4)
    for p in sorted(f):
        out += [p] * f[p]
    return out


def good_size(n: int) -> int:
    """The smallest ``2^a 3^b 5^c >= n``: Bluestein's convolution length."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


@dataclass(frozen=True, eq=False)
class Program:
    """How one line of length ``length`` is transformed (see :mod:`rocmath.fft._kernels`).

    Attributes
    ----------
    length
        The transform length ``L``.
    stages
        The radices, in order (of ``bluestein_length`` when Bluestein is used).
    bluestein_length
        The convolution length ``M``, or 0 when the radix stages do the whole length.
    real_length
        The real length whose split twiddles are appended (0 when none).
    ip, tw
        The integer program and the twiddles (interleaved pairs, in the compute dtype).
    """

    length: int
    stages: tuple[int, ...]
    bluestein_length: int
    real_length: int
    ip: np.ndarray
    tw: np.ndarray

    @property
    def nbytes(self) -> int:
        return int(self.ip.nbytes + self.tw.nbytes)

    def describe(self) -> str:
        rad = "x".join(map(str, self.stages)) or "none"
        if self.bluestein_length:
            return f"Bluestein {self.length} via a length-{self.bluestein_length} convolution (radices {rad})"
        return f"Stockham length {self.length} (radices {rad})"


def _stage_table(n: int, rads: list[int], tw: list[np.ndarray], base: int) -> tuple[list[int], int]:
    """Stage rows (r, m, twiddle offset, roots offset) for length n; appends twiddles to ``tw``."""
    rows: list[int] = []
    cur = n
    off = base
    for r in rads:
        m = cur // r
        kk = np.arange(1, r, dtype=np.int64)[:, None]
        pp = np.arange(m, dtype=np.int64)[None, :]
        w = expi(kk * pp, cur).ravel()
        toff = off
        tw.append(w)
        off += w.size
        roff = -1
        if r not in _SPECIALIZED:
            roff = off
            roots = expi(np.arange(r), r)
            tw.append(roots)
            off += r
        rows += [r, m, toff, roff]
        cur = m
    return rows, off


def build_program(length: int, dtype: np.dtype[Any], real_length: int = 0) -> Program:
    """The :class:`Program` of a length-``length`` forward DFT computing in ``dtype`` (a real dtype).

    ``real_length`` appends ``exp(-2 pi i k / real_length)``, ``k <= real_length / 2``, for the
    real-transform split passes.
    """
    dtype = np.dtype(dtype)
    tw: list[np.ndarray] = []
    header = np.zeros(k.P_STAGES, dtype=np.int64)
    header[k.P_L] = length
    header[k.P_REAL] = -1
    single = dtype == np.float32
    rads = radices(length, single)
    if rads is not None:
        rows, off = _stage_table(length, rads, tw, 0)
        header[k.P_NST] = len(rads)
        header[k.P_ROWS] = max(length, 1)
        stages = rads
        mlen = 0
    else:
        mlen = good_size(2 * length - 1)
        stages = radices(mlen, single) or []
        rows, off = _stage_table(mlen, stages, tw, 0)
        header[k.P_BLUE] = 1
        header[k.P_M] = mlen
        header[k.P_NSTM] = len(stages)
        header[k.P_ROWS] = mlen
        j = np.arange(length, dtype=np.int64)
        chirp = expi((j * j) % (2 * length), 2 * length)  # exp(-i pi j^2 / n)
        header[k.P_CHIRP] = off
        tw.append(chirp)
        off += length
        b = np.zeros(mlen, dtype=np.complex128)
        b[:length] = np.conj(chirp)
        b[mlen - length + 1:] = np.conj(chirp[1:])[::-1]
        bk = _dft_double(mlen, b) / mlen
        header[k.P_BK] = off
        tw.append(bk)
        off += mlen
    if real_length:
        header[k.P_REAL] = off
        tw.append(expi(np.arange(real_length // 2 + 1), real_length))
    cat = np.concatenate(tw) if tw else np.zeros(0, dtype=np.complex128)
    pairs = np.empty(2 * cat.size, dtype=dtype)
    pairs[0::2] = cat.real
    pairs[1::2] = cat.imag
    ip = np.concatenate([header, np.asarray(rows, dtype=np.int64)])
    return Program(length, tuple(stages), mlen, real_length, ip, pairs)


def _dft_double(n: int, x: np.ndarray) -> np.ndarray:
    """The forward DFT of one complex line, in double, with this library's own kernels."""
    prog = build_program(n, np.float64)
    xr = np.ascontiguousarray(x.real, dtype=np.float64)
    xi = np.ascontiguousarray(x.imag, dtype=np.float64)
    k.transform_line(prog.ip, prog.tw, xr, xi)
    return xr + 1j * xi


# --- canonical parameters ----------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """One side's data layout, defaults filled in (elements of that side's type)."""

    array_type: ArrayType
    offsets: tuple[int, ...]
    strides: tuple[int, ...]
    distance: int

    @property
    def planar(self) -> bool:
        return self.array_type.is_planar

    @property
    def complex(self) -> bool:
        return self.array_type.is_complex

    @property
    def cs(self) -> int:
        """Real scalars per element step in one buffer (2 for interleaved complex)."""
        return 2 if self.complex and not self.planar else 1

    @property
    def ioff(self) -> int:
        """Where the imaginary part is, relative to the real part, in the same or the second buffer."""
        return 1 if self.complex and not self.planar else 0

    @property
    def buffers(self) -> int:
        return 2 if self.planar else 1


@dataclass(frozen=True)
class PlanSpec:
    """The canonical parameters of a plan: the plan cache's key."""

    placement: ResultPlacement
    transform_type: TransformType
    precision: Precision
    lengths: tuple[int, ...]
    batch: int
    inp: Layout
    out: Layout
    scale: float

    @property
    def in_lengths(self) -> tuple[int, ...]:
        """Element counts of the input per dimension (Hermitian: the halved first one)."""
        if self.transform_type == TransformType.real_inverse:
            return (self.lengths[0] // 2 + 1, *self.lengths[1:])
        return self.lengths

    @property
    def out_lengths(self) -> tuple[int, ...]:
        if self.transform_type == TransformType.real_forward:
            return (self.lengths[0] // 2 + 1, *self.lengths[1:])
        return self.lengths


def default_layout(tt: TransformType, placement: ResultPlacement, lengths: tuple[int, ...], side: str,
                   array_type: ArrayType, offsets: tuple[int, ...] | None, strides: tuple[int, ...] | None,
                   distance: int) -> Layout:
    """Fill in what the description left unset, as rocFFT's ``init_defaults`` does."""
    if array_type == ArrayType.unset:
        if tt.is_real:
            real_side = "in" if tt == TransformType.real_forward else "out"
            array_type = ArrayType.real if side == real_side else ArrayType.hermitian_interleaved
        else:
            array_type = ArrayType.complex_interleaved
    rank = len(lengths)
    half = (lengths[0] // 2 + 1, *lengths[1:])
    mine = lengths if (not tt.is_real or array_type == ArrayType.real) else half
    # In-place real data is padded to the Hermitian side's size: rows of 2 (n0/2 + 1) reals.
    padded = placement == ResultPlacement.inplace and array_type == ArrayType.real
    if strides is None:
        st = [1]
        row = 2 * half[0] if padded else mine[0]
        for i in range(1, rank):
            st.append(st[-1] * (row if i == 1 else mine[i - 1]))
        strides = tuple(st)
    if distance == 0:
        # 1D in-place real data: each entry padded to the Hermitian side's size.
        distance = 2 * half[0] * strides[0] if padded and rank == 1 else mine[rank - 1] * strides[rank - 1]
    nbuf = 2 if array_type.is_planar else 1
    offs = tuple(offsets[:nbuf]) if offsets is not None else (0,) * nbuf
    offs = offs + (0,) * (nbuf - len(offs))
    return Layout(array_type, offs, tuple(strides), int(distance))


# --- passes ------------------------------------------------------------------------------------

IN, OUT, WORK = "input", "output", "work"


@dataclass(frozen=True, eq=False)
class Pass:
    """One launch of :func:`~rocmath.fft._kernels.fft_pass`."""

    mode: int
    axis: int
    n: int
    src: str
    dst: str
    io: np.ndarray
    sbase: np.ndarray
    dbase: np.ndarray
    program: Program
    scale: float
    scratch: int = 0  # real scalars of chunk buffers it takes from the work buffer (Bluestein)

    @property
    def lines(self) -> int:
        return int(self.sbase.size)

    @property
    def nbytes(self) -> int:
        return int(self.io.nbytes + self.sbase.nbytes + self.dbase.nbytes)


_MODE_NAMES = {k.C2C: "complex", k.R2C_EVEN: "real-to-complex (half-length complex FFT + split)",
               k.R2C_ODD: "real-to-complex (full-length complex FFT)",
               k.C2R_EVEN: "complex-to-real (merge + half-length complex FFT)",
               k.C2R_ODD: "complex-to-real (Hermitian extension + full-length complex FFT)", k.COPY: "copy"}


@dataclass(frozen=True, eq=False)
class ExecPlan:
    """A built plan: the spec, its passes, and the device work memory it needs."""

    spec: PlanSpec
    passes: tuple[Pass, ...]
    work_elements: int  # complex elements of the planar intermediate in the work buffer (0: none)
    compute_dtype: np.dtype[Any]
    in_extent: tuple[int, ...]  # real scalars each input buffer spans from its offset
    out_extent: tuple[int, ...]
    half_out_index: tuple[np.ndarray, ...] = field(default=())  # scalars written, per output buffer (half only)
    flops: float = 0.0
    scratch: int = 0  # real scalars of chunk buffers after the intermediate (the largest pass's)

    @property
    def work_bytes(self) -> int:
        """``rocfft_plan_get_work_buffer_size``: the planar intermediate, then Bluestein's buffers."""
        return (2 * self.work_elements + self.scratch) * self.compute_dtype.itemsize

    @property
    def nbytes(self) -> int:
        progs = {id(p.program): p.program.nbytes for p in self.passes}
        return int(sum(progs.values()) + sum(p.nbytes for p in self.passes)
                   + sum(a.nbytes for a in self.half_out_index))

    def describe(self) -> str:
        s = self.spec
        lines = [
            f"rocfft plan: {s.transform_type.name}, {s.precision.name} precision, "
            f"{'in place' if s.placement == ResultPlacement.inplace else 'not in place'}",
            f"  lengths {list(s.lengths)} (fastest first), batch {s.batch}, scale {s.scale!r}",
            f"  input:  {s.inp.array_type.name}, offsets {list(s.inp.offsets)}, strides {list(s.inp.strides)}, "
            f"distance {s.inp.distance}",
            f"  output: {s.out.array_type.name}, offsets {list(s.out.offsets)}, strides {list(s.out.strides)}, "
            f"distance {s.out.distance}",
            f"  work buffer: {self.work_bytes} bytes; compute type {self.compute_dtype.name}",
        ]
        for i, p in enumerate(self.passes, 1):
            what = _MODE_NAMES[p.mode]
            inverse = " inverse" if p.io[k.IO_CONJ_IN] and p.mode == k.C2C else ""
            lanes = int(p.io[k.IO_LANES])
            head = (f"  pass {i}: {what}{inverse} along dimension {p.axis}, length {p.n}, {p.lines} lines, "
                    f"{p.src} -> {p.dst}")
            if p.mode != k.COPY:
                head += f", {p.program.describe()}, {lanes} lines per chunk"
            if p.scale != 1.0:
                head += f", scaled by {p.scale!r}"
            lines.append(head)
        return "\n".join(lines)


def _bases(counts: list[int], strides: list[int]) -> np.ndarray:
    """Starts of every line: sum_a idx_a * stride_a over the axes (first axis fastest)."""
    out = np.zeros(1, dtype=np.int64)
    for n, st in zip(reversed(counts), reversed(strides), strict=True):
        out = (out[:, None] + np.arange(n, dtype=np.int64)[None, :] * st).ravel()
    return out


def _lanes(rows: int, lines: int, itemsize: int, contiguous: bool) -> int:
    """Lines per chunk: one when lines are contiguous (read and written with unit stride, the
    first radix stage vectorizing along the line), else as many as fit the cache budget."""
    if contiguous:
        return 1
    per = max(1, CHUNK_BYTES // (4 * itemsize * max(rows, 1)))
    lanes = min(MAX_LANES, per, max(1, lines // 8))
    return 1 << (max(lanes, 1).bit_length() - 1)


@dataclass(frozen=True)
class _Side:
    """Element lengths and real-scalar strides of one buffer family, for line addressing."""

    lengths: tuple[int, ...]
    strides: tuple[int, ...]  # real scalars
    distance: int
    ioff: int

    def line_bases(self, axis: int, batch: int) -> np.ndarray:
        others = [i for i in range(len(self.lengths)) if i != axis]
        return _bases([self.lengths[i] for i in others] + [batch],
                      [self.strides[i] for i in others] + [self.distance])


def _user_side(layout: Layout, lengths: tuple[int, ...]) -> _Side:
    cs = layout.cs
    return _Side(lengths, tuple(s * cs for s in layout.strides), layout.distance * cs, layout.ioff)


def _work_side(lengths: tuple[int, ...]) -> _Side:
    st = [1]
    for n in lengths[:-1]:
        st.append(st[-1] * n)
    return _Side(lengths, tuple(st), st[-1] * lengths[-1], 0)


def _extent(side: _Side, batch: int, nbuf: int) -> tuple[int, ...]:
    if batch == 0 or any(n == 0 for n in side.lengths):
        return (0,) * nbuf
    last = sum((n - 1) * s for n, s in zip(side.lengths, side.strides, strict=True)) + (batch - 1) * side.distance
    return (last + side.ioff + 1,) * nbuf


def overlaps(strides: tuple[int, ...], lengths: tuple[int, ...], batch: int, distance: int) -> str | None:
    """Whether a layout addresses some element twice: None if not, else "strides" or "distance"
    (the dimension that breaks it).  Sorted by stride, each stride must pass the span of all the
    finer dimensions (a sufficient test; batch entries count as one more dimension)."""
    dims = [(s, n, False) for s, n in zip(strides, lengths, strict=True) if n > 1]
    if batch > 1:
        dims.append((distance, batch, True))
    dims.sort(key=lambda t: (t[0], t[2]))
    span = 0
    for stride, n, is_batch in dims:
        if stride <= span:
            return "distance" if is_batch else "strides"
        span += (n - 1) * stride
    return None


def _lines_disjoint(src: _Side, dst: _Side, src_off: int, dst_off: int, axis: int, batch: int) -> bool:
    """Whether each line's input and output scalars (one buffer, in place) stay clear of every other line's."""
    sb = src.line_bases(axis, batch) + src_off
    db = dst.line_bases(axis, batch) + dst_off
    lo = np.minimum(sb, db)
    hi = np.maximum(sb + (src.lengths[axis] - 1) * src.strides[axis] + src.ioff,
                    db + (dst.lengths[axis] - 1) * dst.strides[axis] + dst.ioff)
    order = np.argsort(lo, kind="stable")
    return bool(np.all(lo[order][1:] > hi[order][:-1]))


def build(spec: PlanSpec) -> ExecPlan:
    """Decide the passes of ``spec`` and precompute everything they need (programs shared by
    passes of equal length are built once)."""
    compute = np.dtype(np.float64 if spec.precision == Precision.double else np.float32)
    cache: dict[tuple[int, int], Program] = {}

    def program(length: int, real_length: int = 0) -> Program:
        key = (length, real_length)
        if key not in cache:
            cache[key] = build_program(length, compute, real_length)
        return cache[key]

    tt, lengths, batch, rank = spec.transform_type, spec.lengths, spec.batch, len(spec.lengths)
    clen = spec.out_lengths if tt == TransformType.real_forward else spec.in_lengths
    inside = _user_side(spec.inp, spec.in_lengths)
    outside = _user_side(spec.out, spec.out_lengths)
    work = _work_side(clen)
    sides = {IN: inside, OUT: outside, WORK: work}
    inverse = tt.is_inverse
    itemsize = compute.itemsize

    inplace = spec.placement == ResultPlacement.inplace
    in_off = spec.inp.offsets[0] * spec.inp.cs
    out_off = spec.out.offsets[0] * spec.out.cs
    # In place, the pass between the two layouts (along dimension 0: the first pass, or the last
    # of a real inverse transform) may run line by line only if lines do not overlap other lines.
    disjoint = batch == 0 or _lines_disjoint(inside, outside, in_off, out_off, 0, batch)
    # Where the passes between the first and the last keep their data: in the output itself
    # (complex and real forward transforms: it has the intermediate's shape), in the input
    # (real inverse transforms may overwrite their input, as rocFFT's do), else in the work buffer.
    if tt == TransformType.real_inverse:
        mid = IN if not overlaps(spec.inp.strides, spec.in_lengths, batch, spec.inp.distance) and (
            not inplace or disjoint) else WORK
    else:
        mid = OUT if not inplace or disjoint else WORK
    steps: list[tuple[int, int, str, str]] = []  # (mode, axis, src, dst)
    if tt == TransformType.real_forward:
        steps.append((k.R2C_EVEN if lengths[0] % 2 == 0 else k.R2C_ODD, 0, IN, mid))
        steps += [(k.C2C, a, mid, mid) for a in range(1, rank)]
    elif tt == TransformType.real_inverse:
        steps += [(k.C2C, a, mid, mid) for a in range(rank - 1, 0, -1)]
        steps.append((k.C2R_EVEN if lengths[0] % 2 == 0 else k.C2R_ODD, 0, mid, mid))
    else:
        steps += [(k.C2C, a, mid, mid) for a in range(rank)]
    # The first pass reads the input, the last writes the output.
    steps[0] = (steps[0][0], steps[0][1], IN, steps[0][3])
    steps[-1] = (steps[-1][0], steps[-1][1], steps[-1][2], OUT)
    if len(steps) == 1 and inplace and not disjoint:
        mode, axis, _, _ = steps[0]
        # Lines overlap other lines in place: go through the work buffer (real inverse transforms
        # copy their Hermitian input there first; the others transform into it and copy out).
        if tt == TransformType.real_inverse:
            steps = [(k.COPY, axis, IN, WORK), (mode, axis, WORK, OUT)]
        else:
            steps = [(mode, axis, IN, WORK), (k.COPY, axis, WORK, OUT)]

    passes: list[Pass] = []
    for i, (mode, axis, src, dst) in enumerate(steps):
        last = i == len(steps) - 1
        n = lengths[axis] if mode != k.COPY else sides[src].lengths[axis]
        if mode in (k.R2C_EVEN, k.C2R_EVEN):
            prog = program(n // 2, n)
        elif mode == k.COPY:
            prog = program(1)
        else:
            prog = program(n)
        s_side, d_side = sides[src], sides[dst]
        sbase, dbase = s_side.line_bases(axis, batch), d_side.line_bases(axis, batch)
        nout = d_side.lengths[axis]
        rows = max(int(prog.ip[k.P_ROWS]), n if mode in (k.R2C_ODD, k.C2R_ODD, k.COPY) else 0)
        if rows != int(prog.ip[k.P_ROWS]):  # copies and odd real lengths need n rows
            ip = prog.ip.copy()
            ip[k.P_ROWS] = rows
            prog = Program(prog.length, prog.stages, prog.bluestein_length, prog.real_length, ip, prog.tw)
        io = np.zeros(k.IO_SIZE, dtype=np.int64)
        io[k.IO_MODE] = mode
        io[k.IO_N] = n
        io[k.IO_SSTRIDE] = s_side.strides[axis]
        io[k.IO_SIOFF] = s_side.ioff
        io[k.IO_DSTRIDE] = d_side.strides[axis]
        io[k.IO_DIOFF] = d_side.ioff
        io[k.IO_CONJ_IN] = io[k.IO_CONJ_OUT] = int(inverse and mode == k.C2C)
        contiguous = s_side.strides[axis] <= 2 and d_side.strides[axis] <= 2
        io[k.IO_LANES] = _lanes(rows, sbase.size, itemsize, contiguous)
        io[k.IO_NOUT] = nout
        scratch = 0
        if prog.bluestein_length and mode != k.COPY:
            # Bluestein's chunk buffers (4 of M rows per lane) live in the work buffer, one set
            # per chunk group, as rocFFT keeps its Bluestein temporaries there.
            chunks = -(-sbase.size // int(io[k.IO_LANES]))
            scratch = 4 * rows * int(io[k.IO_LANES]) * min(chunks, SCRATCH_GROUPS)
        passes.append(Pass(mode, axis, n, src, dst, io, sbase, dbase, prog, spec.scale if last else 1.0, scratch))

    for p in passes:  # a built plan is immutable: its arrays too (and may be shared by threads)
        for a in (p.io, p.sbase, p.dbase, p.program.ip, p.program.tw):
            a.setflags(write=False)
    uses_work = any(p.src == WORK or p.dst == WORK for p in passes)
    work_elements = int(math.prod(clen)) * batch if uses_work else 0
    in_extent = _extent(inside, batch, spec.inp.buffers)
    out_extent = _extent(outside, batch, spec.out.buffers)
    half_index: tuple[np.ndarray, ...] = ()
    if spec.precision == Precision.half and batch > 0:
        fin = passes[-1]
        real_out = spec.out.array_type == ArrayType.real
        count = fin.n if real_out else int(fin.io[k.IO_NOUT])
        idx = (fin.dbase[:, None] + np.arange(count, dtype=np.int64)[None, :] * outside.strides[fin.axis]).ravel()
        if real_out:
            half_index = (idx,)
        elif spec.out.planar:
            half_index = (idx, idx)
        else:
            half_index = (np.sort(np.concatenate([idx, idx + 1])),)
    total = int(math.prod(lengths))
    flops = 5.0 * total * math.log2(max(total, 2)) * batch * (0.5 if tt.is_real else 1.0)
    scratch = max((p.scratch for p in passes), default=0)
    return ExecPlan(spec, tuple(passes), work_elements, compute, in_extent, out_extent, half_index, flops, scratch)


# --- the plan cache ----------------------------------------------------------------------------


@dataclass
class CacheStats:
    """Counters of a :class:`PlanCache`."""

    hits: int = 0
    misses: int = 0
    evictions: int = 0
    plans: int = 0
    bytes: int = 0


class PlanCache:
    """Built plans by canonical spec, least recently used first out, bounded by count and bytes.

    Never keyed on a stream: a plan holds no per-execution state, so one plan may run on
    several streams at once (each execution gets its own work buffer).  ``max_plans = 0``
    disables caching.  Thread-safe.
    """

    def __init__(self, max_plans: int = 64, max_bytes: int = 256 << 20):
        self._lock = threading.Lock()
        self._plans: OrderedDict[PlanSpec, ExecPlan] = OrderedDict()
        self._bytes = 0
        self.max_plans = int(max_plans)
        self.max_bytes = int(max_bytes)
        self._stats = CacheStats()

    def get(self, spec: PlanSpec) -> ExecPlan:
        """The plan for ``spec``: the cached one, or a new one (then cached)."""
        with self._lock:
            plan = self._plans.get(spec)
            if plan is not None:
                self._plans.move_to_end(spec)
                self._stats.hits += 1
                return plan
            self._stats.misses += 1
        plan = build(spec)  # outside the lock: building may take a while
        with self._lock:
            if self.max_plans > 0 and plan.nbytes <= self.max_bytes and spec not in self._plans:
                self._plans[spec] = plan
                self._bytes += plan.nbytes
                self._evict()
        return plan

    def _evict(self) -> None:
        while self._plans and (len(self._plans) > self.max_plans or self._bytes > self.max_bytes):
            _, old = self._plans.popitem(last=False)
            self._bytes -= old.nbytes
            self._stats.evictions += 1

    def set_limits(self, max_plans: int | None = None, max_bytes: int | None = None) -> None:
        """Change the bounds (evicting at once what no longer fits)."""
        with self._lock:
            if max_plans is not None:
                self.max_plans = int(max_plans)
            if max_bytes is not None:
                self.max_bytes = int(max_bytes)
            self._evict()

    def clear(self) -> None:
        """Drop every cached plan (plans in use stay valid)."""
        with self._lock:
            self._plans.clear()
            self._bytes = 0

    def stats(self) -> CacheStats:
        """A snapshot of the counters, with the current plan count and bytes."""
        with self._lock:
            s = self._stats
            return CacheStats(s.hits, s.misses, s.evictions, len(self._plans), self._bytes)

    def __len__(self) -> int:
        return len(self._plans)

    def __contains__(self, spec: object) -> bool:
        return spec in self._plans
