"""rocmath.solver exports rocSOLVER's names, no others (the manifest is solver/_manifest.py), and its enums."""

from __future__ import annotations

import inspect

import pytest

import rocmath.solver as solver
from rocmath.blas import Diagonal, Fill, Operation, Side
from rocmath.errors import RocblasInvalidValueError
from rocmath.solver import _manifest


def _exported_functions() -> set[str]:
    return {n for n, v in vars(solver).items() if not n.startswith("_") and inspect.isfunction(v)}


def test_every_exported_function_is_a_rocsolver_name() -> None:
    # ... or a function of the Pythonic layer (solver/arrays.py), whose names are SciPy's.
    from rocmath.solver import arrays

    extra = _exported_functions() - _manifest.compute_routines() - set(arrays.__all__)
    assert not extra, f"exported but not rocSOLVER names: {sorted(extra)}"
    assert not set(arrays.__all__) & _manifest.compute_routines()


def test_every_rocsolver_name_is_exported() -> None:
    missing = _manifest.compute_routines() - _exported_functions()
    assert not missing, f"{len(missing)} rocSOLVER names missing, e.g. {sorted(missing)[:20]}"


def test_manifest_matches_rocsolver_tables() -> None:
    names = _manifest.compute_routines()
    # 10 LU routines in 4 precisions and 3 flavours, laswp plain only.
    assert len(_manifest._expand(_manifest.LU)) == 10 * 4 * 3 + 4
    # 6 Cholesky/triangular routines in 4 precisions and 3 flavours, lauum plain only.
    assert len(_manifest._expand(_manifest.CHOLESKY)) == 6 * 4 * 3 + 4
    # sytf2 and sytrf in 4 precisions and 3 flavours; syevdx/heevdx, sygvdx/hegvdx, sygvj/hegvj likewise.
    assert len(_manifest._expand(_manifest.INDEFINITE)) == 2 * 4 * 3
    assert {f"{p}{r}{f}" for p, r in (("s", "syevdx"), ("d", "sygvdx"), ("c", "hegvj"), ("z", "heevdx"))
            for f in ("", "_batched", "_strided_batched")} <= names
    assert "zpotrf_strided_batched" in names and "dtrtri_batched" in names and "spotri_strided_batched" in names
    assert "dlauum" in names and "dlauum_batched" not in names and "dlauum_strided_batched" not in names
    assert "dgetrf_strided_batched" in names and "zgetri_npvt_outofplace_batched" in names
    assert "dlaswp" in names and "dlaswp_batched" not in names
    # rocSOLVER's ILP64 API: 10 routines in 4 precisions and 3 flavours, larf and larfg (4 precisions) and
    # lacgv (c, z) plain only.
    assert len(_manifest.ilp64_routines()) == 10 * 4 * 3 + 4 + 4 + 2
    assert "dgetrf_strided_batched_64" in names and "zgetrs_batched_64" in names and "clacgv_64" in names
    assert "dgetri_64" not in names and "slaswp_64" not in names and "dlarft_64" not in names


def test_the_manifest_is_every_function_of_rocsolver_functions_h() -> None:
    # rocsolver-functions.h of rocSOLVER 3.28 (f7e1b6a) declares 887 functions; rocmath.solver has them all, plus
    # the four gesvdx_notransv_strided_batched rocSOLVER exports without declaring them (hipSOLVER calls them).
    names = _manifest.compute_routines()
    assert len(names) == 887 + 4 and set(_manifest.UNDECLARED) <= names
    assert {"log_begin", "create_rfinfo", "dcsrrf_refactlu", "zgeblttrs_npvt_interleaved_batched", "sbdsvdx",
            "chegvdj_strided_batched", "dstebz", "zunmbr", "get_version_string_size"} <= names


def test_bound_names_match_their_function_names() -> None:
    # (the auxiliary functions, without handle or precision, document their C arguments instead)
    for name in _exported_functions() & _manifest.compute_routines() - set(_manifest.AUXILIARY):
        f = getattr(solver, name)
        assert f.__name__ == name and f.__module__ == "rocmath.solver"
        assert f.__doc__.startswith(f"rocsolver_{name}(handle, ")


ENUMS = {
    solver.Direct: {"forward_direction": 171, "backward_direction": 172},
    solver.Storev: {"column_wise": 181, "row_wise": 182},
    solver.Svect: {"all": 191, "singular": 192, "overwrite": 193, "none": 194},
    solver.Workmode: {"outofplace": 201, "inplace": 202},
    solver.Evect: {"original": 211, "tridiagonal": 212, "none": 213},
    solver.Eform: {"ax": 221, "abx": 222, "bax": 223},
    solver.Erange: {"all": 231, "value": 232, "index": 233},
    solver.Eorder: {"blocks": 241, "entire": 242},
    solver.Esort: {"none": 251, "ascending": 252},
    solver.Srange: {"all": 261, "value": 262, "index": 263},
    solver.RfinfoMode: {"lu": 271, "cholesky": 272},
}


@pytest.mark.parametrize("enum", list(ENUMS), ids=lambda e: e.__name__)
def test_enum_values_are_rocsolvers(enum: type) -> None:
    assert {m.name: int(m) for m in enum} == ENUMS[enum]  # type: ignore[attr-defined]


def test_rocblas_enums_are_reexported() -> None:
    assert (solver.Fill, solver.Operation, solver.Side, solver.Diagonal) == (Fill, Operation, Side, Diagonal)


def test_enum_arguments_are_parsed_as_rocblas_does() -> None:
    from rocmath.blas._types import as_enum

    assert as_enum(solver.Svect, 192, "left_svect") is solver.Svect.singular
    assert as_enum(solver.Evect, solver.Evect.none, "evect") is solver.Evect.none
    for bad in (190, "A", None, True):
        with pytest.raises(RocblasInvalidValueError):
            as_enum(solver.Svect, bad, "left_svect", 2)
