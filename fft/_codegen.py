"""Writes :mod:`rocmath.fft._stages`: the odd-prime butterflies and every specialized radix stage.

Run ``python -m rocmath.fft._codegen`` after changing this file; ``tests/test_fft_radix.py``
checks that the committed module is what this generator writes.  The stages are generated
rather than written by hand because each radix needs the same three loop shapes (see
:func:`stage`) around a butterfly of ``2r`` values, and radices 7, 11 and 13 need their
butterflies' ``(r - 1)^2 / 2`` constant products spelled out.

Why three loop shapes: LLVM vectorizes the inner loop of a stage only when its trip count
reaches the vector width times the interleave count (16 single-precision values on AVX2/
AVX-512), else it runs the scalar remainder loop, several times slower.  The first stage of
a single line (``sb == 1``) loops along ``p`` instead; the short runs of the next stages
(``sb`` in :data:`SMALL_SB`) are compiled with ``sb`` as a constant, so LLVM unrolls them
and vectorizes the straight-line code; longer runs use the plain loop.
"""

from __future__ import annotations

import decimal
import sys
from pathlib import Path

#: Radices with a specialized stage (the others, primes up to 61, use the generic direct stage).
RADICES = (2, 3, 4, 5, 7, 8, 11, 13)
#: Runs of these lengths get a stage compiled with the length as a constant (radices 7, 11 and 13,
#: rarer and several times larger to compile, only the plain loop).
SMALL_SB = (2, 4, 8)
SMALL_SB_RADICES = (2, 3, 4, 5, 8)

_PI = decimal.Decimal("3.14159265358979323846264338327950288419716939937510582097494459")
TARGET = Path(__file__).with_name("_stages.py")


def _cos_sin(k: int, r: int) -> tuple[float, float]:
    """``cos(2 pi k / r)`` and ``sin(2 pi k / r)``, correctly rounded (Taylor series in 60 digits)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        x = 2 * _PI * k / r
        c = s = decimal.Decimal(0)
        term = decimal.Decimal(1)  # x^n / n!
        for n in range(120):
            if n % 4 == 0:
                c += term
            elif n % 4 == 1:
                s += term
            elif n % 4 == 2:
                c -= term
            else:
                s -= term
            term = term * x / (n + 1)
        return float(c), float(s)


def _sum(terms: list[tuple[int, str]]) -> str:
    """``t0 + t1 - t2 ...`` for (sign, expression) terms."""
    out = ""
    for sign, expr in terms:
        if not out:
            out = expr if sign > 0 else f"-{expr}"
        else:
            out += f" + {expr}" if sign > 0 else f" - {expr}"
    return out


def _args(r: int) -> str:
    return ", ".join(f"a{j}r, a{j}i" for j in range(r))


def odd_butterfly(r: int) -> str:
    """The forward DFT of ``r`` (odd prime) values by symmetric pairs: with ``p_j = a_j + a_{r-j}``
    and ``d_j = a_j - a_{r-j}``, ``X_k = a_0 + sum_j cos(2 pi jk/r) p_j - i sum_j sin(2 pi jk/r) d_j``
    and ``X_{r-k}`` the same with the sine sum's sign flipped."""
    q = (r - 1) // 2
    lines = ["@_inline", f"def _bf{r}({_args(r)}, cs, ss):  # type: ignore[no-untyped-def]",
             f"    {', '.join(f'c{j}' for j in range(1, q + 1))}{',' if q == 1 else ''} = cs",
             f"    {', '.join(f's{j}' for j in range(1, q + 1))}{',' if q == 1 else ''} = ss"]
    for j in range(1, q + 1):
        for part in "ri":
            lines.append(f"    p{j}{part} = a{j}{part} + a{r - j}{part}")
            lines.append(f"    d{j}{part} = a{j}{part} - a{r - j}{part}")
    outs_lo: list[str] = []
    outs_hi: list[str] = []
    for k in range(1, q + 1):
        for part in "ri":
            cos_terms = [(1, f"a0{part}")]
            sin_terms = []
            for j in range(1, q + 1):
                x = (j * k) % r
                idx, sign = (x, 1) if x <= q else (r - x, -1)
                cos_terms.append((1, f"c{idx} * p{j}{part}"))
                sin_terms.append((sign, f"s{idx} * d{j}{part}"))
            lines.append(f"    e{k}{part} = {_sum(cos_terms)}")
            lines.append(f"    n{k}{part} = {_sum(sin_terms)}")
        outs_lo.append(f"e{k}r + n{k}i, e{k}i - n{k}r")
        outs_hi.insert(0, f"e{k}r - n{k}i, e{k}i + n{k}r")
    total_r = " + ".join(["a0r"] + [f"p{j}r" for j in range(1, q + 1)])
    total_i = " + ".join(["a0i"] + [f"p{j}i" for j in range(1, q + 1)])
    lines.append(f"    return ({total_r}, {total_i},")
    body = outs_lo + outs_hi
    for n, item in enumerate(body):
        lines.append(f"            {item}{',' if n < len(body) - 1 else ')'}")
    return "\n".join(lines)


def _consts(r: int) -> tuple[list[str], list[str]]:
    """(statements casting the butterfly's constants to the data's dtype, their names)."""
    if r == 8:
        return ["h = xr.dtype.type(R8)"], ["h"]
    if r in (2, 4):
        return [], []
    # As tuples: CPython passes more than 30 arguments as *args, which numba cannot inline.
    q = (r - 1) // 2
    cs = ", ".join(f"xr.dtype.type(COS{r}[{j}])" for j in range(q))
    ss = ", ".join(f"xr.dtype.type(SIN{r}[{j}])" for j in range(q))
    tail = "," if q == 1 else ""
    return [f"cs = ({cs}{tail})", f"ss = ({ss}{tail})"], ["cs", "ss"]


