"""Faster numba compilation, the same results.

Most of a cold test run is numba compiling, and two thirds of a compilation is numba's Python
passes, the rest LLVM.  :func:`install` replaces slow spots of numba's with code that returns
what numba's returns (the tests check every call made while a parallel kernel compiles against numba's
own, and hypothesis the general cases):

- Copy propagation (``numba.core.ir_utils``) deep-copies its data-flow sets on every round to find its
  fixed point, and tests every copy of the program against each block's assignments once per copy:
  of test_solver_lu.py's 223 s of cold compilation, 11.9 s.  Those sets (and the alias map
  ``find_potential_aliases`` copies) are dicts of sets of variable names or pairs of names, whose
  elements are immutable, so a copy of each set is a deep copy (sets shared between keys stay shared,
  as with ``copy.deepcopy``'s memo); ``init_copy_propagate_data`` finds each block's assigned names
  once: 1.6 s.
- Inlining a function (``inline="always"``) deep-copies its IR twice per call site, each block with its
  own copy of the function's scope, a copy of every variable: ``copy.deepcopy``'s general way, through
  ``__reduce_ex__``, for objects whose copy is a new instance with a deep copy of their ``__dict__``.
  Copying those (and numba's ``Var``) directly halves the time.  Where numba does not type the callee
  (``njit(inline="always")``), the blocks of each copy are copied together, with one memo, as
  ``copy.deepcopy`` copies a whole IR: the scope and its variables once per copy, not once per block.
  numba puts the caller's scope in every inlined block once it has renamed the variables into it, so
  the per-block copies were thrown away; the code is the same (tested), and test_solver_lu.py's
  inlining pass took 4.8 s instead of 20.3 s.
- Resolving an ``@overload`` looks its implementation up by the compilation's flags: numba's
  ``TargetConfig`` hashes and compares them by building a dict of all ~45 options, twice per lookup
  (2 % of test_blas_level1.py's cold compilation).  The hash is the class's (it hashes the sorted
  option names); equality compares the options set in either.

It also leaves out work on code that is only linked.  numba makes machine code for every library it
finalizes, and optimizes a parallel loop's body three times before its kernel links it and optimizes
it again: alone, in the wrapper that runs it over a range of indices, and in the wrapper that hands it
to the thread pool.  Here a library makes its machine code when something asks for it (a function's
address, its object code for the cache), so one only linked into others (the loop, its wrappers,
numba's internal subroutines) makes none; the loop has no Python wrapper; the two wrappers get no
module passes of their own.  The kernel's module goes through the same passes; only what the code
it links went through before differs (numba ran code generation's IR passes on the loop and the
subroutines when it made their machine code, and the wrappers' module passes), so the code may
differ slightly but not the operations: the tests check the bits against numba's compilation, and
parallel kernels lost no speed (``rocmath-bench compare``); test_solver_lu.py's cold compilation
took 13 % less.
"""

from __future__ import annotations

import copy
import copyreg
import threading
import types
import weakref
from itertools import chain
from typing import Any

import numba
from numba.core import codegen, config, inline_closurecall, ir, ir_utils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.targetconfig import TargetConfig
from numba.np.ufunc import parallel, wrappers
from numba.parfors import parfor_lowering

__all__ = ["install", "installed"]

_ORIGINAL_INIT = ir_utils.init_copy_propagate_data
_ORIGINAL_HASH = TargetConfig.__hash__
_ORIGINAL_EQ = TargetConfig.__eq__
_Library = codegen.JITCodeLibrary
_ORIGINAL_FINALIZE = _Library.finalize
_ORIGINAL_FINAL_MODULE = _Library._finalize_final_module
_ORIGINAL_POINTER = _Library.get_pointer_to_function
_ORIGINAL_OBJECT = _Library._get_compiled_object
_ORIGINAL_GUFUNC_BODY = parfor_lowering._create_gufunc_for_parfor_body
_ORIGINAL_GUFUNC_WRAPPER = wrappers._GufuncWrapper._compile_wrapper
_ORIGINAL_PARALLEL_WRAPPER = parallel.build_gufunc_wrapper


_NAME_OR_PAIR = frozenset((str, tuple))
_NAME = frozenset((str,))


def _names_or_pairs(v: set[Any]) -> bool:
    # Element types, then the types of the tuples' items (a name's are its characters), at C speed.
    return _NAME_OR_PAIR.issuperset(map(type, v)) and _NAME.issuperset(map(type, chain.from_iterable(v)))


