"""hip-python's adapter types over rocmath's integer address space.

hip-python converts every ``void*``/``T*`` argument with ``hip._util.types.Pointer``:
None, ``ctypes.c_void_p``, anything with the buffer protocol (its host address),
``__cuda_array_interface__`` objects, Pointer subclasses, ints and objects with
``as_c_void_p()``, checked in that order.  Here the same rules yield either a
rocmath device address (an int inside :data:`rocmath.memory.address_space`) or
host memory: a Python buffer, or a raw host address such as
``ctypes.addressof(c_float)``.

:class:`DeviceArray` (what ``hipMalloc`` returns) reports its size in bytes until
``configure(typestr=..., shape=...)`` re-types it, and ``x_d[r, :]`` gives
contiguous row-major sub-buffers, as hip-python's does.

The ``ListOf...`` adapters (:class:`ListOfPointer`, :class:`ListOfInt`, :class:`ListOfUnsigned`,
:class:`ListOfUnsignedLong`, :class:`ListOfBytes`) turn a Python list or tuple into a C array they own,
for the parameters hip-python converts with them (a batched routine's array of pointers, an ``int*``
``info``...); any other object converts as a :class:`Pointer`.

The struct wrappers of every binding module (``hipPointerAttribute_t``, ``hipChannelFormatDesc``,
``ncclConfig_t``...) are :class:`_Struct` subclasses that list their members, and integer arguments
are converted as Cython converts C integers (:func:`_c_typed`).
"""

from __future__ import annotations

import bisect
import ctypes
import enum
import importlib
import math
import operator
import threading
from typing import Any, ClassVar, NamedTuple

import numpy as np

from rocmath.memory import _REGION_SHIFT, MemoryKind, address_space

__all__ = [
    "CEnum", "CStr", "DeviceArray", "ImmortalCStr", "ListOfBytes", "ListOfInt", "ListOfPointer", "ListOfUnsigned",
    "ListOfUnsignedLong", "NDBuffer", "Pointer", "Resolved", "c_enum", "check_enum", "device_address", "host_bytes",
    "host_mapped", "pointer_value", "resolve", "unmap_host",
]

#: Addresses below this are the null page: a host pointer there is a bug, never memory.
_NULL_PAGE = 4096


class CEnum(enum.IntEnum):
    """Root of the binding enums: ``IntEnum`` with hip-python's ``ctypes_type()``."""

    @staticmethod
    def ctypes_type() -> type[ctypes.c_int]:
        """The ctypes type of the C enum (an int)."""
        return ctypes.c_int


def c_enum(name: str, members: list[tuple[str, int]], module: str, doc: str = "") -> type[CEnum]:
    """Make ``name`` the way hip-python does: an IntEnum deriving from an empty ``_<name>__Base``.

    Enum-typed parameters check ``isinstance(value, _<name>__Base)``, so plain ints are
    refused; aliases (two names, one value) are allowed as in the C headers.
    """
    base = CEnum(f"_{name}__Base", [], module=module)  # type: ignore[call-overload]
    cls = base(name, members, module=module)  # type: ignore[call-overload]
    cls.__doc__ = doc or f"``{name}`` (C enum values)."
    return cls


def check_enum(value: Any, cls: type[enum.IntEnum], arg: str) -> Any:
    """hip-python's check of an enum-typed parameter: a member of ``cls``'s base, else TypeError."""
    base = cls.__mro__[1]
    if not isinstance(value, base):
        raise TypeError(f"argument '{arg}' must be of type '{base.__name__}'")
    return value


# --- pointer conversion ---------------------------------------------------------------------------


def _host_array(obj: Any) -> np.ndarray | None:
    """A Python buffer's bytes as a flat uint8 array in memory order; None for non-buffers."""
    if type(obj) is int or isinstance(obj, (Pointer, ctypes.c_void_p)):
        # (ctypes calls c_void_p a buffer: hip-python checks it first; an int, an address, is none: no
        # memoryview's TypeError to catch, on every call taking a pointer as an int)
        return None
    if isinstance(obj, np.ndarray):
        if not (obj.flags.c_contiguous or obj.flags.f_contiguous):
            raise RuntimeError("failed to create simple, contiguous Py_buffer from Python object")
        return obj.reshape(-1, order="A").view(np.uint8)
    try:
        mv = memoryview(obj)
    except TypeError:
        return None
    if not (mv.c_contiguous or mv.f_contiguous):
        raise RuntimeError("failed to create simple, contiguous Py_buffer from Python object")
    try:
        return np.frombuffer(obj, dtype=np.uint8)
    except (ValueError, TypeError, BufferError):
        return np.asarray(mv).reshape(-1, order="A").view(np.uint8)


