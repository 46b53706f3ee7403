"""HIP arrays (``hipArray_t``) and the copies to and from them, as the AMD runtime (ROCm/clr
hipamd/src/hip_memory.cpp) has them, over rocmath's devices and streams.

:func:`arrays_api` gives :mod:`rocmath.hip.hip` these names (it calls it at its end):

- **Channel formats**: :class:`hipChannelFormatDesc` (bits per channel and a kind), ``hipCreateChannelDesc``,
  ``hipGetChannelDesc``; :class:`HIP_ARRAY_DESCRIPTOR` / :class:`HIP_ARRAY3D_DESCRIPTOR` (width, height, depth
  in elements, a ``hipArray_Format`` and 1, 2 or 4 channels).
- **Arrays**: ``hipMallocArray``, ``hipArrayCreate``, ``hipArray3DCreate``, ``hipMalloc3DArray`` (checked as
  ihipArrayCreate checks them), ``hipFreeArray``/``hipArrayDestroy``, ``hipArrayGetInfo``,
  ``hipArrayGetDescriptor``, ``hipArray3DGetDescriptor``.  An array is a rocmath device allocation holding its
  elements densely (x fastest, then y, then z); its handle is an address in the runtime's handle registry, no
  memory of the runtime (``hipFree`` of it is ``hipErrorInvalidValue``, as the AMD runtime's host-side
  ``hipArray`` struct is).
- **Copies**: the ``hipMemcpy*Array*`` family and ``hipMemcpyAtoH``/``HtoA``/``AtoD``/``DtoA``/``AtoA`` are the
  ``hip_Memcpy2D`` / ``HIP_MEMCPY3D`` region copies HIP makes of them (:mod:`._hip_runtime2`'s
  ``_memcpy_param_3d``, which takes array sides through :func:`array_side`): offsets and widths in bytes are
  divided by the element size (truncating, as HIP does), a region past the array is ``hipErrorInvalidValue``.

Layered 1D arrays copy as 2D arrays here (HIP swaps their y and z); mipmapped arrays are not provided.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import rocmath
from rocmath.errors import HipInvalidHandleError, HipInvalidValueError
from rocmath.stream import wait_device_idle

from . import _hip_runtime2 as _rt
from ._api import PublicFunctions, binding
from ._types import _Struct, c_enum, check_enum, pointer_value

#: The functions this module adds, by name (bound by its ``*_api`` function).
_PUBLIC = _public = PublicFunctions()

__all__ = ["array_side", "arrays_api"]

_MODULE = "rocmath.hip.hip"
_h: Any = None

hipChannelFormatKind = c_enum("hipChannelFormatKind", [
    ("hipChannelFormatKindSigned", 0), ("hipChannelFormatKindUnsigned", 1), ("hipChannelFormatKindFloat", 2),
    ("hipChannelFormatKindNone", 3),
], _MODULE, "``hipChannelFormatKind``: how a channel's bits read.")
hipArray_Format = c_enum("hipArray_Format", [
    ("HIP_AD_FORMAT_UNSIGNED_INT8", 0x01), ("HIP_AD_FORMAT_UNSIGNED_INT16", 0x02),
    ("HIP_AD_FORMAT_UNSIGNED_INT32", 0x03), ("HIP_AD_FORMAT_SIGNED_INT8", 0x08),
    ("HIP_AD_FORMAT_SIGNED_INT16", 0x09), ("HIP_AD_FORMAT_SIGNED_INT32", 0x0A), ("HIP_AD_FORMAT_HALF", 0x10),
    ("HIP_AD_FORMAT_FLOAT", 0x20),
], _MODULE, "``hipArray_Format``: the type of an array's channels.")

#: format -> (bytes per channel, channel kind): HIP's getElementSize and getChannelFormatDesc.
_FORMATS = {0x01: (1, 1), 0x02: (2, 1), 0x03: (4, 1), 0x08: (1, 0), 0x09: (2, 0), 0x0A: (4, 0), 0x10: (2, 2),
            0x20: (4, 2)}
#: (channel kind, bits) -> format (HIP's getArrayFormat; other pairs give 0, which no format is).
_FORMAT_OF = {(kind, 8 * size): fmt for fmt, (size, kind) in _FORMATS.items()}


class hipChannelFormatDesc(_Struct):
    """``hipChannelFormatDesc``: the bits of channels ``x``, ``y``, ``z``, ``w`` and their kind ``f``."""

    _members = (("x", "int", None), ("y", "int", None), ("z", "int", None), ("w", "int", None),
                ("f", "enum", hipChannelFormatKind))


class HIP_ARRAY_DESCRIPTOR(_Struct):
    """``HIP_ARRAY_DESCRIPTOR``: a 2D array's ``Width`` and ``Height`` (elements), ``Format``, ``NumChannels``."""

    _members = (("Width", "size_t", None), ("Height", "size_t", None), ("Format", "enum", hipArray_Format),
                ("NumChannels", "unsigned int", None))


