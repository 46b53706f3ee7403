"""rocmath._compile_speed: numba's copy propagation, faster, with numba's results."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit, prange
from numba.core import ir_utils

import rocmath.kernel  # noqa: F401  (installs the faster copies)
from rocmath import _compile_speed as cs

names = st.text("abcxyz$.0123", min_size=1, max_size=4)
elements = st.one_of(names, st.tuples(names, names))
keys = st.one_of(st.integers(-3, 40), names)


def test_installed_by_rocmath() -> None:
    assert cs.installed()


@given(st.dictionaries(keys, st.sets(elements, max_size=8), max_size=8), st.data())
def test_deep_copy_of_name_sets_is_copy_deepcopys(x: dict[Any, set[Any]], data: st.DataObject) -> None:
    if len(x) > 1 and data.draw(st.booleans()):  # one set under two keys: shared in the copy too
        a, b = data.draw(st.sampled_from(sorted(x, key=repr))), data.draw(st.sampled_from(sorted(x, key=repr)))
        x[b] = x[a]
    before = {k: set(v) for k, v in x.items()}
    got, want = cs._deepcopy(x), copy.deepcopy(x)
    assert got == want and got is not x
    for k in x:
        assert got[k] is not x[k]
        for j in x:
            assert (got[k] is got[j]) == (want[k] is want[j]) == (x[k] is x[j])
    assert x == before  # the original is untouched


@pytest.mark.parametrize("x", [{1: [("a", "b")]}, {1: {("a", 1)}}, {(1, 2): {"a"}}, [{1: {"a"}}], {1: {1.5}}],
                         ids=["list-value", "int-in-pair", "tuple-key", "not-a-dict", "float-element"])
def test_anything_else_goes_to_copy_deepcopy(x: Any) -> None:
    assert cs._copy_of_name_sets(x) is None
    got = cs._deepcopy(x)
    assert got == copy.deepcopy(x) and got is not x


@pytest.fixture
def checked() -> Iterator[list[str]]:
    """Every copy and copy-propagation start numba asks for in the block, checked against numba's own."""
    calls: list[str] = []

    def init(blocks: Any, entry: Any, typemap: Any) -> Any:
        got = cs._init_copy_propagate_data(blocks, entry, typemap)
        assert got == cs._ORIGINAL_INIT(blocks, entry, typemap)
        calls.append("init")
        return got

    def deepcopy(x: Any, memo: Any = None) -> Any:
        got = cs._deepcopy(x, memo)
        assert got == copy.deepcopy(x)
        calls.append("copy")
        return got

    ir_utils.init_copy_propagate_data = init
    ir_utils.copy = type(cs._copy_module)(deepcopy=deepcopy, copy=copy.copy)
    try:
        yield calls
    finally:
        cs.install()


def test_a_parallel_kernels_compilation_gets_numbas_results(checked: list[str]) -> None:
    # A prange kernel with branches, copies and an inlined helper (uncached: compiled here).
    @njit(inline="always")
    def clip(v, lo):  # type: ignore[no-untyped-def]
        w = v
        return lo if w < lo else w

    @njit(parallel=True)
    def kernel(x, y, lo):  # type: ignore[no-untyped-def]
        s = 0.0
        for i in prange(x.shape[0]):
            a = x[i]
            b = a
            if b > 0:
                y[i] = clip(b, lo)
                s += y[i]
            else:
                c = b
                y[i] = -c
        return s

    x = np.array([1.0, -2.0, 0.25, 3.0])
    y = np.zeros(4)
    assert kernel(x, y, 0.5) == 1.0 + 0.5 + 3.0
    np.testing.assert_array_equal(y, [1.0, 2.0, 0.5, 3.0])
    assert "init" in checked and "copy" in checked