def _copy_of_name_sets(x: object) -> dict[Any, set[Any]] | None:
    """A deep copy of ``x`` if it is a dict of int or str keys to sets of names or pairs of names,
    else None.  The elements are immutable, so ``copy.deepcopy`` would return them as they are."""
    if type(x) is not dict:
        return None
    out: dict[Any, set[Any]] = {}
    copies: dict[int, set[Any]] = {}
    for k, v in x.items():
        if (type(k) is not int and type(k) is not str) or type(v) is not set:
            return None
        c = copies.get(id(v))
        if c is None:
            if not _names_or_pairs(v):
                return None
            c = copies[id(v)] = set(v)
        out[k] = c
    return out


def _deepcopy(x: Any, memo: dict[int, Any] | None = None) -> Any:
    if memo is None:
        fast = _copy_of_name_sets(x)
        if fast is not None:
            return fast
    return _ir_deepcopy(x, memo)


class _Plain:
    pass


#: Attributes that would change how ``copy.deepcopy`` copies an instance that has them.
_SPECIAL = frozenset(("__deepcopy__", "__reduce_ex__", "__reduce__", "__getstate__", "__setstate__",
                      "__getnewargs_ex__", "__getnewargs__", "__class__"))
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


def _is_plain(cls: type) -> bool:
    """Whether ``copy.deepcopy`` copies instances of ``cls`` by ``object.__reduce_ex__(4)``: a new
    ``cls.__new__(cls)`` whose ``__dict__`` is updated with a deep copy of the original's (if not empty)."""
    return (not issubclass(cls, type) and cls not in copy._deepcopy_dispatch  # type: ignore[attr-defined]
            and cls not in copyreg.dispatch_table
            and all(c is object or c.__flags__ & _HEAP_TYPE for c in cls.__mro__)
            and cls.__basicsize__ == _Plain.__basicsize__ and not any("__slots__" in vars(c) for c in cls.__mro__)
            and _SPECIAL.isdisjoint(k for c in cls.__mro__[:-1] for k in vars(c))
            and cls.__getattribute__ is object.__getattribute__)


#: What ``copy.deepcopy`` and ``object.__reduce_ex__`` look up on an instance (or its new copy) before they
#: would find nothing on the class, and so ask a class's ``__getattr__`` for (numba's ``Expr`` has one).
_ASKED = ("__deepcopy__", "__getnewargs_ex__", "__getnewargs__", "__setstate__")


def _copy_plain_asking(x: Any, memo: dict[int, Any]) -> Any:
    for name in _ASKED:
        if getattr(x, name, None) is not None:
            return _GENERIC
    y = type(x).__new__(type(x))
    return _GENERIC if hasattr(y, "__setstate__") else _fill_plain(x, y, memo)


def _keep_alive(x: Any, memo: dict[int, Any]) -> None:
    try:
        memo[id(memo)].append(x)
    except KeyError:
        memo[id(memo)] = [x]


def _copy_plain(x: Any, memo: dict[int, Any]) -> Any:
    return _fill_plain(x, type(x).__new__(type(x)), memo)


def _fill_plain(x: Any, y: Any, memo: dict[int, Any]) -> Any:
    # ``y``, a new instance of x's class, becomes its copy.
    state = x.__dict__
    if not _SPECIAL.isdisjoint(state):  # an instance that overrides one of them: copy.deepcopy's way
        return _GENERIC
    memo[id(x)] = y
    if state:
        new: dict[Any, Any] = {}
        memo[id(state)] = new
        for k, v in state.items():  # (the names of attributes are str: their own copies)
            new[k] = v if type(v) in _ATOMIC else _ir_deepcopy(v, memo)
        _keep_alive(state, memo)
        y.__dict__.update(new)
    return y


def _copy_list(x: list[Any], memo: dict[int, Any]) -> list[Any]:
    y: list[Any] = []
    memo[id(x)] = y
    append = y.append
    for a in x:
        append(a if type(a) in _ATOMIC else _ir_deepcopy(a, memo))
    return y


def _copy_dict(x: dict[Any, Any], memo: dict[int, Any]) -> dict[Any, Any]:
    y: dict[Any, Any] = {}
    memo[id(x)] = y
    for k, v in x.items():
        y[k if type(k) in _ATOMIC else _ir_deepcopy(k, memo)] = v if type(v) in _ATOMIC else _ir_deepcopy(v, memo)
    return y