class HIP_ARRAY3D_DESCRIPTOR(_Struct):
    """``HIP_ARRAY3D_DESCRIPTOR``: :class:`HIP_ARRAY_DESCRIPTOR` with a ``Depth`` and array ``Flags``."""

    _members = (("Width", "size_t", None), ("Height", "size_t", None), ("Depth", "size_t", None),
                ("Format", "enum", hipArray_Format), ("NumChannels", "unsigned int", None),
                ("Flags", "unsigned int", None))


@dataclass
class _Array:
    """An array: its descriptor (``height``/``depth`` 0 for absent dimensions) and its storage."""

    width: int
    height: int
    depth: int
    format: int
    channels: int
    flags: int
    device: int
    ptr: int

    @property
    def element_size(self) -> int:
        return _FORMATS[self.format][0] * self.channels

    @property
    def dims(self) -> tuple[int, int, int]:
        """Width, height, depth as the image has them (an absent dimension is 1; a layered 1D array's layers are
        its rows, as HIP's 1D image array has them)."""
        if self.flags & 0x01 and not self.height:
            return self.width, self.depth, 1
        return self.width, self.height or 1, self.depth or 1


class hipArray(_rt._Handle):
    """``hipArray_t``: a handle to an array."""


_lock = threading.Lock()


def _array(obj: Any) -> _Array | bool | None:
    """The array a handle argument names: None for NULL, False for an address no live array has."""
    return _rt._target(obj, hipArray)  # type: ignore[no-any-return]


# --- creation ---------------------------------------------------------------------------------------------

_FLAGS = 0x01 | 0x02 | 0x08  # hipArrayLayered | SurfaceLoadStore | TextureGather (no cubemaps)
#: The image limits of a gfx9 device (1D and 2D width, 2D height, 3D extents, layers), as HIP reports them.
_MAX_1D, _MAX_2D, _MAX_3D, _MAX_LAYERS = 16384, 16384, 16384, 8192


def _valid_dims(w: int, h: int, d: int, flags: int) -> bool:
    """HIP's getCLMemObjectType and Image::validateDimensions: the dimensions name an image type it can make."""
    if flags & 0x01:
        if w and not h and d:
            return w <= _MAX_1D and d <= _MAX_LAYERS
        return bool(w and h and d) and w <= _MAX_2D and h <= _MAX_2D and d <= _MAX_LAYERS
    if w and not h and not d:
        return w <= _MAX_1D
    if w and h and not d:
        return w <= _MAX_2D and h <= _MAX_2D
    return bool(w and h and d) and max(w, h, d) <= _MAX_3D


def _create(w: int, h: int, d: int, fmt: int, channels: int, flags: int) -> hipArray:
    """HIP's ihipArrayCreate, in its order."""
    if channels not in (1, 2, 4):
        raise HipInvalidValueError(f"{channels} channels: 1, 2 or 4", arg="pAllocateArray")
    if flags & ~_FLAGS & 0xFFFFFFFF:
        raise HipInvalidValueError(f"flags 0x{flags:x}: hipArrayCubemap and unknown flags are not supported",
                                   arg="flags")
    if flags & 0x08 and (w == 0 or h == 0 or d > 0):
        raise HipInvalidValueError("hipArrayTextureGather needs a 2D array", arg="flags")
    if fmt not in _FORMATS or not _valid_dims(w, h, d, flags):
        raise HipInvalidValueError(f"a {w}x{h}x{d} array of format 0x{fmt:x} (flags 0x{flags:x}) is no valid "
                                   "image", arg="pAllocateArray")
    _h._capture_unsafe("hipMallocArray")
    arr = _Array(w, h, d, fmt, channels, flags, rocmath.get_device(), 0)
    width, height, depth = arr.dims
    arr.ptr = rocmath.malloc(width * height * depth * arr.element_size)
    return hipArray._new(arr)  # type: ignore[no-any-return]


