"""Tests of the bench harness (rocmath.bench): registry, discovery, timing math, runner, report, CLI.

Timing is tested with fake clocks and call logs, never with absolute speeds.
"""

from __future__ import annotations

import importlib
import io
import json
import math
import sys
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath.bench import (
    BenchCase,
    Problem,
    Registry,
    bench_case,
    default_registry,
    discover,
    max_rel_error,
    run_case,
    run_cases,
)
from rocmath.bench.cli import main
from rocmath.bench.report import JSON_SCHEMA, format_time
from rocmath.bench.runner import KERNEL_ROUNDS
from rocmath.bench.timing import (
    WARM_BUDGET_NS,
    WARM_CALLS,
    Stats,
    bootstrap_ci,
    median,
    ratio_ci,
    time_call,
    time_interleaved,
    warm_up,
)

RUNTIME_CASES = {
    "runtime.memcpy_h2d", "runtime.memcpy_d2h", "runtime.memcpy_d2d", "runtime.memset", "runtime.fill",
    "runtime.full", "runtime.copy_strided", "runtime.launch_latency",
}


class FakeClock:
    """A nanosecond clock that only moves when a fake workload says so."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now

    def advance(self, ns: int) -> None:
        self.now += ns


def _const_problem(value: float = 1.0, expected: float | None = None, **kw: Any) -> Problem:
    out = np.full(4, value)
    ref = np.full(4, value if expected is None else expected)
    return Problem(run=lambda: out, reference=lambda: ref, **kw)


# --- registry and discovery ------------------------------------------------------------------


def test_registry_register_select_and_duplicates() -> None:
    reg = Registry()

    @bench_case("lib.a", sizes={"quick": [1], "full": [1, 2]}, registry=reg)
    def a(n: int) -> Problem:
        """First line is the description.

        More text."""
        return _const_problem()

    b = BenchCase("lib.b", lambda n: _const_problem(), {"full": [3]})
    assert reg.register(b) is b
    assert reg.register(b) is b  # the same object again is a no-op
    with pytest.raises(ValueError, match="already registered"):
        reg.register(BenchCase("lib.b", lambda n: _const_problem(), {"full": [3]}))

    assert a.bench_case.description == "First line is the description."
    assert a.bench_case.suites == ("quick", "full")
    assert a.bench_case.library == "lib"
    assert [c.name for c in reg.select("quick")] == ["lib.a"]
    assert [c.name for c in reg.select("full")] == ["lib.a", "lib.b"]
    assert [c.name for c in reg.select(None, ".b")] == ["lib.b"]
    assert reg.suites() == ["full", "quick"]
    assert "lib.a" in reg and len(reg) == 2
    reg.unregister("lib.a")
    assert "lib.a" not in reg


@pytest.mark.parametrize("kwargs", [
    {"name": "", "sizes": {"quick": [1]}},
    {"name": "has space", "sizes": {"quick": [1]}},
    {"name": "x.y", "sizes": {}},
    {"name": "x.y", "sizes": {"quick": []}},
])
def test_bench_case_validation(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        BenchCase(setup=lambda n: _const_problem(), **kwargs)


def test_discover_registers_runtime_cases_and_skips_libraries_without_bench_cases() -> None:
    found = discover()
    assert found["rocmath.bench.cases_runtime"] == "ok"
    # Today no library has a bench_cases module: none is listed, none is an error.
    assert all(state == "ok" for state in found.values())
    assert {c.name for c in default_registry.select("quick")} >= RUNTIME_CASES
    assert {c.name for c in default_registry.select("quick")} <= {c.name for c in default_registry.select("full")}


def test_discover_imports_a_library_bench_cases_module(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for pkg, body in (("benchfake_with", "from rocmath.bench import BenchCase, register\n"
                       "register(BenchCase('benchfake.one', lambda n: None, {'quick': [1]}))\n"),
                      ("benchfake_broken", "import benchfake_no_such_module\n")):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
        (tmp_path / pkg / "bench_cases.py").write_text(body)
    (tmp_path / "benchfake_without").mkdir()
    (tmp_path / "benchfake_without" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        found = discover(("benchfake_with", "benchfake_without", "benchfake_missing_pkg", "benchfake_broken"))
        assert found["benchfake_with.bench_cases"] == "ok"
        assert "benchfake_without.bench_cases" not in found
        assert "benchfake_missing_pkg.bench_cases" not in found
        assert "benchfake_no_such_module" in found["benchfake_broken.bench_cases"]
        assert "benchfake.one" in default_registry
    finally:
        if "benchfake.one" in default_registry:
            default_registry.unregister("benchfake.one")
        for mod in [m for m in sys.modules if m.startswith("benchfake")]:
            del sys.modules[mod]


# --- timing math ---------------------------------------------------------------------------------


def test_median_and_bootstrap() -> None:
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    with pytest.raises(ValueError):
        median([])
    assert bootstrap_ci([7, 7, 7]) == (7.0, 7.0)
    samples = [10, 11, 12, 13, 14, 15, 100]
    lo, hi = bootstrap_ci(samples, seed=1)
    assert 10 <= lo <= median(samples) <= hi <= 100
    assert bootstrap_ci(samples, seed=1) == (lo, hi)  # seeded: reproducible
    rlo, rhi = ratio_ci([20, 20, 20], [10, 10, 10])
    assert rlo == rhi == 2.0
    st = Stats.from_samples([5, 1, 3])
    assert (st.median_ns, st.min_ns, st.max_ns, st.samples_ns) == (3, 1, 5, (5, 1, 3))
    assert st.to_dict()["n"] == 3


def test_warm_up_runs_quick_calls_to_their_steady_state_and_slow_ones_only_the_minimum() -> None:
    clock = FakeClock()
    log: list[str] = []

    def call(name: str, ns: int) -> Any:
        def run() -> None:
            log.append(name)
            clock.advance(ns)
        return run

    # Quick calls: WARM_CALLS rounds, whatever the minimum below it.
    assert warm_up((call("A", 1_000), call("B", 2_000)), 2, clock) == WARM_CALLS
    assert log == ["A", "B"] * WARM_CALLS
    # Slow ones: the minimum, then rounds only while the budget lasts.
    log.clear()
    assert warm_up((call("A", WARM_BUDGET_NS),), 3, clock) == 3
    log.clear()
    assert warm_up((call("A", WARM_BUDGET_NS // 4 + 1),), 0, clock) == 4
    assert log == ["A"] * 4


def test_time_interleaved_alternates_and_computes_ratio() -> None:
    clock = FakeClock()
    log: list[str] = []
    a_ns = iter([50, 10, 30, 20, 1000, 20, 20])  # 2 warm-up then 5 timed
    b_ns = iter([99, 99, 50, 50, 60, 40, 100])

    def fn_a() -> int:
        log.append("A")
        clock.advance(next(a_ns))
        return len(log)

    def fn_b() -> None:
        log.append("B")
        clock.advance(next(b_ns))

    seen: list[int] = []
    res = time_interleaved(fn_a, fn_b, 5, lambda: log.append("sync"), warmup=2, after_a=seen.append, clock=clock)
    assert log == ["A", "sync", "B"] * 7
    assert res.a.samples_ns == (30, 20, 1000, 20, 20)
    assert res.b.samples_ns == (50, 50, 60, 40, 100)
    assert (res.a.median_ns, res.a.min_ns, res.a.max_ns) == (20, 20, 1000)
    assert res.b.median_ns == 50
    assert res.ratio == 2.5
    assert res.ratio_ci[0] <= res.ratio <= res.ratio_ci[1]
    assert seen == [7, 10, 13, 16, 19]  # after_a sees each timed A's return value, not the warm-ups'
    with pytest.raises(ValueError):
        time_interleaved(fn_a, fn_b, 0)


def test_time_interleaved_prepares_each_a_outside_the_timed_region() -> None:
    clock = FakeClock()
    log: list[str] = []

    def prepare() -> None:
        log.append("P")
        clock.advance(1_000_000)  # a restore: never in A's samples

    def fn_a() -> None:
        log.append("A")
        clock.advance(10)

    res = time_interleaved(fn_a, lambda: log.append("B"), 3, warmup=1, before_a=prepare, clock=clock)
    assert log == ["P", "A", "B"] * 4
    assert res.a.samples_ns == (10, 10, 10) and res.b.samples_ns == (0, 0, 0)


def test_time_call_includes_sync() -> None:
    clock = FakeClock()
    ns, value = time_call(lambda: clock.advance(5) or "v", lambda: clock.advance(7), clock)
    assert (ns, value) == (12, "v")


# --- correctness check ---------------------------------------------------------------------------


def test_max_rel_error() -> None:
    assert max_rel_error(np.array([1.0, 2.0]), np.array([1.0, 2.0])) == 0.0
    assert max_rel_error(np.array([1.0, 2.5]), np.array([1.0, 2.0])) == pytest.approx(0.25)
    assert max_rel_error(np.array([0, 255], np.uint8), np.array([1, 255], np.uint8)) == pytest.approx(1 / 255)
    assert max_rel_error(np.array([np.nan, np.inf]), np.array([np.nan, np.inf])) == 0.0
    assert max_rel_error(np.array([np.nan, 1.0]), np.array([0.0, 1.0])) == math.inf
    assert max_rel_error(np.zeros(3), np.zeros(4)) == math.inf
    assert max_rel_error(np.array([1e-3]), np.array([0.0])) == math.inf
    assert max_rel_error((np.ones(2), np.zeros(1)), (np.ones(2), np.zeros(1))) == 0.0
    assert max_rel_error(np.array([1 + 1j]), np.array([1 + 0j])) == pytest.approx(1.0)


# --- runner -------------------------------------------------------------------------------------


def test_run_case_separates_cold_and_warm() -> None:
    clock = FakeClock()
    log: list[str] = []
    calls = {"a": 0}
    out = np.arange(4.0)

    def setup(n: int) -> Problem:
        def run() -> np.ndarray:
            calls["a"] += 1
            log.append("A")
            clock.advance(1_000_000 if calls["a"] == 1 else 1_000)  # the first call "compiles"
            return out

        def reference() -> np.ndarray:
            log.append("B")
            clock.advance(2_000)
            return np.arange(4.0)

        return Problem(run=run, reference=reference, bytes=4_000, label=f"n={n}")

    res = run_case(BenchCase("fake.cold", setup, {"quick": [4]}), 4, suite="quick", repeats=4, warmup=2,
                   clock=clock)
    assert res.ok and res.error is None
    # Cold, warm-up (at least 2 pairs; these 3 us ones: all WARM_CALLS within the budget), timed,
    # then the calls recording kernel times, each after a reference call as the timed ones are.
    assert log == ["A", "B"] + ["A", "B"] * WARM_CALLS + ["A", "B"] * 4 + ["B", "A"] * KERNEL_ROUNDS
    assert res.cold_ns == 1_000_000 and res.ref_cold_ns == 2_000
    assert res.warm is not None and res.warm.samples_ns == (1_000,) * 4
    assert res.reference is not None and res.reference.median_ns == 2_000
    assert res.ratio == 2.0
    assert res.throughput == (4.0, "GB/s")
    assert res.max_rel_err == 0.0 and res.label == "n=4"
    assert res.kernel is None  # nothing was launched


def test_run_case_restores_in_place_inputs_untimed_and_checks_every_result() -> None:
    """A call that overwrites its input (here: doubles it in place) gets it back before each warm
    call, outside the time: every call then does the first call's work, and the last timed call's
    result is checked as the first's (without the restore it would be 2^k times the input)."""
    clock = FakeClock()
    data = np.arange(4.0)
    pristine = data.copy()
    log: list[str] = []

    def setup(n: int) -> Problem:
        def run() -> np.ndarray:
            log.append("A")
            clock.advance(1_000)
            data[:] *= 2
            return data.copy()

        def restore() -> None:
            log.append("R")
            clock.advance(50_000)
            data[:] = pristine

        return Problem(run=run, reference=lambda: 2 * pristine, restore=restore, label=f"n={n}")

    res = run_case(BenchCase("fake.in_place", setup, {"quick": [4]}), 4, repeats=3, warmup=1, clock=clock)
    assert res.ok and res.max_rel_err == 0.0, res.error
    assert res.warm is not None and res.warm.samples_ns == (1_000,) * 3
    assert log[0] == "A" and log.count("R") == log.count("A") - 1  # the cold call needs none
    assert all(log[i - 1] == "R" for i, x in enumerate(log) if x == "A" and i > 0)

    def unrestored(n: int) -> Problem:
        p = setup(n)
        return Problem(run=p.run, reference=p.reference, label=p.label)

    data[:] = pristine
    res = run_case(BenchCase("fake.in_place", unrestored, {"quick": [4]}), 4, repeats=3, warmup=1, clock=clock)
    assert not res.ok and res.max_rel_err > 1  # the check of the last result sees the doubled input


