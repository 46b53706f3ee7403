"""rocmath-bench profile: attribution of perf samples to kernels and libraries, the disassembly
windows, the worker's map of its JIT code, and (where perf works) a whole run."""

from __future__ import annotations

import gc
import io
import os
import platform
import shutil
import subprocess
import sys
import weakref
from collections import Counter

import numpy as np
import pytest

from rocmath.bench import profile as prof

LINUX = sys.platform.startswith("linux")


def test_parse_samples_reads_ip_and_object() -> None:
    text = ("    7f0d06b2e927 ([unknown])\n"
            "ffffffff8161c825 ([kernel.kallsyms])\n"
            "    7f29a0b8099a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
            "garbage line\n")
    assert prof.parse_samples(text) == [(0x7F0D06B2E927, "[unknown]"), (0xFFFFFFFF8161C825, "[kernel.kallsyms]"),
                                        (0x7F29A0B8099A, "/usr/lib/x86_64-linux-gnu/libc.so.6")]


def test_attribute_names_regions_by_the_kernels_they_hold() -> None:
    regions = [[0x3000, 0x4000, "b"], [0x1000, 0x2000, "a"], [0x5000, 0x6000, "c"]]
    kernels = [["blas.axpy", 0x1100], ["solver.x", 0x3010], ["solver.y", 0x3800], ["elsewhere", 0x9000]]
    samples = [(0x1000, "[unknown]"), (0x1FFF, "[unknown]"), (0x1FFF, "[unknown]"), (0x2000, "/lib/libgomp.so.1"),
               (0x3010, "[unknown]"), (0x5004, "[unknown]"), (0xFFFF0000, "[kernel.kallsyms]"), (0x10, "")]
    att = prof.attribute(samples, regions, kernels)
    assert att.total == len(samples)
    assert att.places == Counter({"jit blas.axpy": 3, "libgomp.so.1": 1, "jit solver.x + solver.y": 1,
                                  "jit code at 0x5000": 1, "[kernel.kallsyms]": 1, "[unknown]": 1})
    assert att.by_region[0x1000] == Counter({0x1FFF: 2, 0x1000: 1})
    assert set(att.by_region) == {0x1000, 0x3000, 0x5000}


def test_demangle_reads_numba_symbols() -> None:
    dot = ("_ZN7rocmath4blas11_kernels_l13dotB2v1B82c8tJTC_2fWQAliW1xhDEoYAxrEIAdo6iigpXeou3ClblRpYPqGGYoUJbZgpwBd"
           "VARTjpTaIdYCAA_3d_3dE5ArrayIdLi2E1A7mutable7alignedE")
    assert prof.demangle(dot) == "rocmath.blas._kernels_l1.dot"
    assert prof.demangle("_ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7fb12b903250B3v23E5ArrayIyLi1E") == \
        "<dynamic>.__numba_parfor_gufunc_0x7fb12b903250"
    assert prof.demangle("NRT_decref") == "NRT_decref"


def test_attribute_names_functions_by_symbol() -> None:
    regions = [[0x1000, 0x3000, "a"], [0x5000, 0x6000, "b"]]
    symbols = [["rocmath.blas._kernels_l1.dot", 0x1000], ["cpython.rocmath.blas._kernels_l1.dot", 0x1400],
               ["<dynamic>.__numba_parfor_gufunc_0x7fb1", 0x1800],
               ["__gufunc__._ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7fb1B3v23E5ArrayIyLi1E", 0x1C00],
               ["rocmath.blas._kernels_l1._combine", 0x2800],
               ["<dynamic>.__numba_parfor_gufunc_0x7fb2", 0x5100]]
    samples = [(0x1004, "[unknown]"), (0x1500, "[unknown]"), (0x1900, "[unknown]"), (0x1C01, "[unknown]"),
               (0x2900, "[unknown]"), (0x5000, "[unknown]"), (0x5200, "[unknown]")]
    att = prof.attribute(samples, regions, [["blas._kernels_l1.dot", 0x1000]], symbols)
    assert att.places == Counter({"jit blas._kernels_l1.dot": 1, "jit blas._kernels_l1.dot [cpython wrapper]": 1,
                                  "jit blas._kernels_l1.dot [parallel body]": 2, "jit blas._kernels_l1._combine": 1,
                                  "jit code at 0x5000": 1, "jit parallel body 0x7fb2": 1})
    assert att.region_of[0x1000] == "blas._kernels_l1.dot [parallel body]"
    # compiled in the process, a body is named after the kernel whose library defines it
    owned = prof.attribute(samples, regions, [], symbols, {"<dynamic>.__numba_parfor_gufunc_0x7fb2": "blas.nrm2"})
    assert owned.places["jit blas.nrm2 [parallel body]"] == 1