def _channel_desc(obj: Any, arg: str) -> Any:
    desc = _rt._read_struct(hipChannelFormatDesc, obj, arg)
    if desc is None:
        raise HipInvalidValueError(f"{arg} is NULL", arg=arg)
    return desc


def _desc_format(desc: Any) -> tuple[int, int]:
    """``(format, channels)`` of a channel description, refused as HIP's CheckArrayFormat refuses it."""
    x, y, z, w = desc.x, desc.y, desc.z, desc.w
    ok = x != 0 and all(c in (0, x) for c in (y, z, w)) and not (y == 0 and (z or w)) and not (z == 0 and w)
    if not ok:
        raise HipInvalidValueError(f"channels ({x}, {y}, {z}, {w}) must be equal, none after an empty one",
                                   arg="desc")
    return _FORMAT_OF.get((desc.f, x), 0), sum(c != 0 for c in (x, y, z, w))


def hipCreateChannelDesc(x: int, y: int, z: int, w: int, f: Any) -> tuple[Any, hipChannelFormatDesc]:
    """A channel description of the given bits and kind (always ``hipSuccess``)."""
    check_enum(f, hipChannelFormatKind, "f")
    return _h.hipError_t.hipSuccess, hipChannelFormatDesc(*(_h._c_typed(v, a, "int") for v, a in
                                                            ((x, "x"), (y, "y"), (z, "z"), (w, "w"))),
                                                          hipChannelFormatKind(int(f)))  # a cuda alias's member too


@_public(1)
def hipMallocArray(desc: Any, width: int, height: int, flags: int) -> hipArray:
    """A 1D (``height`` 0) or 2D array of ``desc``'s elements; checked as HIP checks it (equal channel bits,
    flags, dimensions: ``hipErrorInvalidValue``)."""
    w, h = _h._size(width, "width"), _h._size(height, "height")
    f = _h._c_typed(flags, "flags", "unsigned int")
    fmt, channels = _desc_format(_channel_desc(desc, "desc"))
    return _create(w, h, 0, fmt, channels, f)


@_public(1)
def hipMalloc3DArray(desc: Any, extent: Any, flags: int) -> hipArray:
    """A 1D, 2D or 3D array (``extent`` in elements), checked as :func:`hipMallocArray`."""
    e = _rt._read_struct(_rt.hipExtent, extent, "extent")
    f = _h._c_typed(flags, "flags", "unsigned int")
    fmt, channels = _desc_format(_channel_desc(desc, "desc"))
    if e is None:
        raise HipInvalidValueError("extent is NULL", arg="extent")
    return _create(e.width, e.height, e.depth, fmt, channels, f)


@_public(1)
def hipArrayCreate(pAllocateArray: Any) -> hipArray:
    """A 1D or 2D array a :class:`HIP_ARRAY_DESCRIPTOR` describes."""
    d = _rt._read_struct(HIP_ARRAY_DESCRIPTOR, pAllocateArray, "pAllocateArray")
    if d is None:
        raise HipInvalidValueError("pAllocateArray is NULL", arg="pAllocateArray")
    return _create(d.Width, d.Height, 0, d.Format, d.NumChannels, 0)


@_public(1)
def hipArray3DCreate(pAllocateArray: Any) -> hipArray:
    """An array a :class:`HIP_ARRAY3D_DESCRIPTOR` describes."""
    d = _rt._read_struct(HIP_ARRAY3D_DESCRIPTOR, pAllocateArray, "pAllocateArray")
    if d is None:
        raise HipInvalidValueError("pAllocateArray is NULL", arg="pAllocateArray")
    return _create(d.Width, d.Height, d.Depth, d.Format, d.NumChannels, d.Flags)


