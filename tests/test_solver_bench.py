"""rocmath.solver's bench cases: discovered, in both suites, and passing their own checks at small sizes."""

from __future__ import annotations

import pytest

from rocmath.bench import default_registry, discover, run_case

CASES = {"solver.getrf_strided_batched_d": (50, 5), "solver.gesv_strided_batched_d": (50, 5),
         "solver.getrs_strided_batched_d": (50, 5), "solver.getrf_d": 70,
         "solver.potrf_strided_batched_d": (50, 5), "solver.potrf_strided_batched_d_numpy": (50, 5),
         "solver.potrf_d": 70, "solver.potrs_strided_batched_d": (50, 5),
         "solver.geqrf_strided_batched_d": (50, 5), "solver.geqrf_d": 70,
         "solver.syevd_d": 40, "solver.gesvd_d": 40, "solver.syev_strided_batched_d": (50, 5),
         "solver.syevj_strided_batched_d": (50, 5)}


def test_solver_cases_are_discovered_in_both_suites() -> None:
    found = discover()
    assert found["rocmath.solver.bench_cases"] == "ok"
    for suite in ("quick", "full"):
        assert set(CASES) <= {c.name for c in default_registry.select(suite, "solver.")}


@pytest.mark.parametrize(("name", "size"), CASES.items())
def test_solver_case_runs_and_passes_its_check(name: str, size: object) -> None:
    discover()
    result = run_case(default_registry.get(name), size, repeats=2, warmup=1)
    assert result.ok, (result.error, result.max_rel_err, result.tol)
    assert result.ratio is not None and result.ratio > 0
