"""Tests of rocmath.testing: strategies deliver what they promise, poison catches stray
writes (and only those), and the residual ratios separate right factorizations from wrong ones."""

from __future__ import annotations

import inspect
import math
import time
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath.precision import SDCZ, Precision

# --- helpers -------------------------------------------------------------------------------------


def draws(strategy: st.SearchStrategy[Any], n: int = 300) -> list[Any]:
    """Many values of a strategy, to check what it covers (not only what each value satisfies)."""
    out: list[Any] = []

    @settings(max_examples=n, database=None, phases=[Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(strategy)
    def collect(value: Any) -> None:
        out.append(value)

    collect()
    return out


def random_matrix(p: Precision, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if p.is_complex:
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(p.dtype)


def write(ptr: int, value: Any) -> None:
    """Write one element at a device address (a stray store, as a buggy kernel would make)."""
    v = np.asarray(value)
    rm.memcpy(ptr, v.reshape(1), v.itemsize)


# --- strategies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("budget", "asked", "runs"), [(60, 40, 40), (100, 40, 40), (1000, 40, 400), (1000, 1, 10),
                                                     (250, 3, 8)])
def test_examples_scale_up_with_the_loaded_profile(budget: int, asked: int, runs: int):
    # An explicit max_examples would win over any profile; examples(n) follows one that asks for more
    # than hypothesis's default 100, and never cuts a test's own count (CI's profile has 60).
    settings.register_profile("_examples_restore", parent=settings.default)
    settings.register_profile("_examples_test", max_examples=budget)
    settings.load_profile("_examples_test")
    try:
        assert rt.examples(asked) == runs
    finally:
        settings.load_profile("_examples_restore")
    with pytest.raises(ValueError, match="at least 1"):
        rt.examples(0)


def test_sizes_cover_the_edges_and_stay_in_range():
    seen = draws(rt.sizes(max_value=40))
    assert all(0 <= s <= 40 for s in seen)
    assert {0, 1} <= set(seen)
    assert any(s % 2 == 1 and s > 1 for s in seen)
    assert any(s > 8 for s in seen)
    assert all(3 <= s <= 5 for s in draws(rt.sizes(min_value=3, max_value=5), 50))


def test_leading_dimensions_are_valid_and_often_padded():
    pairs = draws(st.integers(0, 20).flatmap(lambda m: st.tuples(st.just(m), rt.leading_dimensions(m))))
    assert all(lda >= max(1, m) for m, lda in pairs)
    assert any(lda > max(1, m) for m, lda in pairs)
    assert any(lda == max(1, m) for m, lda in pairs)
    assert any(m == 0 and lda == 1 for m, lda in pairs)


def test_increments_are_signed_and_never_zero_unless_asked():
    seen = draws(rt.increments(max_abs=3))
    assert 0 not in seen
    assert all(abs(i) <= 3 for i in seen)
    assert {1, -1} <= set(seen) and any(i < -1 for i in seen) and any(i > 1 for i in seen)
    assert 0 in draws(rt.increments(allow_zero=True))
    assert all(i > 0 for i in draws(rt.increments(allow_negative=False), 100))


def test_batch_counts_are_mostly_small_with_the_edges():
    seen = draws(rt.batch_counts(max_value=16))
    assert all(0 <= b <= 16 for b in seen)
    assert {0, 1} <= set(seen)
    assert all(b >= 1 for b in draws(rt.batch_counts(min_value=1), 100))


def test_precisions_are_the_table_entries():
    seen = draws(rt.precisions())
    assert all(any(p is q for q in SDCZ) for p in seen)
    assert {p.letter for p in seen} == {"s", "d", "c", "z"}


@pytest.mark.parametrize("p", SDCZ, ids=repr)
def test_scalars_include_the_special_values(p: Precision):
    seen = draws(rt.scalars(p))
    assert all(np.asarray(v).dtype == p.compute_dtype for v in seen)
    finite = [complex(v) for v in seen if not np.isnan(v)]
    assert {0, 1, -1} <= set(finite)
    assert any(np.isnan(v) for v in seen)
    assert all(abs(c.real) <= 4 and abs(c.imag) <= 4 for c in finite)
    if p.is_complex:
        assert any(c.imag != 0 for c in finite)
    assert not any(np.isnan(v) for v in draws(rt.scalars(p, allow_nan=False), 100))


@settings(max_examples=rt.examples(40))
@given(p=rt.precisions(), shape=st.tuples(rt.sizes(max_value=9), rt.sizes(max_value=9)),
       order=st.sampled_from(["C", "F"]), integer_valued=st.booleans(), data=st.data())
def test_host_arrays_are_well_scaled(p: Precision, shape: tuple[int, int], order: str, integer_valued: bool,
                                     data: st.DataObject):
    a = data.draw(rt.host_arrays(p, shape, order, integer_valued=integer_valued))  # type: ignore[arg-type]
    assert a.dtype == p.dtype and a.shape == shape
    assert a.flags.f_contiguous if order == "F" else a.flags.c_contiguous
    parts = [a.real, a.imag] if p.is_complex else [a]
    for part in parts:
        mag = np.abs(part.astype(np.float64))
        assert np.all(np.isfinite(mag))
        if integer_valued:
            assert np.all(np.isin(mag, [1, 2, 3]))
        else:
            assert np.all((mag >= 0.125) & (mag <= 1))


def test_matrix_problems_follow_the_rocblas_rules():
    seen = draws(rt.matrix_problems(max_size=24, max_padding=5))
    for p in seen:
        assert 0 <= p.m <= 24 and 0 <= p.n <= 24
        assert max(1, p.m) <= p.lda <= max(1, p.m) + 5
        assert (p.batch_count, p.stride, p.batched) == (1, p.lda * p.n, False)
        assert p.host_shape == (p.m, p.n)
        assert p.op_letter == {111: "N", 112: "T", 113: "C"}[p.op]
        assert p.op_shape == ((p.m, p.n) if p.op == 111 else (p.n, p.m))
    assert any(p.lda > max(1, p.m) for p in seen)
    assert any(p.m == 0 for p in seen) and any(p.n == 1 for p in seen)
    assert {p.op for p in seen} == {111, 112, 113}
    assert {p.precision.letter for p in seen} == {"s", "d", "c", "z"}
    assert all(p.m == p.n for p in draws(rt.matrix_problems(square=True), 50))


def test_strided_batch_strides_and_storage_are_bounded():
    budget = 2**16
    seen = draws(rt.strided_batch(max_size=12, max_batch=10**6, max_elements=budget), 400)
    for p in seen:
        assert p.batched and p.host_shape == (p.batch_count, p.m, p.n)
        assert p.lda >= max(1, p.m)
        assert p.stride >= p.lda * p.n
        assert p.batch_count * max(p.stride, p.lda * p.n) <= budget
        assert p.storage_elements <= budget
    large = [p for p in seen if p.batch_count >= 1000]
    assert large, "no large batch drawn"
    assert all(p.m <= 4 and p.n <= 4 for p in large)
    assert any(p.stride > p.lda * p.n for p in seen)
    assert any(p.stride == p.lda * p.n for p in seen)
    assert {0, 1} <= {p.batch_count for p in seen}
    # The default budget allows a million 1x1 matrices, and no more.
    assert all(p.batch_count <= 10**6 for p in draws(rt.strided_batch(), 100))


def test_matrix_problem_rejects_invalid_geometry():
    with pytest.raises(ValueError, match="lda"):
        rt.MatrixProblem(4, 2, 3, Precision.of("d"))
    with pytest.raises(ValueError, match="stride"):
        rt.MatrixProblem(4, 2, 4, Precision.of("d"), batch_count=2, stride=7, batched=True)
    with pytest.raises(ValueError, match="rocblas_operation"):
        rt.MatrixProblem(4, 2, 4, Precision.of("d"), op=78)
    assert rt.MatrixProblem(3, 2, 5, Precision.of("s"), batch_count=4, stride=11).storage_elements == 3 * 11 + 5 + 3


# --- poison: padded matrices -------------------------------------------------------------------


def _padded_for(p: rt.MatrixProblem, a: np.ndarray) -> rt.PaddedDeviceMatrix:
    return rt.poisoned_device_matrix(a, p.lda, stride=p.stride if p.batched else None)


@given(st.data())
def test_padded_matrix_round_trips_and_is_untouched(data: st.DataObject):
    p = data.draw(st.one_of(rt.matrix_problems(max_size=8),
                            rt.strided_batch(max_size=6, max_batch=5, max_elements=4096)))
    a = data.draw(rt.host_arrays(p.precision, p.host_shape))
    with _padded_for(p, a) as d:
        out = d.get()
        assert out.shape == a.shape and out.dtype == a.dtype
        assert out.tobytes() == a.tobytes()
        d.check_untouched(logical=True)
        assert d.array.shape == a.shape


def _scale(view: np.ndarray) -> None:
    with np.errstate(invalid="ignore"):  # on the sentinel (a signaling NaN), in the buggy uses
        view *= 2


@given(st.data())
def test_writes_to_the_logical_region_are_not_reported(data: st.DataObject):
    p = data.draw(st.one_of(rt.matrix_problems(max_size=8),
                            rt.strided_batch(max_size=6, max_batch=5, max_elements=4096)))
    a = data.draw(rt.host_arrays(p.precision, p.host_shape, integer_valued=True))
    with _padded_for(p, a) as d:
        rm.launch(_scale, d.array, name="scale_logical")
        d.check_untouched()
        np.testing.assert_array_equal(d.get(), 2 * a)
        if a.size:
            with pytest.raises(AssertionError, match="logical element"):
                d.check_untouched(logical=True)


@given(st.data())
def test_a_write_into_padding_is_detected_with_its_position(data: st.DataObject):
    p = data.draw(rt.matrix_problems(max_size=8, max_padding=4).filter(lambda q: q.lda > q.m and q.n > 0))
    i = data.draw(st.integers(p.m, p.lda - 1), label="padding row")
    j = data.draw(st.integers(0, p.n - 1), label="column")
    a = data.draw(rt.host_arrays(p.precision, p.host_shape))
    with _padded_for(p, a) as d:
        write(d.ptr + (j * p.lda + i) * p.dtype.itemsize, np.zeros((), p.dtype))
        with pytest.raises(AssertionError, match=rf"1 padding/margin elements .*\n  padding row {i}, column {j} "):
            d.check_untouched()
        assert d.changed_positions() == [d.margin + j * p.lda + i]
        assert d.get().tobytes() == a.tobytes()  # the logical data is intact


def test_a_kernel_that_uses_lda_for_m_is_caught():
    a = np.arange(12.0).reshape(3, 4)
    with rt.poisoned_device_matrix(a, lda=5) as d:
        # The bug: treating the matrix as lda x n, so the two padding rows get written too.
        wide = rm.DeviceArray.from_pointer(d.ptr, (5, 4), np.float64, strides=(8, 40))
        rm.launch(_scale, wide, name="buggy_scale")
        with pytest.raises(AssertionError, match="8 padding/margin elements") as info:
            d.check_untouched()
        assert "padding row 3, column 0" in str(info.value)
        assert "padding row 4, column 3" in str(info.value)


def test_a_different_nan_in_padding_is_detected():
    # NaN != NaN: the comparison must be bitwise, and a canonical NaN is not the sentinel.
    with rt.poisoned_device_matrix(np.ones((2, 2), np.float32), lda=3) as d:
        write(d.ptr + 2 * 4, np.float32(np.nan))
        with pytest.raises(AssertionError, match=r"padding row 2, column 0 .* -> nan \(bits 0x7fc00000\)"):
            d.check_untouched()


def test_margins_and_batch_gaps_are_checked():
    a = np.ones((3, 2, 2), np.complex128)
    isz = 16
    with rt.poisoned_device_matrix(a, lda=2, stride=6) as d:
        d.check_untouched()
        write(d.ptr - isz, np.complex128(0))
        write(d.ptr + (2 * 6 + 4) * isz, np.complex128(0))  # one past the last matrix
        write(d.ptr + 5 * isz, np.complex128(0))  # gap between entries 0 and 1
        with pytest.raises(AssertionError) as info:
            d.check_untouched()
        msg = str(info.value)
        assert msg.startswith("3 padding/margin elements")
        assert "margin before the matrix, 1 element(s) before A[0, 0]" in msg
        assert "margin after the matrix, 1 element(s) past its storage" in msg
        assert "gap between batch entries 0 and 1, element 1 after entry 0" in msg


def test_check_is_ordered_after_work_on_a_blocking_stream():
    with rt.poisoned_device_matrix(np.zeros((2, 2)), lda=4) as d:
        s = rm.Stream()
        wide = rm.DeviceArray.from_pointer(d.ptr, (4, 2), np.float64, strides=(8, 32))
        rm.launch(lambda v: v.fill(1.0), wide, name="late_writer", stream=s)
        with pytest.raises(AssertionError, match="4 padding/margin elements"):
            d.check_untouched()  # no synchronize: the null-stream read waits for s
        s.synchronize()


def test_padded_vector_with_negative_increment():
    x = np.arange(1.0, 6.0)
    with rt.poisoned_device_vector(x, inc=-2) as v:
        np.testing.assert_array_equal(v.get(), x)
        np.testing.assert_array_equal(v.array.get(), x)  # a negative-stride logical view
        # BLAS storage: x[i] lives at (n - 1 - i) * |inc| from the pointer.
        stored = rm.DeviceArray.from_pointer(v.ptr, (5,), np.float64, strides=(16,)).get()
        np.testing.assert_array_equal(stored, x[::-1])
        v.check_untouched(logical=True)
        write(v.ptr + 8, np.float64(0))
        with pytest.raises(AssertionError, match=r"gap element 1 after x\[4\] in storage \(inc=-2\)"):
            v.check_untouched()
    with pytest.raises(ValueError, match="inc"):
        rt.PaddedDeviceVector(3, 0)


def test_batched_vector_round_trip():
    x = np.arange(12.0).reshape(3, 4).astype(np.float32)
    with rt.poisoned_device_vector(x, inc=3, stride=13) as v:
        np.testing.assert_array_equal(v.get(), x)
        np.testing.assert_array_equal(v.array.get(), x)
        v.check_untouched()


def test_degenerate_padded_matrices():
    for shape, lda in (((0, 3), 2), ((3, 0), 3), ((0, 0), 1), ((0, 2, 2), 2)):
        with rt.poisoned_device_matrix(np.zeros(shape), lda=lda) as d:
            assert d.get().shape == shape
            d.check_untouched(logical=True)
    with rt.poisoned_device_matrix(np.zeros((0, 3)), lda=2) as d:
        write(d.ptr, np.float64(1))  # m == 0: every stored element is padding
        with pytest.raises(AssertionError, match="padding row 0, column 0"):
            d.check_untouched()


def test_padded_matrix_frees_its_memory_and_rejects_bad_geometry():
    free_before = rm.mem_get_info()[0]
    d = rt.PaddedDeviceMatrix(10, 10, 12, Precision.of("z"), batch_count=3, stride=130)
    assert rm.mem_get_info()[0] == free_before - d.nbytes
    assert d.nbytes == (2 * 130 + 120 + 2 * d.margin) * 16
    d.close()
    d.close()  # idempotent
    assert d.closed and rm.mem_get_info()[0] == free_before
    with pytest.raises(ValueError, match="closed"):
        d.get()
    with pytest.raises(ValueError, match="lda"):
        rt.PaddedDeviceMatrix(4, 4, 3)
    with pytest.raises(ValueError, match="stride"):
        rt.PaddedDeviceMatrix(4, 4, 4, batch_count=2, stride=15)


def test_padded_matrix_for_integer_pivots():
    ipiv = np.arange(1, 5, dtype=np.int32).reshape(1, 4)
    with rt.poisoned_device_matrix(ipiv, lda=2) as d:
        np.testing.assert_array_equal(d.get(), ipiv)
        assert int(rt.sentinel_value(np.int32)) == np.array(0xDEADBEEF, np.uint32).view(np.int32)
        d.check_untouched()


# --- poison: snapshots and outputs -------------------------------------------------------------


def test_snapshot_detects_a_changed_element_and_tolerates_nan_contents():
    host = np.full((4, 3), np.nan)
    host[1, 1] = 5.0
    x = rm.to_device(host)
    before = rt.snapshot(x)
    assert before.nbytes == x.nbytes
    rt.assert_unchanged(before)  # NaN contents compare equal bitwise
    x[2, 1:2].set(np.array([7.0]))
    with pytest.raises(AssertionError, match=r"1 element\(s\) .* changed:\n"
                                             r"  element 7 \(byte offset 56\): nan \(bits 0x7ff8000000000000\) -> 7.0"):
        rt.assert_unchanged(before)
    rt.assert_unchanged(rt.snapshot(x), rt.snapshot(x))


def test_snapshot_of_a_pointer_and_of_a_strided_view():
    p = rm.malloc(64)
    try:
        rm.memset(p, 0, 64)
        whole, tail = rt.snapshot(p), rt.snapshot(p + 16)
        assert (whole.nbytes, tail.nbytes, rt.snapshot(p, 8).nbytes) == (64, 48, 8)
        view = rm.DeviceArray.from_pointer(p, (3,), np.float64, strides=(16,))  # bytes 0..40
        span = rt.snapshot(view)
        assert span.nbytes == 40
        rm.memset(p + 60, 1, 1)
        rt.assert_unchanged(span)
        with pytest.raises(AssertionError, match="byte offset 44"):
            rt.assert_unchanged(tail)
    finally:
        rm.free(p)


def _gemm_like_beta0_reading_c(c: np.ndarray, ab: np.ndarray) -> None:
    with np.errstate(invalid="ignore"):
        c[...] = ab + 0.0 * c  # the bug: with beta == 0, C must not be read


def _gemm_like_beta0(c: np.ndarray, ab: np.ndarray) -> None:
    c[...] = ab


def test_poison_output_exposes_reading_an_output():
    ab = rm.to_device(np.ones((3, 3)))
    for kernel, ok in ((_gemm_like_beta0, True), (_gemm_like_beta0_reading_c, False)):
        c = rt.poison_output(rm.empty((3, 3)))
        raw = c.get()
        assert raw.tobytes() == np.full(9, rt.sentinel_value(np.float64)).tobytes()
        rm.launch(kernel, c, ab, name=kernel.__name__)
        assert bool(np.isfinite(c.get()).all()) is ok


def test_assert_written_finds_elements_left_poisoned():
    c = rt.poison_output(rm.empty((2, 3), np.complex64, order="F"))
    with pytest.raises(AssertionError, match="6 of 6"):
        rt.assert_written(c)
    c[:, :2].set(np.zeros((2, 2), np.complex64))
    with pytest.raises(AssertionError, match=r"2 of 6 output element\(s\) were never written .* at \(0, 2\), \(1, 2\)"):
        rt.assert_written(c)
    c[:, 2].set(np.zeros(2, np.complex64))
    rt.assert_written(c)


def test_poisoned_padded_output_must_be_fully_written():
    with rt.PaddedDeviceMatrix(3, 2, 4, Precision.of("s")) as d:
        assert np.isnan(d.get()).all()  # fresh: the logical elements are poisoned too
        d.set(np.ones((3, 2)))
        rt.poison_output(d)
        rm.launch(lambda v: v.__setitem__((slice(None), 0), 1.0), d.array, name="half_writer")
        with pytest.raises(AssertionError, match="3 of 6"):
            rt.assert_written(d)
        d.check_untouched()


# --- tolerance ---------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=repr)
def test_tol_scales_with_eps_and_grows_with_n(p: Precision):
    assert rt.tol(p, "exact", 10**6) == 0.0
    assert rt.tol(p, "elementwise", 1) == rt.tol(p, "elementwise", 10**6) == pytest.approx(4 * p.eps)
    for kind in ("reduction", "factorization", "fft"):
        values = [rt.tol(p, kind, n) for n in (2, 16, 1024, 2**20)]
        assert values == sorted(values) and len(set(values)) == 4, kind
        assert rt.tol(p, kind, 0) == rt.tol(p, kind, 1) > 0
    assert rt.tol(p, "factorization", 100) == pytest.approx(30 * 100 * p.eps)
    assert rt.tol(p, "reduction", 10**4) / rt.tol(p, "reduction", 100) == pytest.approx(10)
    assert rt.tol(p, "fft", 2**20) / rt.tol(p, "fft", 2**10) == pytest.approx(2)


def test_tol_takes_precision_forms_and_rejects_bad_kinds():
    assert rt.tol("s", "reduction", 9) == rt.tol(np.float32, "reduction", 9) > rt.tol("d", "reduction", 9)
    with pytest.raises(ValueError, match="kind"):
        rt.tol("d", "approximate", 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("p", SDCZ, ids=repr)
@pytest.mark.parametrize("n", [1, 7, 40])
def test_lu_ratio_separates_right_from_wrong(p: Precision, n: int):
    a = random_matrix(p, (n, n), seed=n)
    big, lower, upper = sl.lu(a)  # a = P L U
    perm = np.argmax(big, axis=0)  # P^T a = a[perm]
    assert lower.dtype == p.dtype
    assert rt.lu_residual_ratio(a, lower, upper, perm) < rt.RESIDUAL_THRESHOLD
    p_idx, _, _ = sl.lu(a, p_indices=True)
    assert rt.lu_residual_ratio(a, lower, upper, np.argsort(p_idx)) < rt.RESIDUAL_THRESHOLD
    packed, piv = sl.lu_factor(a)
    lo2, up2 = rt.unpack_lu(packed)
    assert rt.lu_residual_ratio(a, lo2, up2, ipiv=piv + 1) < rt.RESIDUAL_THRESHOLD
    assert rt.lu_residual_ratio(a, lo2, up2, rt.ipiv_to_perm(piv, base=0)) < rt.RESIDUAL_THRESHOLD
    bad_upper = upper.copy()
    bad_upper[0, -1] *= 1.01
    assert rt.lu_residual_ratio(a, lower, bad_upper, perm) > 10 * rt.RESIDUAL_THRESHOLD
    if n > 1:  # pivots ignored
        assert rt.lu_residual_ratio(a, lower, upper) > 10 * rt.RESIDUAL_THRESHOLD


def test_lu_ratio_of_rectangular_and_batched_factorizations():
    d = Precision.of("d")
    for shape in ((6, 3), (3, 6)):
        a = random_matrix(d, shape, 1)
        big, lower, upper = sl.lu(a)
        assert rt.lu_residual_ratio(a, lower, upper, np.argmax(big, axis=0)) < rt.RESIDUAL_THRESHOLD
    stack = random_matrix(d, (4, 5, 5), 2)
    factors = [sl.lu_factor(m) for m in stack]
    packed = np.stack([f[0] for f in factors])
    ipiv = np.stack([f[1] for f in factors]) + 1
    lower, upper = rt.unpack_lu(packed)
    assert rt.lu_residual_ratio(stack, lower, upper, ipiv=ipiv) < rt.RESIDUAL_THRESHOLD
    upper[2, 1, 3] += 1e-6  # one wrong entry of the batch is enough to fail
    assert rt.lu_residual_ratio(stack, lower, upper, ipiv=ipiv) > rt.RESIDUAL_THRESHOLD


def test_ratios_flag_nan_and_handle_degenerate_inputs():
    a = np.eye(3)
    broken = np.eye(3)
    broken[1, 1] = np.nan
    assert rt.lu_residual_ratio(a, np.eye(3), broken) == math.inf
    assert rt.lu_residual_ratio(np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((0, 0))) == 0.0
    assert rt.lu_residual_ratio(np.zeros((2, 2)), np.eye(2), np.zeros((2, 2))) == 0.0
    assert rt.lu_residual_ratio(np.zeros((2, 2)), np.eye(2), np.eye(2)) == 1 / np.finfo(np.float64).eps
    with pytest.raises(ValueError, match="pivot"):
        rt.ipiv_to_perm([1, 3], m=2)


@pytest.mark.parametrize("p", SDCZ, ids=repr)
def test_qr_and_orthogonality_ratios(p: Precision):
    for shape in ((9, 9), (12, 5)):
        a = random_matrix(p, shape, 3)
        q, r = sl.qr(a, mode="economic")
        assert rt.qr_residual_ratio(a, q, r) < rt.RESIDUAL_THRESHOLD
        assert rt.orthogonality_ratio(q) < rt.RESIDUAL_THRESHOLD
        qf, rf = sl.qr(a)
        assert rt.qr_residual_ratio(a, qf, rf) < rt.RESIDUAL_THRESHOLD
        assert rt.orthogonality_ratio(qf) < rt.RESIDUAL_THRESHOLD
        assert rt.qr_residual_ratio(a, q, r * 1.001) > 10 * rt.RESIDUAL_THRESHOLD
        assert rt.orthogonality_ratio(q * 1.001) > 10 * rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ, ids=repr)
def test_svd_and_eigh_ratios(p: Precision):
    a = random_matrix(p, (8, 5), 4)
    u, s, vh = sl.svd(a, full_matrices=False)
    assert rt.svd_residual_ratio(a, u, s, vh) < rt.RESIDUAL_THRESHOLD
    assert rt.orthogonality_ratio(vh) < rt.RESIDUAL_THRESHOLD  # wide: rows checked
    uf, sf, vhf = sl.svd(a)
    assert rt.svd_residual_ratio(a, uf, sf, vhf) < rt.RESIDUAL_THRESHOLD
    bad_s = s.copy()
    bad_s[-1] *= 1.01
    assert rt.svd_residual_ratio(a, u, bad_s, vh) > 10 * rt.RESIDUAL_THRESHOLD
    h = a.conj().T @ a
    w, v = sl.eigh(h)
    assert rt.eigh_residual_ratio(h, w, v) < rt.RESIDUAL_THRESHOLD
    assert rt.eigh_residual_ratio(h, w[2:], v[:, 2:]) < rt.RESIDUAL_THRESHOLD  # a subset of pairs
    assert rt.eigh_residual_ratio(h, w * 1.001, v) > 10 * rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ, ids=repr)