def test_run_case_kernel_time_from_launch_records() -> None:
    """Kernel times come from calls of their own: the timed calls run without launch records (whose
    making would add to their time)."""
    launch_module = importlib.import_module("rocmath.launch")  # (rocmath.launch is the function)
    recorded: list[bool] = []

    def setup(n: int) -> Problem:
        s = rm.Stream()
        d = rm.zeros(n, stream=s)

        def run() -> rm.DeviceArray:
            recorded.append(bool(launch_module._sinks))
            rm.launch(np.copyto, d, 2.0, name="test.bench.fill", stream=s)
            return d

        return Problem(run=run, reference=lambda: np.full(n, 2.0), bytes=8 * n, stream=s, teardown=s.destroy)

    res = run_case(BenchCase("fake.kernel", setup, {"quick": [8]}), 8, repeats=3, warmup=1)
    assert res.ok, res.error
    assert res.kernel is not None and len(res.kernel.samples_ns) == KERNEL_ROUNDS
    assert recorded == [False] * (len(recorded) - KERNEL_ROUNDS) + [True] * KERNEL_ROUNDS
    assert res.warm is not None and res.kernel.median_ns <= res.warm.median_ns


class _CountingStream:
    """A stream stand-in counting the runner's synchronizes; ``idle`` is what query() says."""

    def __init__(self, idle: bool):
        self.idle, self.syncs, self.queries = idle, 0, 0

    def synchronize(self) -> None:
        self.syncs += 1

    def query(self) -> bool:
        self.queries += 1
        return self.idle


