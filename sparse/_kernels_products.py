"""numba kernels of the BSR products (bsrgeam, bsrgemm) and of the copy-scale stages of csrgemm / bsrgemm.

The block patterns of the BSR products come from csrgemm's kernels (:mod:`._kernels_extra`: count, then
sorted columns), which see a BSR matrix's block rows and block columns as a CSR matrix's rows and columns;
these kernels only fill values:

- :func:`bsr_block_values`: the blocks of ``C = alpha A B + beta D + gamma E`` at the block entries of
  C's structure (row pointer and block columns given), as :func:`._kernels_generic_ops.spgemm_numeric`
  does for 1 x 1 blocks (bsrgemm: the product and D; bsrgeam: alpha A as D and beta B as E);
- :func:`copy_scale`: ``dst := beta src`` entry by entry (the scale-only products, which copy D).

They check nothing: the routines validated everything.  Block values arrive as ``(nnzb, bd, bd)`` views in
storage order; ``col_major`` (rocsparse_direction_column) reads and writes every block transposed, so that
an element of C sums the same terms in the same order in either direction (A's block row in storage order,
each B block row in storage order, the block's inner index in order, then D, then E) and the two directions
give each other's values bitwise, whatever the row partition.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uintp

from rocmath.kernel import kernel


@kernel(contiguous=True)
def bsr_block_values(mul, add_d, add_e, col_major, alpha, a_val, a_ptr, a_ind, a_base, b_val, b_ptr, b_ind, b_base,
                     beta, d_val, d_ptr, d_ind, d_base, gamma, e_val, e_ptr, e_ind, e_base, n, bounds, c_val, c_ptr,
                     c_ind, c_base):  # pragma: no cover - numba
    """Blocks of ``C = alpha A B (mul) + beta D (add_d) + gamma E (add_e)`` at C's block entries: each block of
    C starts at zero, takes ``(alpha A_ik) B_kj`` for A's blocks of its block row and B's of block row k in
    storage order (a block product element summing over the inner index in order), then ``beta D_ij`` and
    ``gamma E_ij``.  Terms outside C's structure are dropped.  ``n``: C's block columns."""
    al = alpha[0]
    be = beta[0]
    ga = gamma[0]
    bd = c_val.shape[1]
    zero = np.zeros(1, c_val.dtype)[0]
    for blk in prange(bounds.shape[0] - 1):
        pos = np.full(n, -1, np.int64)
        ab = np.empty((bd, bd), c_val.dtype)  # alpha A_ik, [row, inner]
        bb = np.empty((bd, bd), c_val.dtype)  # B_kj, [inner, column]
        pb = np.empty((bd, bd), c_val.dtype)  # their product, [row, column]
        for i in range(bounds[blk], bounds[blk + 1]):
            lo = uintp(c_ptr[i] - c_base)
            hi = uintp(c_ptr[i + 1] - c_base)
            for p in range(lo, hi):
                pos[uintp(c_ind[p] - c_base)] = p
                for r in range(bd):
                    for s in range(bd):
                        c_val[p, r, s] = zero
            if mul:
                for ja in range(uintp(a_ptr[i] - a_base), uintp(a_ptr[i + 1] - a_base)):
                    for r in range(bd):
                        for t in range(bd):
                            ab[r, t] = al * (a_val[ja, t, r] if col_major else a_val[ja, r, t])
                    k = uintp(a_ind[ja] - a_base)
                    for jb in range(uintp(b_ptr[k] - b_base), uintp(b_ptr[k + 1] - b_base)):
                        q = pos[uintp(b_ind[jb] - b_base)]
                        if q < 0:
                            continue
                        for t in range(bd):
                            for s in range(bd):
                                bb[t, s] = b_val[jb, s, t] if col_major else b_val[jb, t, s]
                        # each element sums over the inner index in order (the innermost loop runs along a
                        # row of B's block, contiguous), then adds to C's
                        for r in range(bd):
                            for s in range(bd):
                                pb[r, s] = zero
                            for t in range(bd):
                                a = ab[r, t]
                                for s in range(bd):
                                    pb[r, s] += a * bb[t, s]
                        for r in range(bd):
                            for s in range(bd):
                                if col_major:
                                    c_val[q, s, r] += pb[r, s]
                                else:
                                    c_val[q, r, s] += pb[r, s]
            # D and E share C's block layout: their blocks add element by element, whatever the direction
            if add_d:
                for jd in range(uintp(d_ptr[i] - d_base), uintp(d_ptr[i + 1] - d_base)):
                    q = pos[uintp(d_ind[jd] - d_base)]
                    if q >= 0:
                        for r in range(bd):
                            for s in range(bd):
                                c_val[q, r, s] += be * d_val[jd, r, s]
            if add_e:
                for je in range(uintp(e_ptr[i] - e_base), uintp(e_ptr[i + 1] - e_base)):
                    q = pos[uintp(e_ind[je] - e_base)]
                    if q >= 0:
                        for r in range(bd):
                            for s in range(bd):
                                c_val[q, r, s] += ga * e_val[je, r, s]
            for p in range(lo, hi):
                pos[uintp(c_ind[p] - c_base)] = -1


@kernel(contiguous=True)
def copy_scale(beta, src, dst):  # pragma: no cover - numba
    """``dst[i] := beta src[i]`` (beta read as it is, 0 and 1 included: rocSPARSE's copy-scale; src may be
    dst)."""
    b = beta[0]
    for i in prange(src.shape[0]):
        dst[i] = b * src[i]
