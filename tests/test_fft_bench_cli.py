"""``rocmath-bench fft``: rocfft-bench's flag names and defaults, the plan they build, the report."""

from __future__ import annotations

import io

import pytest

import rocmath.fft as F
from rocmath.bench import cli
from rocmath.bench.rocfft_cli import UsageError, parse_args, plan_spec
from rocmath.fft._log import bench_command

PL, TT, P, AT = F.ResultPlacement, F.TransformType, F.Precision, F.ArrayType


def test_defaults_are_rocfft_bench_defaults() -> None:
    a = parse_args(["--length", "64"])
    assert (a.transform_type, a.precision, a.not_in_place, a.batch, a.ntrial) == (0, "single", False, 1, 1)
    assert (a.itype, a.otype, a.idist, a.odist, a.istride, a.ioffset, a.scalefactor) == (5, 5, 0, 0, None, None, 1.0)
    spec = plan_spec(a)
    assert spec.placement == PL.inplace and spec.precision == P.single and spec.batch == 1
    assert spec.inp.array_type == AT.complex_interleaved


def test_flag_names_and_short_forms() -> None:
    long = parse_args(["--length", "8", "16", "--batchSize", "3", "--transformType", "2", "--precision", "double",
                       "--notInPlace", "--ntrial", "4", "--itype", "2", "--otype", "3", "--istride", "16", "1",
                       "--ostride", "9", "1", "--idist", "128", "--odist", "72", "--ioffset", "1", "--ooffset", "2",
                       "--scalefactor", "0.5", "--device", "0", "--verbose", "0", "--inputGen", "1"])
    short = parse_args(["--length", "8", "16", "-b", "3", "-t", "2", "--precision", "double", "-o", "-N", "4",
                        "--inArrType", "2", "--outArrType", "3", "--istride", "16", "1", "--ostride", "9", "1",
                        "--idist", "128", "--odist", "72", "--ioffset", "1", "--ooffset", "2", "--scalefactor", "0.5",
                        "-g", "1"])
    assert plan_spec(long) == plan_spec(short)
    spec = plan_spec(short)
    # Lengths and strides are given slowest first; rocFFT's are fastest first.
    assert spec.lengths == (16, 8) and spec.inp.strides == (1, 16) and spec.out.strides == (1, 9)
    assert (spec.inp.distance, spec.out.distance, spec.inp.offsets, spec.out.offsets) == (128, 72, (1,), (2,))
    assert spec.transform_type == TT.real_forward and spec.placement == PL.notinplace and spec.scale == 0.5
    assert parse_args(["--length", "8", "--double"]).precision == "double"


@pytest.mark.parametrize("argv", [["--length"], ["--length", "1", "2", "3", "4"], ["--length", "8", "--double",
                                  "--precision", "single"], ["--length", "8", "--precision", "quad"],
                                  ["--length", "8", "--bogus"], ["-b", "2"]])
def test_usage_errors(argv: list[str]) -> None:
    with pytest.raises(UsageError):
        parse_args(argv)


def test_invalid_parameters_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fft", "--length", "8", "-t", "7"], out=io.StringIO()) == 2
    assert cli.main(["fft", "--length", "8", "-o", "--ostride", "0"], out=io.StringIO()) == 2
    assert "Invalid parameters" in capsys.readouterr().err


@pytest.mark.parametrize("spec_args", [
    (PL.notinplace, TT.complex_forward, P.single, 1, [1024], 16, None),
    (PL.inplace, TT.real_forward, P.double, 2, [12, 10], 3, None),
    (PL.notinplace, TT.complex_inverse, P.double, 3, [4, 6, 8], 2, ((2, 10, 70), 600, (1, 5, 40), 400, (3, 4))),
    (PL.notinplace, TT.real_inverse, P.half, 1, [30], 5, None),
])
def test_bench_command_replays_to_the_same_plan(spec_args: tuple) -> None:
    from rocmath.fft._api import make_spec

    pl, tt, pr, dims, lengths, batch, layout = spec_args
    desc = F.plan_description_create()
    if layout is not None:
        ist, idist, ost, odist, (ioff, ooff) = layout
        at = AT.complex_planar
        F.plan_description_set_data_layout(desc, at, AT.complex_interleaved, [ioff, ioff], [ooff], dims, ist, idist,
                                           dims, ost, odist)
    F.plan_description_set_scale_factor(desc, 0.25)
    spec = make_spec(pl, tt, pr, dims, lengths, batch, desc)
    line = bench_command(spec)
    assert line.startswith("rocmath-bench fft --length ")
    assert plan_spec(parse_args(line.split()[2:])) == spec


def test_report(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert cli.main(["fft", "--length", "64", "-b", "8", "-o", "-N", "3", "--idist", "64"], out=out) == 0
    text = out.getvalue()
    assert "Running profile with 3 samples\nidist: 64\nout-of-place\nlength: 64\n" in text
    times = next(line for line in text.splitlines() if line.startswith("Execution gpu time:"))
    assert times.endswith(" ms") and len(times.split()) == 3 + 3 + 1
    assert len(next(line for line in text.splitlines() if line.startswith("Execution gflops:")).split()) == 2 + 3
    assert "Reference scipy.fft time (workers=2, same process):" in text
    assert "ratio (reference median / rocmath median): " in text
    # In place real inverse, planar complex, half precision: they run too.
    for argv in (["--length", "16", "-t", "3", "-N", "1"], ["--length", "8", "8", "--itype", "1", "--otype", "1"],
                 ["--length", "20", "-t", "2", "--precision", "half", "-o"]):
        assert cli.main(["fft", *argv], out=io.StringIO()) == 0


def test_help_and_version() -> None:
    out = io.StringIO()
    assert cli.main(["fft", "--help"], out=out) == 0 and "--transformType" in out.getvalue()
    out = io.StringIO()
    assert cli.main(["fft", "--version"], out=out) == 0 and out.getvalue().startswith("version ")
