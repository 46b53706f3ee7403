"""Simulated devices: count, current device, properties, configuration, rocmath-info."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import rocmath as rm
from rocmath import errors, info
from rocmath.device import ARCH_PROFILES, parse_bytes


def test_default_device_is_gfx942():
    assert rm.get_device_count() >= 1
    assert rm.get_device() == 0
    props = rm.get_device_properties(0)
    assert props == rm.get_device_properties()
    assert props.gcnArchName.startswith("gfx942")
    assert props.name == "AMD Instinct MI300X"
    assert props.warpSize == 64
    assert props.multiProcessorCount == 304
    assert props.maxThreadsPerBlock == 1024
    assert props.totalGlobalMem > 0
    assert (props.major, props.minor) == (9, 4)
    assert rm.mem_get_info(0)[1] == props.totalGlobalMem


def test_properties_fields_are_hip_names():
    props = rm.get_device_properties()
    names = props.field_names()
    for field in ("name", "gcnArchName", "totalGlobalMem", "multiProcessorCount", "warpSize",
                  "maxThreadsPerBlock", "maxThreadsDim", "maxGridSize", "sharedMemPerBlock",
                  "clockRate", "l2CacheSize", "major", "minor", "pciBusID", "managedMemory"):
        assert field in names
        getattr(props, field)
    with pytest.raises(AttributeError):
        props.warpSize = 32  # frozen, as a struct copied out of the runtime


@pytest.mark.parametrize("arch", sorted(ARCH_PROFILES))
def test_arch_profiles(arch):
    p = ARCH_PROFILES[arch]
    assert p.gcnArchName.split(":")[0] == arch
    assert p.warpSize == (32 if arch == "gfx1100" else 64)
    assert p.multiProcessorCount > 0 and p.totalGlobalMem > 0
    assert set(p.peak_gflops) == {"f64", "f32", "f16"}


def test_configure_by_api(configure):
    configure(count=2, memory="64MiB", arch="gfx90a")
    assert rm.get_device_count() == 2
    for d in range(2):
        props = rm.get_device_properties(d)
        assert props.gcnArchName == "gfx90a:sramecc+:xnack-"
        assert props.name == "AMD Instinct MI210"
        assert props.totalGlobalMem == 64 << 20
        assert props.warpSize == 64
        assert props.multiProcessorCount == 104
        assert rm.mem_get_info(d) == (64 << 20, 64 << 20)
    # The two devices are distinguishable on the bus.
    assert rm.get_device_properties(0).pciBusID != rm.get_device_properties(1).pciBusID


def test_configure_gfx1100_has_warp_32(configure):
    configure(arch="gfx1100", memory=1 << 24)
    assert rm.get_device_properties().warpSize == 32
    assert rm.get_device_properties().totalGlobalMem == 1 << 24


def test_configure_refuses_while_allocations_live(configure):
    configure(memory="4MiB")
    p = rm.malloc(100)
    try:
        with pytest.raises(errors.HipInvalidValueError, match="1 allocation"):
            rm.configure(count=2)
        # Nothing changed.
        assert rm.get_device_count() == 1
        assert rm.mem_get_info() == ((4 << 20) - 100, 4 << 20)
    finally:
        rm.free(p)
    configure(count=2, memory="4MiB")
    assert rm.get_device_count() == 2


@pytest.mark.parametrize("kwargs, exc", [
    ({"count": 0}, errors.HipInvalidValueError),
    ({"arch": "gfx9000"}, errors.HipInvalidValueError),
    ({"memory": "lots"}, errors.HipInvalidValueError),
    ({"memory": 0}, errors.HipInvalidValueError),
])
def test_configure_rejects_bad_values(configure, kwargs, exc):
    with pytest.raises(exc):
        configure(**kwargs)
    # The previous configuration stays usable.
    assert rm.get_device_count() >= 1


def test_refused_configure_keeps_addresses_unique(configure):
    configure(memory="4MiB")
    p = rm.malloc(256)
    try:
        with pytest.raises(errors.HipInvalidValueError):
            rm.configure(arch="gfx9000")
        q = rm.malloc(256)
        assert q != p  # the address space was not reset by the refused call
        rm.free(q)
    finally:
        rm.free(p)


def test_streams_and_handles_of_replaced_devices_are_invalid(configure):
    configure(memory="4MiB")
    s = rm.Stream()
    h = rm.Handle()
    configure(memory="8MiB")
    with pytest.raises(errors.HipInvalidHandleError, match="configure"):
        s.synchronize()
    with pytest.raises(errors.RocblasInvalidHandleError, match="configure"):
        h.set_pointer_mode(rm.PointerMode.device)


def test_dropped_handle_returns_its_workspace(configure):
    configure(memory="4MiB")
    h = rm.Handle()
    h.workspace(1000)
    rm.device_synchronize()
    assert rm.mem_get_info()[0] < 4 << 20
    del h
    gc.collect()
    rm.device_synchronize()  # runs the stream-ordered free and trims the pool
    assert rm.mem_get_info() == (4 << 20, 4 << 20)


@pytest.mark.parametrize("text, value", [
    ("512", 512), ("1KiB", 1024), ("64MiB", 64 << 20), ("8GiB", 8 << 30), ("16GB", 16 * 10**9),
    ("1e9", 10**9), (" 2 MiB ", 2 << 20), ("3kb", 3000), (4096, 4096), ("1TiB", 1 << 40),
])
def test_parse_bytes(text, value):
    assert parse_bytes(text) == value


def test_set_device_and_invalid_devices(configure):
    configure(count=3, memory="1MiB")
    rm.set_device(2)
    assert rm.get_device() == 2
    assert rm.get_device_properties() is rm.get_device_properties(2)
    rm.set_device(np.int64(1))  # numpy integers are device indices too, as in hip-python
    assert rm.get_device() == 1
    for bad in (3, -1, 100, 1.0, "0", None, True):
        with pytest.raises(errors.InvalidDeviceError) as info:
            rm.set_device(bad)
        assert info.value.status == errors.HipStatus.hipErrorInvalidDevice
        assert rm.get_device() == 1  # unchanged
    with pytest.raises(errors.InvalidDeviceError):
        rm.get_device_properties(3)
    with pytest.raises(errors.InvalidDeviceError):
        rm.mem_get_info(5)
    with pytest.raises(errors.InvalidDeviceError):
        rm.Stream(device=3)
    rm.set_device(0)


def test_current_device_is_per_thread(configure):
    configure(count=2, memory="1MiB")
    rm.set_device(1)
    seen = {}
    barrier = threading.Barrier(2, timeout=10)

    def worker():
        seen["start"] = rm.get_device()  # a new thread starts on device 0
        rm.set_device(1 - seen["start"])
        barrier.wait()
        seen["after"] = rm.get_device()

    t = threading.Thread(target=worker)
    t.start()
    barrier.wait()
    t.join(10)
    assert seen == {"start": 0, "after": 1}
    assert rm.get_device() == 1  # the worker's set_device did not touch this thread
    rm.set_device(0)


def test_allocations_follow_the_current_device(configure):
    configure(count=2, memory="1MiB")
    rm.set_device(1)
    try:
        p = rm.malloc(1000)
        assert rm.pointer_attributes(p)["device"] == 1
        assert rm.mem_get_info(1)[0] == (1 << 20) - 1000
        assert rm.mem_get_info(0)[0] == 1 << 20
        x = rm.to_device(np.arange(4.0))
        assert x.device == 1
        np.testing.assert_array_equal(x.get(), np.arange(4.0))
        assert rm.current_stream().device.index == 1
        rm.free(p)
        del x
    finally:
        rm.set_device(0)


_ENV_SCRIPT = r"""
import json, rocmath as rm
print(json.dumps({
    "count": rm.get_device_count(),
    "archs": [rm.get_device_properties(i).gcnArchName for i in range(rm.get_device_count())],
    "mem": [rm.get_device_properties(i).totalGlobalMem for i in range(rm.get_device_count())],
    "warp": rm.get_device_properties().warpSize,
    "checking": rm.checking_enabled(),
}))
"""


def _run(env_updates, script=_ENV_SCRIPT):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROCMATH_")}
    env.update(env_updates)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    return out


def test_configuration_by_environment():
    out = _run({"ROCMATH_DEVICE_COUNT": "3", "ROCMATH_DEVICE_MEMORY": "256MiB", "ROCMATH_ARCH": "gfx1100",
                "ROCMATH_CHECK": "1"})
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got == {"count": 3, "archs": ["gfx1100"] * 3, "mem": [256 << 20] * 3, "warp": 32, "checking": True}


def test_environment_defaults_and_errors():
    out = _run({})
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["count"] == 1 and got["archs"][0].startswith("gfx942") and got["checking"] is False
    assert got["mem"][0] <= 192 << 30
    bad = _run({"ROCMATH_ARCH": "gfx000"})
    assert bad.returncode != 0 and "unknown architecture" in bad.stderr


def test_info_report(configure, capsys):
    configure(count=2, memory="32MiB", arch="gfx908")
    p = rm.malloc(1 << 20)
    try:
        text = info.report()
        assert "Device 0: AMD Instinct MI100" in text and "Device 1: AMD Instinct MI100" in text
        assert "gfx908:sramecc+:xnack-" in text
        assert f"{(32 << 20) - (1 << 20):,} / {32 << 20:,} bytes" in text  # device 0: 1 MiB used
        assert f"{32 << 20:,} / {32 << 20:,} bytes" in text  # device 1: all free
        assert "warpSize" in text and "numba threading layer" in text
        assert info.main([]) == 0
        assert capsys.readouterr().out.strip() == info.report().strip()
        with pytest.raises(SystemExit):
            info.main(["--no-such-option"])
    finally:
        rm.free(p)


def test_rocmath_info_console_script():
    out = _run({"ROCMATH_DEVICE_COUNT": "2"}, "import sys; from rocmath.info import main; sys.exit(main([]))")
    assert out.returncode == 0, out.stderr
    assert "Device 1:" in out.stdout and "Device 2:" not in out.stdout
