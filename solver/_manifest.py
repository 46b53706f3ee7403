"""The rocSOLVER names rocmath.solver provides: the contract ``tests/test_solver_manifest.py`` checks.

Written as rocSOLVER's function list (rocsolver-functions.h): each routine with the
precision prefixes it has and whether it comes in ``_batched`` and
``_strided_batched`` forms.  Each family adds its table here and to
:func:`compute_routines`.

rocSOLVER's ILP64 API (the ``_64`` names: ``int64_t`` sizes and ``batch_count``, int64
``ipiv``/``info`` device arrays) covers a few routines only: :data:`ILP64` lists them,
each in every precision and flavour of its LP64 form (``dgetrf_64``,
``zgetrs_strided_batched_64``, ``clacgv_64``...: 130 names).
"""

from __future__ import annotations

FLAVOURS = ("", "_batched", "_strided_batched")

#: The LU family: routine -> (precisions, has batched forms).
LU = {
    "getf2": ("s d c z", True), "getrf": ("s d c z", True), "getf2_npvt": ("s d c z", True),
    "getrf_npvt": ("s d c z", True), "getrs": ("s d c z", True), "gesv": ("s d c z", True),
    "getri": ("s d c z", True), "getri_npvt": ("s d c z", True), "getri_outofplace": ("s d c z", True),
    "getri_npvt_outofplace": ("s d c z", True), "laswp": ("s d c z", False),
}


def _expand(table: dict[str, tuple[str, bool]]) -> list[str]:
    return [f"{p}{op}{f}" for op, (precs, batched) in table.items() for p in precs.split()
            for f in (FLAVOURS if batched else FLAVOURS[:1])]


def compute_routines() -> frozenset[str]:
    """Every rocSOLVER routine name rocmath.solver exports (without ``rocsolver_``)."""
    return frozenset(_expand(LU) + _expand(CHOLESKY) + _expand(INDEFINITE) + _expand(QR) + _expand(ORTHOGONAL)
                     + _expand(EIG) + _expand(REFACT) + _expand(BLOCK_TRIDIAGONAL)
                     + INTERLEAVED + UNDECLARED + AUXILIARY + ilp64_routines())


def ilp64_routines() -> list[str]:
    """The ``_64`` names: each flavour of each :data:`ILP64` routine with ``_64`` appended."""
    return [f"{name}_64" for name in _expand(ILP64)]


#: The Cholesky/triangular family: routine -> (precisions, has batched forms).
CHOLESKY = {
    "potf2": ("s d c z", True), "potrf": ("s d c z", True), "potrs": ("s d c z", True), "posv": ("s d c z", True),
    "potri": ("s d c z", True), "trtri": ("s d c z", True), "lauum": ("s d c z", False),
}


#: The symmetric indefinite factorization (Bunch-Kaufman, solver/sytrf.py): routine -> (precisions, batched).
INDEFINITE = {"sytf2": ("s d c z", True), "sytrf": ("s d c z", True)}


#: The Householder (QR) family: routine -> (precisions, has batched forms).
QR = {
    "geqr2": ("s d c z", True), "geqrf": ("s d c z", True), "gelq2": ("s d c z", True), "gelqf": ("s d c z", True),
    "geql2": ("s d c z", True), "geqlf": ("s d c z", True), "gerq2": ("s d c z", True), "gerqf": ("s d c z", True),
    "org2r": ("s d", False), "orgqr": ("s d", False), "orgl2": ("s d", False), "orglq": ("s d", False),
    "ung2r": ("c z", False), "ungqr": ("c z", False), "ungl2": ("c z", False), "unglq": ("c z", False),
    "orm2r": ("s d", False), "ormqr": ("s d", False), "orml2": ("s d", False), "ormlq": ("s d", False),
    "unm2r": ("c z", False), "unmqr": ("c z", False), "unml2": ("c z", False), "unmlq": ("c z", False),
    "gels": ("s d c z", True), "lacgv": ("c z", False), "larfg": ("s d c z", False), "larf": ("s d c z", False),
    "larft": ("s d c z", False), "larfb": ("s d c z", False),
}


#: The orthogonal matrices of the QL factorization and of the bidiagonal and tridiagonal reductions
#: (solver/orthogonal.py): routine -> (precisions, has batched forms).
ORTHOGONAL = {
    "org2l": ("s d", False), "orgql": ("s d", False), "ung2l": ("c z", False), "ungql": ("c z", False),
    "orm2l": ("s d", False), "ormql": ("s d", False), "unm2l": ("c z", False), "unmql": ("c z", False),
    "orgbr": ("s d", False), "ungbr": ("c z", False), "orgtr": ("s d", False), "ungtr": ("c z", False),
    "ormtr": ("s d", False), "unmtr": ("c z", False),
}


