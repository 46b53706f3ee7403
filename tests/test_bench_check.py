"""``rocmath-bench check``: saved results against a new run or another file, regressions beyond the
bootstrap intervals flagged, with the exit status.

The suites here are fake (cases that sleep), so that a run takes milliseconds and a slowdown is
real and large: no result of the machine's is committed, as machines differ.
"""

from __future__ import annotations

import copy
import io
import json
import time
from typing import Any

import numpy as np
import pytest

from rocmath.bench import BenchCase, Problem, Registry
from rocmath.bench.check import DEFAULT_THRESHOLD, compare_docs, load
from rocmath.bench.cli import main
from rocmath.bench.report import JSON_SCHEMA

#: How much slower the rocmath side of fake.slower runs (changed between the two runs).
SLOWDOWN = {"factor": 1.0}


def _sleeper(rocmath_ms: Any, reference_ms: float) -> Any:
    def setup(n: int) -> Problem:
        out = np.ones(n)

        def run() -> np.ndarray:
            time.sleep(rocmath_ms() / 1e3)
            return out

        def reference() -> np.ndarray:
            time.sleep(reference_ms / 1e3)
            return out

        return Problem(run=run, reference=reference, flops=2 * n)

    return setup


#: The fake cases' unit of sleep, in ms.  A loaded machine oversleeps by up to a millisecond or two
#: (in a cold-cache run of the suite, with the other worker compiling kernels, a 1 ms sleep read
#: as a regression beyond the 50 % threshold): the shortest sleep is this long.
UNIT_MS = 4.0


def _registry() -> Registry:
    reg = Registry()
    reg.register(BenchCase("fake.steady", _sleeper(lambda: 2 * UNIT_MS, 2 * UNIT_MS), {"quick": [4]}))
    reg.register(BenchCase("fake.slower", _sleeper(lambda: UNIT_MS * SLOWDOWN["factor"], 4 * UNIT_MS),
                           {"quick": [4, 8]}))
    return reg


def _run(argv: list[str], reg: Registry | None = None) -> tuple[int, str]:
    out = io.StringIO()
    status = main(argv, registry=reg or _registry(), out=out)
    return status, out.getvalue()


def _rows(text: str) -> dict[tuple[str, str], str]:
    """The verdict of each (case, size) row of a check report."""
    rows = {}
    for line in text.splitlines():
        words = line.split()
        if words[:1] and words[0].startswith("fake."):
            rows[words[0], words[1]] = line
    return rows


@pytest.fixture
def two_runs(tmp_path: Any) -> tuple[str, str]:
    """The quick suite saved twice, the second time with fake.slower's rocmath side 10x slower."""
    paths = []
    for i, factor in enumerate((1.0, 10.0)):
        SLOWDOWN["factor"] = factor
        path = str(tmp_path / f"run{i}.json")
        status, text = _run(["--suite", "quick", "--repeats", "7", "--warmup", "1", "--json", path])
        assert status == 0, text
        paths.append(path)
    SLOWDOWN["factor"] = 1.0
    return paths[0], paths[1]


def test_check_two_saved_runs(two_runs: tuple[str, str], tmp_path: Any) -> None:
    before, after = two_runs
    status, text = _run(["check", before, after, "--threshold", "0.5", "--json", str(tmp_path / "v.json")])
    assert status == 1, text
    rows = _rows(text)
    assert set(rows) == {("fake.steady", "4"), ("fake.slower", "4"), ("fake.slower", "8")}
    assert rows["fake.steady", "4"].endswith("same (within noise)")
    for size in ("4", "8"):
        assert rows["fake.slower", size].endswith("regressed: time, ratio")
    assert "2 regressed, 0 failing, 0 improved, 1 within noise" in text
    verdicts = json.loads((tmp_path / "v.json").read_text())["verdicts"]
    slower = next(v for v in verdicts if v["case"] == "fake.slower")
    assert slower["status"] == "regressed" and slower["time_change"] > 3
    assert slower["cur_ratio"][2] < slower["base_ratio"][1]  # the intervals apart
    # The other way round it is an improvement (exit 0); a run against itself changes nothing.
    status, text = _run(["check", after, before, "--threshold", "0.5"])
    assert status == 0 and _rows(text)["fake.slower", "8"].endswith("improved: time, ratio")
    status, text = _run(["check", before, before])
    assert status == 0 and "0 regressed, 0 failing, 0 improved, 3 within noise" in text
    # The ratio alone (different machines): still a regression; time alone too.
    assert _run(["check", before, after, "--threshold", "0.5", "--metric", "ratio"])[0] == 1
    assert _run(["check", before, after, "--threshold", "0.5", "--metric", "time"])[0] == 1


