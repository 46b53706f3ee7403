"""``hip.hipfft``: hipFFT as hip-python binds it, over :mod:`rocmath.fft` (rocFFT).

Functions return ``(hipfftResult, *outputs)``: ``hipfftPlan1d(nx, type, batch) ->
(status, plan)``, ``hipfftMakePlan2d(plan, nx, ny, type) -> (status, workSize)``,
``hipfftExecZ2Z(plan, idata, odata, direction) -> (status,)``.  ``type`` must be a
:class:`hipfftType` member (a plain int raises ``TypeError``, as in hip-python);
``direction`` is ``HIPFFT_FORWARD`` (-1) or ``HIPFFT_BACKWARD`` (1).  Integer arguments
convert as hip-python's Cython bindings convert them, before hipFFT looks at anything (the
plan, the type) or allocates: to ``int``, or ``long long`` for the strides, distances and
batch of ``hipfftMakePlanMany64`` / ``hipfftGetSizeMany64`` (:data:`INT_TYPES`); a value the
C type cannot hold raises ``OverflowError`` naming the argument, a non-integer ``TypeError``.

Dimensions follow cuFFT/hipFFT: row-major, the *last* one fastest
(``hipfftPlan2d(nx, ny)`` transforms ``nx`` rows of ``ny`` contiguous elements), so they
reach rocFFT reversed (rocFFT's ``lengths[0]`` is the fastest).  As hipFFT does, a plan
holds up to four rocFFT plans (in/out of place, forward/inverse; those rocFFT refuses
for the layout are left out) and picks one per execution from ``idata == odata`` and
the direction; unnormalized in both directions.  The plan functions are generated
from two tables -- the verbs (Plan, MakePlan, GetSize, Estimate) and the shapes (1d,
2d, 3d, Many, Many64) -- and the executions from one (:data:`EXEC`), all through
:func:`rocmath.hip._api.binding` and hipFFT's status rules (:func:`_hipfft_status`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
import rocmath.fft as _fft
from rocmath.errors import RocmathError
from rocmath.fft import ArrayType, Precision, ResultPlacement, TransformType

from ._api import binding
from ._lib import (
    LibraryError,
    Opaque,
    c_integer,
    error_factory,
    find,
    library_table,
    out_parameter,
    read_host,
    stream_of,
)
from ._types import c_enum, check_enum, device_address, pointer_value

_MODULE = __name__

# --- enums and constants (hipfft.h values) -------------------------------------------------------

hipfftResult_t = c_enum("hipfftResult_t", [
    ("HIPFFT_SUCCESS", 0), ("HIPFFT_INVALID_PLAN", 1), ("HIPFFT_ALLOC_FAILED", 2), ("HIPFFT_INVALID_TYPE", 3),
    ("HIPFFT_INVALID_VALUE", 4), ("HIPFFT_INTERNAL_ERROR", 5), ("HIPFFT_EXEC_FAILED", 6), ("HIPFFT_SETUP_FAILED", 7),
    ("HIPFFT_INVALID_SIZE", 8), ("HIPFFT_UNALIGNED_DATA", 9), ("HIPFFT_INCOMPLETE_PARAMETER_LIST", 10),
    ("HIPFFT_INVALID_DEVICE", 11), ("HIPFFT_PARSE_ERROR", 12), ("HIPFFT_NO_WORKSPACE", 13),
    ("HIPFFT_NOT_IMPLEMENTED", 14), ("HIPFFT_NOT_SUPPORTED", 16),
], _MODULE, "``hipfftResult_t`` (alias ``hipfftResult``): hipFFT's statuses.")
hipfftResult = hipfftResult_t
hipfftType_t = c_enum("hipfftType_t", [
    ("HIPFFT_R2C", 0x2A), ("HIPFFT_C2R", 0x2C), ("HIPFFT_C2C", 0x29), ("HIPFFT_D2Z", 0x6A), ("HIPFFT_Z2D", 0x6C),
    ("HIPFFT_Z2Z", 0x69),
], _MODULE, "``hipfftType_t`` (alias ``hipfftType``): the transform's input and output types.")
hipfftType = hipfftType_t
hipfftLibraryPropertyType_t = c_enum("hipfftLibraryPropertyType_t", [
    ("HIPFFT_MAJOR_VERSION", 0), ("HIPFFT_MINOR_VERSION", 1), ("HIPFFT_PATCH_LEVEL", 2)], _MODULE)
hipfftLibraryPropertyType = hipfftLibraryPropertyType_t

HIPFFT_FORWARD = -1
HIPFFT_BACKWARD = 1

_R = hipfftResult_t


class HipfftError(LibraryError):
    """A failure hipFFT reports with ``status`` (a :class:`hipfftResult_t` member)."""

    status = _R.HIPFFT_INTERNAL_ERROR


# hipFFT turns each rocFFT failure into a status where it calls rocFFT (HipfftError, see _As): no backend
# conversion; anything else reaching its catch(...) is HIPFFT_INTERNAL_ERROR.
_HIPFFT = library_table(_R.HIPFFT_SUCCESS, error=HipfftError, execution_failed=_R.HIPFFT_EXEC_FAILED,
                        alloc_failed=_R.HIPFFT_ALLOC_FAILED, internal_error=_R.HIPFFT_INTERNAL_ERROR)
_error = error_factory(HipfftError, _R.HIPFFT_INVALID_VALUE)


class _As:
    """``with _As(status): ...``: a rocmath failure inside becomes ``status``, as hipFFT's
    ``ROC_FFT_CHECK_*`` macros turn rocFFT's statuses into its own."""

    def __init__(self, status: Any):
        self.status = status

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        if isinstance(exc, RocmathError) and not isinstance(exc, HipfftError):
            raise HipfftError(self.status, f"{type(exc).__name__}: {exc}") from exc
        return False