def test_hot_windows_merge_overlaps_in_address_order() -> None:
    code = [(0x100 + 4 * i, f"op{i}") for i in range(30)]
    counts = Counter({code[5][0]: 9, code[8][0]: 4, code[20][0]: 7, 0xDEAD: 50})  # 0xDEAD: not an instruction
    windows = prof.hot_windows(code, counts, top=4, around=2)
    assert [[a for a, _, _ in w] for w in windows] == [[code[i][0] for i in range(3, 11)],
                                                        [code[i][0] for i in range(18, 23)]]
    assert windows[0][2] == (code[5][0], "op5", 9) and windows[0][0][2] == 0
    assert prof.hot_windows(code, counts, top=1, around=0) == []  # the hottest is not in the code


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64") or shutil.which("objdump") is None,
                    reason="needs objdump on x86-64")
def test_disassemble_loads_the_code_at_its_address(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "code.bin")
    with open(path, "wb") as f:
        f.write(b"\x90\x48\x01\xd8\xc3")  # nop; add %rbx,%rax; ret
    assert prof.disassemble(path, 0x7F0000001000) == [(0x7F0000001000, "nop"), (0x7F0000001001, "add %rbx,%rax"),
                                                       (0x7F0000001004, "ret")]


@pytest.mark.skipif(not LINUX, reason="reads /proc/self/maps")
def test_jit_map_finds_a_kernels_code(tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from rocmath.blas import _kernels_l1

    x, y = np.ones((1, 64)), np.zeros((1, 64))
    _kernels_l1.copy.entry_point(x, y)(x, y)  # the parallel kernel (on one thread a call runs its serial twin)

    class Gone:
        pass

    gone = Gone()
    dead = weakref.proxy(gone)  # isinstance() on it raises ReferenceError (met in a long test worker)
    del gone
    objects = gc.get_objects()
    monkeypatch.setattr(prof.gc, "get_objects", lambda: [dead, *objects])
    mapping = prof.jit_map(str(tmp_path))
    assert mapping["pid"] == os.getpid()
    for lo, hi, path in mapping["regions"]:
        assert hi > lo and os.path.getsize(path) == hi - lo
    entries = [a for name, a in mapping["kernels"] if name == "blas._kernels_l1.copy"]
    assert entries
    assert any(name == "rocmath.blas._kernels_l1.copy" for name, _ in mapping["symbols"])
    assert any(lo <= a < hi for a in entries for lo, hi, _ in mapping["regions"])


def test_main_reports_missing_perf_and_empty_selections(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(prof.shutil, "which", lambda name: None)
    assert prof.main(["--filter", "blas.axpy_d"]) == 2
    assert "needs Linux perf" in capsys.readouterr().err
    monkeypatch.setattr(prof.shutil, "which", lambda name: "/usr/bin/perf")
    assert prof.main(["--filter", "no such case at all"]) == 2
    with pytest.raises(SystemExit):
        prof.main(["--seconds", "0"])


def _perf_works() -> bool:
    perf = shutil.which("perf")
    if perf is None or not LINUX:
        return False
    res = subprocess.run([perf, "record", "-e", prof.EVENT, "-o", os.devnull, "--quiet", "--", "true"],
                         capture_output=True)
    return res.returncode == 0


@pytest.mark.skipif(not _perf_works(), reason="needs a working Linux perf")
def test_profile_of_a_case_names_its_kernel() -> None:
    out = io.StringIO()
    assert prof.main(["--filter", "blas.axpy_d", "--seconds", "0.5", "--top", "3"], out=out) == 0
    text = out.getvalue()
    assert "blas.axpy_d [" in text and "calls in" in text
    assert "jit blas._kernels_l1.axpy" in text
    if shutil.which("objdump") and platform.machine() in ("x86_64", "AMD64"):
        assert "hottest instructions in the code of blas._kernels_l1.axpy" in text