def test_run_case_times_a_synchronous_call_without_a_synchronize_and_checks_its_stream_is_idle() -> None:
    """A call that returns when its work is done (a host-mode reduction) is timed as it is called: no
    synchronize after it; its stream is checked to be idle after the first and after the timed calls,
    and a call so declared that leaves work behind fails the case."""
    for idle in (True, False):
        stream = _CountingStream(idle)

        def setup(n: int, stream: _CountingStream = stream) -> Problem:
            return Problem(run=lambda: np.arange(4.0), reference=lambda: np.arange(4.0), stream=stream,
                           synchronous=True)

        res = run_case(BenchCase("fake.synchronous", setup, {"quick": [4]}), 4, repeats=3, warmup=1)
        assert stream.syncs == 0
        if idle:
            assert res.ok and res.error is None and stream.queries == 2
        else:
            assert not res.ok and "declared synchronous but left work" in (res.error or "")
    nameless = run_case(BenchCase("fake.synchronous", lambda n: Problem(
        run=lambda: 1.0, reference=lambda: 1.0, synchronous=True), {"quick": [1]}), 1, repeats=2)
    assert not nameless.ok and "names its stream" in (nameless.error or "")


def test_run_case_reports_wrong_results_and_errors() -> None:
    wrong = run_case(BenchCase("fake.wrong", lambda n: _const_problem(1.0, 2.0), {"quick": [1]}), 1, repeats=2)
    assert not wrong.ok and wrong.error is None and wrong.max_rel_err == pytest.approx(0.5)
    loose = run_case(BenchCase("fake.loose", lambda n: _const_problem(1.0, 2.0, tol=0.6), {"quick": [1]}), 1,
                     repeats=2)
    assert loose.ok

    def boom(n: int) -> Problem:
        raise RuntimeError("setup exploded")

    broken = run_case(BenchCase("fake.broken", boom, {"quick": [1]}), 1)
    assert not broken.ok and "setup exploded" in (broken.error or "")
    assert "setup exploded" in json.dumps(broken.to_dict())