# --- plans -----------------------------------------------------------------------------------------

#: hipfftType -> (rocFFT precision, real input, real output).
_IO = {
    "HIPFFT_R2C": (Precision.single, True, False), "HIPFFT_C2R": (Precision.single, False, True),
    "HIPFFT_C2C": (Precision.single, False, False), "HIPFFT_D2Z": (Precision.double, True, False),
    "HIPFFT_Z2D": (Precision.double, False, True), "HIPFFT_Z2Z": (Precision.double, False, False),
}


@dataclass
class _Layout:
    """Explicit strides and distances of a PlanMany with ``inembed``/``onembed`` (rocFFT order)."""

    in_strides: tuple[int, ...]
    in_distance: int
    out_strides: tuple[int, ...]
    out_distance: int


@dataclass
class Plan:
    """What a ``hipfftHandle`` stands for: hipFFT's ``hipfftHandle_t`` struct over rocmath.fft.

    Attributes
    ----------
    plans
        ``(in place, forward) -> rocmath.fft.Plan`` for the plans rocFFT accepted.
    info
        The rocFFT execution info (stream, work buffer) every execution uses.
    work, work_size, owns_work, auto_allocate
        The work area: its address and size, whether hipFFT allocated it, and whether it
        allocates one when a plan is made.
    """

    info: Any = field(default_factory=_fft.execution_info_create)
    plans: dict[tuple[bool, bool], Any] = field(default_factory=dict)
    type: Any = None
    work: int = 0
    work_size: int = 0
    owns_work: bool = False
    auto_allocate: bool = True
    scale_factor: float = 1.0

    def drop_plans(self) -> None:
        for p in self.plans.values():
            _fft.plan_destroy(p)
        self.plans.clear()

    def free_work(self) -> None:
        if self.owns_work and self.work:
            rocmath.free(self.work)
        self.owns_work = False

    def make(self, lengths: tuple[int, ...], fft_type: Any, batch: int, layout: _Layout | None) -> int:
        """``hipfftMakePlan_internal``: build the rocFFT plans; returns the work area bytes."""
        precision, real_in, real_out = _IO[fft_type.name]
        self.drop_plans()
        if real_in:
            kinds, types = [(TransformType.real_forward, True)], (ArrayType.real, ArrayType.hermitian_interleaved)
        elif real_out:
            kinds, types = [(TransformType.real_inverse, False)], (ArrayType.hermitian_interleaved, ArrayType.real)
        else:
            kinds = [(TransformType.complex_forward, True), (TransformType.complex_inverse, False)]
            types = (ArrayType.complex_interleaved, ArrayType.complex_interleaved)
        rank = len(lengths)
        for kind, forward in kinds:
            for inplace in (True, False):
                desc = _fft.plan_description_create()
                try:
                    if layout is not None:
                        _fft.plan_description_set_data_layout(desc, types[0], types[1], None, None, rank,
                                                              layout.in_strides, layout.in_distance, rank,
                                                              layout.out_strides, layout.out_distance)
                    if self.scale_factor != 1.0:
                        _fft.plan_description_set_scale_factor(desc, self.scale_factor)
                    placement = ResultPlacement.inplace if inplace else ResultPlacement.notinplace
                    self.plans[(inplace, forward)] = _fft.plan_create(placement, kind, precision, rank, lengths,
                                                                      batch, desc)
                except RocmathError:
                    pass  # valid out of place but not in place (or the reverse): hipFFT keeps the others
                finally:
                    _fft.plan_description_destroy(desc)
        if not self.plans:
            raise HipfftError(_R.HIPFFT_PARSE_ERROR, f"rocFFT accepts no plan for lengths {list(lengths)} "
                                                     f"(rocFFT order), batch {batch}")
        self.type = fft_type
        with _As(_R.HIPFFT_INVALID_VALUE):
            need = max(_fft.plan_get_work_buffer_size(p) for p in self.plans.values())
        if need and self.auto_allocate:
            self.free_work()
            try:
                self.work = rocmath.malloc(need)
            except RocmathError as exc:
                raise HipfftError(_R.HIPFFT_ALLOC_FAILED, str(exc)) from exc
            self.owns_work = True
            with _As(_R.HIPFFT_INVALID_VALUE):
                _fft.execution_info_set_work_buffer(self.info, self.work, need)
        self.work_size = need
        return need

    def destroy(self) -> None:
        self.drop_plans()
        self.free_work()
        _fft.execution_info_destroy(self.info)


