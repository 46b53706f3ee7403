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
``|re| + |im|`` (reference BLAS's ``scasum``).  ``sum_products`` and ``sum_conj_products`` of complex
vectors sum the products of their reals in that order too, as four real sums combined last.

``largest_magnitude(x)`` and ``smallest_magnitude(x)`` give the largest (smallest) ``|re| + |im|``
of a contiguous vector, NaN magnitudes left out (NaN when all are NaN or the vector is empty), in
the same lanes: a comparison rounds nothing, so the value does not depend on their order.  (LLVM
leaves such a loop scalar unless told that no NaN occurs.)  Finding the first element of that
magnitude: ``first_magnitude(x, m)``, the index of the first element whose ``|re| + |im|`` equals
``m`` (-1: none), a lane's worth of elements compared at a time.
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


def _counted_loop(builder: Any, start: Any, end: Any, stride: int, inits: list[Any], body: Any) -> list[Any]:
    """IR of ``for (i = start; i < end; i += stride) accs = body(i, accs)``; returns the final accs."""
    i64 = ir.IntType(64)
    before = builder.block
    head = builder.append_basic_block("loop.head")
    work = builder.append_basic_block("loop.body")
    after = builder.append_basic_block("loop.after")
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

    def vector_step(i: Any, accs: list[Any]) -> list[Any]:
        out = []
        for k, acc in enumerate(accs):
            at = builder.add(i, i64(k * lanes))
            vals = [builder.load(builder.bitcast(builder.gep(p, [at]), vty.as_pointer()), align=width)
                    for p in ptrs]
            out.append(term(vals, acc, vty))
        return out

    zero = ir.Constant(vty, [ir.Constant(fty, 0.0)] * lanes)
    accs = _counted_loop(builder, i64(0), vector_end, step, [zero] * ACCUMULATORS, vector_step)
    while len(accs) > 1:
        accs = [builder.fadd(accs[k], accs[k + 1]) for k in range(0, len(accs), 2)]
    parts = [builder.extract_element(accs[0], ir.IntType(32)(k)) for k in range(lanes)]
    while len(parts) > 1:
        parts = [builder.fadd(parts[k], parts[k + 1]) for k in range(0, len(parts), 2)]

    def scalar_step(i: Any, accs: list[Any]) -> list[Any]:
        vals = [builder.load(builder.gep(p, [i]), align=width) for p in ptrs]
        return [term(vals, accs[0], fty)]

    tail = _counted_loop(builder, vector_end, n, 1, [ir.Constant(fty, 0.0)], scalar_step)[0]
    return builder.fadd(parts[0], tail)


def _complex_products(context: Any, builder: Any, arrays: list[Any], array_types: list[Any],
                      conjugate: bool) -> Any:
    """IR of the sum of ``x[i] * y[i]`` (``conj(x[i]) * y[i]``) over two complex vectors, on their
    interleaved reals: one set of accumulators takes the products of the reals as stored
    (``re*re``, ``im*im``), another those with each of ``y``'s pairs swapped (``re*im``, ``im*re``), in
    the order of the real sums; their even and odd lanes are summed apart, pairwise, the rest of
    the elements added to each one by one, and the four sums combine last: ``re = rr -+ ii``,
    ``im = ri +- ir``."""
    real = _real_type(array_types[0].dtype)
    fty = context.get_value_type(real)
    width = real.bitwidth // 8
    lanes = VECTOR_BYTES // width
    vty = ir.VectorType(fty, lanes)
    i64, i32 = ir.IntType(64), ir.IntType(32)
    suffix = "f64" if width == 8 else "f32"
    vfma = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vty, [vty] * 3), f"llvm.fma.v{lanes}{suffix}")
    sfma = cgutils.get_or_insert_function(builder.module, ir.FunctionType(fty, [fty] * 3), f"llvm.fma.{suffix}")
    views = [context.make_array(t)(context, builder, a) for t, a in zip(array_types, arrays, strict=True)]
    n = builder.mul(builder.extract_value(views[0].shape, 0), i64(2))
    px, py = (builder.bitcast(v.data, fty.as_pointer()) for v in views)
    step = ACCUMULATORS * lanes
    vector_end = builder.and_(n, i64(-step))
    swap = ir.Constant(ir.VectorType(i32, lanes), [j ^ 1 for j in range(lanes)])

    def load(p: Any, at: Any) -> Any:
        return builder.load(builder.bitcast(builder.gep(p, [at]), vty.as_pointer()), align=width)

    def vector_step(i: Any, accs: list[Any]) -> list[Any]:
        straight, crossed = [], []
        for k in range(ACCUMULATORS):
            at = builder.add(i, i64(k * lanes))
            xv, yv = load(px, at), load(py, at)
            straight.append(builder.call(vfma, [xv, yv, accs[k]]))
            swapped = builder.shuffle_vector(yv, ir.Constant(vty, ir.Undefined), swap)
            crossed.append(builder.call(vfma, [xv, swapped, accs[ACCUMULATORS + k]]))
        return straight + crossed

    zero = ir.Constant(vty, [ir.Constant(fty, 0.0)] * lanes)
    accs = _counted_loop(builder, i64(0), vector_end, step, [zero] * (2 * ACCUMULATORS), vector_step)

    def pairwise(vals: list[Any]) -> Any:
        while len(vals) > 1:
            vals = [builder.fadd(vals[k], vals[k + 1]) for k in range(0, len(vals), 2)]
        return vals[0]

    def lane_sums(group: list[Any]) -> tuple[Any, Any]:
        v = pairwise(group)
        parts = [builder.extract_element(v, i32(k)) for k in range(lanes)]
        return pairwise(parts[0::2]), pairwise(parts[1::2])

    rr, ii = lane_sums(accs[:ACCUMULATORS])
    ri, ir_ = lane_sums(accs[ACCUMULATORS:])

    def scalar_step(i: Any, acc: list[Any]) -> list[Any]:
        xr = builder.load(builder.gep(px, [i]), align=width)
        xi = builder.load(builder.gep(px, [builder.add(i, i64(1))]), align=width)
        yr = builder.load(builder.gep(py, [i]), align=width)
        yi = builder.load(builder.gep(py, [builder.add(i, i64(1))]), align=width)
        return [builder.call(sfma, [xr, yr, acc[0]]), builder.call(sfma, [xi, yi, acc[1]]),
                builder.call(sfma, [xr, yi, acc[2]]), builder.call(sfma, [xi, yr, acc[3]])]

    fzero = ir.Constant(fty, 0.0)
    t_rr, t_ii, t_ri, t_ir = _counted_loop(builder, vector_end, n, 2, [fzero] * 4, scalar_step)
    rr, ii = builder.fadd(rr, t_rr), builder.fadd(ii, t_ii)
    ri, ir_ = builder.fadd(ri, t_ri), builder.fadd(ir_, t_ir)
    out = context.make_complex(builder, array_types[0].dtype)
    out.real = builder.fadd(rr, ii) if conjugate else builder.fsub(rr, ii)
    out.imag = builder.fsub(ri, ir_) if conjugate else builder.fadd(ri, ir_)
    return out._getvalue()


