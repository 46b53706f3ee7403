"""Sums of a contiguous vector in 256-bit lanes, for reductions that stream from memory.

``sum_products(x, y)``, ``sum_squares(x)`` and ``sum_magnitudes(x)`` are numba intrinsics used
inside kernels on contiguous 1-D arrays.  Each keeps four accumulators of one 256-bit vector
(4 doubles or 8 singles), element ``i`` of every run of ``4 * lanes`` going to lane ``i % lanes``
of accumulator ``(i // lanes) % 4``, adds the accumulators pairwise, then the lanes pairwise, then
the remaining elements one by one in order: one summation order, fixed by this code and not by
what the vectoriser chooses, so a result is the same on every run and every machine.

Why not a plain loop with ``fastmath``: on AVX-512 hosts LLVM vectorises it with 512-bit
registers, and on the Zen 4 host of the benchmarks a sum of squares of 10^7 doubles streamed
from memory ran 8-15 % slower through 512-bit loads than through 256-bit ones (the same loop in
C with either width showed the same gap; OpenBLAS's kernels use 256-bit loads), at the memory's
speed on both.  256-bit vectors are legal wherever AVX is, and split into halves where it is not.

Complex arrays are summed as their interleaved real and imaginary parts (twice as many reals):
``sum_squares`` of a complex vector is the sum of ``re**2 + im**2``, ``sum_magnitudes`` the sum of
``|re| + |im|`` (reference BLAS's ``scasum``).  ``sum_products`` takes real vectors of one type.
"""

from __future__ import annotations

from typing import Any

import numba
from llvmlite import ir
from numba.core import cgutils, types

#: Bytes in one vector register the sums use.
VECTOR_BYTES = 32
#: Vector accumulators: enough independent additions to hide the latency of each.
ACCUMULATORS = 4


def _real_type(dtype: Any) -> Any:
    return dtype.underlying_float if isinstance(dtype, types.Complex) else dtype


def _accepts(array: Any) -> bool:
    return (isinstance(array, types.Array) and array.ndim == 1 and array.layout in "CF"
            and isinstance(array.dtype, (types.Float, types.Complex)))