def test_runtime_quick_cases_pass_their_checks() -> None:
    discover()
    results = run_cases(default_registry.select("quick", "runtime."), "quick", repeats=2, warmup=0)
    assert {r.case for r in results} >= RUNTIME_CASES
    assert all(r.ok for r in results), [(r.case, r.max_rel_err, r.error) for r in results if not r.ok]
    assert all(r.cold_ns is not None and r.warm is not None for r in results)


# --- report and CLI ------------------------------------------------------------------------------


def test_format_time() -> None:
    assert format_time(850) == "850 ns"
    assert format_time(12_300) == "12.3 us"
    assert format_time(4_560_000) == "4.56 ms"
    assert format_time(1.23e9) == "1.23 s"
    assert format_time(None) == "-"


def _cli_registry() -> Registry:
    reg = Registry()
    reg.register(BenchCase("fake.tiny", lambda n: _const_problem(bytes=32), {"quick": [4], "full": [4, 8]}))
    reg.register(BenchCase("fake.other", lambda n: _const_problem(), {"full": [1]}))
    return reg


def test_cli_list() -> None:
    out = io.StringIO()
    assert main(["--list"], registry=_cli_registry(), out=out) == 0
    assert "fake.tiny" in out.getvalue() and "fake.other" in out.getvalue()
    out = io.StringIO()
    assert main(["--list", "--suite", "quick"], registry=_cli_registry(), out=out) == 0
    assert "fake.other" not in out.getvalue()


