"""numba kernels of the iterative methods (:mod:`._iterative`): csritilu0's structure and sweeps, csritsv's
analysis and Jacobi iterations.

They check nothing: the routines validated everything.  Each whole iteration loop runs in one launch,
serially, so every result is reproducible bit for bit: csritilu0's asynchronous algorithms sweep the
entries in storage order (row by row), its synchronous ones compute every entry of a sweep from the
previous sweep's values; csritsv's products add each row's entries in storage order (transposed ones
scatter rows in order).  Norms are computed in float64 and stored in the precision's real type.
"""

from __future__ import annotations

import numpy as np

from rocmath.kernel import kernel

from ._kernels_solve import NO_PIVOT, div

# csritilu0 buffer header words (int64), see :mod:`._iterative`.
H_MAGIC, H_ALG, H_M, H_NNZ, H_UNNZ, H_OPTIONS, H_NMAXITER, H_ITER = 0, 1, 2, 3, 4, 5, 6, 7

# Stopping rules of csritilu0_compute (rocSPARSE's, per algorithm family).
RULE_INPLACE, RULE_ASYNC_SPLIT, RULE_SYNC, RULE_FUSION = 0, 1, 2, 3


# --- csritilu0 -------------------------------------------------------------------------------------


@kernel(parallel=False)
def itilu0_structure(row_ptr, col_ind, base, lptr_end, uptr, uind, uperm, counts):  # pragma: no cover - numba
    """csritilu0's preprocessing of a sorted CSR structure (0-based results, int64).

    ``lptr_end[i]``: the first entry of row i whose column is >= i (the end of its strictly lower part);
    ``uptr`` / ``uind`` / ``uperm``: the strictly upper part by columns (rows ascending within a column:
    rocSPARSE's coosort by column then coo2csr), ``uperm`` the entries' positions in the CSR arrays;
    ``counts[0]``: the diagonal entries, ``counts[1]``: the strictly upper ones.
    """
    m = row_ptr.shape[0] - 1
    for j in range(m + 1):
        uptr[j] = 0
    ndiag = 0
    for i in range(m):
        lo = row_ptr[i] - base
        hi = row_ptr[i + 1] - base
        p = lo
        while p < hi and col_ind[p] - base < i:
            p += 1
        lptr_end[i] = p
        if p < hi and col_ind[p] - base == i:
            ndiag += 1
        for k in range(p, hi):
            j = col_ind[k] - base
            if j > i:
                uptr[j + 1] += 1
    for j in range(m):
        uptr[j + 1] += uptr[j]
    fill = uptr[:m].copy()
    for i in range(m):
        for k in range(lptr_end[i], row_ptr[i + 1] - base):
            j = col_ind[k] - base
            if j > i:
                uind[fill[j]] = i
                uperm[fill[j]] = k
                fill[j] += 1
    counts[0] = ndiag
    counts[1] = uptr[m]