class hipfftHandle_t(Opaque):
    """A ``hipfftHandle``: an opaque plan handle (its :attr:`target` is a :class:`Plan`)."""


hipfftHandle = hipfftHandle_t


def _plan(obj: Any) -> Plan:
    """The plan argument: NULL and handles that are not live plans are HIPFFT_INVALID_PLAN."""
    found = find(obj, hipfftHandle_t)
    if found is None:
        raise HipfftError(_R.HIPFFT_INVALID_PLAN, "not a live hipFFT plan" if pointer_value(obj) else "null plan",
                          arg="plan")
    return found.target  # type: ignore[no-any-return]


# --- the plan shapes: parameters -> rocFFT lengths, batch, layout ---------------------------------

#: Shape -> its hip-python parameters (after ``plan``, where the verb has one).
SHAPES: dict[str, tuple[str, ...]] = {
    "1d": ("nx", "type", "batch"),
    "2d": ("nx", "ny", "type"),
    "3d": ("nx", "ny", "nz", "type"),
    "Many": ("rank", "n", "inembed", "istride", "idist", "onembed", "ostride", "odist", "type", "batch"),
    "Many64": ("rank", "n", "inembed", "istride", "idist", "onembed", "ostride", "odist", "type", "batch"),
}
#: Shape -> the C types of its integer parameters (hipfft.h): ``int``, but ``long long`` for the strides,
#: distances and batch of the 64-bit Many (its ``rank`` stays ``int``; ``n``/``inembed``/``onembed`` are pointers).
INT_TYPES: dict[str, dict[str, str]] = {
    shape: {p: "long long" if shape == "Many64" and p != "rank" else "int"
            for p in params if p not in ("type", "n", "inembed", "onembed")}
    for shape, params in SHAPES.items()
}


def _integers(values: dict[str, Any], shape: str) -> dict[str, Any]:
    """The shape's integer arguments converted to their C types in order, as Cython converts them on entry
    (TypeError, OverflowError naming the argument: before hipFFT checks or allocates anything)."""
    types = INT_TYPES[shape]
    return {k: c_integer(v, k, types[k]) if k in types else v for k, v in values.items()}


