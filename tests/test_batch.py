"""rocmath.batch helpers the kernels' launch bodies use on every launch."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from rocmath.batch import flat_entries
from rocmath.solver._kernels_lu import _flat_rows


@given(nb=st.integers(1, 4), r=st.integers(1, 5), c=st.integers(1, 5), pad_ld=st.sampled_from([0, 0, 2]),
       pad_entry=st.sampled_from([0, 0, 3]))
def test_flat_entries_index_every_entry_in_place(nb: int, r: int, c: int, pad_ld: int, pad_entry: int) -> None:
    # Packed entries (a reshape) and padded ones (a strided view) alike: one contiguous view from the first
    # element, in which element (e, i, j) is at e * stride + j * ld + i.
    ld = r + pad_ld
    stride = ld * c + pad_entry
    base = np.arange(float(nb * stride + 8))
    x = np.lib.stride_tricks.as_strided(base[1:], shape=(nb, r, c), strides=(8 * stride, 8, 8 * ld))
    got = flat_entries(x)
    assert got is not None
    view, got_ld, got_stride = got
    assert view.flags.c_contiguous and view.ctypes.data == x.ctypes.data and np.shares_memory(view, base)
    e, i, j = np.meshgrid(np.arange(nb), np.arange(r), np.arange(c), indexing="ij")
    assert np.array_equal(view[e * got_stride + j * got_ld + i], x)
    view[e * got_stride + j * got_ld + i] = -x  # writes reach the entries
    assert (x <= 0).all()


@given(nb=st.integers(1, 5), k=st.integers(1, 6), pad=st.sampled_from([0, 0, 2]))
def test_flat_rows_index_every_row_in_place(nb: int, k: int, pad: int) -> None:
    base = np.arange(nb * (k + pad), dtype=np.int32)
    x = base.reshape(nb, k + pad)[:, :k]
    view, s0 = _flat_rows(x)
    assert view.flags.c_contiguous and np.shares_memory(view, base)
    e, j = np.meshgrid(np.arange(nb), np.arange(k), indexing="ij")
    assert np.array_equal(view[e * s0 + j], x)


def test_batched_outputs_sharing_memory_get_the_last_entry_run_after_run() -> None:
    # Pointer-array outputs are written back in parallel only when they are apart and in order;
    # entries that share memory (a race on the device, undefined in rocBLAS) are written back in
    # entry order, so the last entry's values land last, the same every run.
    import rocmath as rm
    import rocmath.blas as blas

    h = blas.create_handle()
    n, count = 64, 16
    xs = [rm.to_device(np.full(n, float(i))) for i in range(count)]
    px = rm.to_device(np.array([x.ptr for x in xs], np.uint64))
    for _ in range(30):  # (written back in parallel, entry 7's or 15's values won, varying run to run)
        y = rm.to_device(np.zeros(n))
        blas.daxpy_batched(h, n, 1.0, px, 1, rm.to_device(np.array([y.ptr] * count, np.uint64)), 1, count)
        rm.device_synchronize()
        np.testing.assert_array_equal(y.get(), count - 1.0)
    # Apart, in reverse order: each entry gets its own values.
    ys = [rm.to_device(np.zeros(n)) for _ in range(count)]
    blas.daxpy_batched(h, n, 2.0, px, 1, rm.to_device(np.array([y.ptr for y in ys[::-1]], np.uint64)), 1, count)
    rm.device_synchronize()
    for i, y in enumerate(ys[::-1]):
        np.testing.assert_array_equal(y.get(), 2.0 * i)
    blas.destroy_handle(h)