def _products(conjugate: bool) -> Any:
    def typer(x: Any, y: Any) -> Any:
        if not (_accepts(x) and _accepts(y) and x.dtype == y.dtype):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if isinstance(signature.args[0].dtype, types.Complex):
                return _complex_products(context, builder, list(args), list(signature.args), conjugate)
            return _sum(context, builder, list(args), list(signature.args), "products")

        return x.dtype(x, y), codegen

    return typer


@numba.extending.intrinsic
def sum_products(typingctx: Any, x: Any, y: Any) -> Any:
    """``sum_products(x, y)`` inside a kernel: the sum of ``x[i] * y[i]`` over two contiguous vectors
    of one type and length (the length is ``x``'s; nothing is checked), in the order the module's
    docstring gives (complex: see :func:`_complex_products`); fused multiply-adds."""
    return _products(False)(x, y)


@numba.extending.intrinsic
def sum_conj_products(typingctx: Any, x: Any, y: Any) -> Any:
    """``sum_conj_products(x, y)`` inside a kernel: :func:`sum_products` of ``conj(x)`` and ``y``
    (for real vectors the same sum)."""
    return _products(True)(x, y)


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


def _extreme(context: Any, builder: Any, array: Any, array_type: Any, largest: bool) -> Any:
    """IR of the largest (``largest``) or smallest ``|re| + |im|`` of a contiguous vector, NaN
    magnitudes left out: each lane keeps ``v`` when ``v`` beats it or it is still NaN (its start)."""
    real = _real_type(array_type.dtype)
    is_complex = isinstance(array_type.dtype, types.Complex)
    fty = context.get_value_type(real)
    width = real.bitwidth // 8
    lanes = VECTOR_BYTES // width
    vty = ir.VectorType(fty, lanes)
    i64 = ir.IntType(64)
    i32 = ir.IntType(32)
    view = context.make_array(array_type)(context, builder, array)
    n = builder.extract_value(view.shape, 0)
    ptr = builder.bitcast(view.data, fty.as_pointer())
    step = ACCUMULATORS * lanes
    vector_end = builder.and_(n, i64(-step))
    beats = ">" if largest else "<"

    magnitudes = _magnitude_loads(builder, ptr, fty, lanes, is_complex, width)

    def keep(acc: Any, v: Any) -> Any:
        take = builder.or_(builder.fcmp_ordered(beats, v, acc), builder.fcmp_unordered("uno", acc, acc))
        return builder.select(take, v, acc)

    nan = ir.Constant(fty, float("nan"))
    start = ir.Constant(vty, [nan] * lanes)
    accs = _counted_loop(builder, i64(0), vector_end, step, [start] * ACCUMULATORS,
                        lambda i, accs: [keep(a, magnitudes(builder.add(i, i64(k * lanes)), vty))
                                         for k, a in enumerate(accs)])
    best = accs[0]
    for a in accs[1:]:
        best = keep(best, a)
    result = builder.extract_element(best, i32(0))
    for k in range(1, lanes):
        result = keep(result, builder.extract_element(best, i32(k)))
    return _counted_loop(builder, vector_end, n, 1, [result], lambda i, accs: [keep(accs[0], magnitudes(i, fty))])[0]


