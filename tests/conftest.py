"""Shared test configuration: hypothesis profiles and device hygiene."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# ``python -m pytest`` from the checkout puts the checkout first on sys.path, where its library
# folders (``sparse/``, ``fft/``, ``blas/``) would shadow packages of those names (dask imports
# pydata's ``sparse``); rocmath itself comes from its installation, which maps them under rocmath.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]

# JIT compilation makes first calls slow: no deadlines.  CI is derandomized so a run
# is reproducible from its log; "dev" explores new examples each run; "thorough" (new examples,
# ten times as many: tests give their own counts as rocmath.testing.examples(n), which follows it)
# is for a long run before a release, e.g. HYPOTHESIS_PROFILE=thorough python -m pytest -n 2.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=60, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def mem():
    """HIP allocations of each kind for a hip-python-style test (``tests/hip_util.DeviceMemory``), freed when
    it ends, even a failing one."""
    from hip_util import DeviceMemory

    m = DeviceMemory()
    yield m
    m.release()


@pytest.fixture
def h(handle):
    """The requesting module's rocBLAS ``handle`` in host pointer mode, put back in it after the test
    (a test that switches to device mode leaves the next one the default)."""
    from rocmath.blas import PointerMode, set_pointer_mode

    set_pointer_mode(handle, PointerMode.host)
    yield handle
    set_pointer_mode(handle, PointerMode.host)


@pytest.fixture
def stream():
    """A hipStreamCreate'd stream for a hip-python-style test, destroyed when it ends."""
    from hip_util import check

    from rocmath.hip import hip

    s = check(hip.hipStreamCreate())
    yield s
    check(hip.hipStreamDestroy(s))


@pytest.fixture
def configure():
    """Reconfigure the devices for one test; the default configuration is restored after."""
    import gc

    import rocmath as rm
    from rocmath.memory import address_space

    def synchronize():
        for d in range(rm.get_device_count()):
            rm.device_synchronize(d)

    def settle():
        # Frees queued on any device (a multi-device test's) must land before reconfiguring.  Only
        # reference cycles can hold allocations no test uses: collect them when some are live (a
        # full collection takes a second once a worker has compiled the suite's kernels).
        synchronize()
        if address_space.live_count:
            gc.collect()
            synchronize()

    def do(**kwargs):
        settle()
        rm.configure(**kwargs)

    yield do
    settle()
    rm.configure()


@pytest.fixture
def young_garbage():
    """``gc.collect()`` in the test scans only the objects made since it began (the older ones are
    frozen until it ends, their garbage too): a full collection takes seconds once a worker has
    compiled the suite's kernels."""
    import gc

    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def _device_is_left_clean():
    """Every test leaves no pending errors behind, so failures are blamed on the right test."""
    import rocmath

    yield
    rocmath.device_synchronize()


def pytest_collection_modifyitems(config, items):
    """Benchmarks (tests using pytest-benchmark's fixture) run only when asked for
    (``--benchmark-only`` or ``--benchmark-enable``): timing is not testing."""
    if config.getoption("benchmark_only", False) or config.getoption("benchmark_enable", False):
        return
    skip = pytest.mark.skip(reason="a benchmark: run with pytest --benchmark-only")
    for item in items:
        if "benchmark" in getattr(item, "fixturenames", ()):
            item.add_marker(skip)


# --- where compilation time goes (``pytest --compile-times 30``) -------------------------------------------


def pytest_addoption(parser):
    parser.addoption("--compile-times", type=int, default=0, metavar="N",
                     help="print the N functions numba spent the most compilation time on (cold cache runs)")


def pytest_configure(config):
    if config.getoption("compile_times"):
        from rocmath.testing.compile_times import CompileTimes

        config._compile_times = CompileTimes()
        config._compile_times.install()
        config._compile_totals = {}


def pytest_sessionfinish(session):
    config = session.config
    listener = getattr(config, "_compile_times", None)
    if listener is not None:
        from rocmath.testing.compile_times import merge

        merge(config._compile_totals, listener.totals())
        if hasattr(config, "workeroutput"):  # an xdist worker: its totals go to the controller
            config.workeroutput["compile_times"] = config._compile_totals


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    # (xdist's hook, on the controller) a worker's totals.
    totals = getattr(node.config, "_compile_totals", None)
    if totals is not None and "compile_times" in getattr(node, "workeroutput", {}):
        from rocmath.testing.compile_times import merge

        merge(totals, node.workeroutput["compile_times"])


def pytest_terminal_summary(terminalreporter, config):
    totals = getattr(config, "_compile_totals", None)
    if totals is not None and not hasattr(config, "workeroutput"):
        from rocmath.testing.compile_times import report

        terminalreporter.section("numba compile times")
        for line in report(totals, config.getoption("compile_times")):
            terminalreporter.write_line(line)
