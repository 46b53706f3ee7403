"""Level-1 kernels.  Every array is a batch: vectors are ``(batch, n)`` views, scalars
1-element arrays (host values or device memory), results ``(batch,)``.

Reductions are bitwise deterministic whatever the thread count: each entry is cut
into fixed blocks of ``BLOCK`` elements summed in order, and the block sums are
added in order (rocBLAS is deterministic with atomics off; so is rocmath, always).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from rocmath.kernel import kernel

BLOCK = 2048


@kernel
def axpy(alpha, x, y):  # type: ignore[no-untyped-def]
    a = alpha[0]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        y[b, i] += a * x[b, i]


@kernel
def scal(alpha, x):  # type: ignore[no-untyped-def]
    a = alpha[0]
    nb, n = x.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        x[b, i] = a * x[b, i]


@kernel
def copy(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        y[b, i] = x[b, i]


@kernel
def swap(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        tmp = x[b, i]
        x[b, i] = y[b, i]
        y[b, i] = tmp


@kernel
def dot(x, y, conjugate, out):  # type: ignore[no-untyped-def]
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        s = part[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            if conjugate:
                s += np.conj(x[b, i]) * y[b, i]
            else:
                s += x[b, i] * y[b, i]
        part[b, k] = s
    for b in range(nb):
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = s


@kernel
def asum(x, out):  # type: ignore[no-untyped-def]
    # rocBLAS's asum of complex vectors is sum(|re| + |im|), as reference BLAS's scasum.
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        s = part[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            v = x[b, i]
            s += abs(v.real) + abs(v.imag)
        part[b, k] = s
    for b in range(nb):
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = s


@kernel
def nrm2(x, out):  # type: ignore[no-untyped-def]
    # Scaled sum of squares (two passes: largest magnitude, then sum of (|x|/scale)^2), so
    # huge and tiny entries neither overflow nor underflow, as reference BLAS's nrm2.
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    big = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        m = big[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            v = x[b, i]
            ar = abs(v.real)
            ai = abs(v.imag)
            if np.isnan(ar + ai):
                m = ar + ai  # NaN wins over everything, inf included
                break
            m = max(m, ar, ai)
        big[b, k] = m
    scale = np.zeros(nb, dtype=out.dtype)
    for b in range(nb):
        for k in range(nblk):
            if np.isnan(big[b, k]) or big[b, k] > scale[b]:
                scale[b] = big[b, k]
            if np.isnan(scale[b]):
                break
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        sc = scale[b]
        s = part[b, k]
        if sc > 0 and np.isfinite(sc):
            for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
                v = x[b, i]
                r = v.real / sc
                q = v.imag / sc
                s += r * r + q * q
        part[b, k] = s
    for b in range(nb):
        sc = scale[b]
        if not np.isfinite(sc):
            out[b] = sc  # an inf or NaN entry makes the norm inf or NaN
            continue
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = sc * np.sqrt(s)


@kernel
def iamax(x, find_max, out):  # type: ignore[no-untyped-def]
    # 1-based index of the first element of largest (or smallest) |re| + |im|, as rocBLAS.
    nb, n = x.shape
    for b in prange(nb):
        best = abs(x[b, 0].real) + abs(x[b, 0].imag)
        where = 0
        for i in range(1, n):
            v = abs(x[b, i].real) + abs(x[b, i].imag)
            if (find_max and v > best) or (not find_max and v < best):
                best = v
                where = i
        out[b] = where + 1


@kernel
def rot(x, y, c, s):  # type: ignore[no-untyped-def]
    # x := c*x + s*y ; y := c*y - conj(s)*x  (c real, s real or complex)
    cc = c[0]
    ss = s[0]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        xv = x[b, i]
        yv = y[b, i]
        x[b, i] = cc * xv + ss * yv
        y[b, i] = cc * yv - np.conj(ss) * xv


@kernel
def rotm(x, y, param):  # type: ignore[no-untyped-def]
    # param[b] = (flag, h11, h21, h12, h22); flag -2 is the identity, 0 and 1 imply entries.
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        flag = param[b, 0]
        if flag == -2.0:
            continue
        if flag == -1.0:
            h11, h21, h12, h22 = param[b, 1], param[b, 2], param[b, 3], param[b, 4]
        elif flag == 0.0:
            h11, h21, h12, h22 = 1.0, param[b, 2], param[b, 3], 1.0
        else:
            h11, h21, h12, h22 = param[b, 1], -1.0, 1.0, param[b, 4]
        xv = x[b, i]
        yv = y[b, i]
        x[b, i] = h11 * xv + h12 * yv
        y[b, i] = h21 * xv + h22 * yv


@kernel(parallel=False)
def rotg(a, b, c, s):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTG for real entries; a, b, c, s are (batch, 1): a becomes r, b z.
    for e in range(a.shape[0]):
        av = a[e, 0]
        bv = b[e, 0]
        roe = av if abs(av) > abs(bv) else bv
        scale = abs(av) + abs(bv)
        if scale == 0.0:
            c[e, 0] = 1.0
            s[e, 0] = 0.0
            a[e, 0] = 0.0
            b[e, 0] = 0.0
            continue
        r = scale * np.sqrt((av / scale) ** 2 + (bv / scale) ** 2)
        r = r if roe >= 0 else -r
        cv = av / r
        sv = bv / r
        z = 1.0
        if abs(av) > abs(bv):
            z = sv
        elif cv != 0.0:
            z = 1.0 / cv
        c[e, 0] = cv
        s[e, 0] = sv
        a[e, 0] = r
        b[e, 0] = z


@kernel(parallel=False)
def rotg_complex(a, b, c, s):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTG for complex entries: a becomes r; b is left alone.
    for e in range(a.shape[0]):
        av = a[e, 0]
        bv = b[e, 0]
        aa = abs(av)
        if aa == 0.0:
            c[e, 0] = 0.0
            s[e, 0] = 1.0
            a[e, 0] = bv
            continue
        scale = aa + abs(bv)
        norm = scale * np.sqrt(abs(av / scale) ** 2 + abs(bv / scale) ** 2)
        alpha = av / aa
        c[e, 0] = aa / norm
        s[e, 0] = alpha * np.conj(bv) / norm
        a[e, 0] = alpha * norm


@kernel(parallel=False)
def rotmg(d1, d2, x1, y1, param):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTMG on each entry (d1, d2, x1, y1 are (batch, 1); param (batch, 5)).
    gam = 4096.0
    gamsq = gam * gam
    rgamsq = 1.0 / gamsq
    for e in range(d1.shape[0]):
        dd1 = d1[e, 0]
        dd2 = d2[e, 0]
        dx1 = x1[e, 0]
        dy1 = y1[e, 0]
        h11 = 0.0
        h12 = 0.0
        h21 = 0.0
        h22 = 0.0
        flag = 0.0
        if dd1 < 0.0:
            flag = -1.0
            dd1 = 0.0
            dd2 = 0.0
            dx1 = 0.0
        else:
            p2 = dd2 * dy1
            if p2 == 0.0:
                param[e, 0] = -2.0
                continue
            p1 = dd1 * dx1
            q2 = p2 * dy1
            q1 = p1 * dx1
            if abs(q1) > abs(q2):
                h21 = -dy1 / dx1
                h12 = p2 / p1
                u = 1.0 - h12 * h21
                if u > 0.0:
                    flag = 0.0
                    dd1 = dd1 / u
                    dd2 = dd2 / u
                    dx1 = dx1 * u
                else:
                    flag = -1.0
                    h11 = 0.0
                    h12 = 0.0
                    h21 = 0.0
                    h22 = 0.0
                    dd1 = 0.0
                    dd2 = 0.0
                    dx1 = 0.0
            elif q2 < 0.0:
                flag = -1.0
                h11 = 0.0
                h12 = 0.0
                h21 = 0.0
                h22 = 0.0
                dd1 = 0.0
                dd2 = 0.0
                dx1 = 0.0
            else:
                flag = 1.0
                h11 = p1 / p2
                h22 = dx1 / dy1
                u = 1.0 + h11 * h22
                temp = dd2 / u
                dd2 = dd1 / u
                dd1 = temp
                dx1 = dy1 * u
            # Rescaling makes H explicit (flag -1): only on the first pass does it fill in the
            # entries flags 0 and 1 imply; later passes must keep the scaled ones (the structured
            # reference loop resets h21, h12 on every pass, so H no longer zeroes y1).
            if dd1 != 0.0:
                while dd1 <= rgamsq or dd1 >= gamsq:
                    if flag == 0.0:
                        h11 = 1.0
                        h22 = 1.0
                    elif flag > 0.0:
                        h21 = -1.0
                        h12 = 1.0
                    flag = -1.0
                    if dd1 <= rgamsq:
                        dd1 *= gam * gam
                        dx1 /= gam
                        h11 /= gam
                        h12 /= gam
                    else:
                        dd1 /= gam * gam
                        dx1 *= gam
                        h11 *= gam
                        h12 *= gam
            if dd2 != 0.0:
                while abs(dd2) <= rgamsq or abs(dd2) >= gamsq:
                    if flag == 0.0:
                        h11 = 1.0
                        h22 = 1.0
                    elif flag > 0.0:
                        h21 = -1.0
                        h12 = 1.0
                    flag = -1.0
                    if abs(dd2) <= rgamsq:
                        dd2 *= gam * gam
                        h21 /= gam
                        h22 /= gam
                    else:
                        dd2 /= gam * gam
                        h21 *= gam
                        h22 *= gam
        if flag < 0.0:
            param[e, 1] = h11
            param[e, 2] = h21
            param[e, 3] = h12
            param[e, 4] = h22
        elif flag == 0.0:
            param[e, 2] = h21
            param[e, 3] = h12
        else:
            param[e, 1] = h11
            param[e, 4] = h22
        param[e, 0] = flag
        d1[e, 0] = dd1
        d2[e, 0] = dd2
        x1[e, 0] = dx1