def _dims(values: dict[str, Any], shape: str) -> tuple[tuple[int, ...], Any, int, _Layout | None]:
    """hipFFT's checks and conversions of one shape's arguments: ``(lengths, type, batch, layout)``,
    lengths in rocFFT order (fastest first)."""
    ints = {k: c_integer(values[k], k, ctype) for k, ctype in INT_TYPES[shape].items()}
    fft_type = check_enum(values["type"], hipfftType_t, "type")
    if shape in ("1d", "2d", "3d"):
        dims = [ints[k] for k in ("nx", "ny", "nz")[: int(shape[0])]]
        batch = ints.get("batch", 1)
        if any(d < 0 for d in dims) or batch < 0:
            raise HipfftError(_R.HIPFFT_INVALID_SIZE, f"negative size in {dims}, batch {batch}")
        return tuple(reversed(dims)), fft_type, batch, None
    rank = ints["rank"]
    itemsize = 8 if shape == "Many64" else 4
    dtype = np.dtype(np.int64 if itemsize == 8 else np.int32)
    if rank > 3:
        # hipFFT copies at most 3 lengths; rocFFT refuses more dimensions, so no plan is made.
        raise HipfftError(_R.HIPFFT_PARSE_ERROR, f"rank {rank}: hipFFT plans 1, 2 or 3 dimensions", arg="rank")
    count = max(rank, 0)
    n, inembed, onembed = (read_host(values[k], dtype, count, k, _error) for k in ("n", "inembed", "onembed"))
    strides_dists = (ints["istride"], ints["idist"], ints["ostride"], ints["odist"])
    if ((inembed is None) != (onembed is None) or rank < 0 or any(v < 0 for v in strides_dists)
            or n is None or (n < 0).any()):
        raise HipfftError(_R.HIPFFT_INVALID_VALUE, "invalid rank, sizes, strides or distances (or only one of "
                                                   "inembed and onembed)")
    if any(e is not None and (e < 0).any() for e in (inembed, onembed)) or ints["batch"] < 0:
        raise HipfftError(_R.HIPFFT_INVALID_SIZE, "negative embedding or batch")
    lengths = tuple(int(v) for v in n[::-1])
    if inembed is None or onembed is None:
        # Without both embeddings hipFFT ignores the advanced layout: rocFFT's default layout.
        return lengths, fft_type, ints["batch"], None

    def strides(stride: int, embed: np.ndarray) -> tuple[int, ...]:
        out = [stride]
        for e in embed[::-1][:-1]:
            out.append(out[-1] * int(e))
        return tuple(out)

    layout = _Layout(strides(ints["istride"], inembed), ints["idist"], strides(ints["ostride"], onembed),
                     ints["odist"])
    return lengths, fft_type, ints["batch"], layout


# --- the verbs: one generated binding per (verb, shape) ------------------------------------------


def _make_into(plan: Plan, values: dict[str, Any], shape: str) -> int:
    lengths, fft_type, batch, layout = _dims(values, shape)
    return plan.make(lengths, fft_type, batch, layout)


def _size_of(values: dict[str, Any], shape: str) -> int:
    """The work size of a plan made for the query and destroyed again (hipFFT's GetSize/Estimate)."""
    lengths, fft_type, batch, layout = _dims(values, shape)
    scratch = Plan(auto_allocate=False)  # a size query allocates nothing
    try:
        return scratch.make(lengths, fft_type, batch, layout)
    finally:
        scratch.destroy()


def _verb_plan(plan_args: dict[str, Any], shape: str) -> hipfftHandle_t:
    handle = hipfftHandle_t.new(Plan())
    try:
        _make_into(handle.target, plan_args, shape)
    except BaseException:
        handle.target.destroy()
        handle.release()
        raise
    return handle  # type: ignore[return-value]


#: Verb -> (shapes, takes a plan first, what it does with the arguments).
VERBS: dict[str, tuple[tuple[str, ...], bool, Callable[..., Any]]] = {
    "Plan": (("1d", "2d", "3d", "Many"), False, _verb_plan),
    "MakePlan": (("1d", "2d", "3d", "Many", "Many64"), True, lambda plan, v, s: _make_into(_plan(plan), v, s)),
    "GetSize": (("1d", "2d", "3d", "Many", "Many64"), True, lambda plan, v, s: _size_of(v, s)),
    "Estimate": (("1d", "2d", "3d", "Many"), False, _size_of),
}
_RETURNS = {"Plan": "plan (a hipfftHandle)", "MakePlan": "workSize", "GetSize": "workSize", "Estimate": "workSize"}