@kernel(parallel=False)
def itilu0_iterate(val, row_ptr, col_ind, base, lptr_end, uptr, uind, uperm, ilu0, nxt, jacobi, guard, norms, res,
                   corr, stopping, rule, nmaxiter, tol, tol_increment, record, hist_corr, hist_res, header, options,
                   out):  # pragma: no cover - numba
    """csritilu0_compute's iterations: ``ilu0`` (the initial guess on entry) holds L (unit, strictly lower) and
    U after them.

    Entry (i, j) is ``(a_ij - sum_{k < min(i, j)} l_ik u_kj) / (u_jj if i > j else 1)``.  ``jacobi``: every entry
    of a sweep from the previous sweep's values (``nxt`` holds the new ones), else in place in storage order.
    A new value that is not finite is not stored (rocSPARSE's kernels skip it); ``guard``: a zero u_jj gives 0.
    ``norms``: the residual max |a_ij - (LU)_ij| (the values a sweep reads) and the correction
    max |new - old|, both over max |a_ij|, when ``res`` / ``corr``; ``record`` logs them in ``hist_res`` /
    ``hist_corr``; ``stopping``: rocSPARSE's stopping rules of the family ``rule``.  The header gets
    ``options``, ``nmaxiter`` and the iterations run; ``out``: (iterations, 1 if the indicator became
    infinite (rocSPARSE's zero_pivot), else 0).
    """
    m = row_ptr.shape[0] - 1
    nnz = val.shape[0]
    zero = np.zeros(1, ilu0.dtype)[0]
    header[H_OPTIONS] = options
    header[H_NMAXITER] = nmaxiter
    nrm_matrix = 0.0
    if norms:
        for k in range(nnz):
            a = abs(val[k])
            if a > nrm_matrix:
                nrm_matrix = a
    prev = 0.0
    iters = nmaxiter
    status = 0
    for it in range(nmaxiter):
        rmax = 0.0
        cmax = 0.0
        cur = ilu0
        dst = nxt if jacobi else ilu0
        if jacobi:
            for k in range(nnz):
                nxt[k] = ilu0[k]
        for i in range(m):
            lo = row_ptr[i] - base
            lend = lptr_end[i]
            for k in range(lo, row_ptr[i + 1] - base):
                j = col_ind[k] - base
                kx = lo
                ky = uptr[j]
                uend = uptr[j + 1]
                s = zero
                while kx < lend and ky < uend:
                    jx = col_ind[kx] - base
                    jy = uind[ky]
                    if jx == jy:
                        s += cur[kx] * cur[uperm[ky]]
                    if jx <= jy:
                        kx += 1
                    if jx >= jy:
                        ky += 1
                old = cur[k]
                diag = cur[lptr_end[j]]
                v = val[k] - s
                if i > j:
                    v = zero if guard and diag == 0 else div(v, diag)
                ok = np.isfinite(abs(v))
                if norms and res and (ok or not guard):
                    r = s - val[k] + (old * diag if i > j else old)
                    t = abs(r)
                    if np.isfinite(t) and t > rmax:
                        rmax = t
                if ok:
                    dst[k] = v
                    if norms and corr:
                        t = abs(v - old)
                        if jacobi and not guard:
                            if not (t <= cmax):
                                cmax = t
                        elif np.isfinite(t) and t > cmax:
                            cmax = t
        if jacobi:
            for k in range(nnz):
                ilu0[k] = nxt[k]
        if not norms:
            continue
        rn = rmax / nrm_matrix
        cn = cmax / nrm_matrix
        if record and res:
            hist_res[it] = rn
        if record and corr:
            hist_corr[it] = cn
        if not stopping:
            continue
        if rule in (RULE_INPLACE, RULE_ASYNC_SPLIT):
            ind = rn if res else 0.0
        elif res and corr:
            ind = max(rn, cn)
        elif corr:
            ind = cn
        else:
            ind = rn if res else 0.0
        if np.isinf(ind) or (rule >= RULE_SYNC and np.isnan(ind)):
            iters = it + 1
            status = 1
            break
        if ind <= tol and (rule != RULE_FUSION or it > 0):
            iters = it + 1
            break
        if rule == RULE_INPLACE:
            if it > 3 and abs(ind - prev) < tol_increment * ind and ind < 1.0e-5:
                iters = it + 1
                break
        elif it > 3 and abs(ind - prev) <= tol_increment * ind and ind <= tol * 10:
            iters = it + 1
            break
        prev = ind
    header[H_ITER] = iters
    out[0] = iters
    out[1] = status


# --- csritsv ---------------------------------------------------------------------------------------