def pointer_value(obj: Any) -> int:
    """The C pointer an argument converts to (hip-python's ``Pointer.fromObj(obj)._ptr``).

    Raises
    ------
    TypeError
        For objects none of the rules accept (floats, strings...), as hip-python does.
    """
    if obj is None:
        return 0
    host = _host_array(obj)
    if host is not None:
        return int(host.ctypes.data)
    return _not_buffer_value(obj)


def _not_buffer_value(obj: Any) -> int:
    """:func:`pointer_value` of an object that is not a Python buffer."""
    if type(obj) is int:  # (an address: the common case, first)
        return obj
    if obj is None:
        return 0
    if isinstance(obj, Pointer):
        return obj._ptr
    if isinstance(obj, ctypes.c_void_p):
        return int(obj.value or 0)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        if "data" not in cai:
            raise ValueError("input object has '__cuda_array_interface__' attribute but the dict has no 'data' key")
        return int(cai["data"][0] or 0)
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        return int(obj)
    if hasattr(obj, "as_c_void_p"):
        return int(obj.as_c_void_p().value or 0)
    raise TypeError(f"unsupported input type: '{type(obj)}'")


class Resolved(NamedTuple):
    """What a pointer argument designates: a rocmath address (``device``), host memory
    (``host``, a uint8 view of a Python buffer; None for a raw host address) or null."""

    address: int
    device: bool
    host: np.ndarray | None


# Pinned and managed memory is handed to programs at the real host address of its backing
# store, so ctypes and numpy can read it as on a GPU system; these ranges map back to the
# rocmath addresses every copy and kernel uses.
_map_lock = threading.Lock()
_map_starts: list[int] = []
_map_entries: list[tuple[int, int, int]] = []  # (host start, nbytes, rocmath address)


def host_mapped(address: int) -> int:
    """The real host address of pinned or managed rocmath memory at ``address`` (registered so
    that the host address converts back)."""
    alloc = address_space.find(address)
    if alloc is None or alloc.kind is MemoryKind.DEVICE:
        raise ValueError(f"0x{address:x} is not pinned host or managed memory")
    host = alloc.host_address() + (address - alloc.ptr)
    with _map_lock:
        i = bisect.bisect_left(_map_starts, host)
        if i == len(_map_starts) or _map_starts[i] != host:
            _map_starts.insert(i, host)
            _map_entries.insert(i, (host, alloc.nbytes - (address - alloc.ptr), address))
    return host


def unmap_host(host: int) -> None:
    """Forget a registration of :func:`host_mapped` (the memory was freed)."""
    with _map_lock:
        i = bisect.bisect_left(_map_starts, host)
        if i < len(_map_starts) and _map_starts[i] == host:
            del _map_starts[i], _map_entries[i]


def _translate(address: int) -> int | None:
    with _map_lock:
        i = bisect.bisect_right(_map_starts, address) - 1
        if i < 0:
            return None
        start, nbytes, target = _map_entries[i]
    return target + (address - start) if address < start + max(nbytes, 1) else None


def resolve(obj: Any) -> Resolved:
    """Classify a pointer argument: rocmath memory (device, managed or pinned), host memory, or null."""
    host = _host_array(obj)
    if host is not None:
        address = int(host.ctypes.data)
        target = _translate(address) if host.size else None
        return Resolved(target, True, None) if target is not None else Resolved(address, False, host)
    address = _not_buffer_value(obj)
    if address == 0:
        return Resolved(0, False, None)
    if address_space.find(address) is not None:
        return Resolved(address, True, None)
    target = _translate(address)
    return Resolved(target, True, None) if target is not None else Resolved(address, False, None)


def device_address(obj: Any) -> int:
    """The rocmath address a pointer argument designates (raw host addresses pass unchanged):
    ``resolve(obj).address``, without its allocation lookup for an address inside rocmath's memory
    regions (an allocation's address, live or freed, is itself; only registered host addresses
    translate): 1 us a pointer argument of a hipBLAS call."""
    if type(obj) is int or isinstance(obj, (Pointer, ctypes.c_void_p)):
        address = _not_buffer_value(obj)
        if (address >> _REGION_SHIFT) in address_space.regions:
            return address
    return resolve(obj).address


def host_bytes(address: int, nbytes: int, *, what: str = "pointer") -> np.ndarray:
    """A writable uint8 view of ``nbytes`` of raw host memory at ``address`` (what C would
    dereference).  Addresses in the null page are refused rather than crashing the process."""
    if address < _NULL_PAGE:
        raise ValueError(f"{what} 0x{address:x} is not a valid host address")
    if nbytes == 0:
        return np.empty(0, dtype=np.uint8)
    return np.frombuffer((ctypes.c_ubyte * nbytes).from_address(address), dtype=np.uint8)


# --- adapter classes --------------------------------------------------------------------------------


