"""``rocmath-bench fft``: rocfft-bench's flag names and defaults, the plan they build, the report; rocFFT's
test tokens (``--token``) and the ``--verify`` check."""

from __future__ import annotations

import dataclasses
import io

import pytest

import rocmath.fft as F
from rocmath.bench import cli
from rocmath.bench.rocfft_cli import TOKEN_SCALE, Setup, UsageError, parse_args, parse_token, plan_spec, token
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


# --- rocFFT's test tokens (--token) and --verify ---------------------------------------------------

EXAMPLE = "complex_forward_len_64_single_ip_batch_1_istride_1_CI_ostride_1_CI_idist_64_odist_64_ioffset_0_0_ooffset_0_0"


def test_token_is_rocfft_params_token() -> None:
    assert token(plan_spec(parse_args(["--length", "64"]))) == EXAMPLE
    assert plan_spec(parse_args(["--token", EXAMPLE])) == plan_spec(parse_args(["--length", "64"]))
    spec = plan_spec(parse_args(["--length", "8", "6", "-t", "2", "--precision", "double", "-b", "3"]))
    # In place real: rows padded to 2 (n/2 + 1) reals; lengths and strides slowest first.
    assert token(spec) == ("real_forward_len_8_6_double_ip_batch_3_istride_8_1_R_ostride_4_1_HI_idist_64_odist_32_"
                           "ioffset_0_0_ooffset_0_0")


@pytest.mark.parametrize("argv", [
    ["--length", "1024", "-o", "-b", "16"],
    ["--length", "12", "10", "-t", "2", "--precision", "double", "-b", "3"],
    ["--length", "8", "6", "4", "-t", "1", "--precision", "double", "-o", "-b", "2", "--istride", "70", "10", "2",
     "--idist", "600", "--ostride", "40", "5", "1", "--odist", "400", "--itype", "1", "--ioffset", "3", "4"],
    ["--length", "30", "-t", "3", "--precision", "half", "-o", "-b", "5", "--scalefactor", "0.25"],
])
def test_token_round_trip(argv: list[str]) -> None:
    spec = plan_spec(parse_args(argv))
    again = plan_spec(parse_args(["--token", token(spec)]))
    # A token marks a scale factor without its value: rocFFT reads "_scale" as 0.1239.
    assert again == (spec if spec.scale == 1.0 else dataclasses.replace(spec, scale=TOKEN_SCALE))


def test_token_grammar() -> None:
    t = parse_token("real_inverse_len_16_8_double_op_batch_2_ostride_8_1_R_istride_5_1_HI_odist_128_idist_40"
                    "_ooffset_1_ioffset_2_0_scale_autoallocation_on")
    assert t["transform_type"] == 3 and t["length"] == [16, 8] and t["precision"] == "double" and t["not_in_place"]
    assert (t["batch"], t["istride"], t["ostride"], t["itype"], t["otype"]) == (2, [5, 1], [8, 1], 3, 2)
    assert (t["idist"], t["odist"], t["ioffset"], t["ooffset"]) == (40, 128, [2, 0], [1])
    assert t["scalefactor"] == TOKEN_SCALE and t["auto_allocate"] is True
    t = parse_token("complex_inverse_len_5_half_ip_batch_1_istride_UN_ostride_CP_multigpu_1")
    assert (t["istride"], t["itype"], t["otype"], t["transform_type"]) == (None, 5, 1, 1)


@pytest.mark.parametrize("bad", [
    "complex_sideways_len_8_single_ip_batch_1", "complex_forward_8_single_ip_batch_1",
    "complex_forward_len_single_ip_batch_1", "complex_forward_len_8_quad_ip_batch_1",
    "complex_forward_len_8_single_xp_batch_1", "complex_forward_len_8_single_ip_batch_x",
    "complex_forward_len_8_single_ip_batch", "complex_forward_len_8_single_ip_batch_1_idist_",
    "complex_forward_len_8_single_ip_batch_1_bogus", "complex_forward_len_8_single_ip_batch_1_autoallocation_x",
    # What rocmath-bench fft cannot run: callbacks, fields of bricks, several GPUs.
    "complex_forward_len_8_single_ip_batch_1_CB",
    "complex_forward_len_8_single_ip_batch_1_ifield_brick_lower_0_upper_8_stride_1_dev_0",
    "complex_forward_len_8_single_ip_batch_1_multigpu_2",
])
def test_bad_tokens(bad: str) -> None:
    with pytest.raises(UsageError, match="Unable to parse token"):
        parse_token(bad)


def test_token_run_and_verify(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert cli.main(["fft", "--token", EXAMPLE, "-N", "2", "--verify", "1"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[:4] == ["Running profile with 2 samples", "Reading fft params from token:", EXAMPLE,
                         f"Token: {EXAMPLE}"]
    check = lines[-1]
    assert check.startswith("Verification against scipy.fft (double precision): relative L2 error ")
    assert check.endswith(": passed")
    # Every run prints its token; the other plans of test_report, verified, and an in-place real 2D
    # batch (the buffer holds the longer Hermitian output of the last entry too).
    for argv in (["--length", "16", "-t", "3"], ["--length", "8", "8", "--itype", "1", "--otype", "1"],
                 ["--length", "20", "-t", "2", "--precision", "half", "-o"],
                 ["--length", "64", "-b", "8", "-o", "--idist", "64", "--scalefactor", "0.5"],
                 ["--length", "8", "8", "-t", "2", "-b", "2"]):
        out = io.StringIO()
        assert cli.main(["fft", *argv, "--verify", "1"], out=out) == 0, capsys.readouterr().err
        text = out.getvalue()
        assert f"Token: {token(plan_spec(parse_args(argv)))}\n" in text and text.endswith(": passed\n")
    assert cli.main(["fft", "--token", "complex_forward_len_8_single_ip_batch_1_CB"], out=io.StringIO()) == 2
    assert cli.main(["fft", "-b", "2"], out=io.StringIO()) == 2  # neither --length nor --token
    assert "Unable to parse token" in capsys.readouterr().err


def test_verify_catches_a_wrong_result(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = Setup.execute

    def off_by_a_bit(self: Setup) -> None:
        real(self)
        self.dev_out[0].set(self.dev_out[0].get() * 1.001)

    monkeypatch.setattr(Setup, "execute", off_by_a_bit)
    out = io.StringIO()
    assert cli.main(["fft", "--length", "64", "--verify", "1"], out=out) == 1
    assert out.getvalue().endswith(": FAILED\n") and "error above tolerance" in capsys.readouterr().err


def test_short_flags_of_rocfft_bench() -> None:
    out = io.StringIO()
    assert cli.main(["fft", "-v"], out=out) == 0 and out.getvalue().startswith("version ")  # -v is --version
    assert parse_args(["--length", "8", "-d", "0"]).device == 0
    with pytest.raises(UsageError):
        parse_args(["--length", "8", "--verify", "2"])