def _sum(context: Any, builder: Any, arrays: list[Any], array_types: list[Any], op: str) -> Any:
    """IR of the sum (see the module's docstring) of ``op`` over the elements: ``"products"``
    x[i] * y[i], ``"squares"`` x[i] ** 2, ``"magnitudes"`` |x[i]|."""
    real = _real_type(array_types[0].dtype)
    fty = context.get_value_type(real)
    width = real.bitwidth // 8
    lanes = VECTOR_BYTES // width
    vty = ir.VectorType(fty, lanes)
    i64 = ir.IntType(64)
    suffix = "f64" if width == 8 else "f32"
    module = builder.module

    def intrinsic(name: str, ty: Any, nargs: int) -> Any:
        vec = isinstance(ty, ir.VectorType)
        full = f"llvm.{name}.{f'v{lanes}' if vec else ''}{suffix}"
        return cgutils.get_or_insert_function(module, ir.FunctionType(ty, [ty] * nargs), full)

    views = [context.make_array(t)(context, builder, a) for t, a in zip(array_types, arrays, strict=True)]
    n = builder.extract_value(views[0].shape, 0)
    if isinstance(array_types[0].dtype, types.Complex):
        n = builder.mul(n, i64(2))
    ptrs = [builder.bitcast(v.data, fty.as_pointer()) for v in views]
    step = ACCUMULATORS * lanes
    vector_end = builder.and_(n, i64(-step))

    def term(vals: list[Any], acc: Any, ty: Any) -> Any:
        if op == "magnitudes":
            return builder.fadd(acc, builder.call(intrinsic("fabs", ty, 1), [vals[0]]))
        other = vals[0] if op == "squares" else vals[1]
        return builder.call(intrinsic("fma", ty, 3), [vals[0], other, acc])

    def counted_loop(start: Any, end: Any, stride: int, inits: list[Any], body: Any) -> list[Any]:
        # for (i = start; i < end; i += stride) accs = body(i, accs); returns the final accs.
        before = builder.block
        head = builder.append_basic_block("sum.head")
        work = builder.append_basic_block("sum.body")
        after = builder.append_basic_block("sum.after")
        builder.branch(head)
        builder.position_at_end(head)
        i = builder.phi(i64)
        accs = [builder.phi(a.type) for a in inits]
        i.add_incoming(start, before)
        for phi, a in zip(accs, inits, strict=True):
            phi.add_incoming(a, before)
        builder.cbranch(builder.icmp_signed("<", i, end), work, after)
        builder.position_at_end(work)
        new = body(i, accs)
        end_of_body = builder.block
        i.add_incoming(builder.add(i, i64(stride)), end_of_body)
        for phi, v in zip(accs, new, strict=True):
            phi.add_incoming(v, end_of_body)
        builder.branch(head)
        builder.position_at_end(after)
        return accs

    def vector_step(i: Any, accs: list[Any]) -> list[Any]:
        out = []
        for k, acc in enumerate(accs):
            at = builder.add(i, i64(k * lanes))
            vals = [builder.load(builder.bitcast(builder.gep(p, [at]), vty.as_pointer()), align=width)
                    for p in ptrs]
            out.append(term(vals, acc, vty))
        return out

    zero = ir.Constant(vty, [ir.Constant(fty, 0.0)] * lanes)
    accs = counted_loop(i64(0), vector_end, step, [zero] * ACCUMULATORS, vector_step)
    while len(accs) > 1:
        accs = [builder.fadd(accs[k], accs[k + 1]) for k in range(0, len(accs), 2)]
    parts = [builder.extract_element(accs[0], ir.IntType(32)(k)) for k in range(lanes)]
    while len(parts) > 1:
        parts = [builder.fadd(parts[k], parts[k + 1]) for k in range(0, len(parts), 2)]

    def scalar_step(i: Any, accs: list[Any]) -> list[Any]:
        vals = [builder.load(builder.gep(p, [i]), align=width) for p in ptrs]
        return [term(vals, accs[0], fty)]

    tail = counted_loop(vector_end, n, 1, [ir.Constant(fty, 0.0)], scalar_step)[0]
    return builder.fadd(parts[0], tail)


@numba.extending.intrinsic
def sum_products(typingctx: Any, x: Any, y: Any) -> Any:
    """``sum_products(x, y)`` inside a kernel: the sum of ``x[i] * y[i]`` over two contiguous real
    vectors of one type and length (the length is ``x``'s; nothing is checked), in the order the
    module's docstring gives; fused multiply-adds."""
    if not (_accepts(x) and _accepts(y) and isinstance(x.dtype, types.Float) and x.dtype == y.dtype):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _sum(context, builder, list(args), list(signature.args), "products")

    return x.dtype(x, y), codegen


@numba.extending.intrinsic
def sum_squares(typingctx: Any, x: Any) -> Any:
    """``sum_squares(x)`` inside a kernel: the sum of ``|x[i]|**2`` over a contiguous vector (real or
    complex), in the order the module's docstring gives; fused multiply-adds."""
    if not _accepts(x):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _sum(context, builder, list(args), list(signature.args), "squares")

    return _real_type(x.dtype)(x), codegen


@numba.extending.intrinsic
def sum_magnitudes(typingctx: Any, x: Any) -> Any:
    """``sum_magnitudes(x)`` inside a kernel: the sum of ``|re(x[i])| + |im(x[i])|`` over a contiguous
    vector (real or complex), in the order the module's docstring gives."""
    if not _accepts(x):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _sum(context, builder, list(args), list(signature.args), "magnitudes")

    return _real_type(x.dtype)(x), codegen
