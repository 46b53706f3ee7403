"""rocSPARSE's debug switches and status strings.

- ``enable_debug`` / ``disable_debug`` / ``state_debug`` and their ``_arguments``, ``_arguments_verbose``,
  ``_verbose``, ``_kernel_launch`` and ``_force_host_assert`` forms, with rocSPARSE's couplings
  (rocsparse_debug.cpp): enabling debug enables the argument checks' reports, which enable their verbose
  form; enabling verbose enables the arguments' verbose form; the disables mirror them.  The initial states
  come from ``ROCSPARSE_DEBUG``, ``ROCSPARSE_DEBUG_ARGUMENTS``, ``ROCSPARSE_DEBUG_ARGUMENTS_VERBOSE``,
  ``ROCSPARSE_DEBUG_VERBOSE``, ``ROCSPARSE_DEBUG_KERNEL_LAUNCH`` and ``ROCSPARSE_DEBUG_FORCE_HOST_ASSERT``
  (an unset one follows ``ROCSPARSE_DEBUG``, or the arguments' switch for their verbose form, as in
  rocSPARSE's debug.h; rocSPARSE reads ROCSPARSE_DEBUG where it means ROCSPARSE_DEBUG_ARGUMENTS, rocmath reads
  the variable it names).
- What they do here, for every rocmath.sparse call: arguments verbose writes the failed argument check (function,
  argument, position, status, message) to stderr when a call raises for one; verbose writes the failing call's
  Python trace there (rocSPARSE's code traces of unsuccessful returns); kernel launch synchronizes the handle's
  stream after each call, so that a fault of the work it launched (a ``MemoryAccessFault`` in checking mode) is
  raised by that call rather than by a later synchronization, as rocSPARSE checks HIP errors around each launch.
  Force-host-assert has nothing to act on (rocmath's kernels run on the host already) and is kept as a state.
- ``get_status_name`` and ``get_status_description`` of a ``rocsparse_status`` (any int; an unknown value has
  rocSPARSE's "Unrecognized status code").
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from ._types import SparseError, Status

__all__ = [
    "disable_debug", "disable_debug_arguments", "disable_debug_arguments_verbose", "disable_debug_force_host_assert",
    "disable_debug_kernel_launch", "disable_debug_verbose", "enable_debug", "enable_debug_arguments",
    "enable_debug_arguments_verbose", "enable_debug_force_host_assert", "enable_debug_kernel_launch",
    "enable_debug_verbose", "get_status_description", "get_status_name", "state_debug", "state_debug_arguments",
    "state_debug_arguments_verbose", "state_debug_force_host_assert", "state_debug_kernel_launch",
    "state_debug_verbose",
]

_SWITCHES = ("debug", "arguments", "arguments_verbose", "verbose", "kernel_launch", "force_host_assert")
_ENV = {"debug": "ROCSPARSE_DEBUG", "arguments": "ROCSPARSE_DEBUG_ARGUMENTS",
        "arguments_verbose": "ROCSPARSE_DEBUG_ARGUMENTS_VERBOSE", "verbose": "ROCSPARSE_DEBUG_VERBOSE",
        "kernel_launch": "ROCSPARSE_DEBUG_KERNEL_LAUNCH", "force_host_assert": "ROCSPARSE_DEBUG_FORCE_HOST_ASSERT"}
_lock = threading.Lock()
_state = dict.fromkeys(_SWITCHES, False)
#: Whether any switch that acts on calls is on: the one test a call makes when they are all off.
active = False


def _env(name: str) -> bool | None:
    text = os.environ.get(_ENV[name])
    if text is None:
        return None
    return text.strip().lower() not in ("", "0", "false", "off", "no")


def _set(**values: bool) -> None:
    global active
    with _lock:
        _state.update(values)
        active = _state["arguments_verbose"] or _state["verbose"] or _state["kernel_launch"]


def _initial() -> None:
    debug = bool(_env("debug"))
    arguments = _env("arguments")
    arguments = debug if arguments is None else arguments
    verbose = _env("verbose")
    arguments_verbose = _env("arguments_verbose")
    host_assert = _env("force_host_assert")
    _set(debug=debug, arguments=arguments, verbose=debug if verbose is None else verbose,
         arguments_verbose=arguments if arguments_verbose is None else arguments_verbose,
         kernel_launch=bool(_env("kernel_launch")), force_host_assert=debug if host_assert is None else host_assert)


_initial()


def _switch(name: str, on: bool, *, also: tuple[str, ...] = ()) -> Callable[[], None]:
    verb = "enable" if on else "disable"
    fname = f"{verb}_debug" + (f"_{name}" if name != "debug" else "")

    def fn() -> None:
        _set(**{name: on}, **dict.fromkeys(also, on))

    fn.__name__ = fn.__qualname__ = fname
    fn.__doc__ = f"``rocsparse_{fname}``" + (f" (also {', '.join(also)})" if also else "") + "."
    return fn


def _state_of(name: str) -> Callable[[], int]:
    fname = "state_debug" + (f"_{name}" if name != "debug" else "")

    def fn() -> int:
        return int(_state[name])

    fn.__name__ = fn.__qualname__ = fname
    fn.__doc__ = f"``rocsparse_{fname}``: 1 when on, else 0."
    return fn


# The couplings of rocsparse_debug.cpp: debug brings the argument reports, which bring their verbose form;
# verbose brings the arguments' verbose form.
enable_debug = _switch("debug", True, also=("arguments", "arguments_verbose"))
disable_debug = _switch("debug", False, also=("arguments", "arguments_verbose"))
enable_debug_arguments = _switch("arguments", True, also=("arguments_verbose",))
disable_debug_arguments = _switch("arguments", False, also=("arguments_verbose",))
enable_debug_arguments_verbose = _switch("arguments_verbose", True)
disable_debug_arguments_verbose = _switch("arguments_verbose", False)
enable_debug_verbose = _switch("verbose", True, also=("arguments_verbose",))
disable_debug_verbose = _switch("verbose", False, also=("arguments_verbose",))
enable_debug_kernel_launch = _switch("kernel_launch", True)
disable_debug_kernel_launch = _switch("kernel_launch", False)
enable_debug_force_host_assert = _switch("force_host_assert", True)
disable_debug_force_host_assert = _switch("force_host_assert", False)
state_debug = _state_of("debug")
state_debug_arguments = _state_of("arguments")
state_debug_arguments_verbose = _state_of("arguments_verbose")
state_debug_verbose = _state_of("verbose")
state_debug_kernel_launch = _state_of("kernel_launch")
state_debug_force_host_assert = _state_of("force_host_assert")


def run(fname: str, handle: Any, call: Callable[[], Any]) -> Any:
    """One call of ``rocsparse_<fname>`` while a debug switch acts (see the module docstring)."""
    try:
        out = call()
        if _state["kernel_launch"] and hasattr(handle, "stream"):
            handle.stream.synchronize()
        return out
    except SparseError as e:
        if _state["arguments_verbose"] and getattr(e, "arg", None) is not None:
            where = f" (#{e.index})" if getattr(e, "index", None) is not None else ""
            sys.stderr.write(f"rocsparse_{fname}: argument '{e.arg}'{where}: {Status(e.status).to_string()}: "
                             f"{e}\n")
        if _state["verbose"]:
            sys.stderr.write(f"rocsparse_{fname} returned {Status(e.status).to_string()}:\n"
                             + "".join(traceback.format_exc()))
        raise


_DESCRIPTIONS = {
    Status.success: "the operation completed",
    Status.invalid_handle: "the handle is not initialized, invalid or null",
    Status.not_implemented: "the function is not implemented for these arguments",
    Status.invalid_pointer: "a pointer argument is invalid",
    Status.invalid_size: "a size argument is invalid",
    Status.memory_error: "a memory allocation, copy or release failed",
    Status.internal_error: "an internal failure of the library",
    Status.invalid_value: "an argument has an invalid value",
    Status.arch_mismatch: "the device architecture is not supported",
    Status.zero_pivot: "a zero pivot was found",
    Status.not_initialized: "a descriptor has not been initialized",
    Status.type_mismatch: "the index or data types do not match",
    Status.requires_sorted_storage: "the function needs sorted storage",
    Status.thrown_exception: "an exception was thrown",
    Status.continue_: "nothing prevents the function from going on",
}


def _status(status: Any) -> Status | None:
    try:
        return Status(int(status))
    except (TypeError, ValueError):
        return None


def get_status_name(status: Any) -> str:
    """``rocsparse_get_status_name``: the enumerator's name (``"rocsparse_status_success"``), or
    ``"Unrecognized status code"``."""
    s = _status(status)
    return s.to_string() if s is not None else "Unrecognized status code"


def get_status_description(status: Any) -> str:
    """``rocsparse_get_status_description``: what the status means, or ``"Unrecognized status code"``."""
    s = _status(status)
    return _DESCRIPTIONS[s] if s is not None else "Unrecognized status code"
