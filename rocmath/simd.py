"""Reductions of a contiguous vector in 256-bit lanes, for kernels that stream from memory.

``sum_products(x, y)``, ``sum_squares(x)`` and ``sum_magnitudes(x)`` are numba intrinsics used
inside kernels on contiguous 1-D arrays.  Each keeps four accumulators of one 256-bit vector
(4 doubles or 8 singles), element ``i`` of every run of ``4 * lanes`` going to lane ``i % lanes``
of accumulator ``(i // lanes) % 4``, adds the accumulators pairwise, then the lanes pairwise, then
the remaining elements one by one in order: one summation order, fixed by this code and not by
what the vectoriser chooses, so a result is the same on every run and every machine.

Why not a plain loop with ``fastmath``: how LLVM vectorises it, and so its bits, depend on the
machine (512-bit registers where AVX-512 is, 256-bit ones where AVX2 is).  On the Zen 4 host of
the benchmarks 512-bit loads also streamed a misaligned vector (numpy's arrays start 16 bytes
into a line) 8-15 % slower than 256-bit ones (C loops of either width over 10^7 doubles; aligned,
the same).  256-bit vectors are legal wherever AVX is, and split into halves where it is not.

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

from collections.abc import Callable
from typing import Any

import numba
from llvmlite import ir
from numba.core import cgutils, types

#: Bytes in one vector register the sums use.
VECTOR_BYTES = 32
#: Vector accumulators: enough independent additions to hide the latency of each.
ACCUMULATORS = 4

_I32, _I64 = ir.IntType(32), ir.IntType(64)


def _real_type(dtype: Any) -> Any:
    return dtype.underlying_float if isinstance(dtype, types.Complex) else dtype


def _accepts(array: Any) -> bool:
    return (isinstance(array, types.Array) and array.ndim == 1 and array.layout in "CF"
            and isinstance(array.dtype, (types.Float, types.Complex)))


class _Vector:
    """A contiguous vector argument in IR: a pointer to its reals (a complex vector's interleaved),
    their count, their LLVM type, and the 256-bit vector type of ``lanes`` of them."""

    def __init__(self, context: Any, builder: Any, array: Any, array_type: Any):
        real = _real_type(array_type.dtype)
        self.builder = builder
        self.is_complex = isinstance(array_type.dtype, types.Complex)
        self.fty = context.get_value_type(real)
        self.width = real.bitwidth // 8
        self.lanes = VECTOR_BYTES // self.width
        self.vty = ir.VectorType(self.fty, self.lanes)
        view = context.make_array(array_type)(context, builder, array)
        self.elements = builder.extract_value(view.shape, 0)
        self.reals = builder.mul(self.elements, _I64(2)) if self.is_complex else self.elements
        self.ptr = builder.bitcast(view.data, self.fty.as_pointer())

    def function(self, name: str, ty: Any, nargs: int) -> Any:
        """LLVM's intrinsic ``name`` (``fma``, ``fabs``) for ``ty``, the scalar or the vector type."""
        lanes = f"v{self.lanes}" if isinstance(ty, ir.VectorType) else ""
        full = f"llvm.{name}.{lanes}{'f64' if self.width == 8 else 'f32'}"
        return cgutils.get_or_insert_function(self.builder.module, ir.FunctionType(ty, [ty] * nargs), full)

    def load(self, at: Any, ty: Any) -> Any:
        """The real at index ``at``, or the lane's worth from there (``ty`` the vector type)."""
        b = self.builder
        if isinstance(ty, ir.VectorType):
            return b.load(b.bitcast(b.gep(self.ptr, [at]), ty.as_pointer()), align=self.width)
        return b.load(b.gep(self.ptr, [at]), align=self.width)

    def magnitudes(self, i: Any, ty: Any) -> Any:
        """``|re| + |im|`` of element ``i`` (``ty`` scalar) or of the lane's worth of elements from
        ``i`` on (``ty`` the vector type: a complex vector's pairs taken apart by shuffles)."""
        b = self.builder
        fabs = self.function("fabs", ty, 1)
        if not self.is_complex:
            return b.call(fabs, [self.load(i, ty)])
        at = b.mul(i, _I64(2))
        if not isinstance(ty, ir.VectorType):
            return b.fadd(b.call(fabs, [self.load(at, ty)]), b.call(fabs, [self.load(b.add(at, _I64(1)), ty)]))
        lo = b.call(fabs, [self.load(at, ty)])
        hi = b.call(fabs, [self.load(b.add(at, _I64(self.lanes)), ty)])
        mask = ir.VectorType(_I32, self.lanes)
        even = b.shuffle_vector(lo, hi, ir.Constant(mask, [2 * j for j in range(self.lanes)]))
        odd = b.shuffle_vector(lo, hi, ir.Constant(mask, [2 * j + 1 for j in range(self.lanes)]))
        return b.fadd(even, odd)

    def zeros(self) -> Any:
        return ir.Constant(self.vty, [ir.Constant(self.fty, 0.0)] * self.lanes)


def _counted_loop(builder: Any, start: Any, end: Any, stride: int, inits: list[Any],
                  body: Callable[[Any, list[Any]], list[Any]], unroll: bool = True) -> list[Any]:
    """IR of ``for (i = start; i < end; i += stride) accs = body(i, accs)``; returns the final accs.
    ``unroll=False`` keeps LLVM from unrolling it (see _sum)."""
    before = builder.block
    head = builder.append_basic_block("loop.head")
    work = builder.append_basic_block("loop.body")
    after = builder.append_basic_block("loop.after")
    builder.branch(head)
    builder.position_at_end(head)
    i = builder.phi(_I64)
    accs = [builder.phi(a.type) for a in inits]
    i.add_incoming(start, before)
    for phi, a in zip(accs, inits, strict=True):
        phi.add_incoming(a, before)
    builder.cbranch(builder.icmp_signed("<", i, end), work, after)
    builder.position_at_end(work)
    new = body(i, accs)
    end_of_body = builder.block
    i.add_incoming(builder.add(i, _I64(stride)), end_of_body)
    for phi, v in zip(accs, new, strict=True):
        phi.add_incoming(v, end_of_body)
    back = builder.branch(head)
    if not unroll:
        # A loop's ID is a metadata node whose first operand is itself (which add_metadata cannot make).
        module = builder.module
        disable = module.add_metadata([ir.MetaDataString(module, "llvm.loop.unroll.disable")])
        loop_id = ir.values.MDValue(module, [disable], name=str(len(module.metadata)))
        loop_id.operands = (loop_id, disable)
        back.set_metadata("llvm.loop", loop_id)
    builder.position_at_end(after)
    return accs


def _pairwise(builder: Any, vals: list[Any]) -> Any:
    while len(vals) > 1:
        vals = [builder.fadd(vals[k], vals[k + 1]) for k in range(0, len(vals), 2)]
    return vals[0]


def _lanes(builder: Any, v: Any, lanes: int) -> list[Any]:
    return [builder.extract_element(v, _I32(k)) for k in range(lanes)]


def _sum(context: Any, builder: Any, args: Any, arg_types: Any, op: str) -> Any:
    """IR of the sum (see the module's docstring) of ``op`` over the reals: ``"products"``
    x[i] * y[i], ``"squares"`` x[i] ** 2, ``"magnitudes"`` |x[i]|."""
    vecs = [_Vector(context, builder, a, t) for a, t in zip(args, arg_types, strict=True)]
    x = vecs[0]
    step = ACCUMULATORS * x.lanes
    vector_end = builder.and_(x.reals, _I64(-step))

    def term(at: Any, acc: Any, ty: Any) -> Any:
        vals = [v.load(at, ty) for v in vecs]
        if op == "magnitudes":
            return builder.fadd(acc, builder.call(x.function("fabs", ty, 1), vals))
        other = vals[0] if op == "squares" else vals[1]
        return builder.call(x.function("fma", ty, 3), [vals[0], other, acc])

    # The squares' loop stays as written, four vectors a turn.  Unrolled (eight a turn, the loads out
    # of address order), dnrm2's first pass over 10^7 doubles read cold ran 3 % slower: 0.975x
    # np.linalg.norm against 1.005x, means of 5 interleaved runs.  The products' and magnitudes'
    # loops ran 5 % and 1 % faster unrolled; in cache none differed.
    accs = _counted_loop(builder, _I64(0), vector_end, step, [x.zeros()] * ACCUMULATORS,
                         lambda i, accs: [term(builder.add(i, _I64(k * x.lanes)), a, x.vty)
                                          for k, a in enumerate(accs)], unroll=op != "squares")
    total = _pairwise(builder, _lanes(builder, _pairwise(builder, accs), x.lanes))
    tail = _counted_loop(builder, vector_end, x.reals, 1, [ir.Constant(x.fty, 0.0)],
                         lambda i, accs: [term(i, accs[0], x.fty)])[0]
    return builder.fadd(total, tail)


def _four_products(context: Any, builder: Any, args: Any, arg_types: Any) -> Any:
    """IR of :func:`sum_products4`: four real columns' sums of products with one vector, each in
    :func:`_sum`'s order (its accumulators, its pairwise adds, its tail), in one loop over them."""
    cols = [_Vector(context, builder, a, t) for a, t in zip(args[:4], arg_types[:4], strict=True)]
    x = _Vector(context, builder, args[4], arg_types[4])
    lanes, vty, fty = x.lanes, x.vty, x.fty
    vfma, sfma = x.function("fma", vty, 3), x.function("fma", fty, 3)
    step = ACCUMULATORS * lanes
    vector_end = builder.and_(cols[0].reals, _I64(-step))

    def vector_step(i: Any, accs: list[Any]) -> list[Any]:
        new = list(accs)
        for k in range(ACCUMULATORS):
            at = builder.add(i, _I64(k * lanes))
            xv = x.load(at, vty)
            for c, col in enumerate(cols):  # (accumulator k of column c at c * ACCUMULATORS + k)
                new[c * ACCUMULATORS + k] = builder.call(vfma, [col.load(at, vty), xv, accs[c * ACCUMULATORS + k]])
        return new

    accs = _counted_loop(builder, _I64(0), vector_end, step, [x.zeros()] * (4 * ACCUMULATORS), vector_step)
    totals = [_pairwise(builder, _lanes(builder, _pairwise(builder, accs[c * ACCUMULATORS:(c + 1) * ACCUMULATORS]),
                                        lanes)) for c in range(4)]
    tails = _counted_loop(builder, vector_end, cols[0].reals, 1, [ir.Constant(fty, 0.0)] * 4,
                          lambda i, acc: [builder.call(sfma, [col.load(i, fty), x.load(i, fty), a])
                                          for col, a in zip(cols, acc, strict=True)])
    sums = [builder.fadd(t, u) for t, u in zip(totals, tails, strict=True)]
    return context.make_tuple(builder, types.UniTuple(arg_types[4].dtype, 4), sums)


def _complex_products(context: Any, builder: Any, args: Any, arg_types: Any, conjugate: bool) -> Any:
    """IR of the sum of ``x[i] * y[i]`` (``conj(x[i]) * y[i]``) over two complex vectors, on their
    interleaved reals: one set of accumulators takes the products of the reals as stored
    (``re*re``, ``im*im``), another those with each of ``y``'s pairs swapped (``re*im``, ``im*re``), in
    the order of the real sums; their even and odd lanes are summed apart, pairwise, the rest of
    the elements added to each one by one, and the four sums combine last: ``re = rr -+ ii``,
    ``im = ri +- ir``."""
    x, y = (_Vector(context, builder, a, t) for a, t in zip(args, arg_types, strict=True))
    lanes, vty, fty = x.lanes, x.vty, x.fty
    vfma, sfma = x.function("fma", vty, 3), x.function("fma", fty, 3)
    step = ACCUMULATORS * lanes
    vector_end = builder.and_(x.reals, _I64(-step))
    swap = ir.Constant(ir.VectorType(_I32, lanes), [j ^ 1 for j in range(lanes)])

    def vector_step(i: Any, accs: list[Any]) -> list[Any]:
        straight, crossed = [], []
        for k in range(ACCUMULATORS):
            at = builder.add(i, _I64(k * lanes))
            xv, yv = x.load(at, vty), y.load(at, vty)
            straight.append(builder.call(vfma, [xv, yv, accs[k]]))
            swapped = builder.shuffle_vector(yv, ir.Constant(vty, ir.Undefined), swap)
            crossed.append(builder.call(vfma, [xv, swapped, accs[ACCUMULATORS + k]]))
        return straight + crossed

    accs = _counted_loop(builder, _I64(0), vector_end, step, [x.zeros()] * (2 * ACCUMULATORS), vector_step)

    def lane_sums(group: list[Any]) -> tuple[Any, Any]:
        parts = _lanes(builder, _pairwise(builder, group), lanes)
        return _pairwise(builder, parts[0::2]), _pairwise(builder, parts[1::2])

    rr, ii = lane_sums(accs[:ACCUMULATORS])
    ri, ir_ = lane_sums(accs[ACCUMULATORS:])

    def scalar_step(i: Any, acc: list[Any]) -> list[Any]:
        j = builder.add(i, _I64(1))
        xr, xi, yr, yi = x.load(i, fty), x.load(j, fty), y.load(i, fty), y.load(j, fty)
        return [builder.call(sfma, [xr, yr, acc[0]]), builder.call(sfma, [xi, yi, acc[1]]),
                builder.call(sfma, [xr, yi, acc[2]]), builder.call(sfma, [xi, yr, acc[3]])]

    t_rr, t_ii, t_ri, t_ir = _counted_loop(builder, vector_end, x.reals, 2, [ir.Constant(fty, 0.0)] * 4,
                                           scalar_step)
    rr, ii = builder.fadd(rr, t_rr), builder.fadd(ii, t_ii)
    ri, ir_ = builder.fadd(ri, t_ri), builder.fadd(ir_, t_ir)
    out = context.make_complex(builder, arg_types[0].dtype)
    out.real = builder.fadd(rr, ii) if conjugate else builder.fsub(rr, ii)
    out.imag = builder.fsub(ri, ir_) if conjugate else builder.fadd(ri, ir_)
    return out._getvalue()


def _extreme(context: Any, builder: Any, args: Any, arg_types: Any, largest: bool) -> Any:
    """IR of the largest (``largest``) or smallest ``|re| + |im|`` of a contiguous vector, NaN
    magnitudes left out.  Each lane starts at a bound no magnitude can pass the wrong way (-1 for the
    largest, +inf for the smallest) and keeps ``v`` when ``v`` beats it: an ordered comparison with a
    NaN is false, so a NaN never enters, and the step is one max (min) instruction.  (Starting at NaN
    and testing the lane for it too took 4 instructions a vector: idamax of 2^20 doubles, in cache,
    ran at 70 % of OpenBLAS's speed.)  A result still at the bound means no magnitude passed it: NaN,
    unless (smallest) some magnitude is +inf."""
    x = _Vector(context, builder, args[0], arg_types[0])
    step = ACCUMULATORS * x.lanes
    vector_end = builder.and_(x.elements, _I64(-step))
    beats = ">" if largest else "<"

    def keep(acc: Any, v: Any) -> Any:
        return builder.select(builder.fcmp_ordered(beats, v, acc), v, acc)

    bound = ir.Constant(x.fty, -1.0 if largest else float("inf"))
    start = ir.Constant(x.vty, [bound] * x.lanes)
    accs = _counted_loop(builder, _I64(0), vector_end, step, [start] * ACCUMULATORS,
                         lambda i, accs: [keep(a, x.magnitudes(builder.add(i, _I64(k * x.lanes)), x.vty))
                                          for k, a in enumerate(accs)])
    best = accs[0]
    for a in accs[1:]:
        best = keep(best, a)
    parts = _lanes(builder, best, x.lanes)
    result = parts[0]
    for p in parts[1:]:
        result = keep(result, p)
    result = _counted_loop(builder, vector_end, x.elements, 1, [result],
                           lambda i, accs: [keep(accs[0], x.magnitudes(i, x.fty))])[0]
    nan = ir.Constant(x.fty, float("nan"))
    at_bound = builder.fcmp_ordered("==", result, bound)
    if largest:
        return builder.select(at_bound, nan, result)
    # The smallest at +inf: +inf if any magnitude is a number (then all are +inf), else NaN (none is;
    # an empty vector too).  A rare path: a scalar pass over the elements.
    def number_seen(i: Any, accs: list[Any]) -> list[Any]:
        v = x.magnitudes(i, x.fty)
        return [builder.or_(accs[0], builder.fcmp_ordered("ord", v, v))]

    out = cgutils.alloca_once_value(builder, result)
    with builder.if_then(at_bound, likely=False):
        seen = _counted_loop(builder, _I64(0), x.elements, 1, [ir.Constant(ir.IntType(1), 0)], number_seen)[0]
        builder.store(builder.select(seen, bound, nan), out)
    return builder.load(out)


def _first(context: Any, builder: Any, args: Any, arg_types: Any) -> Any:
    """IR of the index of the first element of ``|re| + |im| == m`` (-1: none): a lane's worth
    compared at a time, the first set bit of the comparison's mask telling which."""
    x = _Vector(context, builder, args[0], arg_types[0])
    lanes, vty = x.lanes, x.vty
    m = context.cast(builder, args[1], arg_types[1], _real_type(arg_types[0].dtype))
    splat = builder.insert_element(ir.Constant(vty, ir.Undefined), m, _I32(0))
    splat = builder.shuffle_vector(splat, ir.Constant(vty, ir.Undefined),
                                   ir.Constant(ir.VectorType(_I32, lanes), [0] * lanes))
    vector_end = builder.and_(x.elements, _I64(-lanes))
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
    i = builder.phi(_I64)
    i.add_incoming(_I64(0), entry)
    builder.cbranch(builder.icmp_signed("<", i, vector_end), vbody, shead)
    builder.position_at_end(vbody)
    bits = builder.bitcast(builder.fcmp_ordered("==", x.magnitudes(i, vty), splat), bits_t)
    i.add_incoming(builder.add(i, _I64(lanes)), vbody)
    builder.cbranch(builder.icmp_unsigned("!=", bits, bits_t(0)), vfound, vhead)
    builder.position_at_end(vfound)
    at_v = builder.add(i, builder.zext(builder.call(cttz, [bits, ir.IntType(1)(1)]), _I64))
    builder.branch(done)

    builder.position_at_end(shead)
    j = builder.phi(_I64)
    j.add_incoming(vector_end, vhead)
    builder.cbranch(builder.icmp_signed("<", j, x.elements), sbody, done)
    builder.position_at_end(sbody)
    builder.cbranch(builder.fcmp_ordered("==", x.magnitudes(j, x.fty), m), done, snext)
    builder.position_at_end(snext)
    j.add_incoming(builder.add(j, _I64(1)), snext)
    builder.branch(shead)

    builder.position_at_end(done)
    where = builder.phi(_I64)
    where.add_incoming(at_v, vfound)
    where.add_incoming(_I64(-1), shead)
    where.add_incoming(j, sbody)
    return where


def _unary(emit: Callable[..., Any]) -> Callable[[Any, Any], Any]:
    """The typing of an intrinsic of one contiguous vector returning a real, its IR by ``emit``."""
    def typer(typingctx: Any, x: Any) -> Any:
        if not _accepts(x):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return emit(context, builder, args, signature.args)

        return _real_type(x.dtype)(x), codegen

    return typer


def _binary(conjugate: bool) -> Callable[[Any, Any, Any], Any]:
    """The typing of sum_products (sum_conj_products): two contiguous vectors of one type."""
    def typer(typingctx: Any, x: Any, y: Any) -> Any:
        if not (_accepts(x) and _accepts(y) and x.dtype == y.dtype):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if isinstance(signature.args[0].dtype, types.Complex):
                return _complex_products(context, builder, args, signature.args, conjugate)
            return _sum(context, builder, args, signature.args, "products")

        return x.dtype(x, y), codegen

    return typer


@numba.extending.intrinsic
def sum_products(typingctx: Any, x: Any, y: Any) -> Any:
    """``sum_products(x, y)`` inside a kernel: the sum of ``x[i] * y[i]`` over two contiguous vectors
    of one type and length (the length is ``x``'s; nothing is checked), in the order the module's
    docstring gives (complex: see :func:`_complex_products`); fused multiply-adds."""
    return _binary(False)(typingctx, x, y)


@numba.extending.intrinsic
def sum_conj_products(typingctx: Any, x: Any, y: Any) -> Any:
    """``sum_conj_products(x, y)`` inside a kernel: :func:`sum_products` of ``conj(x)`` and ``y``
    (for real vectors the same sum)."""
    return _binary(True)(typingctx, x, y)


@numba.extending.intrinsic
def sum_products4(typingctx: Any, c0: Any, c1: Any, c2: Any, c3: Any, x: Any) -> Any:
    """``sum_products4(c0, c1, c2, c3, x)`` inside a kernel: ``(sum_products(c0, x), ...,
    sum_products(c3, x))``, the same bits, for real vectors of one type and length (``c0``'s; nothing
    is checked), in one pass: four columns streamed at once (a transposed gemv's columns: one at a
    time, a thread kept one stream from memory in flight)."""
    arrays = (c0, c1, c2, c3, x)
    if not all(_accepts(a) and a.dtype == x.dtype for a in arrays) or isinstance(x.dtype, types.Complex):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _four_products(context, builder, args, signature.args)

    return types.UniTuple(x.dtype, 4)(*arrays), codegen


@numba.extending.intrinsic
def sum_squares(typingctx: Any, x: Any) -> Any:
    """``sum_squares(x)`` inside a kernel: the sum of ``|x[i]|**2`` over a contiguous vector (real or
    complex), in the order the module's docstring gives; fused multiply-adds."""
    return _unary(lambda c, b, a, t: _sum(c, b, a, t, "squares"))(typingctx, x)


@numba.extending.intrinsic
def sum_magnitudes(typingctx: Any, x: Any) -> Any:
    """``sum_magnitudes(x)`` inside a kernel: the sum of ``|re(x[i])| + |im(x[i])|`` over a contiguous
    vector (real or complex), in the order the module's docstring gives."""
    return _unary(lambda c, b, a, t: _sum(c, b, a, t, "magnitudes"))(typingctx, x)


@numba.extending.intrinsic
def largest_magnitude(typingctx: Any, x: Any) -> Any:
    """``largest_magnitude(x)`` inside a kernel: the largest ``|re(x[i])| + |im(x[i])|`` of a contiguous
    vector, NaN magnitudes left out (NaN if there is no other)."""
    return _unary(lambda c, b, a, t: _extreme(c, b, a, t, True))(typingctx, x)


@numba.extending.intrinsic
def smallest_magnitude(typingctx: Any, x: Any) -> Any:
    """``smallest_magnitude(x)`` inside a kernel: the smallest ``|re(x[i])| + |im(x[i])|`` of a
    contiguous vector, NaN magnitudes left out (NaN if there is no other)."""
    return _unary(lambda c, b, a, t: _extreme(c, b, a, t, False))(typingctx, x)


@numba.extending.intrinsic
def first_magnitude(typingctx: Any, x: Any, m: Any) -> Any:
    """``first_magnitude(x, m)`` inside a kernel: the index of the first element of a contiguous
    vector whose ``|re| + |im|`` equals ``m`` (-1: none; a NaN ``m`` is never found)."""
    if not (_accepts(x) and isinstance(m, (types.Float, types.Integer))):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _first(context, builder, args, signature.args)

    return types.int64(x, m), codegen
