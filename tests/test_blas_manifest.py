"""rocmath.blas exports rocBLAS's names, no others (the manifest is blas/_manifest.py)."""

from __future__ import annotations

import inspect

import rocmath.blas as blas
from rocmath.blas import _manifest


def _exported_functions() -> set[str]:
    return {n for n, v in vars(blas).items() if not n.startswith("_") and inspect.isfunction(v)}


def test_every_exported_function_is_a_rocblas_name():
    from rocmath.blas import arrays

    extra = _exported_functions() - _manifest.all_names() - set(arrays.__all__)
    assert not extra, f"exported but not rocBLAS names: {sorted(extra)}"


def test_manifest_size_matches_rocblas_tables():
    # 15 Level-1 ops over 52 precision prefixes, 25 Level-2 ops, 12 Level-3 ops, 3 extensions.
    names = _manifest.compute_routines()
    assert "dgemm_strided_batched" in names and "gemm_strided_batched_ex" in names
    assert "zdscal_batched" in names and "izamax_strided_batched" in names
    assert "cdot" not in names and "sgemv" in names and "hshgemv" not in names


def test_bound_names_match_their_function_names():
    for name in _exported_functions() & _manifest.compute_routines():
        assert getattr(blas, name).__name__ == name


def test_every_rocblas_name_is_exported():
    missing = _manifest.all_names() - _exported_functions()
    assert not missing, f"{len(missing)} rocBLAS names missing, e.g. {sorted(missing)[:20]}"