@numba.extending.intrinsic
def largest_magnitude(typingctx: Any, x: Any) -> Any:
    """``largest_magnitude(x)`` inside a kernel: the largest ``|re(x[i])| + |im(x[i])|`` of a contiguous
    vector, NaN magnitudes left out (NaN if there is no other)."""
    if not _accepts(x):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _extreme(context, builder, args[0], signature.args[0], True)

    return _real_type(x.dtype)(x), codegen


@numba.extending.intrinsic
def smallest_magnitude(typingctx: Any, x: Any) -> Any:
    """``smallest_magnitude(x)`` inside a kernel: the smallest ``|re(x[i])| + |im(x[i])|`` of a contiguous
    vector, NaN magnitudes left out (NaN if there is no other)."""
    if not _accepts(x):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _extreme(context, builder, args[0], signature.args[0], False)

    return _real_type(x.dtype)(x), codegen


def _magnitude_loads(builder: Any, ptr: Any, fty: Any, lanes: int, is_complex: bool, width: int) -> Any:
    """A function ``(i, ty) -> |re| + |im|`` of element ``i`` (a scalar ``ty``) or of the lane's worth
    of elements from ``i`` on (a vector ``ty``), for a pointer to the (interleaved) reals."""
    i64, i32 = ir.IntType(64), ir.IntType(32)
    suffix = "f64" if width == 8 else "f32"

    def fabs(ty: Any) -> Any:
        name = f"llvm.fabs.{f'v{lanes}' if isinstance(ty, ir.VectorType) else ''}{suffix}"
        return cgutils.get_or_insert_function(builder.module, ir.FunctionType(ty, [ty]), name)

    def load(at: Any, ty: Any) -> Any:
        if isinstance(ty, ir.VectorType):
            return builder.load(builder.bitcast(builder.gep(ptr, [at]), ty.as_pointer()), align=width)
        return builder.load(builder.gep(ptr, [at]), align=width)

    def magnitudes(i: Any, ty: Any) -> Any:
        if not is_complex:
            return builder.call(fabs(ty), [load(i, ty)])
        at = builder.mul(i, i64(2))
        if not isinstance(ty, ir.VectorType):
            re, im = load(at, ty), load(builder.add(at, i64(1)), ty)
            return builder.fadd(builder.call(fabs(ty), [re]), builder.call(fabs(ty), [im]))
        lo = builder.call(fabs(ty), [load(at, ty)])
        hi = builder.call(fabs(ty), [load(builder.add(at, i64(lanes)), ty)])
        mask = ir.VectorType(i32, lanes)
        even = builder.shuffle_vector(lo, hi, ir.Constant(mask, [2 * j for j in range(lanes)]))
        odd = builder.shuffle_vector(lo, hi, ir.Constant(mask, [2 * j + 1 for j in range(lanes)]))
        return builder.fadd(even, odd)

    return magnitudes