def _copy_tuple(x: tuple[Any, ...], memo: dict[int, Any]) -> Any:
    y = [_ir_deepcopy(a, memo) for a in x]
    try:  # a tuple reached again through its own elements
        return memo[id(x)]
    except KeyError:
        pass
    for a, b in zip(x, y, strict=True):
        if a is not b:
            return tuple(y)
    return x


_GENERIC = object()  # a copier's answer: let copy.deepcopy copy it
_COPIERS: dict[type, Any] = {list: _copy_list, dict: _copy_dict, tuple: _copy_tuple}
_ATOMIC = frozenset(t for t, f in copy._deepcopy_dispatch.items()  # type: ignore[attr-defined]
                    if f is copy._deepcopy_atomic)  # type: ignore[attr-defined]


def _ir_deepcopy(x: Any, memo: dict[int, Any] | None = None, _nil: Any = _GENERIC) -> Any:
    """``copy.deepcopy``, the same copy, with the containers and plain classes numba's IR is made of
    (blocks, statements, expressions, locations) copied without ``__reduce_ex__`` and ``_reconstruct``:
    what an inlined function's IR is copied by, twice per call site."""
    if memo is None:
        memo = {}
    d = id(x)
    y = memo.get(d, _nil)
    if y is not _nil:
        return y
    cls = type(x)
    if cls in _ATOMIC:
        return x
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    y = copier(x, memo)
    if y is _GENERIC:
        return copy.deepcopy(x, memo)
    if y is not x:
        memo[d] = y
        _keep_alive(x, memo)
    return y


def _generic(x: Any, memo: dict[int, Any]) -> Any:
    return _GENERIC


def _by_method(x: Any, memo: dict[int, Any]) -> Any:
    return x.__deepcopy__(memo)


_VAR_DEEPCOPY = ir.Var.__deepcopy__


def _copy_var(x: ir.Var, memo: dict[int, Any]) -> Any:
    # numba's Var.__deepcopy__ (a new Var of the copied scope, the same name and location), called for
    # most of the objects an IR copy makes (a copy of the scope holds a copy of every variable).
    if "__deepcopy__" in x.__dict__:
        return x.__deepcopy__(memo)
    scope = memo.get(id(x.scope), _GENERIC)
    out = ir.Var(_ir_deepcopy(x.scope, memo) if scope is _GENERIC else scope, x.name, x.loc)
    memo[id(x)] = out
    return out


def _copier(cls: type) -> Any:
    if _is_plain(cls):
        return _copy_plain_asking if hasattr(cls, "__getattr__") else _copy_plain
    if cls is ir.Var and cls.__deepcopy__ is _VAR_DEEPCOPY:
        return _copy_var
    if (not issubclass(cls, type) and cls not in copy._deepcopy_dispatch  # type: ignore[attr-defined]
            and callable(getattr(cls, "__deepcopy__", None))):
        return _by_method  # (numba's Const, Global, FreeVar)
    return _generic


#: What ``ir_utils`` sees as its ``copy`` module.
_copy_module = types.SimpleNamespace(deepcopy=_deepcopy, copy=copy.copy)

_ORIGINAL_INLINE_IR = inline_closurecall.InlineWorker.inline_ir
_copying = threading.local()  # in numba's untyped inlining: the scope and memo of the blocks being copied


def _inline_ir(self: Any, caller_ir: Any, block: Any, i: int, callee_ir: Any, callee_freevars: Any,
               arg_typs: Any = None) -> Any:
    """numba's, with the blocks of each copy of the callee's IR it makes deep-copied with one memo (as
    ``copy.deepcopy`` copies them together), not one each.  numba copies them one by one, so each
    block's copy has its own copy of the scope and of all its variables, and puts the caller's scope in
    every block once the variables are renamed into it: those copies are thrown away.  Not where numba
    types the callee (``@overload(inline=...)``): its SSA pass would give variables other names in one
    scope than in a scope per block."""
    outer = getattr(_copying, "scope", None), getattr(_copying, "memo", None)  # (an inlining this one is in)
    _copying.scope, _copying.memo = None, None if self._permit_update_type_and_call_maps else {}
    try:
        return _ORIGINAL_INLINE_IR(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs)
    finally:
        _copying.scope, _copying.memo = outer


