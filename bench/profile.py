"""``rocmath-bench profile``: where a bench case's time goes, down to the instruction (Linux perf).

For every case and size of the selection a worker process (:mod:`rocmath.bench.worker`) sets the
problem up and runs it once; ``perf record`` then samples the worker while it repeats the call
for ``--seconds``.  The event is ``cpu-clock``, a timer interrupt: it needs no hardware counters,
so it works in virtual machines and containers that have none.

numba's kernels live in anonymous memory that perf cannot name, so the worker hands over a copy
of its executable anonymous mappings and the entry address of every compiled kernel.  A sample in
a mapping that holds one kernel's entry is that kernel's (its parallel body and the helpers it
inlined or calls are compiled into the same code); samples elsewhere go to the file perf names:
libpython (the Python around the calls), numpy, OpenBLAS, libgomp (the OpenMP runtime: waiting
at barriers shows up there), ``[kernel.kallsyms]`` (system calls, page faults).  The hottest
instructions of the busiest kernels are then shown disassembled (objdump), each with its share
of all samples and the instructions around it.  A sample lands on the instruction after the one
that stalled: a load that waits for memory shows its cost on its successor.

Needs ``perf`` (linux-tools) and, for the disassembly, ``objdump`` (binutils); Linux only.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import ctypes
import gc
import json
import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .compare import Side, _ask, selected_cases

__all__ = ["Attribution", "attribute", "demangle", "disassemble", "hot_windows", "jit_map", "main", "parse_samples"]

#: The ``perf`` event: a timer, available without hardware performance counters.
EVENT = "cpu-clock"


# --- in the worker ---------------------------------------------------------------------------------


def jit_map(directory: str) -> dict[str, Any]:
    """The calling process's executable anonymous mappings (copied to files in ``directory``) and
    the entry addresses of its compiled numba functions: ``{"pid", "regions": [[lo, hi, path]],
    "kernels": [[name, address]]}``."""
    from numba.core.dispatcher import Dispatcher

    regions = []
    with open("/proc/self/maps", encoding="ascii") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) != 5 or "r" not in fields[1] or "x" not in fields[1]:
                continue  # named files (perf reads those itself), or unreadable
            lo, hi = (int(v, 16) for v in fields[0].split("-"))
            path = os.path.join(directory, f"{lo:x}.bin")
            with open(path, "wb") as f:
                f.write(ctypes.string_at(lo, hi - lo))
            regions.append([lo, hi, path])
    symbols = []
    with contextlib.suppress(Exception):  # numba's engine: internals, read while they hold
        from numba.core.registry import cpu_target

        engine = cpu_target.target_context.codegen()._engine
        for mangled in list(engine._defined_symbols):
            name = demangle(mangled)
            if not name.startswith(("NumbaEnv.", ".const")):  # data, not code
                symbols.append([name, int(engine.get_function_address(mangled))])
    kernels, owners = [], {}
    for obj in gc.get_objects():
        # (isinstance on a dead weak proxy raises ReferenceError; a dispatcher being torn down,
        # an overload without code of its own: skipped)
        with contextlib.suppress(Exception):
            if not isinstance(obj, Dispatcher):
                continue
            name = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}".removeprefix("rocmath.")
            for cres in list(obj.overloads.values()):
                address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
                if address:
                    kernels.append([name, int(address)])
                for fn in _library_functions(cres.library):  # its parallel bodies, when compiled here
                    owners.setdefault(fn, name)
    return {"pid": os.getpid(), "regions": regions, "kernels": kernels, "symbols": symbols, "owners": owners}


def _library_functions(library: Any, seen: set[int] | None = None) -> list[str]:
    """The demangled names of the functions a code library and the libraries it links define
    (none for a library loaded from the cache: its module is gone, only its object code is kept)."""
    seen = set() if seen is None else seen
    if id(library) in seen:
        return []
    seen.add(id(library))
    module = getattr(library, "_final_module", None)
    names = [demangle(f.name) for f in module.functions if not f.is_declaration] if module is not None else []
    for linked in getattr(library, "_linking_libraries", ()):
        names += _library_functions(linked, seen)
    return names


def demangle(symbol: str) -> str:
    """A numba symbol (``_ZN7rocmath4blas11_kernels_l13dotB2v1...E5Array...``) as a dotted name
    (``rocmath.blas._kernels_l1.dot``); other symbols as they are."""
    if not symbol.startswith("_ZN"):
        return symbol
    i, parts = 3, []
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j:j + n])
        i = j + n
        while i + 1 < len(symbol) and symbol[i] == "B" and symbol[i + 1].isdigit():  # ABI tags
            j = i + 1
            while symbol[j].isdigit():
                j += 1
            i = j + int(symbol[i + 1:j])
    # numba writes characters a name cannot hold as _XX (hex): <dynamic> is _3cdynamic_3e
    return re.sub(r"_([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), ".".join(parts))


def loop(run: Any, sync: Any, seconds: float, prepare: Any = None) -> dict[str, Any]:
    """Repeat ``run(); sync()`` for about ``seconds``: ``{"calls", "ns"}``.  ``prepare`` (a problem's
    restore, waited for) runs before each call, inside the time and the samples (its copies show as
    such)."""
    calls, t0 = 0, time.perf_counter_ns()
    end = t0 + int(seconds * 1e9)
    while True:
        if prepare is not None:
            prepare()
        run()
        sync()
        calls += 1
        now = time.perf_counter_ns()
        if now >= end:
            return {"calls": calls, "ns": now - t0}


# --- in the profiling process ----------------------------------------------------------------------


def parse_samples(text: str) -> list[tuple[int, str]]:
    """``(ip, object)`` of each sample in ``perf script -F ip,dso`` output."""
    out = []
    for m in re.finditer(r"^\s*([0-9a-f]+)\s+\((.*)\)\s*$", text, re.MULTILINE):
        out.append((int(m.group(1), 16), m.group(2)))
    return out


@dataclass
class Attribution:
    """Samples by place: ``places`` counts samples per kernel or object file; ``region_of`` names
    each JIT region by the kernel it holds; ``by_region`` the samples per JIT region, per
    instruction address."""

    total: int
    places: Counter[str]
    region_of: dict[int, str]
    by_region: dict[int, Counter[int]]


def _region_names(regions: Sequence[Sequence[Any]], kernels: Sequence[Sequence[Any]]) -> dict[int, str]:
    """Each region's name: the kernel whose entry it holds (several: joined; none: numba's or
    LLVM's code without a kernel entry, e.g. helpers called across libraries)."""
    starts = [r[0] for r in regions]
    held: dict[int, set[str]] = {}
    for name, address in kernels:
        i = bisect.bisect_right(starts, address) - 1
        if i >= 0 and address < regions[i][1]:
            held.setdefault(regions[i][0], set()).add(name)
    return {r[0]: " + ".join(sorted(held[r[0]])) if r[0] in held else f"code at {r[0]:#x}" for r in regions}