class Pointer:
    """``hip._util.types.Pointer``: an address, built from any pointer-like object.

    ``int(p)`` is the address.  ``createRef()`` gives a Pointer to the address itself
    (a ``T**`` for out-parameters); writes through it change this Pointer.
    """

    def __init__(self, pyobj: Any = None):
        self._cell = ctypes.c_uint64(0)
        self._keep = pyobj  # a buffer's owner must outlive the address taken from it
        self._ptr = pointer_value(pyobj)

    @property
    def _ptr(self) -> int:
        return int(self._cell.value)

    @_ptr.setter
    def _ptr(self, value: int) -> None:
        self._cell.value = int(value) & 0xFFFF_FFFF_FFFF_FFFF

    @classmethod
    def fromObj(cls, pyobj: Any) -> Pointer:
        """``pyobj`` itself when it already is one, else a new adapter."""
        return pyobj if isinstance(pyobj, cls) else cls(pyobj)

    @classmethod
    def fromPtr(cls, address: int) -> Pointer:
        """An adapter for a raw address."""
        obj = cls.__new__(cls)
        Pointer.__init__(obj, None)
        obj._ptr = address
        return obj

    def createRef(self) -> Pointer:
        """A Pointer to this adapter's own pointer field."""
        ref = Pointer.fromPtr(ctypes.addressof(self._cell))
        ref._keep = self
        return ref

    @property
    def is_ptr_null(self) -> bool:
        """Whether the address is NULL."""
        return self._ptr == 0

    def __bool__(self) -> bool:
        return self._ptr != 0

    def __int__(self) -> int:
        return self._ptr

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object, _ptr={self._ptr}>"

    def as_c_void_p(self) -> ctypes.c_void_p:
        """The address as ``ctypes.c_void_p``."""
        return ctypes.c_void_p(self._ptr)

    def __getitem__(self, offset: Any) -> Any:
        """A Pointer ``offset`` bytes further."""
        if isinstance(offset, int):
            if offset < 0:
                raise ValueError(f"offset='{offset}' must be non-negative")
            return Pointer.fromPtr(self._ptr + offset)
        raise NotImplementedError("'__getitem__': not implemented for other 'offset' types than 'int'")


def _itemsize(typestr: str) -> int:
    try:
        return np.dtype(typestr).itemsize
    except TypeError:
        raise ValueError(f"'typestr': value '{typestr}' is not a valid numpy char code") from None


class Properties:
    """hip-python's struct protocol over ``PROPERTIES()`` (the member names): ``s[i]`` is the value of the
    i-th member, ``name in s`` whether it is one.  Listed before :class:`Pointer` among a struct's bases, it
    replaces Pointer's offset indexing."""

    def PROPERTIES(self) -> list[str]:
        return []

    def __getitem__(self, item: Any) -> Any:
        names = self.PROPERTIES()
        if isinstance(item, int):
            if not 0 <= item < len(names):
                raise IndexError()
            return getattr(self, names[item])
        raise ValueError("'item' type must be 'int'")

    def __contains__(self, item: Any) -> bool:
        return item in self.PROPERTIES()


