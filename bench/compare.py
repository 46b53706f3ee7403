"""``rocmath-bench compare A B``: two revisions or two configurations, timed call by call.

Each side is a worker process (:mod:`rocmath.bench.worker`) running one version of rocmath:

- a git revision (``HEAD~1``, a branch, a commit): checked out in a temporary worktree and
  installed into a temporary directory, with its own numba cache;
- ``.``: the working tree as it is;
- ``env:NAME=VALUE[,NAME=VALUE...]``: the working tree with those environment variables (a
  configuration: ``env:ROCMATH_INLINE=0``, ``env:NUMBA_NUM_THREADS=1``...).

For every case of the suite both workers set the problem up, then time it alternately, A B A B
..., so that machine noise hits both alike.  The report gives each side's median, the ratio
``A / B`` (above 1: B is faster) with its bootstrap 95 % interval, and a verdict: a difference
is reported only when the interval excludes 1.

Both sides run on this machine in the same minutes, so the comparison holds on any machine,
a CI runner included: ``rocmath-bench compare origin/main . --threshold 0.05`` exits with
status 1 when a case of the working tree (B) is slower than main's beyond noise by more than
5 % (the interval's upper end below ``1 / 1.05``).  Without ``--threshold`` the exit status
is 1 only when a case fails to run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .registry import default_registry, discover
from .report import Progress
from .timing import median, ratio_ci

__all__ = ["Side", "compare", "main", "regressed", "selected_cases", "verdict"]


@dataclass
class Side:
    """One version under comparison: how to start its worker."""

    spec: str
    env: dict[str, str] = field(default_factory=dict)
    path: str | None = None  # PYTHONPATH holding the installed revision; None: the running rocmath

    def start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, **self.env)
        if self.path is not None:
            env["PYTHONPATH"] = self.path + os.pathsep + env.get("PYTHONPATH", "")
        # The worker must not find this checkout's sources first.
        cwd = self.path or os.getcwd()
        return subprocess.Popen([sys.executable, "-m", "rocmath.bench.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, env=env, cwd=cwd)


def _git(*args: str, cwd: str | None = None) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True, cwd=cwd).stdout.strip()


def prepare(spec: str, workdir: str, trees: list[str]) -> Side:
    """The :class:`Side` for a command-line spec (see the module docstring); worktrees it adds
    are appended to ``trees`` (for removal, also when the install fails)."""
    if spec == ".":
        return Side(spec)
    if spec.startswith("env:"):
        pairs = [p for p in spec[4:].split(",") if p]
        env = {}
        for p in pairs:
            name, eq, value = p.partition("=")
            if not eq or not name:
                raise ValueError(f"{spec!r}: expected env:NAME=VALUE[,NAME=VALUE...]")
            env[name] = value
        return Side(spec, env)
    root = _git("rev-parse", "--show-toplevel")
    commit = _git("rev-parse", "--verify", f"{spec}^{{commit}}", cwd=root)
    tree = os.path.join(workdir, f"tree-{commit[:12]}")
    site = os.path.join(workdir, f"site-{commit[:12]}")
    _git("worktree", "add", "--detach", tree, commit, cwd=root)
    trees.append(tree)
    side = Side(spec, {"ROCMATH_CACHE_DIR": os.path.join(workdir, f"cache-{commit[:12]}")}, site)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", site, tree], check=True, stdout=subprocess.DEVNULL)
    return side


def _ask(proc: subprocess.Popen[str], **cmd: Any) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(cmd) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError("a worker died (see its stderr above)")
    return json.loads(line)


def regressed(row: dict[str, Any], threshold: float) -> bool:
    """Whether B is slower than A in a :func:`compare` row beyond noise by more than ``threshold``."""
    return "ratio_ci" in row and row["ratio_ci"][1] * (1.0 + threshold) < 1.0


def verdict(a_ns: Sequence[float], b_ns: Sequence[float]) -> tuple[float, tuple[float, float], str]:
    """``(median(A) / median(B), its 95 % interval, verdict)``: ``"B faster"`` or ``"B slower"``
    only when the interval excludes 1, else ``"same (within noise)"``."""
    ratio = median(a_ns) / median(b_ns)
    low, high = ratio_ci(a_ns, b_ns)
    if low > 1:
        return ratio, (low, high), "B faster"
    if high < 1:
        return ratio, (low, high), "B slower"
    return ratio, (low, high), "same (within noise)"


def compare(side_a: Side, side_b: Side, cases: list[tuple[str, Any]], repeats: int,
            out: TextIO) -> list[dict[str, Any]]:
    """Time every (case, size) on both sides, A B A B ...; print and return one row each.

    Each side first sets every case up once in a throwaway worker, so that the timed workers
    load their kernels from the numba cache: code compiled in the timing process itself has
    been measured up to twice as slow as the same code loaded from the cache, which would
    penalize the side whose cache starts empty (a revision's always does)."""
    for side in (side_a, side_b):
        primer = side.start()
        try:
            for name, size in cases:
                _ask(primer, op="setup", case=name, size=json.loads(json.dumps(size)))
                _ask(primer, op="teardown")
        finally:
            with contextlib.suppress(Exception):
                _ask(primer, op="quit")
            primer.wait(timeout=120)
    procs = [side_a.start(), side_b.start()]
    rows = []
    try:
        width = max((len(c) for c, _ in cases), default=4)
        out.write(f"A = {side_a.spec}\nB = {side_b.spec}\nratio = median A / median B (>1: B faster), "
                  f"95% bootstrap interval; {repeats} alternating pairs\n\n")
        out.write(f"{'case':<{width}}  {'size':<14}  {'A med':>10}  {'B med':>10}  {'ratio':>7}  "
                  f"{'interval':>15}  verdict\n")
        progress = Progress(len(cases))
        for name, size in cases:
            progress.clear()
            size_json = json.loads(json.dumps(size))
            setups = [_ask(p, op="setup", case=name, size=size_json) for p in procs]
            errors = [s["error"] for s in setups if "error" in s]
            if errors:
                progress.step(name)
                out.write(f"{name:<{width}}  {size!s:<14}  error: {errors[0]}\n")
                rows.append({"case": name, "size": size_json, "error": errors[0]})
                continue
            samples: list[list[float]] = [[], []]
            for _ in range(repeats):
                for i, p in enumerate(procs):
                    samples[i].append(float(_ask(p, op="time")["ns"]))
            for p in procs:
                _ask(p, op="teardown")
            ratio, (low, high), say = verdict(samples[0], samples[1])
            label = setups[0].get("label", str(size))
            out.write(f"{name:<{width}}  {label:<14}  {median(samples[0]) / 1e3:>8.1f}us  "
                      f"{median(samples[1]) / 1e3:>8.1f}us  {ratio:>6.3f}x  [{low:.3f}, {high:.3f}]  {say}\n")
            out.flush()
            rows.append({"case": name, "size": size_json, "label": label, "a_ns": samples[0], "b_ns": samples[1],
                         "ratio": ratio, "ratio_ci": [low, high], "verdict": say})
            progress.step(name)
        progress.clear()
    finally:
        for p in procs:
            with contextlib.suppress(Exception):  # a dead worker is reported already
                _ask(p, op="quit")
            p.wait(timeout=60)
    return rows


def selected_cases(command: str, suite: str, substring: str | None) -> list[tuple[str, Any]]:
    """Every (case, size) of ``suite`` whose name contains ``substring``; an empty list, said on
    stderr, when none does."""
    discover()
    cases = [(c.name, size) for c in default_registry.select(suite, substring) for size in c.sizes.get(suite, ())]
    if not cases:
        sys.stderr.write(f"rocmath-bench {command}: no case in suite {suite!r} matches {substring!r}\n")
    return cases


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """``rocmath-bench compare A B [--suite S] [--filter F] [--repeats N] [--json PATH]``."""
    p = argparse.ArgumentParser(prog="rocmath-bench compare", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", help="git revision, '.', or env:NAME=VALUE[,...]")
    p.add_argument("b", help="git revision, '.', or env:NAME=VALUE[,...]")
    p.add_argument("--suite", default="quick")
    p.add_argument("--filter", default=None, metavar="SUBSTRING")
    p.add_argument("--repeats", type=int, default=15, metavar="N", help="alternating pairs per case (default 15)")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the samples and verdicts to PATH")
    p.add_argument("--threshold", type=float, default=None, metavar="FRACTION",
                   help="exit with status 1 when B is slower than A beyond noise by more than FRACTION (e.g. 0.05)")
    args = p.parse_args(argv)
    if args.threshold is not None and args.threshold < 0:
        p.error(f"--threshold must be >= 0, got {args.threshold}")
    out = out or sys.stdout
    cases = selected_cases("compare", args.suite, args.filter)
    if not cases:
        return 2
    workdir = tempfile.mkdtemp(prefix="rocmath-compare-")
    trees: list[str] = []
    try:
        try:
            sides = [prepare(args.a, workdir, trees), prepare(args.b, workdir, trees)]
        except (ValueError, subprocess.CalledProcessError) as exc:
            sys.stderr.write(f"rocmath-bench compare: {exc}\n")
            return 2
        rows = compare(sides[0], sides[1], cases, max(1, args.repeats), out)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"a": args.a, "b": args.b, "suite": args.suite, "rows": rows}, f)
        slower = [] if args.threshold is None else [r for r in rows if regressed(r, args.threshold)]
        if slower:
            out.write(f"\nB slower than A beyond noise by more than {100 * args.threshold:g}%: "
                      + ", ".join(f"{r['case']} [{r['label']}]" for r in slower) + "\n")
        return 1 if slower or any("error" in r for r in rows) else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if trees:  # the worktrees' directories are gone: git forgets them
            subprocess.run(["git", "worktree", "prune"], capture_output=True)