def test_cli_runs_and_writes_json(tmp_path: Any) -> None:
    path = tmp_path / "sub" / "run.json"
    out = io.StringIO()
    rc = main(["--suite", "full", "--filter", "tiny", "--repeats", "3", "--json", str(path)],
              registry=_cli_registry(), out=out)
    assert rc == 0, out.getvalue()
    text = out.getvalue()
    assert "cold" in text and "warm med" in text and "ratio" in text and "2/2 passed" in text
    doc = json.loads(path.read_text())
    for key in ("schema", "timestamp", "rocmath_version", "numba_threading_layer", "machine", "config",
                "all_ok", "results"):
        assert key in doc
    assert doc["schema"] == JSON_SCHEMA and doc["all_ok"] is True
    assert doc["rocmath_version"] == rm.__version__
    assert doc["config"]["repeats"] == 3 and doc["config"]["suite"] == "full"
    assert {"cpu_count", "numba", "numba_threading_layer", "device"} <= set(doc["machine"])
    assert [r["size"] for r in doc["results"]] == [4, 8]
    r = doc["results"][0]
    for key in ("case", "label", "cold_ns", "warm", "reference", "ratio", "ratio_ci", "throughput",
                "throughput_unit", "max_rel_err", "tol", "ok", "error", "kernel"):
        assert key in r
    assert len(r["warm"]["samples_ns"]) == 3 and r["throughput_unit"] == "GB/s"


def test_cli_exit_status_on_failure_and_no_match() -> None:
    reg = _cli_registry()
    reg.register(BenchCase("fake.wrong", lambda n: _const_problem(1.0, -1.0), {"quick": [1]}))
    out = io.StringIO()
    assert main(["--repeats", "2"], registry=reg, out=out) == 1
    assert "FAIL" in out.getvalue() and "fake.wrong" in out.getvalue()
    assert main(["--filter", "no-such-case"], registry=reg, out=io.StringIO()) == 2


def test_cli_runs_a_real_runtime_case() -> None:
    out = io.StringIO()
    assert main(["--filter", "runtime.launch_latency", "--repeats", "3"], out=out) == 0, out.getvalue()
    assert "runtime.launch_latency" in out.getvalue()