class NDBuffer(Pointer):
    """``hip._util.types.NDBuffer``: a contiguous n-dimensional buffer with CUDA-array-interface
    metadata (shape, typestr, itemsize), re-typed by :meth:`configure`."""

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self._itemsize = 1
        self._cai: dict[str, Any] = {"shape": (1,), "typestr": "B", "data": (self._ptr, False), "strides": None,
                                     "offset": 0, "mask": None, "version": 3, "stream": None}
        mv = memoryview(pyobj) if _host_array(pyobj) is not None else None
        if mv is not None:
            self.configure(_force=True, typestr=mv.format or "B", itemsize=mv.itemsize,
                           shape=tuple(mv.shape) or (1,), read_only=bool(mv.readonly))
        elif isinstance(pyobj, NDBuffer):
            self._itemsize = pyobj._itemsize
            self._cai.update({k: pyobj._cai[k] for k in ("shape", "typestr", "stream")})
            self._cai["data"] = (self._ptr, pyobj.is_read_only)
        elif getattr(pyobj, "__cuda_array_interface__", None) is not None:
            cai = pyobj.__cuda_array_interface__
            if cai.get("strides") is not None:
                raise RuntimeError("CUDA array interface is not contiguous")
            typestr = cai.get("typestr", "B")
            self.configure(_force=True, typestr=typestr, shape=tuple(cai.get("shape", (1,))) or (1,))

    def configure(self, **kwargs: Any) -> NDBuffer:
        """(Re-)type the buffer: ``shape``, ``typestr``, ``stream``, ``itemsize``, ``read_only``.

        The total byte count must stay the same unless ``_force=True``; ``typestr`` sets the
        item size (any numpy type string); returns the buffer itself.

        Raises
        ------
        KeyError
            For an unknown keyword.
        ValueError
            When the byte count would change without ``_force``, or for a bad typestr.
        """
        allowed = ("shape", "typestr", "stream", "itemsize", "read_only", "_force")
        for key in kwargs:
            if key not in allowed:
                raise KeyError(f"allowed keyword arguments are: {', '.join(repr(a) for a in allowed)}")
        old_shape = self._cai["shape"]
        shape = old_shape
        itemsize = -1
        if "shape" in kwargs:
            shape = tuple(kwargs["shape"])
            if not shape:
                raise ValueError("'shape': must have at least one entry")
            if not all(isinstance(i, int) for i in shape):
                raise TypeError("'shape': entries must be int")
        if "typestr" in kwargs:
            self._cai["typestr"] = kwargs["typestr"]
            itemsize = _itemsize(kwargs["typestr"])
        if "itemsize" in kwargs:
            itemsize = kwargs["itemsize"]
            if not isinstance(itemsize, int):
                raise TypeError("'itemsize': must be int")
            if itemsize <= 0:
                raise ValueError("'itemsize': must be positive int")
        if "stream" in kwargs:
            stream = kwargs["stream"]
            self._cai["stream"] = stream if isinstance(stream, int) else pointer_value(stream)
        if "read_only" in kwargs:
            if not isinstance(kwargs["read_only"], bool):
                raise ValueError("'read_only:' expected bool")
            self._cai["data"] = (self._ptr, kwargs["read_only"])
        if itemsize > 0 or shape != old_shape:
            new_itemsize = itemsize if itemsize > 0 else self._itemsize
            old_bytes = self._itemsize * math.prod(old_shape)
            new_bytes = new_itemsize * math.prod(shape)
            if old_bytes != new_bytes and not kwargs.get("_force", False):
                raise ValueError(f"new shape would change buffer size information: {old_bytes} B -> {new_bytes} B. "
                                 "Additionaly specify `_force=True` if this is intended.")
            self._itemsize = new_itemsize
            self._cai["shape"] = shape
        return self

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        cai = dict(self._cai)
        cai["data"] = (self._ptr, self._cai["data"][1])
        return cai

    @property
    def typestr(self) -> str:
        """The type string (as given to :meth:`configure`)."""
        return self._cai["typestr"]

    @property
    def shape(self) -> tuple[int, ...]:
        """Extent per dimension."""
        return self._cai["shape"]

    @property
    def size(self) -> int:
        """Number of elements: bytes for a fresh ``hipMalloc`` result."""
        return math.prod(self._cai["shape"])

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self._itemsize

    @property
    def rank(self) -> int:
        """Number of dimensions of extent greater than one."""
        return sum(1 for r in self._cai["shape"] if r > 1)

    @property
    def is_read_only(self) -> bool:
        """Whether the data must not be modified."""
        return self._cai["data"][1]

    @property
    def stream_as_int(self) -> int | None:
        """The stream address of the interface, if set."""
        return self._cai["stream"]

    def __getitem__(self, subscript: Any) -> NDBuffer:
        """A contiguous sub-buffer (row-major indexing): ``x[i]``, ``x[r, :]``, ``x[2:5]``.

        Raises
        ------
        ValueError
            When the subscript selects a non-contiguous region or lies outside the shape.
        """
        shape = self._cai["shape"]
        if isinstance(subscript, tuple):
            spec = list(subscript)
        elif isinstance(subscript, (slice, int)):
            spec = [subscript]
        else:
            raise TypeError(f"subscript type='{type(subscript)}' is none of: 'slice', 'int', 'tuple'")
        if len(spec) > len(shape):
            raise IndexError(f"too many indices specified, maximum number of indices that can be specified is "
                             f"{len(shape)}")
        spec += [slice(None)] * (len(shape) - len(spec))
        offset, stride, contiguous = 0, 1, True
        result: list[int] = []
        for i in reversed(range(len(shape))):  # innermost first: row-major
            s, extent = spec[i], shape[i]
            if isinstance(s, int):
                if not 0 <= s < extent:
                    raise ValueError(f"subscript='{s}' must be non-negative and smaller than the axis' exclusive "
                                     f"upper bound ('{extent}')")
                start, stop, contiguous = s, s + 1, False
            elif isinstance(s, slice):
                if not contiguous:
                    raise ValueError(f"subscript='{spec}' yields no contiguous subarray")
                if s.step not in (None, 1):
                    raise ValueError(f"subscript's step='{s.step}' must be 'None' or '1'.")
                start = 0 if s.start is None else s.start
                stop = extent if s.stop is None else s.stop
                if not (0 <= start < stop <= extent):
                    raise ValueError(f"subscript slice {start}:{stop} is empty or outside the axis' bound ({extent})")
                contiguous = start == 0 and stop == extent
            else:
                raise TypeError(f"subscript tuple entry type='{type(s)}' is none of: 'slice', 'int'")
            result.append(stop - start)
            offset += start * stride
            stride *= extent
        result.reverse()
        sub = NDBuffer.fromPtr(self._ptr + offset * self._itemsize)
        assert isinstance(sub, NDBuffer)
        sub._keep = self
        return sub.configure(_force=True, typestr=self.typestr, itemsize=self.itemsize, shape=tuple(result),
                             read_only=self.is_read_only)

    @classmethod
    def fromPtr(cls, address: int) -> Pointer:
        """An untyped one-byte buffer at ``address`` (configure it)."""
        obj = cls.__new__(cls)
        cls.__init__(obj, None)
        obj._ptr = address
        return obj

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} object, _ptr={self._ptr}, typestr={self.typestr}, itemsize={self.itemsize}, "
                f"shape={self.shape}, is_read_only={self.is_read_only}, stream={self.stream_as_int}>")