def _destroy(array: Any) -> None:
    """HIP's ihipArrayDestroy: NULL is ``hipErrorInvalidValue``, an unknown (or freed) array
    ``hipErrorContextIsDestroyed``; the array's device finishes its work first."""
    if pointer_value(array) == 0:
        raise HipInvalidValueError("array is NULL", arg="array")
    _h._capture_unsafe("hipFreeArray")
    with _lock:
        arr = _array(array)
        if not arr:
            raise _rt.StatusError("hipErrorContextIsDestroyed", "no live array", arg="array")
        handle = _h._handles[pointer_value(array)]
        handle._release()
    if arr.device < rocmath.get_device_count():
        wait_device_idle(arr.device)
    rocmath.free(arr.ptr)


@_public()
def hipFreeArray(array: Any) -> None:
    """Free an array (after its device's work)."""
    _destroy(array)


@_public()
def hipArrayDestroy(array: Any) -> None:
    """:func:`hipFreeArray` (the driver API's name)."""
    _destroy(array)


def _live(array: Any) -> _Array:
    """HIP's ihipArray3DGetDescriptor lookup: ``hipErrorInvalidHandle`` for an unknown array."""
    arr = _array(array)
    if not arr:
        raise HipInvalidHandleError("no live array", arg="array")
    return arr


def _write_desc(target: Any, arr: _Array) -> None:
    size, kind = _FORMATS[arr.format]
    bits = [8 * size if i < arr.channels else 0 for i in range(4)]
    target.x, target.y, target.z, target.w = bits
    target.f = kind


@_public()
def hipGetChannelDesc(desc: Any, array: Any) -> None:
    """Write ``array``'s channel description into ``desc`` (NULL ``desc``: ``hipErrorInvalidValue``, NULL array:
    ``hipErrorInvalidHandle``)."""
    target = _rt._read_struct(hipChannelFormatDesc, desc, "desc")
    if target is None:
        raise HipInvalidValueError("desc is NULL", arg="desc")
    if pointer_value(array) == 0:
        raise HipInvalidHandleError("array is NULL", arg="array")
    _write_desc(target, _live(array))


@_public(1)
def hipArrayGetInfo(desc: Any, extent: Any, array: Any) -> int:
    """Write the channel description and extent of ``array`` into ``desc`` and ``extent`` (each may be NULL);
    return its flags."""
    d = _rt._read_struct(hipChannelFormatDesc, desc, "desc")
    e = _rt._read_struct(_rt.hipExtent, extent, "extent")
    if pointer_value(array) == 0:
        raise HipInvalidHandleError("array is NULL", arg="array")
    arr = _live(array)
    if d is not None:
        _write_desc(d, arr)
    if e is not None:
        e.width, e.height, e.depth = arr.width, arr.height, arr.depth
    return arr.flags


@_public()
def hipArrayGetDescriptor(pArrayDescriptor: Any, array: Any) -> None:
    """Write a 1D or 2D array's :class:`HIP_ARRAY_DESCRIPTOR`; an array with a depth is
    ``hipErrorInvalidValue``."""
    if pointer_value(array) == 0:
        raise HipInvalidHandleError("array is NULL", arg="array")
    target = _rt._read_struct(HIP_ARRAY_DESCRIPTOR, pArrayDescriptor, "pArrayDescriptor")
    if target is None:
        raise HipInvalidValueError("pArrayDescriptor is NULL", arg="pArrayDescriptor")
    arr = _live(array)
    if arr.depth != 0:
        raise HipInvalidValueError("a 3D array has no HIP_ARRAY_DESCRIPTOR", arg="array")
    target.Width, target.Height, target.Format, target.NumChannels = arr.width, arr.height, arr.format, \
        arr.channels