def _u(n: int) -> str:
    return f"U{n}"


def stage(r: int) -> str:
    """The three loop shapes of radix ``r`` and the stage function choosing between them.

    Stage with ``m = n / r`` and ``sb`` = stride so far times lanes: for each ``p < m`` and
    ``k < r``, ``y[(r p + k) sb + t] = (sum_j x[(p + j m) sb + t] w_r^{jk}) w_n^{pk}``."""
    stmts, names = _consts(r)
    extra = "".join(f", {n}" for n in names)
    tws = [f"        w{k}r, w{k}i = _tw(tw, toff, {_u(k)}, m, p)" for k in range(1, r)]
    out: list[str] = []

    def stores(o: str, step: str | None) -> list[str]:
        ind = "            " if step else "        "
        res = [f"{ind}yr[{o}] = b[0]", f"{ind}yi[{o}] = b[1]"]
        for k in range(1, r):
            off = f"{o} + {_u(k)}" if step is None else (f"{o} + sb" if k == 1 else f"{o} + sb{k}")
            res.append(f"{ind}yr[{off}] = b[{2 * k}] * w{k}r - b[{2 * k + 1}] * w{k}i")
            res.append(f"{ind}yi[{off}] = b[{2 * k}] * w{k}i + b[{2 * k + 1}] * w{k}r")
        return res

    # sb == 1: along p (consecutive iterations read consecutive values).
    out += ["@_inline", f"def _first{r}(m, toff, tw, xr, xi, yr, yi{extra}):  # type: ignore[no-untyped-def]"]
    out += [f"    m{j} = {_u(j)} * m" for j in range(2, r)]
    out += ["    for p in range(m):", *tws]
    loads = ", ".join(["xr[p], xi[p]", "xr[p + m], xi[p + m]"] + [f"xr[p + m{j}], xi[p + m{j}]" for j in range(2, r)])
    out.append(f"        b = _bf{r}({loads}{extra})")
    out.append(f"        o = {_u(r)} * p")
    out += stores("o", None)
    out += ["", ""]
    # Runs of sb values (sb a constant when inlined with one).
    out += ["@_inline", f"def _runs{r}(m, sb, toff, tw, xr, xi, yr, yi{extra}):  # type: ignore[no-untyped-def]"]
    out.append("    ms = m * sb")
    out += [f"    ms{j} = {_u(j)} * ms" for j in range(2, r)]
    out += [f"    sb{j} = {_u(j)} * sb" for j in range(2, r)]
    out += ["    for p in range(m):", *tws, "        i0 = p * sb", f"        o0 = {_u(r)} * p * sb",
            "        for t in range(sb):", "            i = i0 + t"]
    loads = ", ".join(["xr[i], xi[i]", "xr[i + ms], xi[i + ms]"] + [f"xr[i + ms{j}], xi[i + ms{j}]"
                                                                    for j in range(2, r)])
    out.append(f"            b = _bf{r}({loads}{extra})")
    out.append("            o = o0 + t")
    out += stores("o", "sb")
    out += ["", ""]
    out += ["@_jit_noalias", f"def _radix{r}(m, sb, toff, tw, xr, xi, yr, yi):  # type: ignore[no-untyped-def]",
            f'    """One radix-{r} stage from ``x`` to ``y``."""']
    out += [f"    {s}" for s in stmts]
    out.append("    m, sb, toff = uint64(m), uint64(sb), uint64(toff)")
    out.append("    if sb == U1:")
    out.append(f"        _first{r}(m, toff, tw, xr, xi, yr, yi{extra})")
    for c in SMALL_SB if r in SMALL_SB_RADICES else ():
        u = _u(c)
        out.append(f"    elif sb == {u}:")
        out.append(f"        _runs{r}(m, {u}, toff, tw, xr, xi, yr, yi{extra})")
    out.append("    else:")
    out.append(f"        _runs{r}(m, sb, toff, tw, xr, xi, yr, yi{extra})")
    return "\n".join(out)


HEADER = '''# ruff: noqa: E501
"""Radix stages of the FFT kernels: GENERATED by :mod:`rocmath.fft._codegen` (do not edit).

Each ``_radix<r>(m, sb, toff, tw, xr, xi, yr, yi)`` runs one Stockham stage of radix ``r``
from ``(xr, xi)`` to ``(yr, yi)`` (see :mod:`rocmath.fft._kernels`), choosing a loop shape
by ``sb`` (see :mod:`rocmath.fft._codegen` for why); ``_bf<r>`` are the odd-prime butterflies.
"""

from __future__ import annotations

from numba import uint64

from ._primitives import (
    R8,
    U1,
    U2,
    U3,
    U4,
    U5,
    U6,
    U7,
    U8,
    U9,
    U10,
    U11,
    U12,
    U13,
    _bf2,
    _bf4,
    _bf8,
    _inline,
    _jit_noalias,
    _tw,
)
'''


def generate() -> str:
    """The source of :mod:`rocmath.fft._stages`."""
    parts = [HEADER]
    for r in RADICES:
        if r % 2 == 1:
            q = (r - 1) // 2
            cs = [_cos_sin(j, r) for j in range(1, q + 1)]
            parts.append(f"COS{r} = ({', '.join(repr(c) for c, _ in cs)},)")
            parts.append(f"SIN{r} = ({', '.join(repr(s) for _, s in cs)},)")
    parts.append("")
    for r in RADICES:
        if r % 2 == 1:
            parts += ["", odd_butterfly(r), ""]
    for r in RADICES:
        parts += ["", stage(r), ""]
    return "\n".join(parts).rstrip() + "\n"


def main() -> int:
    TARGET.write_text(generate(), encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