def _function_labels(symbols: Sequence[Sequence[Any]], regions: Sequence[Sequence[Any]],
                     owners: dict[str, str] | None = None) -> list[tuple[int, str]]:
    """``(address, label)`` of the JIT functions in ``regions`` (sorted), in address order: a
    parallel body (numba's parfor gufunc) takes the name of its kernel (``owners``: the kernels
    compiled in the process, by the functions their libraries define), else of the function
    before it in its region (a kernel loaded from the cache comes in one object with its
    bodies, itself first); wrappers are marked as such."""
    owners = owners or {}
    starts = [r[0] for r in regions]
    out: list[tuple[int, str]] = []
    owner, region = None, -1
    for address, name in sorted((int(a), str(n)) for n, a in symbols):
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or address >= regions[i][1]:
            continue
        if i != region:
            owner, region = None, i
        kind = ""
        if name.startswith("__gufunc__."):  # the loop numba's threads run, the body inlined in it
            name = demangle(name.split(".", 1)[1])
        elif name.startswith(("cpython.", "cfunc.")):
            prefix, name = name.split(".", 1)
            kind, name = f" [{prefix} wrapper]", demangle(name)
        if ".__numba_parfor_gufunc_" in name:
            mine = owners.get(name, owner)
            base = f"{mine} [parallel body]" if mine else f"parallel body {name.rsplit('_', 1)[-1]}"
        else:
            base = name.removeprefix("rocmath.")
            if not kind:
                owner = base
        out.append((address, base + kind))
    return out


def attribute(samples: Sequence[tuple[int, str]], regions: Sequence[Sequence[Any]],
              kernels: Sequence[Sequence[Any]], symbols: Sequence[Sequence[Any]] = (),
              owners: dict[str, str] | None = None) -> Attribution:
    """Attribute ``samples`` (:func:`parse_samples`) to JIT functions (by the worker's ``symbols``:
    the function at or before the sample in its region) or, without a symbol, to the kernel whose
    entry the region holds (``regions``, ``kernels``: :func:`jit_map`), and the others to the
    object files perf named."""
    regions = sorted(regions)
    starts = [r[0] for r in regions]
    names = _region_names(regions, kernels)
    functions = _function_labels(symbols, regions, owners)
    addresses = [a for a, _ in functions]
    places: Counter[str] = Counter()
    by_region: dict[int, Counter[int]] = {}
    per_region: dict[int, Counter[str]] = {}
    for ip, dso in samples:
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < regions[i][1]:
            lo = regions[i][0]
            f = bisect.bisect_right(addresses, ip) - 1
            label = functions[f][1] if f >= 0 and functions[f][0] >= lo else names[lo]
            places[f"jit {label}"] += 1
            by_region.setdefault(lo, Counter())[ip] += 1
            per_region.setdefault(lo, Counter())[label] += 1
        else:
            places[os.path.basename(dso) if dso.startswith("/") else dso or "[unknown]"] += 1
    for lo, labels in per_region.items():  # a region is named by its busiest function
        names[lo] = labels.most_common(1)[0][0]
    return Attribution(len(samples), places, names, by_region)