@_public()
def hipArray3DGetDescriptor(pArrayDescriptor: Any, array: Any) -> None:
    """Write an array's :class:`HIP_ARRAY3D_DESCRIPTOR`."""
    if pointer_value(array) == 0:
        raise HipInvalidHandleError("array is NULL", arg="array")
    target = _rt._read_struct(HIP_ARRAY3D_DESCRIPTOR, pArrayDescriptor, "pArrayDescriptor")
    if target is None:
        raise HipInvalidValueError("pArrayDescriptor is NULL", arg="pArrayDescriptor")
    arr = _live(array)
    target.Width, target.Height, target.Depth, target.Format, target.NumChannels, target.Flags = (
        arr.width, arr.height, arr.depth, arr.format, arr.channels, arr.flags)


# --- copies ---------------------------------------------------------------------------------------------------


def array_side(side: Any, extent: tuple[int, int, int], arg: str) -> tuple[int, Any]:
    """An array side of a region copy (HIP's ihipMemcpy{AtoH,HtoA,AtoD,DtoA,AtoA}Validate): the storage address
    and the region it covers.  The x offset and the width, in bytes, become elements (truncating); an unknown
    array, or a region that is empty or runs past the array, is ``hipErrorInvalidValue``."""
    arr = _array(side.array)
    if not arr:
        raise HipInvalidValueError("an array side names no live array", arg=arg)
    es = arr.element_size
    x, w = side.x // es, extent[0] // es
    (W, H, D), (h, d) = arr.dims, extent[1:]
    if not (w and h and d and x + w <= W and side.y + h <= H and side.z + d <= D):
        raise HipInvalidValueError(f"a {w}x{h}x{d} region at ({x}, {side.y}, {side.z}) runs past a {W}x{H}x{D} "
                                   "array", arg=arg)
    row = W * es
    return arr.ptr, _rt._Rect(row, row * H, (side.z * H + side.y) * row + x * es, (d - 1) * row * H +
                              (h - 1) * row + w * es)


def _side(kind_type: str, ptr: Any = 0, array: Any = 0, x: int = 0, y: int = 0, pitch: int = 0) -> Any:
    address = pointer_value(ptr)
    t = _rt._memory_type(f"hipMemoryType{kind_type}")
    return _rt._Copy(x, y, 0, t, address, address, pointer_value(array), pitch, 0)


def _kind_types(kind: Any) -> tuple[str, str]:
    check_enum(kind, _h.hipMemcpyKind, "kind")
    return _rt._KIND_TYPES[int(kind)]


def _validate_2d(kind: Any, stream: Any) -> tuple[str, str]:
    """HIP's hipMemcpy2DValidateParams: the kind, then the stream (a destroyed one: ``hipErrorInvalidValue``)."""
    types = _kind_types(kind)
    try:
        _rt._stream_or_destroyed(stream)
    except _rt.HipError as exc:
        raise HipInvalidValueError(str(exc), arg="stream") from None
    return types


def _validate_buffer(buf: Any, pitch: int, width: int, arg: str) -> None:
    """HIP's hipMemcpy2DValidateBuffer."""
    if pointer_value(buf) == 0:
        raise HipInvalidValueError(f"{arg} is NULL", arg=arg)
    if pitch == 0 or pitch < width:
        raise _rt.StatusError("hipErrorInvalidPitchValue", f"pitch {pitch} below the width {width}", arg=arg)


def _validate_array(array: Any, w_off: int, h_off: int, width: int, height: int, arg: str) -> None:
    """HIP's hipMemcpy2DValidateArray (NULL: ``hipErrorInvalidHandle``; the width in bytes, a 1D array one row)."""
    if pointer_value(array) == 0:
        raise HipInvalidHandleError(f"{arg} is NULL", arg=arg)
    arr = _array(array)
    if not arr:
        raise HipInvalidValueError(f"{arg} names no live array", arg=arg)
    if width + w_off > arr.width * arr.element_size or height + h_off > (arr.height or 1):
        raise HipInvalidValueError(f"a {width}-byte by {height} region at ({w_off}, {h_off}) runs past the array",
                                   arg=arg)


def _copy(src: Any, dst: Any, extent: tuple[int, int, int], stream: Any, is_async: bool, op: str) -> None:
    _rt._memcpy_param_3d(src, dst, extent, stream, is_async, op)


def _args(*pairs: tuple[Any, str]) -> list[int]:
    return [_h._size(v, a) for v, a in pairs]


