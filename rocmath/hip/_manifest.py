"""The hipBLAS names rocmath.hip.hipblas provides, derived from rocBLAS's manifest.

hipBLAS names its functions after rocBLAS's by one rule: ``hipblas`` + the precision
prefix with a capital first letter (``S``, ``Cs``, ``Is``...) + the operation +
``Batched``/``StridedBatched``; the ``_ex`` functions become ``hipblas<Op>[Batched|
StridedBatched]Ex``.  :func:`hipblas_names` applies it to ``blas/_manifest.py``, so
the table cannot drift from the rocBLAS functions underneath.  ``_64`` (ILP64; Python
integers have no 32-bit limit, so they are the same functions) and ``_v2`` (hip
complex types, same layout; ``hipDataType`` instead of ``hipblasDatatype_t`` in the
Ex functions) variants exist where hipBLAS has them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rocmath.blas._manifest import EX, EXTENSIONS, FLAVOURS, LEVEL1, LEVEL2, LEVEL3

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
#: Ex operations with ILP64 forms (the Level-1 ones).
_EX_64 = frozenset({"axpy", "dot", "dotc", "nrm2", "rot", "scal"})


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
    """

    rocblas: str
    op: str
    prefix: str = ""
    flavour: str = ""
    v2: bool = False
    flags: bool = False


def hipblas_names() -> dict[str, Entry]:
    """Every hipBLAS compute function name -> its :class:`Entry`."""
    table: dict[str, Entry] = {}

    def add(name: str, entry: Entry, ilp64: bool, v2: bool) -> None:
        table[name] = entry
        if ilp64:
            table[f"{name}_64"] = entry
        if v2:
            v2_entry = dataclasses.replace(entry, v2=True)
            table[f"{name}_v2"] = v2_entry
            if ilp64:
                table[f"{name}_v2_64"] = v2_entry

    for level, ilp64 in ((LEVEL1, True), (LEVEL2, True), (LEVEL3, False), (EXTENSIONS, False)):
        for op, precisions in level.items():
            if op in _NOT_IN_HIPBLAS:
                continue
            for p in precisions.split():
                for flavour in FLAVOURS:
                    entry = Entry(f"{p}{op}{flavour}", op, p, flavour)
                    add(f"hipblas{_PREFIX[p]}{op}{_FLAVOUR[flavour]}", entry, ilp64, p in _COMPLEX)
    for op in EX:
        for flavour in FLAVOURS:
            name = f"hipblas{op.capitalize()}{_FLAVOUR[flavour]}Ex"
            entry = Entry(f"{op}{flavour}_ex", f"{op}_ex", "", flavour)
            add(name, entry, op in _EX_64, True)
            if op == "gemm":
                add(f"{name}WithFlags", dataclasses.replace(entry, flags=True), False, True)
    return table