class CStr:
    """``hip._util.types.CStr``: a C string; ``str()`` decodes it, ``bytes()`` gives its bytes."""

    def __init__(self, data: bytes | str):
        self._data = data.encode() if isinstance(data, str) else bytes(data)

    def __str__(self) -> str:
        return self._data.decode("utf-8")

    def __repr__(self) -> str:
        return str(self)

    def __bytes__(self) -> bytes:
        return self._data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, subscript: Any) -> str:
        return str(self)[subscript]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CStr):
            return self._data == other._data
        if isinstance(other, str):
            return str(self) == other
        if isinstance(other, bytes):
            return self._data == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._data)

    def decode(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        """The string, decoded."""
        return self._data.decode(encoding, errors)

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        """The bytes (re-encoded from the decoded string)."""
        return str(self).encode(encoding, errors)


class DeviceArray(NDBuffer):
    """``hip._util.types.DeviceArray``: what ``hipMalloc`` and friends return.

    Starts as ``shape=(nbytes,)``, ``typestr='B'`` (so ``.size`` is the byte count);
    never frees its memory on collection (``hipFree`` does).
    """


# --- list adapters ------------------------------------------------------------------------------------------
# hip-python converts ``T**``/``int*`` parameters of some functions with these: a list or tuple becomes a C
# array the adapter owns (here a ctypes array, real host memory a C library could read), anything else
# converts as :class:`Pointer` does (a buffer, a device array, an address...).


def _bytes_address(data: bytes) -> int:
    """The address of a ``bytes`` object's own (NUL-terminated) storage, as Cython's ``const char*`` cast takes it."""
    return int(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value or 0)


class _ListOf(Pointer):
    """Base of the ``ListOf...`` adapters: a C array of ``_ctype`` built from a list or tuple."""

    _ctype: ClassVar[Any] = ctypes.c_void_p

    def __init__(self, pyobj: Any):
        if isinstance(pyobj, (list, tuple)):
            super().__init__(None)
            values = [self._entry(i, entry) for i, entry in enumerate(pyobj)]
            array = (self._ctype * len(values))(*values)
            self._ptr = ctypes.addressof(array)
            # The array, and the objects whose addresses it holds, live as long as the adapter.
            self._keep = (array, pyobj)
        else:
            super().__init__(pyobj)

    @classmethod
    def _entry(cls, i: int, entry: Any) -> Any:
        raise NotImplementedError

    @classmethod
    def fromObj(cls, pyobj: Any) -> Pointer:
        """``pyobj`` itself when it already is one, else a new adapter (a C array for a list or tuple)."""
        return pyobj if isinstance(pyobj, cls) else cls(pyobj)


class ListOfPointer(_ListOf):
    """``hip._util.types.ListOfPointer``: an array of ``void*``, for ``T**`` parameters.

    Built from a list or tuple whose entries convert as :class:`Pointer` arguments do (None, ints,
    ``ctypes.c_void_p``, buffers, device arrays, Pointers), each entry's address stored in a C array the
    adapter owns; from another ListOfPointer, its address; from anything else, as a :class:`Pointer`.

    Parameters
    ----------
    pyobj
        The list or tuple of pointers, or any object :class:`Pointer` accepts.

    Raises
    ------
    TypeError
        For an entry (or an object) :class:`Pointer` does not accept.
    """

    @classmethod
    def _entry(cls, i: int, entry: Any) -> Any:
        return pointer_value(entry) or None


#: ctypes integer objects whose ``value`` hip-python's integer lists take.
_CTYPES_INTS = (ctypes.c_bool, ctypes.c_short, ctypes.c_ushort, ctypes.c_int, ctypes.c_uint, ctypes.c_long,
                ctypes.c_ulong, ctypes.c_longlong, ctypes.c_ulonglong, ctypes.c_size_t, ctypes.c_ssize_t)


class _ListOfInteger(_ListOf):
    """An array of C integers from ``int``/``bool`` entries and ctypes integers (their ``value``)."""

    _what: ClassVar[str] = "int"
    _signed: ClassVar[bool] = True

    @classmethod
    def _entry(cls, i: int, entry: Any) -> Any:
        if isinstance(entry, _CTYPES_INTS):
            entry = entry.value
        elif not isinstance(entry, int):
            raise ValueError(f"element '{i}' of input cannot be converted to C {cls._what} type")
        value = int(entry)
        # PyLong_AsLongLong / PyLong_AsUnsignedLongLong, then the C cast to the element type (which wraps).
        if cls._signed and not -(1 << 63) <= value < (1 << 63):
            raise OverflowError("Python int too large to convert to C long")
        if not cls._signed and value < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if not cls._signed and value >= (1 << 64):
            raise OverflowError("int too big to convert")
        bits = 8 * ctypes.sizeof(cls._ctype)
        value &= (1 << bits) - 1
        return value - (1 << bits) if cls._signed and value >= 1 << (bits - 1) else value


class ListOfInt(_ListOfInteger):
    """``hip._util.types.ListOfInt``: an array of C ``int``, for ``int*`` parameters (``info``, ``ipiv``,
    amax/amin ``result``...).

    Built from a list or tuple of Python ints (bools included) and ctypes integers, each converted as
    ``<int>PyLong_AsLongLong(entry)`` (values past 32 bits wrap, as the C cast does); from another
    ListOfInt, its address; from anything else (a numpy ``int32`` array...), as a :class:`Pointer`.
    hip-python 6.2's generated code passes the list itself to ``PyLong_AsLongLong`` (a ``TypeError``
    for every list); later releases convert each entry, as here.

    Parameters
    ----------
    pyobj
        The list or tuple of integers, or any object :class:`Pointer` accepts.

    Raises
    ------
    ValueError
        For an entry that is neither an int nor a ctypes integer.
    OverflowError
        For an int outside the 64-bit range.
    """

    _ctype = ctypes.c_int

    def __repr__(self) -> str:
        return f"<ListOfDataInt object, _ptr={self._ptr}>"  # (sic: hip-python's repr)


class ListOfUnsigned(_ListOfInteger):
    """``hip._util.types.ListOfUnsigned``: an array of C ``unsigned int``.

    As :class:`ListOfInt`, each entry converted as ``<unsigned int>PyLong_AsUnsignedLongLong(entry)``
    (negative values are an ``OverflowError``, values past 32 bits wrap).

    Parameters
    ----------
    pyobj
        The list or tuple of integers, or any object :class:`Pointer` accepts.

    Raises
    ------
    ValueError
        For an entry that is neither an int nor a ctypes integer.
    OverflowError
        For a negative entry or one past 64 bits.
    """

    _ctype = ctypes.c_uint
    _what = "unsigned int"
    _signed = False


class ListOfUnsignedLong(_ListOfInteger):
    """``hip._util.types.ListOfUnsignedLong``: an array of C ``unsigned long`` (64-bit).

    As :class:`ListOfUnsigned`, with 64-bit elements.

    Parameters
    ----------
    pyobj
        The list or tuple of integers, or any object :class:`Pointer` accepts.

    Raises
    ------
    ValueError
        For an entry that is neither an int nor a ctypes integer.
    OverflowError
        For a negative entry or one past 64 bits.
    """

    _ctype = ctypes.c_ulong
    _what = "unsigned long"
    _signed = False

    def __repr__(self) -> str:
        return f"<ListOfUnsigned object, _ptr={self._ptr}>"  # (sic: hip-python's repr)


class ListOfBytes(_ListOf):
    """``hip._util.types.ListOfBytes``: an array of ``const char*``, for ``const char**`` parameters.

    Built from a list or tuple of ``bytes`` and :class:`CStr` entries (each one's NUL-terminated storage
    stored in a C array the adapter owns); from another ListOfBytes, its address; from anything else, as
    a :class:`Pointer`.

    Parameters
    ----------
    pyobj
        The list or tuple of byte strings, or any object :class:`Pointer` accepts.

    Raises
    ------
    ValueError
        For an entry that is neither ``bytes`` nor a :class:`CStr`.
    """

    @classmethod
    def _entry(cls, i: int, entry: Any) -> Any:
        if isinstance(entry, bytes):
            return _bytes_address(entry)
        if isinstance(entry, CStr):
            return _bytes_address(entry._data)
        raise ValueError("elements of list/tuple input must be of type 'bytes'")


#: ImmortalCStr objects: never collected, as hip-python increments their reference count once more.
_IMMORTAL: list[Any] = []


class ImmortalCStr(CStr):
    """``hip._util.types.ImmortalCStr``: a :class:`CStr` that is never garbage collected, for strings a C
    library keeps pointing to after the call (hip-python takes a reference to itself and its data).

    Parameters
    ----------
    pyobj
        The string: ``bytes``, ``str`` or a :class:`CStr`.
    """

    def __init__(self, pyobj: Any):
        super().__init__(bytes(pyobj) if isinstance(pyobj, CStr) else pyobj)
        _IMMORTAL.append(self)

    def __int__(self) -> int:
        return _bytes_address(self._data)

    def as_c_void_p(self) -> ctypes.c_void_p:
        """The address of the NUL-terminated string as ``ctypes.c_void_p``."""
        return ctypes.c_void_p(int(self))

    @classmethod
    def fromObj(cls, pyobj: Any) -> ImmortalCStr:
        """``pyobj`` itself when it already is one, else a new ImmortalCStr."""
        return pyobj if isinstance(pyobj, ImmortalCStr) else cls(pyobj)


# --- C integers and structs ---------------------------------------------------------------------------------


def _c_int(value: Any, arg: str) -> int:
    """A C integer argument: Python and numpy ints (no bools, floats or strings)."""
    if isinstance(value, bool):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"an integer is required for argument '{arg}', got {type(value).__name__}") from None