def test_check_runs_the_baseline_configuration_again(two_runs: tuple[str, str], tmp_path: Any) -> None:
    before, after = two_runs
    saved = tmp_path / "now.json"
    status, text = _run(["check", before, "--threshold", "0.5", "--save", str(saved)])
    assert status == 0, text
    assert "warm med" in text and "3/3 passed" in text  # the new run's own report first
    assert all(line.endswith("same (within noise)") for line in _rows(text.split("baseline:")[1]).values())
    doc = load(str(saved))
    assert doc["config"]["repeats"] == 7 and doc["config"]["warmup"] == 1 and len(doc["results"]) == 3
    # Against the slow run, the new (fast again) run is an improvement; --repeats overrides the baseline's.
    status, text = _run(["check", after, "--threshold", "0.5", "--repeats", "3", "--save", str(saved)])
    assert status == 0 and "improved: time, ratio" in text
    assert len(load(str(saved))["results"][0]["warm"]["samples_ns"]) == 3


def test_check_records_a_missing_baseline_then_checks_against_it(tmp_path: Any) -> None:
    """The CI use: the first run on a machine records its baseline, later ones are checked against it."""
    import platform

    path = str(tmp_path / "baselines" / "{host}-quick.json")
    recorded = tmp_path / "baselines" / f"{platform.node()}-quick.json"
    status, text = _run(["check", path, "--repeats", "7", "--warmup", "1"])
    assert status == 0 and "baseline recorded in" in text and recorded.exists()
    assert load(str(recorded))["config"] == {"suite": "quick", "filter": None, "repeats": 7, "warmup": 1,
                                             "modules": [], "argv": load(str(recorded))["config"]["argv"]}
    status, text = _run(["check", path, "--threshold", "0.5"])  # the same code again: nothing moved
    assert status == 0 and "0 regressed" in text and "checked: both;" in text
    SLOWDOWN["factor"] = 10.0
    try:
        status, text = _run(["check", path, "--threshold", "0.5"])
        assert status == 1 and _rows(text.split("baseline:")[1])["fake.slower", "8"].endswith("regressed: time, ratio")
        # Accepting the change: --record makes the slow run the baseline, which the next check matches.
        assert _run(["check", path, "--record", "--repeats", "7", "--warmup", "1"])[0] == 0
        assert _run(["check", path, "--threshold", "0.5"])[0] == 0
    finally:
        SLOWDOWN["factor"] = 1.0
    # Re-recording keeps the old baseline's configuration unless told otherwise.
    assert _run(["check", path, "--record", "--filter", "steady"])[0] == 0
    assert load(str(recorded))["config"]["repeats"] == 7 and len(load(str(recorded))["results"]) == 1
    assert _run(["check", path, "--record"])[0] == 0
    assert load(str(recorded))["config"]["filter"] == "steady"
    # The options that choose the cases must be the baseline's; --record takes no CURRENT file.
    assert _run(["check", path, "--suite", "full"])[0] == 2
    assert _run(["check", path, "--filter", "slower"])[0] == 2
    assert _run(["check", path, str(recorded), "--record"])[0] == 2


def test_check_flags_a_case_that_fails_now(two_runs: tuple[str, str], tmp_path: Any) -> None:
    before, _ = two_runs
    reg = _registry()
    reg.register(BenchCase("fake.wrong", lambda n: Problem(run=lambda: np.ones(2), reference=lambda: np.zeros(2)),
                           {"quick": [1]}))
    status, text = _run(["check", before, "--threshold", "0.5"], reg)
    assert status == 1
    assert _rows(text)["fake.wrong", "1"].endswith("fails: wrong result")


# --- fabricated results ------------------------------------------------------------------------


def _stats(median: float, low: float, high: float) -> dict[str, Any]:
    return {"median_ns": median, "ci_low_ns": low, "ci_high_ns": high, "min_ns": low, "max_ns": high, "n": 3,
            "samples_ns": [low, median, high]}


def _row(case: str, warm: tuple[float, float, float] | None, ratio: tuple[Any, Any, Any] | None, ok: bool = True,
         error: str | None = None, size: Any = 8) -> dict[str, Any]:
    return {"case": case, "size": size, "label": str(size), "warm": None if warm is None else _stats(*warm),
            "ratio": None if ratio is None else ratio[0], "ratio_ci": None if ratio is None else list(ratio[1:]),
            "ok": ok, "error": error}


def _doc(*rows: dict[str, Any], host: str = "here") -> dict[str, Any]:
    return {"schema": JSON_SCHEMA, "timestamp": "2024-01-01T00:00:00+00:00", "rocmath_version": "0",
            "machine": {"hostname": host, "numba_num_threads": 2}, "config": {"suite": "quick"}, "all_ok": True,
            "results": list(rows)}


