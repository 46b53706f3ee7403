"""rocFFT's logging layers: ``ROCFFT_LAYER`` (bit 1 trace, 2 bench, 4 profile), read at setup.

- trace: one line per API call, ``function,name,value,name,value...`` as rocFFT's ``log_trace``
  writes them (pointers as hex addresses);
- bench: for every plan created, a ``rocmath-bench fft ...`` command with rocfft-bench's flags
  that builds the same plan (:func:`bench_command`; ``rocmath-bench fft`` parses it back);
- profile: per distinct plan (its bench command), executions and the device time of the work
  they launched, written as YAML when the library is cleaned up (or at exit).

Lines go to ``ROCFFT_LOG_TRACE_PATH`` / ``ROCFFT_LOG_BENCH_PATH`` / ``ROCFFT_LOG_PROFILE_PATH``,
else stderr (:class:`rocmath.log.Logger`).
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

from rocmath.log import Logger, ProfileTable

from ._plan import PlanSpec

TRACE, BENCH, PROFILE = 1, 2, 4


def layer_from_env() -> int:
    """The layer bits of ``ROCFFT_LAYER`` (decimal, or ``0x``/``0o``/``0b`` prefixed; 0 if unset or bad)."""
    try:
        return int(os.environ.get("ROCFFT_LAYER") or "0", 0) & 7
    except ValueError:
        return 0


def pointer(obj: Any) -> str:
    """How a handle or buffer appears in a trace line (null: ``0``)."""
    if obj is None:
        return "0"
    if isinstance(obj, int):
        return f"0x{obj:x}" if obj else "0"
    ptr = getattr(obj, "ptr", None)
    return f"0x{int(ptr):x}" if ptr is not None else f"0x{id(obj):x}"


def _ints(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(int(v)) for v in values)


def bench_command(spec: PlanSpec) -> str:
    """The ``rocmath-bench fft`` command that creates the plan of ``spec``.

    As rocFFT's ``rocfft_bench_command``: lengths and strides slowest first (rocfft-bench's
    order), then batch, placement, type, precision, array types, distances and offsets; a
    scale factor other than 1 is added as ``--scalefactor`` (rocfft-bench's flag).
    """
    parts = ["rocmath-bench fft", "--length", _ints(spec.lengths[::-1]), "-b", str(spec.batch)]
    if spec.placement.value == 1:
        parts.append("-o")
    parts += ["-t", str(spec.transform_type.value), "--precision", spec.precision.name,
              "--itype", str(spec.inp.array_type.value), "--otype", str(spec.out.array_type.value),
              "--istride", _ints(spec.inp.strides[::-1]), "--ostride", _ints(spec.out.strides[::-1]),
              "--idist", str(spec.inp.distance), "--odist", str(spec.out.distance),
              "--ioffset", _ints(spec.inp.offsets), "--ooffset", _ints(spec.out.offsets)]
    if spec.scale != 1.0:
        parts += ["--scalefactor", repr(spec.scale)]
    return " ".join(parts)


class LogState:
    """The layers, the logger and the profile table of one library setup."""

    def __init__(self) -> None:
        self.layer = layer_from_env()
        self.logger = Logger("rocfft")
        self._lock = threading.Lock()
        self._profile: ProfileTable | None = None

    def trace(self, function: str, *pairs: Any) -> None:
        """A trace line: ``function`` then ``name,value`` pairs (values already formatted or plain)."""
        if self.layer & TRACE:
            self.logger.write("trace", ",".join([function, *(str(p) for p in pairs)]))

    def bench(self, spec: PlanSpec) -> None:
        if self.layer & BENCH:
            self.logger.bench(bench_command(spec))

    def profile_table(self) -> ProfileTable | None:
        """The profile table (created on first use; written at cleanup or exit), None when not profiling."""
        if not self.layer & PROFILE:
            return None
        with self._lock:
            if self._profile is None:
                self._profile = ProfileTable()
                atexit.register(self.flush)
            return self._profile

    def flush(self) -> None:
        """Write the profile table (if any) and empty it."""
        with self._lock:
            table = self._profile
        if table is not None:
            table.flush(self.logger)
