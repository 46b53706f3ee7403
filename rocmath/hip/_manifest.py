"""The hipBLAS names rocmath.hip.hipblas provides, derived from rocBLAS's manifest.

hipBLAS names its functions after rocBLAS's by one rule: ``hipblas`` + the precision
prefix with a capital first letter (``S``, ``Cs``, ``Is``...) + the operation +
``Batched``/``StridedBatched``; the ``_ex`` functions become ``hipblas<Op>[Batched|
StridedBatched]Ex``.  :func:`hipblas_names` applies it to ``blas/_manifest.py``, so
the table cannot drift from the rocBLAS functions underneath.  ``_v2`` variants (hip
complex types, same layout; ``hipDataType`` instead of ``hipblasDatatype_t`` in the Ex
functions) exist where hipBLAS has them.

``_64`` (ILP64) variants exist exactly where rocBLAS has ``_64`` functions (every compute
function but trtri and TrsmEx; rocBLAS's geam_ex, also without one, has no hipBLAS
name): hipBLAS's rocBLAS backend (library/src/amd_detail/hipblas.cpp) implements each
``hipblas<X>_64`` as ``hipblas<X>`` with ``int64_t`` sizes calling ``rocblas_<x>_64``, so
their entries name the rocmath.blas ``_64`` function (``int64_t`` sizes, ``int64_t``
amax/amin results, ``rocblas_<x>_64`` in the logs).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rocmath.blas._manifest import EX, EXTENSIONS, FLAVOURS, LEVEL1, LEVEL2, LEVEL3, NO_ILP64

__all__ = ["Entry", "hipblas_names"]

_PREFIX = {
    "s": "S", "d": "D", "c": "C", "z": "Z", "h": "H", "bf": "Bf", "cs": "Cs", "zd": "Zd", "sc": "Sc", "dz": "Dz",
    "is": "Is", "id": "Id", "ic": "Ic", "iz": "Iz",
}
_FLAVOUR = {"": "", "_batched": "Batched", "_strided_batched": "StridedBatched"}
#: rocBLAS operations hipBLAS does not expose (gemmt; the mixed-precision gemv family is
#: not in blas/_manifest.py's tables this module reads).
_NOT_IN_HIPBLAS = frozenset({"gemmt"})
#: Prefixes whose functions take complex types (and so have ``_v2`` forms with hip types).
_COMPLEX = frozenset({"c", "z", "cs", "zd", "sc", "dz", "ic", "iz"})


@dataclass(frozen=True)
class Entry:
    """One hipBLAS name.

    Attributes
    ----------
    rocblas
        The rocmath.blas function underneath.
    op, prefix, flavour
        The rocBLAS operation (``"gemm"``, ``"gemm_ex"``), precision prefix (empty for the Ex
        functions) and flavour suffix (``""``, ``"_batched"``, ``"_strided_batched"``).
    v2
        A ``_v2`` form: Ex functions take ``hipDataType`` (and GemmEx ``hipblasComputeType_t``).
    flags
        ``GemmEx...WithFlags``: a trailing ``hipblasGemmFlags_t`` argument.
    ilp64
        A ``_64`` form: ``int64_t`` integers (``int`` otherwise; strides are ``int64_t`` in both)
        over the rocBLAS ``_64`` function ``rocblas`` names.
    """

    rocblas: str
    op: str
    prefix: str = ""
    flavour: str = ""
    v2: bool = False
    flags: bool = False
    ilp64: bool = False


def hipblas_names() -> dict[str, Entry]:
    """Every hipBLAS compute function name -> its :class:`Entry`."""
    table: dict[str, Entry] = {}

    def add(name: str, entry: Entry, v2: bool) -> None:
        forms = [(name, entry)]
        if v2:
            forms.append((f"{name}_v2", dataclasses.replace(entry, v2=True)))
        for n, e in forms:
            table[n] = e
            if e.op not in NO_ILP64:
                table[f"{n}_64"] = dataclasses.replace(e, rocblas=f"{e.rocblas}_64", ilp64=True)

    for level in (LEVEL1, LEVEL2, LEVEL3, EXTENSIONS):
        for op, precisions in level.items():
            if op in _NOT_IN_HIPBLAS:
                continue
            for p in precisions.split():
                for flavour in FLAVOURS:
                    entry = Entry(f"{p}{op}{flavour}", op, p, flavour)
                    add(f"hipblas{_PREFIX[p]}{op}{_FLAVOUR[flavour]}", entry, p in _COMPLEX)
    for op in EX:
        for flavour in FLAVOURS:
            name = f"hipblas{op.capitalize()}{_FLAVOUR[flavour]}Ex"
            entry = Entry(f"{op}{flavour}_ex", f"{op}_ex", "", flavour)
            add(name, entry, True)
            if op == "gemm":
                add(f"{name}WithFlags", dataclasses.replace(entry, flags=True), True)
    return table