def _c_float(value: Any, arg: str) -> float:
    """A C ``float``/``double`` argument as Cython converts it: anything with ``__float__`` (or ``__index__``),
    ``TypeError`` otherwise (strings included)."""
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"must be real number, not {type(value).__name__} (argument '{arg}')")
    try:
        return float(value)
    except TypeError:
        raise TypeError(f"must be real number, not {type(value).__name__} (argument '{arg}')") from None


#: The C integer types of the bindings' parameters -> their bounds (LP64: ``long`` and ``size_t`` are 64-bit;
#: hip-python declares ``int64_t`` as ``long`` and ``size_t`` as ``unsigned long``).
_C_BOUNDS: dict[str, tuple[int, int]] = {
    "signed char": (-(1 << 7), (1 << 7) - 1), "unsigned char": (0, (1 << 8) - 1),
    "unsigned short": (0, (1 << 16) - 1), "int": (-(1 << 31), (1 << 31) - 1),
    "int32_t": (-(1 << 31), (1 << 31) - 1), "unsigned int": (0, (1 << 32) - 1),
    "int64_t": (-(1 << 63), (1 << 63) - 1), "long long": (-(1 << 63), (1 << 63) - 1), "size_t": (0, (1 << 64) - 1),
}


def _c_typed(value: Any, arg: str, ctype: str = "int") -> int:
    """A C integer argument of type ``ctype`` as hip-python's Cython bindings convert it: Python and
    numpy ints (``TypeError`` otherwise), ``OverflowError`` for one the C type cannot hold (Cython's
    "value too large to convert to int", "can't convert negative value to size_t"; here naming the
    argument).  Cython converts a function's typed arguments on entry, so these errors come before
    anything the library itself would check or report."""
    v = _c_int(value, arg)
    low, high = _C_BOUNDS[ctype]
    if v < low and low == 0:
        raise OverflowError(f"can't convert negative value to {ctype} (argument '{arg}')")
    if not low <= v <= high:
        raise OverflowError(f"value too large to convert to {ctype} (argument '{arg}')")
    return v