@kernel(parallel=False)
def itsv_analyse(row_ptr, col_ind, base, submatrix, split_before_diagonal, check, lower, ptr_end, pivot,
                 count):  # pragma: no cover - numba
    """csritsv_analysis: ``pivot[0]`` reset to NO_PIVOT, then (``submatrix``, a general matrix) ``ptr_end[i]``
    (index base included) the first entry of row i whose column is >= i (``split_before_diagonal``) or > i.
    ``check`` 1 (non-unit diagonal): the diagonal entry must close the lower part (``lower``) or open the upper
    one: rows without it lower ``pivot[0]`` to their row plus base, ``count[0]`` counts them; ``check`` 2 (unit
    triangular): ``count[0]`` counts the rows whose diagonal entry is stored where it would be."""
    m = row_ptr.shape[0] - 1
    pivot[0] = NO_PIVOT
    missing = 0
    present = 0
    for i in range(m):
        lo = row_ptr[i] - base
        hi = row_ptr[i + 1] - base
        if submatrix:
            p = lo
            while p < hi and (col_ind[p] - base < i or (not split_before_diagonal and col_ind[p] - base == i)):
                p += 1
            ptr_end[i] = p + base
            first, last = (lo, p) if lower else (p, hi)
        else:
            first, last = lo, hi
        if check == 0:
            continue
        q = last - 1 if lower else first
        has = first < last and col_ind[q] - base == i
        if check == 1 and not has:
            missing += 1
            if i + base < pivot[0]:
                pivot[0] = i + base
        elif check == 2 and has:
            present += 1
    count[0] = missing if check == 1 else present


@kernel(parallel=False)
def itsv_iterate(unit, op, alpha, val, lo, hi, col_ind, base, diag_last, invdiag, pivot, x, y, yp, nmaxiter,
                 use_tol, tol, record, history, out):  # pragma: no cover - numba
    """csritsv_solve's Jacobi iterations on ``op(T) y = alpha x``, row i of T the entries
    ``[lo[i] - base, hi[i] - base)``; ``y`` holds the initial guess on entry.

    Non-unit: the diagonal (the row's last entry when ``diag_last``, else its first; conjugated for op 2)
    is inverted into ``invdiag``; a missing or zero one lowers ``pivot[0]`` to its row plus base (and counts
    as one), and when ``pivot[0]`` then holds a pivot nothing else happens (``out[1] = 1``).  Each iteration
    ``r := alpha x - op(T) y`` (into ``yp``), its max norm logged and tested, then ``y += D^-1 r``.
    Unit: ``pivot[0]`` reset, each iteration ``y := alpha x - op(T) y_old`` (``yp`` keeps y_old) and the max
    norm of the correction.  The norm goes to ``history[it]`` (``record``) and ends the loop when
    ``use_tol`` and it is <= ``tol``; ``out[0]``: the iterations run.
    """
    m = x.shape[0]
    a = alpha[0]
    zero = np.zeros(1, y.dtype)[0]
    one = np.ones(1, y.dtype)[0]
    out[1] = 0
    if unit:
        pivot[0] = NO_PIVOT
    else:
        zp = pivot[0]
        for i in range(m):
            b = lo[i] - base
            e = hi[i] - base
            q = e - 1 if diag_last else b
            if b < e and col_ind[q] - base == i:
                d = np.conj(val[q]) if op == 2 else val[q]
                if d != 0:
                    invdiag[i] = one / d
                else:
                    invdiag[i] = 1
                    if i + base < zp:
                        zp = i + base
            else:
                invdiag[i] = 1
                if i + base < zp:
                    zp = i + base
        pivot[0] = zp
        if zp != NO_PIVOT:
            out[0] = 0
            out[1] = 1
            return
    iters = nmaxiter
    for it in range(nmaxiter):
        src = yp if unit else y
        dst = y if unit else yp
        if unit:
            for i in range(m):
                yp[i] = y[i]
        if op == 0:
            for i in range(m):
                s = zero
                for k in range(lo[i] - base, hi[i] - base):
                    s += val[k] * src[col_ind[k] - base]
                dst[i] = a * x[i] - s
        else:
            for i in range(m):
                dst[i] = zero
            for i in range(m):
                for k in range(lo[i] - base, hi[i] - base):
                    v = np.conj(val[k]) if op == 2 else val[k]
                    dst[col_ind[k] - base] += v * src[i]
            for i in range(m):
                dst[i] = a * x[i] - dst[i]
        brk = False
        if use_tol or record:
            nrm = 0.0
            for i in range(m):
                t = abs(yp[i] - y[i]) if unit else abs(yp[i])
                if t > nrm:
                    nrm = t
            if record:
                history[it] = nrm
            brk = use_tol and nrm <= tol
        if not unit:
            for i in range(m):
                y[i] += invdiag[i] * yp[i]
        if brk:
            iters = it + 1
            break
    out[0] = iters
