"""What the library commands of ``rocmath-bench`` (``blas``, ``solver``, ``fft``, ``sparse``) share.

Each command parses its ROCm bench tool's flags and builds its problems; the pieces here are
the rest: the argument parser that reports usage errors (exit status 2) instead of exiting,
the flag value types, the device banner and ``--device`` check, the two timing loops the ROCm
bench tools use (the mean of ``hot`` back-to-back calls between synchronizations, and one
time per call), each interleaved with the NumPy/SciPy reference, the ratio of the
reference's median time to rocmath's with its bootstrap interval,
C++ stream formatting, and the error messages with their exit statuses.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from .report import Progress

__all__ = [
    "ROUNDS", "Parser", "Rounds", "UsageError", "bool_value", "choice", "device_line", "fmt_g", "letter",
    "print_help", "ratio", "ratio_interval", "select_device", "time_each", "time_rounds", "usage_failure",
]


class UsageError(Exception):
    """A bad command line: reported on stderr with exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of printing and exiting, and
    that gives a flag taking a value the next token whatever it looks like, as
    boost::program_options does (``--alpha -1e-05``, ``--beta -inf``: argparse alone takes
    those for flags)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if args is None:
            args = sys.argv[1:]
        return super().parse_known_args(self._attach_values(list(args)), namespace)

    def _attach_values(self, argv: list[str]) -> list[str]:
        """``FLAG VALUE`` as ``FLAG=VALUE`` for every flag that takes one value."""
        takes_value = {s for a in self._actions if a.option_strings and a.nargs is None for s in a.option_strings}
        out: list[str] = []
        i = 0
        while i < len(argv):
            if argv[i] in takes_value and i + 1 < len(argv):
                out.append(f"{argv[i]}={argv[i + 1]}")
                i += 2
            else:
                out.append(argv[i])
                i += 1
        return out


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


def ratio_interval(reference_ns: Sequence[float], measured_ns: Sequence[float]) -> tuple[float, float]:
    """The 95 % bootstrap interval of ``median(reference) / median(measured)`` (NaNs with fewer than
    3 samples a side, too few for an interval)."""
    from .timing import ratio_ci

    if min(len(reference_ns), len(measured_ns)) < 3 or min(measured_ns) <= 0:
        return math.nan, math.nan
    return ratio_ci(reference_ns, measured_ns)


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


#: The most rounds :func:`time_rounds` splits the hot calls into.
ROUNDS = 11


@dataclass(frozen=True)
class Rounds:
    """What :func:`time_rounds` measured.

    Attributes
    ----------
    mean_ns, reference_mean_ns
        Nanoseconds per call over all hot calls: rocmath's (rocblas-bench's ``us``) and the reference's.
    ratio
        ``median(reference) / median(rocmath)`` over the rounds' times per call (> 1: rocmath is faster).
    interval
        Its 95 % bootstrap interval (NaNs with fewer than 3 rounds).
    """

    mean_ns: float
    reference_mean_ns: float
    ratio: float
    interval: tuple[float, float]


def time_rounds(call: Callable[[], Any], sync: Callable[[], Any], reference: Callable[[], Any], cold: int,
                hot: int, rounds: int = ROUNDS, clock: Callable[[], int] = time.perf_counter_ns) -> Rounds:
    """The timing of rocblas-bench and rocsparse-bench (a loop of ``hot`` back-to-back calls after
    ``cold`` untimed ones), interleaved with the reference.

    The hot calls are split into ``min(hot, rounds)`` rounds of (nearly) equal size; a round times
    its calls of rocmath's back to back up to a synchronization, then as many of the reference's,
    A B A B ..., so that machine noise hits both alike.  The means per call are rocblas-bench's
    (synchronized once a round rather than once); the ratio is of the medians over the rounds, with
    its bootstrap interval, so that one disturbed round does not move it.  ``hot = 0`` makes only
    the cold calls and gives zero times.  ``clock`` is an integer nanosecond clock (tests pass a
    fake one).
    """
    from .timing import median

    for _ in range(cold):
        call()
    sync()
    for _ in range(cold):
        reference()
    count = min(hot, rounds)
    if count < 1:
        return Rounds(0.0, 0.0, math.nan, (math.nan, math.nan))
    sizes = [hot // count + (i < hot % count) for i in range(count)]
    mine: list[float] = []
    ref: list[float] = []
    progress = Progress(count)
    gc_was_on = gc.isenabled()
    gc.disable()  # a collection would land in one side's round (as in timing.time_interleaved)
    try:
        for size in sizes:
            t0 = clock()
            for _ in range(size):
                call()
            sync()
            t1 = clock()
            for _ in range(size):
                reference()
            t2 = clock()
            mine.append((t1 - t0) / size)
            ref.append((t2 - t1) / size)
            progress.step()
    finally:
        if gc_was_on:
            gc.enable()
        progress.clear()
    return Rounds(sum(t * n for t, n in zip(mine, sizes, strict=True)) / hot,
                  sum(t * n for t, n in zip(ref, sizes, strict=True)) / hot,
                  ratio(median(ref), median(mine)), ratio_interval(ref, mine))


def time_each(calls: Sequence[Callable[[], Any]], trials: int, *, cold: int = 0,
              before: Callable[[], Any] | None = None, progress: Progress | None = None) -> list[list[int]]:
    """Nanoseconds of every call of ``calls``, taken in turn ``trials`` times.

    Each round runs ``before`` (untimed: fresh input), then times each of ``calls`` once, so
    that machine noise hits them alike (rocsolver-bench's per-call loop; rocfft-bench's trials,
    interleaved here with the reference).  ``cold`` untimed rounds come first.  A call that
    queues asynchronous work must wait for it itself.  A run longer than a few seconds shows
    a progress line on a terminal: its own, or ``progress`` (stepped once a round, left for the
    caller to clear) when one timing spans several calls.

    Returns
    -------
    list of list of int
        One list of ``trials`` times per call.
    """
    times: list[list[int]] = [[] for _ in calls]
    own = progress is None
    shown = Progress(cold + trials) if progress is None else progress
    try:
        for i in range(cold + trials):
            if before is not None:
                before()
            for fn, samples in zip(calls, times, strict=True):
                t0 = time.perf_counter_ns()
                fn()
                if i >= cold:
                    samples.append(time.perf_counter_ns() - t0)
            shown.step()
    finally:
        if own:
            shown.clear()
    return times