BASE = _doc(
    _row("a.steady", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("b.slower", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("c.faster", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("d.ratio_only", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("e.breaks", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("f.dropped", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("g.inf_ratio", (100, 95, 105), ("inf", "inf", "inf")),
    _row("h.barely", (100, 95, 105), (2.0, 1.9, 2.1)),
)
CURRENT = _doc(
    _row("a.steady", (103, 97, 108), (1.95, 1.85, 2.05)),
    _row("b.slower", (150, 140, 160), (1.4, 1.3, 1.5)),
    _row("c.faster", (60, 55, 65), (3.0, 2.8, 3.2)),
    _row("d.ratio_only", (100, 95, 105), (1.5, 1.4, 1.6)),
    _row("e.breaks", None, None, ok=False, error="RuntimeError: boom"),
    _row("g.inf_ratio", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("h.barely", (109, 108, 112), (2.0, 1.9, 2.1)),  # apart, but by less than 5 %
    _row("i.added", (100, 95, 105), (2.0, 1.9, 2.1)),
    _row("j.added_broken", None, None, ok=False),
)


def test_verdicts_of_fabricated_results() -> None:
    verdicts = {v.case: v for v in compare_docs(BASE, CURRENT)}
    status = {case: (v.status, v.reasons) for case, v in verdicts.items()}
    assert status == {
        "a.steady": ("same", []), "b.slower": ("regressed", ["time", "ratio"]),
        "c.faster": ("improved", ["time", "ratio"]), "d.ratio_only": ("regressed", ["ratio"]),
        "e.breaks": ("fails", ["error: RuntimeError: boom"]), "f.dropped": ("missing", []),
        "g.inf_ratio": ("same", []), "h.barely": ("same", []), "i.added": ("new", []),
        "j.added_broken": ("fails", ["wrong result"]),
    }
    assert verdicts["b.slower"].time_change == pytest.approx(1.5)
    assert [v.bad for v in verdicts.values()].count(True) == 4
    # What is checked and how far apart the intervals must be.
    assert {v.case for v in compare_docs(BASE, CURRENT, metric="time") if v.status == "regressed"} == {"b.slower"}
    assert {v.case for v in compare_docs(BASE, CURRENT, metric="ratio") if v.status == "regressed"} == {
        "b.slower", "d.ratio_only"}
    assert compare_docs(BASE, CURRENT, threshold=0.0)[7].status == "regressed"  # h.barely without a margin
    assert {v.status for v in compare_docs(BASE, CURRENT, threshold=1.0)} == {"same", "fails", "missing", "new"}
    assert DEFAULT_THRESHOLD == 0.05
    with pytest.raises(ValueError):
        compare_docs(BASE, CURRENT, metric="speed")


def test_check_files_exit_status_and_machine_note(tmp_path: Any) -> None:
    base, cur = tmp_path / "base.json", tmp_path / "cur.json"
    base.write_text(json.dumps(BASE))
    cur.write_text(json.dumps(CURRENT))
    status, text = _run(["check", str(base), str(cur)])
    assert status == 1 and "note: the machines differ" not in text
    assert "2 regressed, 2 failing, 1 improved, 3 within noise" in text
    fine = copy.deepcopy(CURRENT)
    fine["results"] = [r for r in fine["results"] if r["case"] in ("a.steady", "c.faster", "h.barely")]
    fine["machine"]["hostname"] = "elsewhere"
    cur.write_text(json.dumps(fine))
    status, text = _run(["check", str(base), str(cur)])
    # Across machines the default (auto) checks the ratios alone; --metric time or both check times too.
    assert status == 0 and "note: the machines differ (hostname): the ratios alone are checked" in text
    assert "checked: ratio;" in text
    assert _run(["check", str(base), str(cur), "--metric", "both"])[1].count("times do not compare") == 1
    status, text = _run(["check", str(base), str(cur), "--metric", "time"])
    assert status == 0 and "checked: time;" in text and "times do not compare" in text


def test_check_usage_errors(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "base.json"
    base.write_text(json.dumps(BASE))
    other = tmp_path / "other.json"
    other.write_text(json.dumps(_doc(_row("z.unrelated", (1, 1, 1), None))))
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"rows": []}))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    for argv in ([str(tmp_path / "missing.json"), str(base)], [str(base), str(foreign)], [str(base), str(garbage)],
                 [str(base), str(other)], [str(base), str(base), "--threshold", "-1"], [str(base), "--repeats", "0"],
                 [str(base), str(base), "--metric", "speed"], []):
        assert _run(["check", *argv])[0] == 2, argv
    err = capsys.readouterr().err
    assert "no case in common" in err and "not a rocmath-bench results file" in err and "cannot read" in err