def _bind_verb(verb: str, shape: str) -> Callable[..., tuple[Any, ...]]:
    _, with_plan, action = VERBS[verb]
    params = (("plan",) if with_plan else ()) + SHAPES[shape]
    name = f"hipfft{verb}{shape}"

    def impl(*args: Any, **kwargs: Any) -> Any:
        values = _integers(dict(inspect.Signature.bind(signature, *args, **kwargs).arguments), shape)
        if with_plan:
            plan = values.pop("plan")
            return action(plan, values, shape)
        return action(values, shape)

    signature = inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipfftResult, {_RETURNS[verb]})\n\n"
                    f"hipFFT's {verb} for {shape} transforms over rocmath.fft; dimensions row-major (last fastest).")
    fn = binding(_HIPFFT, 1)(impl)
    fn.__signature__ = signature  # type: ignore[attr-defined]
    return fn


# --- execution ---------------------------------------------------------------------------------------

#: Exec suffix -> the direction it implies (None: the ``direction`` argument decides).
EXEC: dict[str, bool | None] = {"C2C": None, "Z2Z": None, "R2C": True, "D2Z": True, "C2R": False, "Z2D": False}


def _execute(plan: Any, idata: Any, odata: Any, forward: bool) -> None:
    p = _plan(plan)
    src, dst = device_address(idata), device_address(odata)
    if not src or not dst:
        raise HipfftError(_R.HIPFFT_EXEC_FAILED, "null data pointer", arg="idata" if not src else "odata")
    inplace = src == dst
    rplan = p.plans.get((inplace, forward))
    if rplan is None:
        raise HipfftError(_R.HIPFFT_EXEC_FAILED, f"the plan has no {'in' if inplace else 'out-of'}-place "
                                                 f"{'forward' if forward else 'backward'} transform")
    with _As(_R.HIPFFT_EXEC_FAILED):
        _fft.execute(rplan, [src], [dst], p.info)


def _bind_exec(suffix: str) -> Callable[..., tuple[Any, ...]]:
    implied = EXEC[suffix]
    name = f"hipfftExec{suffix}"
    if implied is None:
        def impl(plan: Any, idata: Any, odata: Any, direction: int) -> None:
            d = c_integer(direction, "direction", "int")
            if d not in (HIPFFT_FORWARD, HIPFFT_BACKWARD):
                raise HipfftError(_R.HIPFFT_EXEC_FAILED, f"direction {d} is neither HIPFFT_FORWARD nor "
                                                         "HIPFFT_BACKWARD", arg="direction")
            _execute(plan, idata, odata, d == HIPFFT_FORWARD)
    else:
        def impl(plan: Any, idata: Any, odata: Any) -> None:  # type: ignore[misc]
            _execute(plan, idata, odata, implied)
    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = (f"{name}: execute the plan on device data (in place when idata == odata); asynchronous on "
                    "the plan's stream.")
    return binding(_HIPFFT)(impl)


# --- the other functions ---------------------------------------------------------------------------------


@binding(_HIPFFT, 1)
def hipfftCreate() -> hipfftHandle_t:
    """A new plan handle, to be made by a ``hipfftMakePlan*`` function."""
    return hipfftHandle_t.new(Plan())  # type: ignore[return-value]


@binding(_HIPFFT)
def hipfftDestroy(plan: Any) -> None:
    """Destroy a plan and free the work area hipFFT allocated (NULL does nothing)."""
    if pointer_value(plan) == 0:
        return
    found = find(plan, hipfftHandle_t)
    if found is None:
        raise HipfftError(_R.HIPFFT_INVALID_PLAN, "not a live hipFFT plan", arg="plan")
    found.target.destroy()
    found.release()


@binding(_HIPFFT)
def hipfftSetStream(plan: Any, stream: Any) -> None:
    """Execute the plan's transforms on ``stream`` (None: the null stream)."""
    p = _plan(plan)
    s = stream_of(stream, "stream", _error)
    with _As(_R.HIPFFT_INVALID_VALUE):
        _fft.execution_info_set_stream(p.info, s)