def _to_array(dst: Any, wOffset: Any, hOffset: Any, src: Any, spitch: Any, width: Any, height: Any, kind: Any,
              stream: Any, is_async: bool, op: str) -> None:
    """hipMemcpy2DToArray_common: validate, then HIP's ihipMemcpy2DToArray (a hip_Memcpy2D into the array)."""
    wo, ho, sp, w, h = _args((wOffset, "wOffset"), (hOffset, "hOffset"), (spitch, "spitch"), (width, "width"),
                             (height, "height"))
    types = _validate_2d(kind, stream)
    _validate_buffer(src, sp, w, "src")
    _validate_array(dst, wo, ho, w, h, "dst")
    _copy(_side(types[0], ptr=src, pitch=sp), _side("Array", array=dst, x=wo, y=ho), (w, h, 1), stream, is_async,
          op)


def _from_array(dst: Any, dpitch: Any, src: Any, wOffset: Any, hOffset: Any, width: Any, height: Any, kind: Any,
                stream: Any, is_async: bool, op: str) -> None:
    """hipMemcpy2DFromArray_common: validate, then HIP's ihipMemcpy2DFromArray."""
    dp, wo, ho, w, h = _args((dpitch, "dpitch"), (wOffset, "wOffset"), (hOffset, "hOffset"), (width, "width"),
                             (height, "height"))
    types = _validate_2d(kind, stream)
    _validate_array(src, wo, ho, w, h, "src")
    _validate_buffer(dst, dp, w, "dst")
    _copy(_side("Array", array=src, x=wo, y=ho), _side(types[1], ptr=dst, pitch=dp), (w, h, 1), stream, is_async,
          op)


@_public()
def hipMemcpy2DToArray(dst: Any, wOffset: int, hOffset: int, src: Any, spitch: int, width: int, height: int,
                       kind: Any) -> None:
    """Copy ``height`` rows of ``width`` bytes (``spitch`` apart) into ``dst`` at byte ``wOffset``, row
    ``hOffset``.  A NULL ``src`` or a region past the array is ``hipErrorInvalidValue``, a pitch below the width
    ``hipErrorInvalidPitchValue``, a NULL array ``hipErrorInvalidHandle``."""
    _to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, None, False, "hipMemcpy2DToArray")


