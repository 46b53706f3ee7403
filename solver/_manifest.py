"""The rocSOLVER names rocmath.solver provides: the contract ``tests/test_solver_manifest.py`` checks.

Written as rocSOLVER's function list (rocsolver-functions.h): each routine with the
precision prefixes it has and whether it comes in ``_batched`` and
``_strided_batched`` forms.  ILP64 (``_64``) variants are not listed: Python
integers have no 32-bit limit, so the plain names serve both.  Each family adds its
table here and to :func:`compute_routines`.
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
    return frozenset(_expand(LU) + _expand(CHOLESKY) + _expand(QR) + _expand(EIG))


#: The Cholesky/triangular family: routine -> (precisions, has batched forms).
CHOLESKY = {
    "potf2": ("s d c z", True), "potrf": ("s d c z", True), "potrs": ("s d c z", True), "posv": ("s d c z", True),
    "potri": ("s d c z", True), "trtri": ("s d c z", True), "lauum": ("s d c z", False),
}


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


#: The symmetric eigenvalue and SVD family: routine -> (precisions, has batched forms).
EIG = {
    "sterf": ("s d", False), "steqr": ("s d c z", False), "stedc": ("s d c z", False), "bdsqr": ("s d c z", False),
    "sytd2": ("s d", True), "hetd2": ("c z", True), "sytrd": ("s d", True), "hetrd": ("c z", True),
    "gebd2": ("s d c z", True), "gebrd": ("s d c z", True), "syev": ("s d", True), "heev": ("c z", True),
    "syevd": ("s d", True), "heevd": ("c z", True), "syevj": ("s d", True), "heevj": ("c z", True),
    "sygv": ("s d", True), "hegv": ("c z", True), "gesvd": ("s d c z", True), "gesvdj": ("s d c z", True),
}
