"""The same bits whatever a process compiled before: routines of every library, real and complex, in
fresh processes on fresh kernel caches in opposite orders, then on a filled cache (slow: each cold
process compiles ~50 routines' kernels, ~5 minutes on 2 cores)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

AUDIT = pathlib.Path(__file__).with_name("determinism_audit.py")


def _run(order: str, cache: pathlib.Path, out: pathlib.Path) -> dict[str, str]:
    env = dict(os.environ, ROCMATH_CACHE_DIR=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)  # (it would win over ROCMATH_CACHE_DIR)
    subprocess.run([sys.executable, str(AUDIT), order, str(out)], env=env, check=True, timeout=3600)
    return json.loads(out.read_text())  # type: ignore[no-any-return]


@pytest.mark.slow
def test_outputs_do_not_depend_on_the_compile_order_or_the_cache(tmp_path: pathlib.Path) -> None:
    forward = _run("forward", tmp_path / "cache_forward", tmp_path / "forward.json")
    reverse = _run("reverse", tmp_path / "cache_reverse", tmp_path / "reverse.json")
    warm = _run("reverse", tmp_path / "cache_forward", tmp_path / "warm.json")  # loads what forward compiled
    assert len(forward) > 50
    assert {k for k in forward if not forward[k] == reverse[k] == warm[k]} == set()