def disassemble(path: str, start: int) -> list[tuple[int, str]]:
    """``(address, instruction)`` of the machine code in file ``path`` loaded at ``start``
    (objdump; empty when it is missing or does not know this machine)."""
    arch = {"x86_64": "i386:x86-64", "AMD64": "i386:x86-64", "aarch64": "aarch64"}.get(platform.machine())
    objdump = shutil.which("objdump")
    if arch is None or objdump is None:
        return []
    res = subprocess.run([objdump, "-D", "-b", "binary", "-m", arch, "--no-show-raw-insn",
                          f"--adjust-vma={start:#x}", path], capture_output=True, text=True)
    out = []
    for m in re.finditer(r"^\s*([0-9a-f]+):\t(.*)$", res.stdout, re.MULTILINE):
        out.append((int(m.group(1), 16), " ".join(m.group(2).split())))
    return out


def hot_windows(code: Sequence[tuple[int, str]], counts: Counter[int], top: int,
                around: int = 3) -> list[list[tuple[int, str, int]]]:
    """The ``top`` most sampled instructions of ``code`` with ``around`` instructions either side,
    overlapping windows merged, in address order: lists of ``(address, instruction, samples)``."""
    index = {a: i for i, (a, _) in enumerate(code)}
    hot = sorted((i for a, _ in counts.most_common(top) if (i := index.get(a)) is not None))
    windows: list[list[int]] = []
    for i in hot:
        lo, hi = max(0, i - around), min(len(code), i + around + 1)
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], hi)
        else:
            windows.append([lo, hi])
    return [[(code[i][0], code[i][1], counts.get(code[i][0], 0)) for i in range(lo, hi)] for lo, hi in windows]


#: Seconds perf may take to attach to the worker and enable its event (a loaded machine is slow).
ATTACH_TIMEOUT = 60.0


def _enabled(rec: subprocess.Popen[str], ctl: str, ack: str) -> bool:
    """Tell a ``perf record -D -1 --control fifo:ctl,ack`` to enable its event and wait for its ack (it
    answers once attached and counting: no fixed sleep that a loaded machine outlasts); False when perf
    exited or did not answer within ATTACH_TIMEOUT."""
    deadline = time.monotonic() + ATTACH_TIMEOUT
    fd = -1
    while fd < 0:  # perf opens its end of the control fifo once started
        try:
            fd = os.open(ctl, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if rec.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.01)
    with contextlib.closing(os.fdopen(fd, "w")) as c:
        c.write("enable\n")
    afd = os.open(ack, os.O_RDONLY | os.O_NONBLOCK)
    try:
        while time.monotonic() < deadline and rec.poll() is None:
            ready, _, _ = select.select([afd], [], [], 0.1)
            if ready and b"ack" in os.read(afd, 64):
                return True
        return False
    finally:
        os.close(afd)