#: The symmetric eigenvalue and SVD family: routine -> (precisions, has batched forms).
EIG = {
    "sterf": ("s d", False), "steqr": ("s d c z", False), "stedc": ("s d c z", False), "bdsqr": ("s d c z", False),
    "sytd2": ("s d", True), "hetd2": ("c z", True), "sytrd": ("s d", True), "hetrd": ("c z", True),
    "gebd2": ("s d c z", True), "gebrd": ("s d c z", True), "syev": ("s d", True), "heev": ("c z", True),
    "syevd": ("s d", True), "heevd": ("c z", True), "syevj": ("s d", True), "heevj": ("c z", True),
    "sygv": ("s d", True), "hegv": ("c z", True), "gesvd": ("s d c z", True), "gesvdj": ("s d c z", True),
    # subsets of eigenpairs and the generalized Jacobi (solver/eigx.py)
    "syevdx": ("s d", True), "heevdx": ("c z", True), "sygvdx": ("s d", True), "hegvdx": ("c z", True),
    "sygvj": ("s d", True), "hegvj": ("c z", True), "gesvdx": ("s d c z", True),
    # Jacobi-based divide and conquer (solver/eigdj.py)
    "syevdj": ("s d", True), "heevdj": ("c z", True), "sygvdj": ("s d", True), "hegvdj": ("c z", True),
    # the reduction of the generalized problem and divide and conquer on it, gebrd's Q/P applied (generalized.py)
    "sygs2": ("s d", True), "hegs2": ("c z", True), "sygst": ("s d", True), "hegst": ("c z", True),
    "sygvd": ("s d", True), "hegvd": ("c z", True), "ormbr": ("s d", False), "unmbr": ("c z", False),
    # bisection and inverse iteration (bisection.py)
    "stebz": ("s d", False), "stein": ("s d c z", False), "syevx": ("s d", True), "heevx": ("c z", True),
    "sygvx": ("s d", True), "hegvx": ("c z", True),
    # LAPACK-style auxiliaries (auxiliary_lapack.py)
    "labrd": ("s d c z", False), "latrd": ("s d c z", False), "lasyf": ("s d c z", False), "bdsvdx": ("s d", False),
}

#: The block tridiagonal factorization without pivoting (solver/blocktri.py), and its interleaved batches.
BLOCK_TRIDIAGONAL = {"geblttrf_npvt": ("s d c z", True), "geblttrs_npvt": ("s d c z", True)}
INTERLEAVED = [f"{p}{r}_interleaved_batched" for p in "sdcz" for r in ("geblttrf_npvt", "geblttrs_npvt")]

#: The sparse refactorization (solver/refact.py): routine -> (precisions, has batched forms).
REFACT = {"csrrf_sumlu": ("s d", False), "csrrf_splitlu": ("s d", False), "csrrf_analysis": ("s d", False),
          "csrrf_refactlu": ("s d", False), "csrrf_refactchol": ("s d", False), "csrrf_solve": ("s d", False)}

#: rocSOLVER's functions without a precision prefix (solver/auxiliary.py): version, logging, rfinfo.
AUXILIARY = ["get_version_string", "get_version_string_size", "log_begin", "log_end", "log_set_layer_mode",
             "log_set_max_levels", "log_restore_defaults", "log_write_profile", "log_flush_profile",
             "create_rfinfo", "destroy_rfinfo", "set_rfinfo_mode", "get_rfinfo_mode"]

#: Routines rocSOLVER exports without declaring them in its headers (ROCSOLVER_EXPORT in the source): the
#: partial SVD hipSOLVER's gesvdaStridedBatched calls (roclapack_gesvdx_notransv_strided_batched.cpp).
UNDECLARED = [f"{p}gesvdx_notransv_strided_batched" for p in "sdcz"]


#: The routines with an ILP64 form (``rocsolver_<p><routine><flavour>_64`` in rocsolver-functions.h):
#: routine -> (precisions, has batched forms), as its LP64 form.
ILP64 = {
    "getf2": ("s d c z", True), "getf2_npvt": ("s d c z", True), "getrf": ("s d c z", True),
    "getrf_npvt": ("s d c z", True), "getrs": ("s d c z", True), "potf2": ("s d c z", True),
    "potrf": ("s d c z", True), "potrs": ("s d c z", True), "geqr2": ("s d c z", True), "geqrf": ("s d c z", True),
    "larf": ("s d c z", False), "larfg": ("s d c z", False), "lacgv": ("c z", False),
}