def test_backward_error(p: Precision):
    a = random_matrix(p, (10, 10), 5)
    b = random_matrix(p, (10, 3), 6)
    x = sl.solve(a, b)
    assert rt.backward_error(a, x, b) < rt.RESIDUAL_THRESHOLD
    assert rt.backward_error(a, x[:, 1], b[:, 1]) < rt.RESIDUAL_THRESHOLD
    x_bad = x.copy()
    x_bad[4, 2] += 1e-3 * np.abs(x).max()
    assert rt.backward_error(a, x_bad, b) > 10 * rt.RESIDUAL_THRESHOLD


def test_ratio_eps_comes_from_the_least_precise_input():
    a = random_matrix(Precision.of("d"), (6, 6), 7)
    big, lower, upper = sl.lu(a.astype(np.float32))
    perm = np.argmax(big, axis=0)
    single = rt.lu_residual_ratio(a, lower, upper, perm)
    assert single < rt.RESIDUAL_THRESHOLD
    assert rt.lu_residual_ratio(a, lower, upper, perm, precision="d") > 10 * rt.RESIDUAL_THRESHOLD


def test_assert_close_accepts_results_within_tolerance():
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, (50, 1000))
    expected = x.sum(axis=1)
    rt.assert_close(x.astype(np.float32).sum(axis=1), expected, "s", "reduction", 1000)
    rt.assert_close(expected, expected, "d", "exact")
    rt.assert_close(rm.to_device(expected), expected, "d", "exact")
    nan_at_same = np.array([1.0, np.nan, np.inf])
    rt.assert_close(nan_at_same, nan_at_same.copy(), "d", "exact")