def _first(context: Any, builder: Any, args: Any, sig_args: Any) -> Any:
    """IR of the index of the first element of ``|re| + |im| == m`` (-1: none)."""
    array_type = sig_args[0]
    real = _real_type(array_type.dtype)
    is_complex = isinstance(array_type.dtype, types.Complex)
    fty = context.get_value_type(real)
    width = real.bitwidth // 8
    lanes = VECTOR_BYTES // width
    vty = ir.VectorType(fty, lanes)
    i64 = ir.IntType(64)
    view = context.make_array(array_type)(context, builder, args[0])
    m = context.cast(builder, args[1], sig_args[1], real)
    n = builder.extract_value(view.shape, 0)
    ptr = builder.bitcast(view.data, fty.as_pointer())
    magnitudes = _magnitude_loads(builder, ptr, fty, lanes, is_complex, width)
    splat = builder.insert_element(ir.Constant(vty, ir.Undefined), m, ir.IntType(32)(0))
    splat = builder.shuffle_vector(splat, ir.Constant(vty, ir.Undefined),
                                   ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes))
    vector_end = builder.and_(n, i64(-lanes))
    bits_t = ir.IntType(lanes)
    cttz = cgutils.get_or_insert_function(builder.module, ir.FunctionType(bits_t, [bits_t, ir.IntType(1)]),
                                          f"llvm.cttz.i{lanes}")
    entry = builder.block
    vhead = builder.append_basic_block("first.vhead")
    vbody = builder.append_basic_block("first.vbody")
    vfound = builder.append_basic_block("first.vfound")
    shead = builder.append_basic_block("first.shead")
    sbody = builder.append_basic_block("first.sbody")
    snext = builder.append_basic_block("first.snext")
    done = builder.append_basic_block("first.done")

    builder.branch(vhead)
    builder.position_at_end(vhead)
    i = builder.phi(i64)
    i.add_incoming(i64(0), entry)
    builder.cbranch(builder.icmp_signed("<", i, vector_end), vbody, shead)
    builder.position_at_end(vbody)
    bits = builder.bitcast(builder.fcmp_ordered("==", magnitudes(i, vty), splat), bits_t)
    i.add_incoming(builder.add(i, i64(lanes)), vbody)
    builder.cbranch(builder.icmp_unsigned("!=", bits, bits_t(0)), vfound, vhead)
    builder.position_at_end(vfound)
    at_v = builder.add(i, builder.zext(builder.call(cttz, [bits, ir.IntType(1)(1)]), i64))
    builder.branch(done)

    builder.position_at_end(shead)
    j = builder.phi(i64)
    j.add_incoming(vector_end, vhead)
    builder.cbranch(builder.icmp_signed("<", j, n), sbody, done)
    builder.position_at_end(sbody)
    hit = builder.fcmp_ordered("==", magnitudes(j, fty), m)
    builder.cbranch(hit, done, snext)
    builder.position_at_end(snext)
    j.add_incoming(builder.add(j, i64(1)), snext)
    builder.branch(shead)

    builder.position_at_end(done)
    where = builder.phi(i64)
    where.add_incoming(at_v, vfound)
    where.add_incoming(i64(-1), shead)
    where.add_incoming(j, sbody)
    return where


@numba.extending.intrinsic
def first_magnitude(typingctx: Any, x: Any, m: Any) -> Any:
    """``first_magnitude(x, m)`` inside a kernel: the index of the first element of a contiguous
    vector whose ``|re| + |im|`` equals ``m`` (-1: none; a NaN ``m`` is never found)."""
    if not (_accepts(x) and isinstance(m, (types.Float, types.Integer))):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _first(context, builder, args, signature.args)

    return types.int64(x, m), codegen
