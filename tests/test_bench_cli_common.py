"""bench/_cli_common.py: what the blas, solver, fft and sparse commands of rocmath-bench share
(parser, flag types, device selection, the two timing loops interleaved with the reference, the ratio
with its interval, number formatting)."""

from __future__ import annotations

import argparse
import io
import math
from typing import Any

import pytest

import rocmath as rm
from rocmath.bench import _cli_common as common
from rocmath.bench import rocblas_cli, rocfft_cli, rocsolver_cli, rocsparse_cli


def test_the_commands_share_one_usage_error() -> None:
    for module in (rocblas_cli, rocfft_cli, rocsolver_cli, rocsparse_cli):
        assert module.UsageError is common.UsageError
    p = common.Parser(prog="x", add_help=False)
    p.add_argument("--n", type=int)
    with pytest.raises(common.UsageError, match="invalid int value"):
        p.parse_args(["--n", "x"])
    with pytest.raises(common.UsageError, match="unrecognized"):
        p.parse_args(["--bogus"])


def test_flag_types() -> None:
    assert [common.bool_value(t) for t in ("1", "True", "yes", "on", "0", "false", "No", "off")] == [True] * 4 + [
        False] * 4
    assert common.letter("NTC")("t") == "T" and common.choice((0, 2))("2") == 2
    for parse, text in ((common.bool_value, "maybe"), (common.letter("NT"), "X"), (common.letter("NT"), "NT"),
                        (common.choice((0, 2)), "1")):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(text)


def test_formatting_ratio_and_device() -> None:
    assert common.fmt_g(1234567.0) == "1.23457e+06" and common.fmt_g(0.5) == "0.5"
    assert common.ratio(3.0, 2.0) == 1.5 and math.isnan(common.ratio(1.0, 0.0))
    props = rm.get_device_properties()
    assert common.device_line() == (f"Device ID {rm.get_device()} : {props.name} {props.gcnArchName} "
                                    "(simulated on this host)\n")
    common.select_device(0, "unused")
    with pytest.raises(common.UsageError, match="no such device"):
        common.select_device(rm.get_device_count(), "no such device")


def test_usage_failure_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert common.usage_failure("rocmath-bench x", "bad flag") == 2
    assert capsys.readouterr().err == "rocmath-bench x: bad flag\n"
    out = io.StringIO()
    assert common.print_help(common.Parser(prog="rocmath-bench x", description="hello"), out) == 0
    assert "hello" in out.getvalue()


def test_time_rounds_interleaves_the_hot_calls_in_rounds() -> None:
    log: list[str] = []
    timed = common.time_rounds(lambda: log.append("a"), lambda: log.append("sync"), lambda: log.append("ref"), 2, 7,
                               rounds=3)
    # Cold calls of each, then 7 hot calls in rounds of 3, 2, 2: rocmath's to a synchronize, then the reference's.
    assert log == ["a", "a", "sync", "ref", "ref", *["a"] * 3, "sync", *["ref"] * 3,
                   *(["a", "a", "sync", "ref", "ref"] * 2)]
    assert timed.mean_ns > 0 and timed.reference_mean_ns > 0 and timed.ratio > 0
    assert timed.interval[0] <= timed.interval[1]
    log.clear()
    few = common.time_rounds(lambda: log.append("a"), lambda: None, lambda: log.append("ref"), 0, 2)
    assert log == ["a", "ref", "a", "ref"] and all(math.isnan(v) for v in few.interval)  # 2 rounds: no interval
    log.clear()
    none = common.time_rounds(lambda: log.append("a"), lambda: log.append("sync"), lambda: None, 1, 0)
    assert log == ["a", "sync"] and none.mean_ns == 0 and math.isnan(none.ratio)  # warm-up only


def test_time_rounds_ratio_is_of_the_medians() -> None:
    """One round disturbed on the reference's side moves its mean, not the ratio of the medians."""
    # A fake clock: the five rounds take 10 ns of rocmath's, then 20 ns of the reference's (the last 2000 ns).
    ticks = iter([0, 10, 30, 30, 40, 60, 60, 70, 90, 90, 100, 120, 120, 130, 2130])
    timed = common.time_rounds(lambda: None, lambda: None, lambda: None, 0, 5, clock=lambda: next(ticks))
    assert timed.mean_ns == 10 and timed.reference_mean_ns == (4 * 20 + 2000) / 5
    assert timed.ratio == 2.0 and timed.interval[0] <= 2.0 <= timed.interval[1]


def test_time_each_interleaves_the_calls_after_cold_rounds() -> None:
    log: list[Any] = []
    times = common.time_each([lambda: log.append("a"), lambda: log.append("b")], 2, cold=1,
                             before=lambda: log.append("reset"))
    assert log == ["reset", "a", "b"] * 3
    assert [len(t) for t in times] == [2, 2] and all(t >= 0 for ts in times for t in ts)
    assert common.time_each([lambda: None], 0) == [[]]


def test_ratio_interval_brackets_the_median_ratio() -> None:
    ref = [200.0, 210.0, 190.0, 205.0, 195.0, 400.0]  # one outlier: medians ignore it
    mine = [100.0, 104.0, 98.0, 101.0, 99.0, 102.0]
    lo, hi = common.ratio_interval(ref, mine)
    assert lo <= (sorted(ref)[2] + sorted(ref)[3]) / (sorted(mine)[2] + sorted(mine)[3]) <= hi
    assert 1.8 < lo <= hi <= max(ref) / min(mine)
    assert all(math.isnan(v) for v in common.ratio_interval([], mine))
    assert all(math.isnan(v) for v in common.ratio_interval(ref[:2], mine[:2]))  # too few for an interval


@pytest.mark.parametrize("command", [
    "blas -f axpy -r f32_r -n 256 -i 5 -j 1",
    "sparse -f csrmv -r d -m 60 -n 50 -i 5",
    "solver -f getrf -r d -m 8 -n 8 -i 5 -j 0",
])
def test_library_commands_print_the_ratio_interval(command: str) -> None:
    import shlex

    from rocmath.bench.cli import main

    out = io.StringIO()
    assert main(shlex.split(command), out=out) == 0
    lines = [line for line in out.getvalue().splitlines() if "ratio-lo" in line]
    assert lines, out.getvalue()
    header = [c.strip() for c in (lines[0].split(",") if "," in lines[0] else lines[0].split())]
    rows = out.getvalue().splitlines()
    row = rows[rows.index(lines[0]) + 1]
    cells = dict(zip(header, [c.strip() for c in (row.split(",") if "," in row else row.split())], strict=True))
    lo, hi = float(cells["ratio-lo"]), float(cells["ratio-hi"])
    assert 0 <= lo <= hi  # (the sparse table prints two decimals)


def test_fft_command_prints_the_ratio_interval() -> None:
    import shlex

    from rocmath.bench.cli import main

    out = io.StringIO()
    assert main(shlex.split("fft --length 64 -b 2 -t 0 -N 5"), out=out) == 0
    assert "95 % bootstrap interval" in out.getvalue()