def test_cli_module_option(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "benchfake_user_cases.py").write_text(
        "from rocmath.bench import BenchCase, register\n"
        "import numpy as np\n"
        "from rocmath.bench import Problem\n"
        "register(BenchCase('benchfake.user', lambda n: Problem(run=lambda: np.ones(n), "
        "reference=lambda: np.ones(n)), {'quick': [3]}))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        out = io.StringIO()
        assert main(["--module", "benchfake_user_cases", "--filter", "benchfake.user", "--repeats", "2"],
                    out=out) == 0, out.getvalue()
        assert "benchfake.user" in out.getvalue()
        assert main(["--module", "benchfake_no_such_module", "--list"], registry=_cli_registry(),
                    out=io.StringIO()) == 1
    finally:
        if "benchfake.user" in default_registry:
            default_registry.unregister("benchfake.user")
        sys.modules.pop("benchfake_user_cases", None)


def test_memory_bound_rate_is_a_fraction_of_the_copy_bandwidth_beside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The copy bandwidth is measured just before and just after the case's timed calls, the best
    # of the two counting (the host's state moves); a case that is not memory bound measures none.
    import rocmath.bench.runner as runner

    measured: list[int] = []
    copies = iter([6.0, 8.0])  # GB/s: before, after

    def measure(repeats: int) -> float:
        measured.append(repeats)
        return next(copies)

    monkeypatch.setattr(runner, "measure_copy_bandwidth", measure)
    clock = FakeClock()

    def setup(n: int) -> Problem:
        def run() -> np.ndarray:
            clock.advance(1_000)
            return np.zeros(n)

        # Counts flops too, but a memory-bound rate is in GB/s: 4000 bytes / 1000 ns = 4 GB/s.
        return Problem(run=run, reference=lambda: np.zeros(n), flops=2_000, bytes=4_000, memory_bound=n > 0)

    res = run_case(BenchCase("fake.stream", setup, {"quick": [4]}), 4, repeats=3, warmup=0, clock=clock)
    assert res.ok and res.throughput == (4.0, "GB/s")
    assert measured == [runner.COPY_REPEATS] * 2
    assert res.copy_gbs == 8.0 and res.copy_fraction == 0.5
    assert res.to_dict()["copy_fraction"] == 0.5 and res.to_dict()["copy_gbs"] == 8.0
    res = run_case(BenchCase("fake.stream", setup, {"quick": [0]}), 0, repeats=3, warmup=0, clock=clock)
    assert len(measured) == 2 and res.copy_gbs is None and res.copy_fraction is None


def test_copy_bandwidth_is_measured_once() -> None:
    from rocmath.bench.timing import copy_bandwidth

    bw = copy_bandwidth()
    assert bw > 0 and copy_bandwidth() == bw


# --- compare: two revisions or configurations -------------------------------------------------------


def test_compare_verdict_reports_only_differences_beyond_noise() -> None:
    from rocmath.bench.compare import verdict

    a = [100.0, 102, 98, 101, 99, 100, 103, 97]
    ratio, (low, _), say = verdict(a, [v / 2 for v in a])
    assert ratio == pytest.approx(2.0) and low > 1 and say == "B faster"
    assert verdict([v / 2 for v in a], a)[2] == "B slower"
    assert verdict(a, list(reversed(a)))[2] == "same (within noise)"


def test_compare_threshold_makes_a_slower_b_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """For CI on any machine: both sides run here, so --threshold can fail the job on a slowdown."""
    from rocmath.bench import compare as cmp

    rows = [{"case": "blas.x", "label": "8", "ratio": 0.8, "ratio_ci": [0.75, 0.85]},  # B 25 % slower
            {"case": "blas.y", "label": "8", "ratio": 0.97, "ratio_ci": [0.96, 0.98]}]  # B 3 % slower
    assert cmp.regressed(rows[0], 0.05) and not cmp.regressed(rows[1], 0.05) and cmp.regressed(rows[1], 0.0)
    assert not cmp.regressed({"case": "blas.z", "error": "boom"}, 0.05)
    monkeypatch.setattr(cmp, "prepare", lambda spec, workdir, trees: cmp.Side(spec))
    monkeypatch.setattr(cmp, "compare", lambda *args: rows)
    out = io.StringIO()
    assert cmp.main([".", ".", "--filter", "saxpy_tiny"], out=out) == 0  # without --threshold: a report only
    assert cmp.main([".", ".", "--filter", "saxpy_tiny", "--threshold", "0.05"], out=out) == 1
    assert "more than 5%: blas.x [8]" in out.getvalue()
    assert cmp.main([".", ".", "--filter", "saxpy_tiny", "--threshold", "0.5"], out=out) == 0


def test_compare_two_configurations_end_to_end(tmp_path: Any) -> None:
    from rocmath.bench.compare import main as compare_main

    out = io.StringIO()
    path = tmp_path / "cmp.json"
    status = compare_main(["env:ROCMATH_INLINE=1", "env:ROCMATH_INLINE=0", "--filter", "saxpy_tiny", "--repeats",
                           "3", "--json", str(path)], out=out)
    assert status == 0, out.getvalue()
    text = out.getvalue()
    assert "A = env:ROCMATH_INLINE=1" in text and "blas.saxpy_tiny_overhead" in text
    rows = json.loads(path.read_text())["rows"]
    assert len(rows) == 1 and len(rows[0]["a_ns"]) == 3 and rows[0]["verdict"] in (
        "B faster", "B slower", "same (within noise)")


def test_compare_is_reached_as_the_issue_spells_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # `rocmath-bench --compare A B` and `rocmath-bench compare A B` are the same command.
    from rocmath.bench import cli, compare

    seen: list[list[str]] = []
    monkeypatch.setattr(compare, "main", lambda argv, out=None: seen.append(list(argv)) or 0)
    for first in ("--compare", "compare"):
        assert cli.main([first, "HEAD", ".", "--filter", "saxpy"], out=io.StringIO()) == 0
    assert seen == [["HEAD", ".", "--filter", "saxpy"]] * 2
    help_text = cli._parser().format_help()
    assert all(word in help_text for word in ("--compare", "check", "plot", "--yaml", "rocblas-bench"))


def test_compare_rejects_a_bad_side() -> None:
    from rocmath.bench.compare import main as compare_main

    assert compare_main(["env:NOEQUALS", ".", "--filter", "saxpy_tiny"]) == 2
    assert compare_main([".", ".", "--filter", "no-such-case"]) == 2


@pytest.mark.slow
def test_compare_two_git_revisions() -> None:
    from rocmath.bench.compare import main as compare_main

    out = io.StringIO()
    assert compare_main(["HEAD", ".", "--filter", "saxpy_tiny", "--repeats", "3"], out=out) == 0, out.getvalue()
    assert "A = HEAD" in out.getvalue()


# --- plot and progress --------------------------------------------------------------------------------


def _doc(label: str, size: int, ratio: float) -> dict[str, Any]:
    stats = {"median_ns": 1000.0}
    return {"timestamp": label, "machine": {"hostname": "h"}, "results": [
        {"case": "blas.x", "label": f"{size} f64", "size": size, "flops": 2000.0, "bytes": 0.0,
         "throughput_unit": "GFLOP/s", "warm": stats, "reference": {"median_ns": 1000.0 * ratio},
         "ratio": ratio, "ratio_ci": [ratio * 0.9, ratio * 1.1]}]}


def test_plot_draws_png_and_svg_of_saved_runs(tmp_path: Any) -> None:
    pytest.importorskip("matplotlib")
    from rocmath.bench.plot import main as plot_main

    runs = []
    for k, (size, ratio) in enumerate([(16, 1.5), (32, 0.8)]):
        path = tmp_path / f"r{k}.json"
        path.write_text(json.dumps(_doc(f"run{k}", size, ratio)))
        runs.append(str(path))
    out = io.StringIO()
    assert plot_main([*runs, "-o", str(tmp_path / "p.png")], out=out) == 0
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot_main([runs[0], "-o", str(tmp_path / "p.svg")], out=out) == 0
    assert b"<svg" in (tmp_path / "p.svg").read_bytes()[:400]
    assert plot_main([runs[0], "-o", str(tmp_path / "p.jpg")], out=out) == 2
    assert plot_main([runs[0], "-o", str(tmp_path / "q.png"), "--case", "nothing"], out=out) == 1


def test_progress_line_only_on_a_terminal() -> None:
    from rocmath.bench.report import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    p = Progress(3, 0, tty)  # started "long ago": past the 2 s threshold at once
    p.step("blas.x")
    assert "[1/3]" in tty.getvalue() and "left (last: blas.x)" in tty.getvalue()
    p.clear()
    assert tty.getvalue().endswith("\r\x1b[K")
    p.step()
    p.step()  # the last step: nothing more to show
    assert tty.getvalue().count("/3]") == 2 and "[3/3]" not in tty.getvalue()
    plain = io.StringIO()
    q = Progress(3, 0, plain)
    q.step("blas.x")
    assert plain.getvalue() == ""
    fresh = Tty()
    r = Progress(3, None, fresh)  # started now: within the threshold, no line yet
    r.step("blas.x")
    assert fresh.getvalue() == ""