def _inline_deepcopy(x: Any, memo: dict[int, Any] | None = None) -> Any:
    # A block of the callee's IR (the only thing inline_closurecall deep-copies, block by block): a new
    # memo where the scope changes, that is for each of numba's two copies (the second copies the first).
    shared = getattr(_copying, "memo", None)
    if memo is None and shared is not None and type(x) is ir.Block:
        if x.scope is not _copying.scope:
            _copying.scope, _copying.memo = x.scope, {}
        return _ir_deepcopy(x, _copying.memo)
    return _deepcopy(x, memo)


#: What ``inline_closurecall`` sees as its ``copy`` module.
_inline_copy_module = types.SimpleNamespace(deepcopy=_inline_deepcopy, copy=copy.copy)


def _init_copy_propagate_data(blocks: Any, entry: Any, typemap: Any) -> tuple[Any, Any, Any, Any, Any]:
    # numba's, with each block's assigned names found once per block, not once per (block, copy).
    gen_copies, extra_kill = ir_utils.get_block_copies(blocks, typemap)
    all_copies: set[tuple[str, str]] = set()
    for s in gen_copies.values():
        all_copies |= s
    kill_copies = {}
    for label, gen_set in gen_copies.items():
        extra = extra_kill[label]
        assigned = {lhs for lhs, _ in gen_set}
        kill_copies[label] = {(lhs, rhs) for lhs, rhs in all_copies
                              if lhs in extra or rhs in extra
                              or ((lhs, rhs) not in gen_set and (lhs in assigned or rhs in assigned))}
    in_copies = {label: all_copies.copy() for label in blocks}
    in_copies[entry] = set()
    out_copies = {label: gen_copies[label] | (in_copies[label] - kill_copies[label]) for label in blocks}
    out_copies[entry] = gen_copies[entry]
    return gen_copies, all_copies, kill_copies, in_copies, out_copies


_HASHES: dict[type, int] = {}


def _flags_hash(self: TargetConfig) -> int:
    # numba's hashes ``sorted(self.values())``: the sorted option names (a dict iterates its keys), the
    # same for every instance of a class.
    cls = type(self)
    h = _HASHES.get(cls)
    if h is None:
        h = _HASHES[cls] = hash(tuple(sorted(cls.options)))
    return h


def _flags_eq(self: TargetConfig, other: object) -> bool:
    # numba's compares ``values()``, every option's value, set or default; options set in neither are
    # both their default (the same object), so only those set in either can differ.  Compared as dicts
    # compare values: the same object, or equal.
    if self is other:
        return True
    if type(other) is not type(self):
        return _ORIGINAL_EQ(self, other)  # type: ignore[no-any-return]
    a, b = self._values, other._values  # type: ignore[attr-defined]
    options = type(self).options
    for k in a.keys() | b.keys():
        d = options[k].default
        x, y = a.get(k, d), b.get(k, d)
        if x is not y and not x == y:  # noqa: SIM201  (== as dicts compare, not !=)
            return False
    return True


def _finalize(self: Any) -> None:
    # numba's, its last step (adding the module to the execution engine, which makes its machine code)
    # left to the first that asks for code: :func:`_emit`.  (Not when a library is loaded from the cache:
    # that does its last step alone.)
    self._rocmath_finalizing = True
    try:
        _ORIGINAL_FINALIZE(self)
    finally:
        del self._rocmath_finalizing


def _finalize_final_module(self: Any) -> None:
    if not getattr(self, "_rocmath_finalizing", False) or config.DUMP_OPTIMIZED or config.DUMP_ASSEMBLY:
        _ORIGINAL_FINAL_MODULE(self)
        return
    # numba's, up to the engine: the checks, and the library the object cache hooks find on the module.
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
    self._unemitted = True
    self._finalized = True


def _emit(self: Any) -> None:
    """numba's last step of finalizing ``self``, if it is still to do: add its module to the engine and
    make its machine code."""
    if getattr(self, "_unemitted", False):
        with global_compiler_lock:  # (what numba finalizes in)
            if self._unemitted:
                cleanup = self._codegen._add_module(self._final_module)
                if cleanup:
                    weakref.finalize(self, cleanup)
                self._finalize_specific()
                self._unemitted = False