def _set_properties(obj: Any, names: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """A hip-python struct's constructor: properties by position, then by keyword, with hip-python's errors."""
    if len(args) > len(names):
        raise ValueError("More positional arguments specified than this type has properties.")
    for name, value in zip(names, args, strict=False):
        setattr(obj, name, value)
    for key, value in kwargs.items():
        if key in names[: len(args)]:
            raise KeyError(f"argument '{key}' has already been specified as positional argument.")
        if key not in names:
            valid = ", ".join(f"'{n}'" for n in names)
            raise KeyError(f"'{key}' is no valid property name. Valid names: {valid}")
        setattr(obj, key, value)


#: Member kinds -> their ctypes type (``detail`` completes the arrays and nested structs).
_CTYPES: dict[str, Any] = {
    "size_t": ctypes.c_size_t, "int": ctypes.c_int, "unsigned int": ctypes.c_uint, "unsigned char": ctypes.c_ubyte,
    "unsigned short": ctypes.c_ushort, "ptr": ctypes.c_void_p, "array": ctypes.c_void_p, "enum": ctypes.c_int,
    "cstr": ctypes.c_char_p, "float": ctypes.c_float, "double": ctypes.c_double,
}


class _Struct(Properties, Pointer):
    """A hip-python struct wrapper: a :class:`Pointer` to the C struct, which the constructor allocates (and the
    wrapper owns; members by position, then by keyword); ``fromObj`` adapts an address or a buffer holding the
    struct.  Members are properties, and ``get_<m>(i)``/``set_<m>(i, value)`` reach those of the ``i``-th struct
    of an array of them.  Nested structs read as wrappers of the embedded struct (no setter, as in hip-python);
    ``char`` arrays as bytes up to the first NUL, ``unsigned char`` arrays as lists (read only).

    Subclasses list ``_members``: ``(name, kind, detail)`` with kind one of ``_CTYPES``' keys, ``"struct"``
    (detail: the struct class), ``"chars"``/``"uchars"`` (detail: the length), ``"float"``/``"double"`` (read as
    Python floats, set from anything with ``__float__``, as Cython converts C floats); an ``"array"`` member
    (``hipArray_t``) is in the layout but not exposed, as hip-python leaves it out; a ``"cstr"`` member
    (``const char *``) reads as bytes or None and keeps the bytes it is set to alive with the wrapper.
    """

    _members: ClassVar[tuple[tuple[str, str, Any], ...]] = ()
    _c: ClassVar[type[ctypes.Structure]]

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        fields = []
        for name, kind, detail in cls._members:
            if kind == "struct":
                fields.append((name, detail._c))
            elif kind in ("chars", "uchars"):
                fields.append((name, (ctypes.c_char if kind == "chars" else ctypes.c_ubyte) * detail))
            else:
                fields.append((name, _CTYPES[kind]))
            if kind != "array":
                cls._accessors(name, kind, detail)
        cls._c = type(f"_{cls.__name__}_c", (ctypes.Structure,), {"_fields_": fields})

    @classmethod
    def _accessors(cls, name: str, kind: str, detail: Any) -> None:
        def get(self: _Struct, i: int) -> Any:
            c = self._at(i)
            if kind == "struct":
                sub = detail.fromPtr(ctypes.addressof(c) + getattr(cls._c, name).offset)
                sub._keep = self  # the embedded struct lives in this one's memory
                return sub
            value = getattr(c, name)
            if kind == "enum":
                return _enum_class(detail)(value)
            if kind == "ptr":
                return Pointer.fromPtr(value or 0)
            if kind == "chars":
                return bytes(value)
            if kind == "uchars":
                return list(value)
            if kind in ("cstr", "float", "double"):
                return value
            return int(value)

        def set_(self: _Struct, i: int, value: Any) -> None:
            if kind == "enum":
                cls_ = _enum_class(detail)
                if not isinstance(value, cls_):
                    raise TypeError(f"'value' must be of type '{cls_.__name__}'")
                value = int(value)
            elif kind == "ptr":
                value = pointer_value(value) or None
            elif kind in ("float", "double"):
                value = _c_float(value, "value")
            elif kind == "cstr":
                if value is not None:
                    value = bytes(value)
                    self._kept = {**getattr(self, "_kept", {}), (name, i): value}  # the C struct points into it
            else:
                value = _c_typed(value, "value", kind)
            setattr(self._at(i), name, value)

        get.__name__, get.__doc__ = f"get_{name}", f"``{name}`` of the ``i``-th struct."
        setattr(cls, f"get_{name}", get)
        settable = kind not in ("struct", "chars", "uchars")
        if settable:
            set_.__name__, set_.__doc__ = f"set_{name}", f"Set ``{name}`` of the ``i``-th struct."
            setattr(cls, f"set_{name}", set_)
        setattr(cls, name, property(lambda self: get(self, 0),
                                    (lambda self, value: set_(self, 0, value)) if settable else None,
                                    doc=f"``{name}``"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(None)
        self._store = self._c()
        self._ptr = ctypes.addressof(self._store)
        _set_properties(self, self.PROPERTIES(), args, kwargs)

    @classmethod
    def fromObj(cls, pyobj: Any) -> Any:
        """``pyobj`` itself when it is one, else an adapter for the struct at its address (not owned)."""
        if isinstance(pyobj, cls):
            return pyobj
        obj = cls.__new__(cls)
        Pointer.__init__(obj, pyobj)
        return obj

    @classmethod
    def PROPERTIES(cls) -> list[str]:
        """The member names."""
        return [name for name, kind, _ in cls._members if kind != "array"]

    def c_sizeof(self) -> int:
        """The size of the C struct in bytes."""
        return ctypes.sizeof(self._c)

    def _at(self, i: int) -> Any:
        if self._ptr < 4096:
            raise ValueError(f"{type(self).__name__} at 0x{self._ptr:x} is not a valid address")
        return self._c.from_address(self._ptr + int(i) * ctypes.sizeof(self._c))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object, ptr: {self._ptr}>"


def _enum_class(detail: Any) -> Any:
    """A member's enum class: the class itself, or one of :mod:`rocmath.hip.hip`'s named by a string (an enum
    defined after the struct)."""
    return getattr(importlib.import_module("rocmath.hip.hip"), detail) if isinstance(detail, str) else detail