@binding(_HIPFFT)
def hipfftSetWorkArea(plan: Any, workArea: Any) -> None:
    """Use ``workArea`` (device memory of at least the plan's work size) as the work area."""
    p = _plan(plan)
    p.free_work()
    address = device_address(workArea)
    if address:
        with _As(_R.HIPFFT_INVALID_VALUE):
            _fft.execution_info_set_work_buffer(p.info, address, p.work_size)
    else:
        # hipFFT keeps pointing rocFFT at the freed buffer here; rocmath lets executions allocate instead.
        stream = p.info.stream
        _fft.execution_info_destroy(p.info)
        p.info = _fft.execution_info_create()
        _fft.execution_info_set_stream(p.info, stream)
    p.work = address


@binding(_HIPFFT)
def hipfftSetAutoAllocation(plan: Any, autoAllocate: int) -> None:
    """Whether making the plan allocates its work area (non-zero, the default) or not."""
    flag = c_integer(autoAllocate, "autoAllocate", "int")
    found = find(plan, hipfftHandle_t)
    if found is not None:  # hipFFT ignores a NULL plan here
        found.target.auto_allocate = bool(flag)


@binding(_HIPFFT, 1)
def hipfftGetSize(plan: Any) -> int:
    """The work area bytes of a made plan."""
    return _plan(plan).work_size


@binding(_HIPFFT)
def hipfftExtPlanScaleFactor(plan: Any, scalefactor: float) -> None:
    """Multiply every output by ``scalefactor`` (set after hipfftCreate, before making the plan)."""
    p = _plan(plan)
    value = float(scalefactor)
    if not np.isfinite(value):
        raise HipfftError(_R.HIPFFT_INVALID_VALUE, f"scale factor {value} is not finite", arg="scalefactor")
    p.scale_factor = value


def _version() -> int:
    """hipFFT's reading of rocFFT's version string: major, minor, patch as two digits each."""
    digits = [re.match(r"\d*", part).group() or "0" for part in _fft.get_version_string().split(".")[:3]]  # type: ignore[union-attr]
    return int("".join(d.zfill(2) for d in digits))


def _get_version(version: Any) -> int:
    return _version()


def _get_property(type: Any, value: Any) -> int:
    check_enum(type, hipfftLibraryPropertyType_t, "type")
    full = _version()
    return {0: full // 10000, 1: full // 100 % 100, 2: full % 100}[int(type)]


_get_version.__name__ = _get_version.__qualname__ = "hipfftGetVersion"
_get_version.__doc__ = "hipfftGetVersion(version) -> (hipfftResult,): rocFFT's version as MMmmpp, written through " \
                       "``version`` (an int*), or returned when it is omitted."
_get_property.__name__ = _get_property.__qualname__ = "hipfftGetProperty"
_get_property.__doc__ = "hipfftGetProperty(type, value) -> (hipfftResult,): the major/minor/patch version, written " \
                        "through ``value`` (an int*), or returned when it is omitted."
hipfftGetVersion = out_parameter(_HIPFFT, _get_version, "version", np.int32, _error)
hipfftGetProperty = out_parameter(_HIPFFT, _get_property, "value", np.int32, _error)


# --- the generated functions ---------------------------------------------------------------------------------

_BOUND: dict[str, Callable[..., tuple[Any, ...]]] = {
    **{f"hipfft{verb}{shape}": _bind_verb(verb, shape) for verb, (shapes, _, _) in VERBS.items() for shape in shapes},
    **{f"hipfftExec{suffix}": _bind_exec(suffix) for suffix in EXEC},
}
globals().update(_BOUND)

__all__ = sorted([
    *_BOUND, "hipfftCreate", "hipfftDestroy", "hipfftSetStream", "hipfftSetWorkArea", "hipfftSetAutoAllocation",
    "hipfftGetSize", "hipfftExtPlanScaleFactor", "hipfftGetVersion", "hipfftGetProperty", "hipfftResult_t",
    "hipfftResult", "hipfftType_t", "hipfftType", "hipfftLibraryPropertyType_t", "hipfftLibraryPropertyType",
    "hipfftHandle_t", "hipfftHandle", "HIPFFT_FORWARD", "HIPFFT_BACKWARD", "HipfftError", "Plan", "SHAPES",
    "INT_TYPES", "VERBS", "EXEC",
])