def test_assert_close_reports_the_worst_element():
    expected = np.zeros((3, 4), np.complex64) + 1
    actual = expected.copy()
    actual[2, 1] += 1e-3
    with pytest.raises(AssertionError) as info:
        rt.assert_close(actual, expected, "c", "elementwise", err_msg="cgeam")
    msg = str(info.value)
    assert msg.startswith("cgeam: 1 of 12 element(s) not close (precision Precision.C, kind 'elementwise', n=1)")
    assert "max abs error 1.000e-03 at index (2, 1)" in msg
    assert f"tol {4 * np.finfo(np.float32).eps:.3e}" in msg
    with pytest.raises(AssertionError, match=r"at index \(1,\)"):
        rt.assert_close([1.0, np.nan], [1.0, 2.0], "d", "elementwise")
    with pytest.raises(AssertionError, match=r"at index \(0,\)"):
        rt.assert_close([np.inf], [-np.inf], "d", "elementwise")
    with pytest.raises(AssertionError, match="shape mismatch"):
        rt.assert_close(np.zeros(3), np.zeros(4), "d", "exact")
    with pytest.raises(AssertionError, match="1 of 1"):
        rt.assert_close([1.0 + 1e-16 * 4], [1.0], "d", "exact")


def test_assert_close_scale_covers_cancellation():
    # The true dot product cancels to 0: relative to |result| no tolerance is fair; relative
    # to the summed terms it is.
    terms = np.array([1.0, 1e-8, -1.0], np.float32)
    computed = np.float32(terms[0] + terms[1]) + terms[2]
    with pytest.raises(AssertionError):
        rt.assert_close([computed], [1e-8], "s", "reduction", 3)
    rt.assert_close([computed], [1e-8], "s", "reduction", 3, scale=float(np.abs(terms).sum()))


