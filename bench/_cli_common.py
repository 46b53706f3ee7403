"""What the library commands of ``rocmath-bench`` (``blas``, ``solver``, ``fft``, ``sparse``) share.

Each command parses its ROCm bench tool's flags and builds its problems; the pieces here are
the rest: the argument parser that reports usage errors (exit status 2) instead of exiting,
the flag value types, the device banner and ``--device`` check, the two timing loops the ROCm
bench tools use (the mean of ``hot`` back-to-back calls between synchronizations, and one
time per call), the ratio of the reference's time to rocmath's with its bootstrap interval,
C++ stream formatting, and the error messages with their exit statuses.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

__all__ = [
    "INTERVAL_TRIALS", "Parser", "UsageError", "bool_value", "choice", "device_line", "fmt_g", "letter",
    "print_help", "ratio", "ratio_interval", "sampled_interval", "select_device", "time_each", "time_mean",
    "usage_failure",
]


class UsageError(Exception):
    """A bad command line: reported on stderr with exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


# --- flag value types --------------------------------------------------------------------------


def bool_value(text: str) -> bool:
    """A boost::program_options bool value (``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``)."""
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"not a bool: {text!r}")


def letter(allowed: str) -> Callable[[str], str]:
    """A flag type: one letter of ``allowed``, either case, returned upper case."""
    def parse(text: str) -> str:
        if len(text) != 1 or text.upper() not in allowed:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(allowed)}, got {text!r}")
        return text.upper()

    parse.__name__ = "letter"  # argparse names the type in its error message
    return parse


def choice(allowed: tuple[int, ...]) -> Callable[[str], int]:
    """A flag type: one integer of ``allowed``."""
    def parse(text: str) -> int:
        value = int(text)
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(map(str, allowed))}, got {value}")
        return value

    parse.__name__ = "choice"
    return parse


# --- output --------------------------------------------------------------------------------------


def fmt_g(x: float) -> str:
    """A double as C++'s default ostream prints it (6 significant digits)."""
    return f"{x:g}"


def ratio(reference: float, measured: float) -> float:
    """``reference / measured`` (above 1: rocmath is faster); NaN when ``measured`` is not positive."""
    return reference / measured if measured > 0 else math.nan


#: Single interleaved calls behind the interval of the commands that time a loop's mean.
INTERVAL_TRIALS = 11


def ratio_interval(reference_ns: Sequence[float], measured_ns: Sequence[float]) -> tuple[float, float]:
    """The 95 % bootstrap interval of ``median(reference) / median(measured)`` (NaNs without samples)."""
    from .timing import ratio_ci

    if not reference_ns or not measured_ns or min(measured_ns) <= 0:
        return math.nan, math.nan
    return ratio_ci(reference_ns, measured_ns)


def sampled_interval(call: Callable[[], Any], sync: Callable[[], Any], reference: Callable[[], Any],
                     trials: int) -> tuple[float, float]:
    """:func:`ratio_interval` from ``trials`` single calls of rocmath's (synchronized) and the
    reference's, interleaved: the tools that report a loop's mean time add it beside their ratio.
    Fewer than 3 trials give no interval (NaNs) and make no call."""
    if trials < 3:
        return math.nan, math.nan

    def timed() -> None:
        call()
        sync()

    measured, ref = time_each([timed, reference], int(trials))
    return ratio_interval(ref, measured)


def device_line() -> str:
    """The ROCm bench tools' device line, for the simulated device in use."""
    import rocmath as rm

    props = rm.get_device_properties()
    return f"Device ID {rm.get_device()} : {props.name} {props.gcnArchName} (simulated on this host)\n"


def select_device(device: int, message: str) -> None:
    """Make ``device`` current.

    Raises
    ------
    UsageError
        With ``message`` (each tool words it its own way) when there is no such device.
    """
    import rocmath as rm

    if not 0 <= device < rm.get_device_count():
        raise UsageError(message)
    rm.set_device(device)


def usage_failure(prog: str, error: BaseException | str) -> int:
    """Report a usage error on stderr as ``PROG: message``; the exit status 2."""
    sys.stderr.write(f"{prog}: {error}\n")
    return 2


def print_help(parser: argparse.ArgumentParser, out: TextIO) -> int:
    """Print the command's help; the exit status 0."""
    out.write(parser.format_help())
    return 0


# --- timing --------------------------------------------------------------------------------------


def time_mean(call: Callable[[], Any], sync: Callable[[], Any], cold: int, hot: int) -> float:
    """Mean nanoseconds of ``hot`` back-to-back calls after ``cold`` untimed ones, synchronized
    before and after the timed loop (rocblas-bench's and rocsparse-bench's loops)."""
    for _ in range(cold):
        call()
    sync()
    t0 = time.perf_counter_ns()
    for _ in range(hot):
        call()
    sync()
    return (time.perf_counter_ns() - t0) / max(hot, 1)


def time_each(calls: Sequence[Callable[[], Any]], trials: int, *, cold: int = 0,
              before: Callable[[], Any] | None = None) -> list[list[int]]:
    """Nanoseconds of every call of ``calls``, taken in turn ``trials`` times.

    Each round runs ``before`` (untimed: fresh input), then times each of ``calls`` once, so
    that machine noise hits them alike (rocsolver-bench's per-call loop; rocfft-bench's trials,
    interleaved here with the reference).  ``cold`` untimed rounds come first.  A call that
    queues asynchronous work must wait for it itself.

    Returns
    -------
    list of list of int
        One list of ``trials`` times per call.
    """
    times: list[list[int]] = [[] for _ in calls]
    for i in range(cold + trials):
        if before is not None:
            before()
        for fn, samples in zip(calls, times, strict=True):
            t0 = time.perf_counter_ns()
            fn()
            if i >= cold:
                samples.append(time.perf_counter_ns() - t0)
    return times