def _record(worker: subprocess.Popen[str], perf: str, data: str, frequency: int,
            seconds: float) -> tuple[dict[str, Any], str]:
    """Sample the worker while it loops; returns its answer and perf's messages."""
    ctl, ack = data + ".ctl", data + ".ack"
    os.mkfifo(ctl)
    os.mkfifo(ack)
    rec = subprocess.Popen([perf, "record", "-e", EVENT, "-F", str(frequency), "-p", str(worker.pid), "-o", data,
                            "--quiet", "-D", "-1", "--control", f"fifo:{ctl},{ack}"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    answer: dict[str, Any] = {}
    try:
        if _enabled(rec, ctl, ack):  # the timed loop starts with perf counting
            answer = _ask(worker, op="loop", seconds=seconds)
    finally:
        if rec.poll() is None:
            rec.send_signal(signal.SIGINT)
        _, err = rec.communicate(timeout=60)
    return answer, err or ""


def _report(out: TextIO, label: str, answer: dict[str, Any], mapping: dict[str, Any], att: Attribution,
            kernels: int, top: int, frequency: int) -> None:
    calls, ns = answer["calls"], answer["ns"]
    out.write(f"\n{label}: {calls} calls in {ns / 1e9:.2f} s ({ns / 1e6 / calls:.3f} ms/call); "
              f"{att.total} samples at {frequency} Hz\n")
    if not att.total:
        out.write("  no samples\n")
        return
    for place, n in att.places.most_common(12):
        out.write(f"  {100 * n / att.total:5.1f}%  {place}\n")
    rest = att.total - sum(n for _, n in att.places.most_common(12))
    if rest:
        out.write(f"  {100 * rest / att.total:5.1f}%  (elsewhere)\n")
    paths = {r[0]: r[2] for r in mapping["regions"]}
    busiest = sorted(att.by_region.items(), key=lambda kv: -sum(kv[1].values()))[:kernels]
    for lo, counts in busiest:
        share = 100 * sum(counts.values()) / att.total
        code = disassemble(paths[lo], lo)
        out.write(f"\n  hottest instructions in the code of {att.region_of[lo]} ({share:.1f}% of the samples; "
                  "% of all samples):\n")
        if not code:
            out.write("    (no disassembly: objdump missing or this machine unknown to it)\n")
            continue
        for window in hot_windows(code, counts, top):
            for address, text, n in window:
                out.write(f"    {100 * n / att.total:5.1f}%  {address:x}  {text}\n" if n else
                          f"            {address:x}  {text}\n")
            out.write("    ...\n")


def profile(cases: list[tuple[str, Any]], seconds: float, frequency: int, kernels: int, top: int, perf: str,
            out: TextIO) -> int:
    """Profile every (case, size); 0, or 1 when a case failed to run or to be sampled."""
    status = 0
    workdir = tempfile.mkdtemp(prefix="rocmath-profile-")
    worker = Side(".").start()
    try:
        for n, (name, size) in enumerate(cases):
            setup = _ask(worker, op="setup", case=name, size=json.loads(json.dumps(size)))
            label = f"{name} [{setup.get('label', size)}]"
            if "error" in setup:
                out.write(f"\n{label}: error: {setup['error']}\n")
                status = 1
                continue
            directory = os.path.join(workdir, str(n))
            os.makedirs(directory)
            mapping = _ask(worker, op="map", dir=directory)
            data = os.path.join(directory, "perf.data")
            answer, err = _record(worker, perf, data, frequency, seconds)
            if "calls" not in answer or not os.path.exists(data):
                out.write(f"\n{label}: perf record failed: {(answer.get('error') or err).strip()}\n")
                status = 1
                continue
            script = subprocess.run([perf, "script", "-i", data, "-F", "ip,dso"], capture_output=True, text=True)
            att = attribute(parse_samples(script.stdout), mapping["regions"], mapping["kernels"],
                            mapping.get("symbols", ()), mapping.get("owners"))
            _report(out, label, answer, mapping, att, kernels, top, frequency)
            _ask(worker, op="teardown")
            out.flush()
    finally:
        with contextlib.suppress(Exception):
            _ask(worker, op="quit")
        worker.wait(timeout=60)
        shutil.rmtree(workdir, ignore_errors=True)
    return status


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """``rocmath-bench profile [--suite S] [--filter F] [--seconds T] [--frequency HZ] [--kernels K] [--top N]``."""
    p = argparse.ArgumentParser(prog="rocmath-bench profile", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", default="quick")
    p.add_argument("--filter", default=None, metavar="SUBSTRING")
    p.add_argument("--seconds", type=float, default=3.0, help="sampling time per case (default 3)")
    p.add_argument("--frequency", type=int, default=4000, metavar="HZ",
                   help="samples per second and thread (default 4000)")
    p.add_argument("--kernels", type=int, default=1, metavar="K", help="kernels shown disassembled (default 1)")
    p.add_argument("--top", type=int, default=12, metavar="N",
                   help="hottest instructions shown per kernel (default 12)")
    args = p.parse_args(argv)
    for flag in ("seconds", "frequency", "top"):
        if getattr(args, flag) <= 0:
            p.error(f"--{flag} must be positive, got {getattr(args, flag)}")
    if args.kernels < 0:
        p.error(f"--kernels must be >= 0, got {args.kernels}")
    out = out or sys.stdout
    perf = shutil.which("perf")
    if perf is None or not sys.platform.startswith("linux"):
        sys.stderr.write("rocmath-bench profile: needs Linux perf (the linux-tools package, or linux-perf on Debian)\n")
        return 2
    cases = selected_cases("profile", args.suite, args.filter)
    if not cases:
        return 2
    return profile(cases, args.seconds, args.frequency, args.kernels, args.top, perf, out)