# --- the public surface ------------------------------------------------------------------------


def test_every_public_name_is_documented():
    for name in rt.__all__:
        obj = getattr(rt, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            doc = obj.__doc__ or ""
            assert doc.strip(), name
            if not isinstance(obj, type):
                assert "Parameters" in doc or "Returns" in doc, name


def test_compile_times_count_each_function_without_what_it_compiled_inside() -> None:
    # Source without a file: never a cache load, so both functions compile in this test.  The outer
    # function's time excludes the inner one's, which compiled while the outer was typed.
    import numba

    from rocmath.testing.compile_times import CompileTimes, merge, report

    space: dict[str, Any] = {"numba": numba}
    source = "@numba.njit\ndef inner(x):\n    return x + 1\n\n@numba.njit\ndef outer(x):\n    return inner(x) * 2\n"
    exec(compile(source, "<compile-times>", "exec"), space)
    listener = CompileTimes()
    listener.install()
    try:
        t0 = time.perf_counter()
        assert space["outer"](3) == 8
        elapsed = time.perf_counter() - t0
        space["outer"](4)  # compiled already: no event
    finally:
        listener.uninstall()
    totals = listener.totals()
    assert totals["None.inner"][0] == totals["None.outer"][0] == 1, totals
    mine = {k: totals[k] for k in ("None.inner", "None.outer")}
    assert 0 < sum(s for _, s in mine.values()) <= elapsed
    both = {}
    merge(both, totals)
    merge(both, totals)
    assert all(both[k] == [2 * c, 2 * s] for k, (c, s) in totals.items())
    lines = report(both, 1)
    assert len(lines) == 2 and lines[0].startswith("numba compilation: ")
    assert lines[1].endswith(max(both, key=lambda k: both[k][1]))