def _pointer_to_function(self: Any, name: str) -> int:
    self._ensure_finalized()
    _emit(self)
    return _ORIGINAL_POINTER(self, name)  # type: ignore[no-any-return]


def _compiled_object(self: Any) -> Any:
    _emit(self)
    return _ORIGINAL_OBJECT(self)


def _create_gufunc_for_parfor_body(lowerer: Any, parfor: Any, typemap: Any, typingctx: Any, targetctx: Any,
                                   flags: Any, *args: Any, **kwargs: Any) -> Any:
    # numba's, with no Python or C wrapper and no callable made (``no_compile``): the body is only called
    # from its gufunc wrapper, which links its LLVM function.  ``flags`` is the caller's copy.
    flags.no_cpython_wrapper = flags.no_cfunc_wrapper = flags.no_compile = True
    return _ORIGINAL_GUFUNC_BODY(lowerer, parfor, typemap, typingctx, targetctx, flags, *args, **kwargs)


def _no_module_passes() -> None:
    pass


def _optimized_by_its_kernel(library: Any) -> Any:
    # A parallel loop's wrapper library is linked into its kernel, which optimizes it with everything
    # else: no module passes of its own.
    library._optimize_final_module = _no_module_passes
    return library


def _compile_gufunc_wrapper(self: Any, wrapper_name: str) -> Any:
    # numba's, for the wrapper that runs the loop over a range of indices.
    library = _ORIGINAL_GUFUNC_WRAPPER(self, wrapper_name)
    return _optimized_by_its_kernel(library) if self.is_parfors else library


def _build_parallel_wrapper(py_func: Any, cres: Any, sin: Any, sout: Any, cache: Any, is_parfors: bool) -> Any:
    # numba's, for the wrapper that hands the loop to the thread pool.
    info = _ORIGINAL_PARALLEL_WRAPPER(py_func, cres, sin, sout, cache, is_parfors)
    if is_parfors:
        _optimized_by_its_kernel(info.library)
    return info


def _numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


#: Whether this numba's internals are the ones the replacements restate or build on: its copy propagation
#: start, library finalization, parallel loop compilation and inlining (read in numba 0.68.1; the tests
#: check them wherever numba is installed); outside these versions numba's own stay in place.
KNOWN_NUMBA = (0, 58) <= _numba_version() < (0, 69)


def _replacements() -> list[tuple[Any, str, Any, Any]]:
    """What :func:`install` puts in numba: (where, name, numba's, ours).  The ones that build on numba's
    internals (its copy propagation start, library finalization, parallel loop compilation and inlining)
    only in the versions they were read in."""
    out = [(ir_utils, "copy", copy, _copy_module),
           (TargetConfig, "__hash__", _ORIGINAL_HASH, _flags_hash),
           (TargetConfig, "__eq__", _ORIGINAL_EQ, _flags_eq)]
    if KNOWN_NUMBA:
        out += [(inline_closurecall, "copy", copy, _inline_copy_module),
                (inline_closurecall.InlineWorker, "inline_ir", _ORIGINAL_INLINE_IR, _inline_ir),
                (ir_utils, "init_copy_propagate_data", _ORIGINAL_INIT, _init_copy_propagate_data),
                (_Library, "finalize", _ORIGINAL_FINALIZE, _finalize),
                (_Library, "_finalize_final_module", _ORIGINAL_FINAL_MODULE, _finalize_final_module),
                (_Library, "get_pointer_to_function", _ORIGINAL_POINTER, _pointer_to_function),
                (_Library, "_get_compiled_object", _ORIGINAL_OBJECT, _compiled_object),
                (parfor_lowering, "_create_gufunc_for_parfor_body", _ORIGINAL_GUFUNC_BODY,
                 _create_gufunc_for_parfor_body),
                (wrappers._GufuncWrapper, "_compile_wrapper", _ORIGINAL_GUFUNC_WRAPPER, _compile_gufunc_wrapper),
                (parallel, "build_gufunc_wrapper", _ORIGINAL_PARALLEL_WRAPPER, _build_parallel_wrapper)]
    else:  # (the IR copier alone, without the blocks copied together)
        out.append((inline_closurecall, "copy", copy, _copy_module))
    return out


def install() -> None:
    """Put the faster pieces in numba (idempotent)."""
    for where, name, _, ours in _replacements():
        setattr(where, name, ours)


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return all(getattr(where, name) is ours for where, name, _, ours in _replacements())
