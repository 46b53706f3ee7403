"""Import redirection for ``python -m rocmath.hip``: hip-python's module names, served by rocmath.

:func:`install` puts a meta-path finder first on ``sys.meta_path`` that answers for
hip-python's packages -- the classic layout (``hip``, ``hip.hip``, ``hip.hipblas``,
``hip._util.types``, likewise ``hip.hipfft``, ``hip.hipsparse``, ``hip.hipsolver``, ``hip.rccl``, ``hip.roctx``) and
the newer one (``rocm.bindings.hip``, ``rocm.bindings.hipblas``..., ``rocm.bindings.util.types``,
``rocm.version``), and hip-python-as-cuda's ``cuda.cuda``, ``cuda.cudart`` (and cuda-python's newer
``cuda.bindings.driver``/``cuda.bindings.runtime`` layout) -- with rocmath's modules.  Only the
runner installs it, so a real hip-python (or cuda-python) install is never shadowed anywhere else;
:func:`uninstall` removes it and the modules it served.

Bindings rocmath does not provide (``hip.hiprand``, ``hip.hiprtc``, ``cuda.nvrtc``...) fail to import with an
``ImportError`` naming rocmath, rather than reaching a real install.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import Any

__all__ = ["HipPythonFinder", "install", "uninstall", "VERSION_CONSTANTS"]

#: The ROCm/HIP versions whose hip-python API rocmath.hip follows.
VERSION_CONSTANTS: dict[str, Any] = {
    "ROCM_VERSION": 60200000, "ROCM_VERSION_NAME": "6.2.0", "ROCM_VERSION_TUPLE": (6, 2, 0),
    "HIP_VERSION": 60241133, "HIP_VERSION_NAME": "6.2.41133-rocmath", "HIP_VERSION_TUPLE": (6, 2, 41133, "rocmath"),
}

#: Binding modules: hip-python name -> rocmath module.
_BINDINGS = {name: f"rocmath.hip.{name}"
             for name in ("hip", "hipblas", "hipfft", "hipsparse", "hipsolver", "rccl", "roctx")}
#: Every module name the finder serves -> rocmath module, or None for a synthetic package.
_ALIASES: dict[str, str | None] = {
    "hip": None, "hip._util": None, "hip._util.types": "rocmath.hip._types",
    "rocm": None, "rocm.bindings": None, "rocm.bindings.util": None, "rocm.bindings.util.types": "rocmath.hip._types",
    "rocm.version": None,
    **{f"hip.{k}": v for k, v in _BINDINGS.items()},
    **{f"rocm.bindings.{k}": v for k, v in _BINDINGS.items()},
    # hip-python-as-cuda: the driver and runtime modules hold the same aliases.
    "cuda": None, "cuda.cuda": "rocmath.hip.cuda", "cuda.cudart": "rocmath.hip.cuda", "cuda.bindings": None,
    "cuda.bindings.driver": "rocmath.hip.cuda", "cuda.bindings.runtime": "rocmath.hip.cuda",
}
#: Synthetic package -> the submodules it exposes as attributes (loaded on first use).
_SUBMODULES = {"hip": tuple(_BINDINGS), "rocm.bindings": tuple(_BINDINGS), "cuda": ("cuda", "cudart", "bindings"),
               "cuda.bindings": ("driver", "runtime")}
#: The top-level packages the finder owns (any other submodule of them is "not provided").
_ROOTS = ("hip", "rocm", "cuda")


def _synthetic(name: str) -> types.ModuleType:
    """The packages that only group bindings (``hip``, ``rocm.bindings``...) and ``rocm.version``."""
    module = types.ModuleType(name, f"{name}: hip-python's package, served by rocmath.hip (simulated device).")
    if name != "rocm.version":
        module.__path__ = []  # a package: its submodules come from this finder only
    if name in ("hip", "rocm.version", "rocm.bindings", "cuda"):
        module.__dict__.update({k: v for k, v in VERSION_CONSTANTS.items()})
        module.__dict__.update({k.lower(): v for k, v in VERSION_CONSTANTS.items() if k.startswith(("ROCM_V", "HIP_V"))
                                and not k.endswith("VERSION")})
    return module


def _binding_attribute(package: str, name: str) -> types.ModuleType:
    """``hip.hipfft`` without ``import hip.hipfft``: the bindings load on first use (PEP 562)."""
    if name in _SUBMODULES[package]:
        return importlib.import_module(f"{package}.{name}")
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


class _Loader(importlib.abc.Loader):
    def __init__(self, target: str | None):
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        if self.target is None:
            return _synthetic(spec.name)
        return importlib.import_module(self.target)

    def exec_module(self, module: types.ModuleType) -> None:
        # Expose the bindings on their parent package as the real packages do (``from hip import hip``
        # works through the import system; ``import hip; hip.hipblas`` needs the attribute).
        name = module.__spec__.name if module.__spec__ is not None and self.target is None else None
        if name in _SUBMODULES:
            module.__getattr__ = functools.partial(_binding_attribute, name)  # type: ignore[attr-defined]
        if name == "hip":
            module._util = importlib.import_module("hip._util")  # type: ignore[attr-defined]
        if name in ("hip._util", "rocm.bindings.util"):
            module.types = importlib.import_module(f"{name}.types")  # type: ignore[attr-defined]


class _Missing(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        raise ImportError(f"{spec.name} is not provided by rocmath.hip (it has: "
                          f"{', '.join(sorted(k for k in _ALIASES if _ALIASES[k]))})", name=spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        raise AssertionError("unreachable")  # pragma: no cover


class HipPythonFinder(importlib.abc.MetaPathFinder):
    """Answers imports of hip-python's module names with rocmath's modules."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname in _ALIASES:
            target_name = _ALIASES[fullname]
            return importlib.machinery.ModuleSpec(fullname, _Loader(target_name), is_package=target_name is None
                                                  and fullname != "rocm.version")
        if fullname.split(".")[0] in _ROOTS:
            return importlib.machinery.ModuleSpec(fullname, _Missing())
        return None


_finder = HipPythonFinder()


def install() -> None:
    """Serve hip-python's module names from rocmath (first on ``sys.meta_path``)."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    """Stop serving them, and forget the modules served (a real hip-python becomes importable again)."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in list(sys.modules):
        loader = getattr(getattr(sys.modules[name], "__spec__", None), "loader", None)
        served = name.split(".")[0] in _ROOTS and isinstance(loader, (_Loader, _Missing))
        if served or (name in _ALIASES and sys.modules[name].__name__ == _ALIASES[name]):
            del sys.modules[name]
