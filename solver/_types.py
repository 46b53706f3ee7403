"""rocSOLVER's enums (rocsolver-extra-types.h), with rocSOLVER's numeric values.

rocSOLVER adds these to the ``rocblas_`` namespace and otherwise uses rocBLAS's own
(fill, operation, side, diagonal), re-exported here.  Enum arguments accept the
member or its integer value (the rocBLAS enums also their BLAS letter, see
:func:`rocmath.blas._types.as_enum`); anything else is ``invalid_value``.
"""

from __future__ import annotations

import enum

from rocmath.blas._types import Diagonal, Fill, Operation, Side
from rocmath.errors import RocblasStatus

Status = RocblasStatus

__all__ = [
    "Diagonal", "Direct", "Eform", "Eorder", "Erange", "Esort", "Evect", "Fill", "Operation", "RfinfoMode", "Side",
    "Srange", "Status", "Storev", "Svect", "Workmode",
]


class _Lettered(enum.IntEnum):
    """An enum rocsolver-bench names by a letter (``--evect V``): its members' letters in value order."""

    @property
    def letter(self) -> str:
        cls = type(self)
        return _LETTERS[cls][self - min(cls)]


class Direct(_Lettered):
    """``rocblas_direct``: order in which Householder reflectors are applied."""

    forward_direction = 171
    backward_direction = 172


class Storev(_Lettered):
    """``rocblas_storev``: whether Householder vectors are stored in columns or rows."""

    column_wise = 181
    row_wise = 182


class Svect(_Lettered):
    """``rocblas_svect``: which singular vectors an SVD computes."""

    all = 191
    singular = 192
    overwrite = 193
    none = 194


class Workmode(_Lettered):
    """``rocblas_workmode``: whether an algorithm may work out of place (faster, more memory)."""

    outofplace = 201
    inplace = 202


class Evect(_Lettered):
    """``rocblas_evect``: which eigenvectors an eigensolver computes."""

    original = 211
    tridiagonal = 212
    none = 213


class Eform(_Lettered):
    """``rocblas_eform``: the form of a generalized eigenproblem (A x = l B x, A B x = l x, B A x = l x)."""

    ax = 221
    abx = 222
    bax = 223


class Erange(_Lettered):
    """``rocblas_erange``: which eigenvalues: all, those in (vl, vu], or indices il..iu."""

    all = 231
    value = 232
    index = 233


class Eorder(_Lettered):
    """``rocblas_eorder``: eigenvalues ordered by split-off blocks or over the entire matrix."""

    blocks = 241
    entire = 242


class Esort(_Lettered):
    """``rocblas_esort``: whether (Jacobi) eigenvalues are sorted."""

    none = 251
    ascending = 252


class Srange(_Lettered):
    """``rocblas_srange``: which singular values: all, those in [vl, vu) (gesvdx, as rocSOLVER's bdsvdx), or
    indices il..iu (from the largest)."""

    all = 261
    value = 262
    index = 263


class RfinfoMode(enum.IntEnum):
    """``rocsolver_rfinfo_mode``: the factorization a refactorization info object holds."""

    lu = 271
    cholesky = 272


#: rocsolver-bench's letters (its command-line flags and rocSOLVER's bench log lines).
_LETTERS: dict[type[enum.IntEnum], str] = {
    Direct: "FB", Storev: "CR", Svect: "ASON", Workmode: "OI", Evect: "VIN", Eform: "123", Erange: "AVI",
    Eorder: "BE", Esort: "NA", Srange: "AVI",
}

#: The enum of each rocSOLVER parameter that takes one, by parameter name (rocsolver-bench's flags).
ENUM_ARGUMENTS: dict[str, type[enum.IntEnum]] = {
    "uplo": Fill, "trans": Operation, "side": Side, "diag": Diagonal, "evect": Evect, "left_svect": Svect,
    "right_svect": Svect, "fast_alg": Workmode, "erange": Erange, "srange": Srange, "esort": Esort, "eorder": Eorder,
    "itype": Eform, "direct": Direct, "storev": Storev,
}
