"""``ROCFFT_LAYER``: trace lines of the API calls, bench lines replaying to the same plan, and a
profile of executions and device time per plan, to ``ROCFFT_LOG_*_PATH`` files or stderr."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import rocmath as rm
import rocmath.fft as F
from rocmath.bench.rocfft_cli import parse_args, plan_spec

PL, TT, P, AT = F.ResultPlacement, F.TransformType, F.Precision, F.ArrayType


@pytest.fixture
def layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """Set ROCFFT_LAYER (by calling the returned setter) with every log to a file; reset after."""
    paths = {kind: tmp_path / f"{kind}.log" for kind in ("trace", "bench", "profile")}
    for kind, path in paths.items():
        monkeypatch.setenv(f"ROCFFT_LOG_{kind.upper()}_PATH", str(path))
    yield paths
    F.cleanup()  # write the profile and read the environment anew next time


def _start(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("ROCFFT_LAYER", value)
    F.cleanup()
    F.setup()


def _read(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_trace_lines(layer: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _start(monkeypatch, "1")
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 2, [8, 4], 3)
    x = rm.to_device(np.ones((3, 4, 8), np.complex128))
    y = rm.empty((3, 4, 8), np.complex128)
    info = F.execution_info_create()
    F.execution_info_set_stream(info, 0)
    F.execute(plan, [x], [y], info)
    F.plan_get_work_buffer_size(plan)
    F.plan_destroy(plan)
    rm.device_synchronize()
    lines = _read(layer["trace"])
    assert lines[0] == "rocfft_setup"
    create = next(line for line in lines if line.startswith("rocfft_plan_create,"))
    assert create.startswith("rocfft_plan_create,plan,0,placement,1,transform_type,0,precision,1,dimensions,2,"
                             "lengths,8 4,number_of_transforms,3,description,0")
    execute = next(line for line in lines if line.startswith("rocfft_execute,"))
    assert re.fullmatch(rf"rocfft_execute,plan,0x[0-9a-f]+,in_buffer,0x{x.ptr:x},out_buffer,0x{y.ptr:x},"
                        r"info,0x[0-9a-f]+", execute)
    assert any(line.startswith("rocfft_plan_get_work_buffer_size,plan,0x") and line.endswith(",val,0")
               for line in lines)
    assert any(line.startswith("rocfft_plan_destroy,plan,0x") for line in lines)
    assert any(line.startswith("rocfft_execution_info_set_stream,info,0x") for line in lines)
    assert not _read(layer["bench"]) and not _read(layer["profile"])


def test_bench_lines_replay_to_the_same_plan(layer: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _start(monkeypatch, "2")
    desc = F.plan_description_create()
    F.plan_description_set_data_layout(desc, AT.complex_planar, AT.complex_interleaved, [3, 5], [2], 2, [2, 40],
                                       400, 2, [1, 12], 150)
    F.plan_description_set_scale_factor(desc, 0.125)
    plans = [F.plan_create(PL.notinplace, TT.complex_inverse, P.single, 2, [12, 10], 4, desc),
             F.plan_create(PL.inplace, TT.real_forward, P.double, 1, [30], 7),
             F.plan_create(PL.notinplace, TT.real_inverse, P.half, 3, [6, 4, 2], 2)]
    lines = _read(layer["bench"])
    assert len(lines) == 3
    for line, plan in zip(lines, plans, strict=True):
        assert line.startswith("rocmath-bench fft --length ")
        assert plan_spec(parse_args(line.split()[2:])) == plan.spec
    assert lines[1] == ("rocmath-bench fft --length 30 -b 7 -t 2 --precision double --itype 2 --otype 3 "
                        "--istride 1 --ostride 1 --idist 32 --odist 16 --ioffset 0 --ooffset 0")


def test_profile_counts_executions_and_device_time(layer: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _start(monkeypatch, "4")
    a = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [64], 32)
    b = F.plan_create(PL.notinplace, TT.complex_forward, P.single, 1, [64], 32)
    xd = rm.to_device(np.ones((32, 64), np.complex128))
    yd = rm.empty((32, 64), np.complex128)
    xs = rm.to_device(np.ones((32, 64), np.complex64))
    ys = rm.empty((32, 64), np.complex64)
    for _ in range(3):
        F.execute(a, [xd], [yd])
    F.execute(b, [xs], [ys])
    rm.device_synchronize()
    assert not _read(layer["profile"])  # written at cleanup
    F.cleanup()
    rows = {}
    for line in _read(layer["profile"]):
        m = re.fullmatch(r'- \{ function: rocfft_execute, calls: (\d+), device_us: ([\d.]+), mean_us: ([\d.]+), '
                         r'(?:roofline_model_us: [\d.]+, roofline_model_of: "[^"]*", )?problem: "(.*)" \}', line)
        assert m, line
        rows[m[4]] = (int(m[1]), float(m[2]))
    assert sorted(c for c, _ in rows.values()) == [1, 3]
    assert all(us > 0 for _, us in rows.values())
    double = next(v for p, v in rows.items() if "--precision double" in p)
    assert double[0] == 3
    for problem in rows:
        assert plan_spec(parse_args(problem.split()[2:])) in (a.spec, b.spec)


def test_stderr_without_paths_and_nothing_without_layer(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("TRACE", "BENCH", "PROFILE"):
        monkeypatch.delenv(f"ROCFFT_LOG_{kind}_PATH", raising=False)
    _start(monkeypatch, "0x2")
    F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [16], 1)
    assert capsys.readouterr().err.strip() == ("rocmath-bench fft --length 16 -b 1 -o -t 0 --precision double "
                                               "--itype 0 --otype 0 --istride 1 --ostride 1 --idist 16 --odist 16 "
                                               "--ioffset 0 --ooffset 0")
    _start(monkeypatch, "0")
    F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [16], 1)
    F.cleanup()
    assert capsys.readouterr().err == ""