@_public()
def hipMemcpy2DToArrayAsync(dst: Any, wOffset: int, hOffset: int, src: Any, spitch: int, width: int,
                            height: int, kind: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpy2DToArray`."""
    _to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, True, "hipMemcpy2DToArrayAsync")


@_public()
def hipMemcpy2DFromArray(dst: Any, dpitch: int, src: Any, wOffset: int, hOffset: int, width: int, height: int,
                         kind: Any) -> None:
    """Copy ``height`` rows of ``width`` bytes of ``src`` from byte ``wOffset``, row ``hOffset`` to ``dst``
    (rows ``dpitch`` apart); checked as :func:`hipMemcpy2DToArray`."""
    _from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, None, False, "hipMemcpy2DFromArray")


@_public()
def hipMemcpy2DFromArrayAsync(dst: Any, dpitch: int, src: Any, wOffset: int, hOffset: int, width: int,
                              height: int, kind: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpy2DFromArray`."""
    _from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, True, "hipMemcpy2DFromArrayAsync")


@_public()
def hipMemcpy2DArrayToArray(dst: Any, wOffsetDst: int, hOffsetDst: int, src: Any, wOffsetSrc: int,
                            hOffsetSrc: int, width: int, height: int, kind: Any) -> None:
    """Copy a ``width``-byte by ``height`` region between arrays, synchronously."""
    wd, hd, ws, hs, w, h = _args((wOffsetDst, "wOffsetDst"), (hOffsetDst, "hOffsetDst"), (wOffsetSrc, "wOffsetSrc"),
                                 (hOffsetSrc, "hOffsetSrc"), (width, "width"), (height, "height"))
    _validate_2d(kind, None)
    _validate_array(src, ws, hs, w, h, "src")
    _validate_array(dst, wd, hd, w, h, "dst")
    _copy(_side("Array", array=src, x=ws, y=hs), _side("Array", array=dst, x=wd, y=hd), (w, h, 1), None, False,
          "hipMemcpy2DArrayToArray")


def _whole_rows(array: Any, count: int, arg: str) -> tuple[int, int]:
    """hipMemcpyToArray's region of ``count`` bytes: ``count / height`` bytes wide, ``count / width / element
    size`` rows (HIP's arithmetic, meant for whole rows)."""
    arr = _array(array)
    if arr is None:
        raise HipInvalidValueError(f"{arg} is NULL", arg=arg)
    if arr is False:
        raise HipInvalidValueError(f"{arg} names no live array", arg=arg)
    return count // (arr.height or 1), count // arr.width // arr.element_size


@_public()
def hipMemcpyToArray(dst: Any, wOffset: int, hOffset: int, src: Any, count: int, kind: Any) -> None:
    """Copy ``count`` bytes of rows into ``dst`` at byte ``wOffset``, row ``hOffset`` (deprecated; HIP copies
    ``count / height`` bytes by ``count / width / element size`` rows, without the 2D copies' checks)."""
    wo, ho, n = _args((wOffset, "wOffset"), (hOffset, "hOffset"), (count, "count"))
    w, h = _whole_rows(dst, n, "dst")
    types = _kind_types(kind)
    _copy(_side(types[0], ptr=src), _side("Array", array=dst, x=wo, y=ho), (w, h, 1), None, False,
          "hipMemcpyToArray")


def _from_rows(dst: Any, srcArray: Any, wOffset: Any, hOffset: Any, count: Any, kind: Any, stream: Any,
               op: str) -> None:
    wo, ho, n = _args((wOffset, "wOffset"), (hOffset, "hOffset"), (count, "count"))
    w, h = _whole_rows(srcArray, n, "srcArray")
    types = _kind_types(kind)
    _copy(_side("Array", array=srcArray, x=wo, y=ho), _side(types[1], ptr=dst), (w, h, 1), stream, False, op)


@_public()
def hipMemcpyFromArray(dst: Any, srcArray: Any, wOffset: int, hOffset: int, count: int, kind: Any) -> None:
    """Copy ``count`` bytes of rows of ``srcArray`` from byte ``wOffset``, row ``hOffset`` (as
    :func:`hipMemcpyToArray`)."""
    _from_rows(dst, srcArray, wOffset, hOffset, count, kind, None, "hipMemcpyFromArray")


@_public()
def hipMemcpyFromArray_spt(dst: Any, src: Any, wOffsetSrc: int, hOffset: int, count: int, kind: Any) -> None:
    """:func:`hipMemcpyFromArray` on the calling thread's default stream."""
    _from_rows(dst, src, wOffsetSrc, hOffset, count, kind, _rt.per_thread_stream(), "hipMemcpyFromArray_spt")


def _linear(src: Any, dst: Any, count: Any, stream: Any, is_async: bool, op: str) -> None:
    """The driver API's 1D array copies: ``count`` bytes from byte offsets (a one-row region; HIP's array
    validation refuses an empty one, without the region copies' early return)."""
    n = _h._size(count, "ByteCount")
    for side in (src, dst):
        if side.type == _rt._memory_type("hipMemoryTypeArray"):
            array_side(side, (n, 1, 1), "ByteCount")
    _copy(src, dst, (n, 1, 1), stream, is_async, op)


def _offset(value: Any, arg: str) -> int:
    return _h._size(value, arg)  # type: ignore[no-any-return]


@_public()
def hipMemcpyHtoA(dstArray: Any, dstOffset: int, srcHost: Any, count: int) -> None:
    """Copy ``count`` bytes from the host into ``dstArray`` from byte ``dstOffset`` (its first row)."""
    _linear(_side("Host", ptr=srcHost), _side("Array", array=dstArray, x=_offset(dstOffset, "dstOffset")), count,
            None, False, "hipMemcpyHtoA")


@_public()
def hipMemcpyAtoH(dst: Any, srcArray: Any, srcOffset: int, count: int) -> None:
    """Copy ``count`` bytes of ``srcArray`` from byte ``srcOffset`` (its first row) to the host."""
    _linear(_side("Array", array=srcArray, x=_offset(srcOffset, "srcOffset")), _side("Host", ptr=dst), count, None,
            False, "hipMemcpyAtoH")


@_public()
def hipMemcpyHtoAAsync(dstArray: Any, dstOffset: int, srcHost: Any, ByteCount: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpyHtoA`."""
    _linear(_side("Host", ptr=srcHost), _side("Array", array=dstArray, x=_offset(dstOffset, "dstOffset")),
            ByteCount, stream, True, "hipMemcpyHtoAAsync")


@_public()
def hipMemcpyAtoHAsync(dstHost: Any, srcArray: Any, srcOffset: int, ByteCount: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpyAtoH`."""
    _linear(_side("Array", array=srcArray, x=_offset(srcOffset, "srcOffset")), _side("Host", ptr=dstHost),
            ByteCount, stream, True, "hipMemcpyAtoHAsync")


@_public()
def hipMemcpyAtoD(dstDevice: Any, srcArray: Any, srcOffset: int, ByteCount: int) -> None:
    """Copy ``ByteCount`` bytes of ``srcArray`` from byte ``srcOffset`` to device memory (unknown device memory:
    ``hipErrorInvalidValue``)."""
    _linear(_side("Array", array=srcArray, x=_offset(srcOffset, "srcOffset")), _side("Device", ptr=dstDevice),
            ByteCount, None, False, "hipMemcpyAtoD")


@_public()
def hipMemcpyDtoA(dstArray: Any, dstOffset: int, srcDevice: Any, ByteCount: int) -> None:
    """Copy ``ByteCount`` bytes of device memory into ``dstArray`` from byte ``dstOffset``."""
    _linear(_side("Device", ptr=srcDevice), _side("Array", array=dstArray, x=_offset(dstOffset, "dstOffset")),
            ByteCount, None, False, "hipMemcpyDtoA")


@_public()
def hipMemcpyAtoA(dstArray: Any, dstOffset: int, srcArray: Any, srcOffset: int, ByteCount: int) -> None:
    """Copy ``ByteCount`` bytes between the first rows of two arrays."""
    _linear(_side("Array", array=srcArray, x=_offset(srcOffset, "srcOffset")),
            _side("Array", array=dstArray, x=_offset(dstOffset, "dstOffset")), ByteCount, None, False,
            "hipMemcpyAtoA")


@_public()
def hipMemcpy2DToArray_spt(dst: Any, wOffset: int, hOffset: int, src: Any, spitch: int, width: int, height: int,
                           kind: Any) -> None:
    """:func:`hipMemcpy2DToArray` on the calling thread's default stream."""
    _to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, _rt.per_thread_stream(), False,
              "hipMemcpy2DToArray_spt")


@_public()
def hipMemcpy2DFromArray_spt(dst: Any, dpitch: int, src: Any, wOffset: int, hOffset: int, width: int,
                             height: int, kind: Any) -> None:
    """:func:`hipMemcpy2DFromArray` on the calling thread's default stream."""
    _from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, _rt.per_thread_stream(), False,
                "hipMemcpy2DFromArray_spt")


# --- the names for rocmath.hip.hip ---------------------------------------------------------------------------

def arrays_api(hip_module: Any) -> dict[str, Any]:
    """The names this module adds to :mod:`rocmath.hip.hip`: its functions bound to the HIP runtime's status
    table, the ``_spt`` variants, the enums, structs and the handle type."""
    global _h
    _h = hip_module
    names: dict[str, Any] = {"hipCreateChannelDesc": hipCreateChannelDesc}
    for name, (fn, outputs) in _PUBLIC.items():
        names[name] = binding(_h._HIP, outputs)(fn)
    for plain in ("hipMemcpy2DToArrayAsync", "hipMemcpy2DFromArrayAsync"):
        names[f"{plain}_spt"] = _rt._per_thread_variant_of(f"{plain}_spt", plain, names[plain])
    for cls in (hipChannelFormatKind, hipArray_Format, hipChannelFormatDesc, HIP_ARRAY_DESCRIPTOR,
                HIP_ARRAY3D_DESCRIPTOR, hipArray):
        names[cls.__name__] = cls
    names.update(hipArray_t=hipArray, hipArray_const_t=hipArray)
    return names
