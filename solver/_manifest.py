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
    return frozenset(_expand(LU) + _expand(CHOLESKY))


#: The Cholesky/triangular family: routine -> (precisions, has batched forms).
CHOLESKY = {
    "potf2": ("s d c z", True), "potrf": ("s d c z", True), "potrs": ("s d c z", True), "posv": ("s d c z", True),
    "potri": ("s d c z", True), "trtri": ("s d c z", True), "lauum": ("s d c z", False),
}
