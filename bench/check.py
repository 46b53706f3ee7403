"""``rocmath-bench check BASELINE.json [CURRENT.json]``: saved results against newer ones, regressions flagged.

``BASELINE.json`` is a run saved with ``rocmath-bench --json``.  The current results are
``CURRENT.json`` when given, else a new run of the baseline's configuration (suite, filter,
repeats, warm-up, extra modules) on this machine (``--save PATH`` keeps it).

Times only compare on one machine, so the baseline of a regression check belongs to the machine
that runs it: when ``BASELINE.json`` does not exist yet (or with ``--record``), the command runs
the configuration ``--suite``, ``--filter``, ``--repeats``, ``--warmup`` and ``--module`` give
and saves it there as the baseline (exit status 0 when every case passes its check); later runs
on the same machine are checked against it.  ``{host}`` in the path stands for this machine's
name, so that machines sharing a folder (a CI cache) keep one baseline each.  Each (case, size)
of both is compared on the two measures a run saves with their bootstrap 95 % intervals:

- time: the warm median; it regressed when the current interval lies above the baseline's,
  by more than ``--threshold`` (default 5 %): ``current low > baseline high x (1 + threshold)``;
- ratio (reference / rocmath, timed interleaved in the same process, so a slower or busier
  machine affects both sides): it regressed when the current interval lies below the baseline's
  by more than the threshold: ``current high x (1 + threshold) < baseline low``.

The mirror conditions report an improvement; overlapping intervals are "same (within noise)".
``--metric auto`` (the default) checks both on the machine of the baseline and the ratio alone
when the two runs' machines differ (the report says so); ``time``, ``ratio`` or ``both`` choose.
A case that fails its correctness check (or errors) in the current results is flagged too.

Exit status: 0 when nothing regressed or fails, 1 when a case regressed or fails, 2 for a
usage error (an unreadable or foreign file, no case in common).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from ._cli_common import Parser, UsageError, usage_failure
from .report import JSON_SCHEMA

__all__ = ["DEFAULT_THRESHOLD", "Verdict", "baseline_path", "compare_docs", "load", "main", "same_machine"]

#: Changes up to this fraction beyond the intervals are not flagged (run-to-run drift).
DEFAULT_THRESHOLD = 0.05
#: The machine facts that make times comparable.
_MACHINE_KEYS = ("hostname", "processor", "cpu_count", "numba_num_threads")


@dataclass
class Verdict:
    """The comparison of one (case, size)."""

    case: str
    label: str
    size: Any
    status: str  # "same", "regressed", "improved", "fails", "missing", "new"
    reasons: list[str] = field(default_factory=list)  # what regressed, improved or fails
    time_change: float | None = None  # current warm median / baseline warm median
    base_ratio: list[float] | None = None  # [ratio, low, high]
    cur_ratio: list[float] | None = None

    @property
    def bad(self) -> bool:
        """Whether it makes the check fail."""
        return self.status in ("regressed", "fails")


def load(path: str) -> dict[str, Any]:
    """A results document saved by ``rocmath-bench --json``.

    Raises
    ------
    UsageError
        When the file cannot be read, is not JSON or is not such a document.
    """
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("schema") != JSON_SCHEMA or not isinstance(doc.get("results"), list):
        raise UsageError(f"{path} is not a rocmath-bench results file (schema {JSON_SCHEMA})")
    return doc


def _key(row: dict[str, Any]) -> tuple[str, str]:
    return row["case"], json.dumps(row.get("size"), sort_keys=True)


def _number(x: Any) -> float | None:
    """A saved number (non-finite ones are saved as strings)."""
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _interval(stats: dict[str, Any] | None) -> tuple[float, float, float] | None:
    """``(median, low, high)`` of saved timing statistics."""
    if not stats:
        return None
    med, low, high = (_number(stats.get(k)) for k in ("median_ns", "ci_low_ns", "ci_high_ns"))
    if med is None or low is None or high is None:
        return None
    return med, low, high


def _ratio(row: dict[str, Any]) -> tuple[float, float, float] | None:
    """``(ratio, low, high)`` of a saved result, None when it has none (or a non-finite one)."""
    r, ci = _number(row.get("ratio")), row.get("ratio_ci")
    if r is None or not ci:
        return None
    low, high = _number(ci[0]), _number(ci[1])
    if low is None or high is None or not all(map(math.isfinite, (r, low, high))):
        return None
    return r, low, high


def _compare(base: dict[str, Any], cur: dict[str, Any], metric: str, threshold: float) -> Verdict:
    v = Verdict(cur["case"], cur.get("label", ""), cur.get("size"), "same")
    if not cur.get("ok"):
        v.status, v.reasons = "fails", [f"error: {cur['error']}" if cur.get("error") else "wrong result"]
        return v
    grow = 1.0 + threshold
    bt, ct = _interval(base.get("warm")), _interval(cur.get("warm"))
    if bt is not None and ct is not None and bt[0] > 0:
        v.time_change = ct[0] / bt[0]
    br, cr = _ratio(base), _ratio(cur)
    v.base_ratio, v.cur_ratio = (list(br) if br else None), (list(cr) if cr else None)
    worse: list[str] = []
    better: list[str] = []
    if metric in ("time", "both") and bt is not None and ct is not None:
        if ct[1] > bt[2] * grow:
            worse.append("time")
        elif ct[2] * grow < bt[1]:
            better.append("time")
    if metric in ("ratio", "both") and br is not None and cr is not None:
        if cr[2] * grow < br[1]:
            worse.append("ratio")
        elif cr[1] > br[2] * grow:
            better.append("ratio")
    if worse:
        v.status, v.reasons = "regressed", worse
    elif better:
        v.status, v.reasons = "improved", better
    return v


def compare_docs(baseline: dict[str, Any], current: dict[str, Any], *, metric: str = "both",
                 threshold: float = DEFAULT_THRESHOLD) -> list[Verdict]:
    """The verdict of every (case, size) of two results documents: the baseline's in order, then
    those only the current one has (``"new"``).

    Parameters
    ----------
    baseline, current
        Documents as :func:`load` returns them.
    metric
        ``"time"``, ``"ratio"`` or ``"both"``: what may regress.
    threshold
        The fraction by which the intervals must be apart for a change to count.
    """
    if metric not in ("time", "ratio", "both"):
        raise ValueError(f"metric must be time, ratio or both, got {metric!r}")
    if threshold < 0:
        raise ValueError(f"threshold must be >= 0, got {threshold}")
    cur = {_key(r): r for r in current["results"]}
    seen = set()
    out = []
    for row in baseline["results"]:
        k = _key(row)
        seen.add(k)
        if k not in cur:
            out.append(Verdict(row["case"], row.get("label", ""), row.get("size"), "missing"))
        else:
            out.append(_compare(row, cur[k], metric, threshold))
    for k, row in cur.items():
        if k not in seen:  # only its correctness can fail
            v = Verdict(row["case"], row.get("label", ""), row.get("size"), "new")
            if not row.get("ok"):
                v.status, v.reasons = "fails", [f"error: {row['error']}" if row.get("error") else "wrong result"]
            out.append(v)
    return out


def _differences(baseline: dict[str, Any], current: dict[str, Any]) -> list[str]:
    bm, cm = baseline.get("machine", {}), current.get("machine", {})
    return [k for k in _MACHINE_KEYS if bm.get(k) != cm.get(k)]


def same_machine(baseline: dict[str, Any], current: dict[str, Any]) -> bool:
    """Whether two results documents come from the same machine (host, processor, CPUs, numba
    threads): only then do their times compare."""
    return not _differences(baseline, current)


def baseline_path(path: str) -> str:
    """``path`` with ``{host}`` replaced by this machine's name."""
    return path.replace("{host}", platform.node() or "unknown-host")


def _describe(name: str, doc: dict[str, Any]) -> str:
    m = doc.get("machine", {})
    return (f"{name} ({doc.get('timestamp', '?')}, rocmath {doc.get('rocmath_version', '?')}, host "
            f"{m.get('hostname', '?')}, {m.get('numba_num_threads', '?')} threads)")


def _fmt_ratio(r: list[float] | None) -> str:
    return "-" if r is None else f"{r[0]:.2f}x [{r[1]:.2f}, {r[2]:.2f}]"


def report(verdicts: Sequence[Verdict], baseline: dict[str, Any], current: dict[str, Any], names: tuple[str, str],
           metric: str, threshold: float, out: TextIO) -> None:
    """Print the comparison: the two runs, a note when their machines differ, one row per case."""
    out.write(f"baseline: {_describe(names[0], baseline)}\ncurrent:  {_describe(names[1], current)}\n")
    differ = _differences(baseline, current)
    if differ and metric != "ratio":
        out.write(f"note: the machines differ ({', '.join(differ)}): times do not compare; --metric ratio checks "
                  "the ratios alone\n")
    elif differ:
        out.write(f"note: the machines differ ({', '.join(differ)}): the ratios alone are checked\n")
    out.write(f"checked: {metric}; a change counts when the 95% intervals are more than {100 * threshold:g}% "
              "apart\n\n")
    width = max([len(v.case) for v in verdicts] + [4])
    lwidth = max([len(v.label) for v in verdicts] + [4])
    out.write(f"{'case':<{width}}  {'size':<{lwidth}}  {'time now/before':>15}  {'ratio before [CI95]':>24}  "
              f"{'ratio now [CI95]':>24}  verdict\n")
    for v in verdicts:
        change = "-" if v.time_change is None else f"{v.time_change:.3f}x"
        say = {"same": "same (within noise)", "missing": "missing (not in the current results)",
               "new": "new (not in the baseline)"}.get(v.status, v.status)
        if v.reasons:
            say += ": " + ", ".join(v.reasons)
        out.write(f"{v.case:<{width}}  {v.label:<{lwidth}}  {change:>15}  {_fmt_ratio(v.base_ratio):>24}  "
                  f"{_fmt_ratio(v.cur_ratio):>24}  {say}\n")
    counts = {s: sum(v.status == s for v in verdicts) for s in ("regressed", "fails", "improved", "same")}
    out.write(f"\n{counts['regressed']} regressed, {counts['fails']} failing, {counts['improved']} improved, "
              f"{counts['same']} within noise\n")


def _parser() -> Parser:
    p = Parser(prog="rocmath-bench check", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("baseline", help="results saved by rocmath-bench --json; recorded there when missing ({host}: "
                                    "this machine's name)")
    p.add_argument("current", nargs="?", default=None,
                   help="results to check (default: a new run of the baseline's configuration)")
    p.add_argument("--metric", choices=("auto", "time", "ratio", "both"), default="auto",
                   help="what may regress (default auto: both on the baseline's machine, else the ratio)")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, metavar="FRACTION",
                   help=f"how far apart the intervals must be (default {DEFAULT_THRESHOLD})")
    p.add_argument("--repeats", type=int, default=None, metavar="N",
                   help="timed pairs of the new run (default: the baseline's; 21 when recording)")
    p.add_argument("--save", default=None, metavar="PATH", help="keep the new run's results in PATH")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the verdicts to PATH")
    p.add_argument("--no-prime", action="store_true", help="as rocmath-bench's, for the new run")
    p.add_argument("--record", "--record-baseline", action="store_true",
                   help="run and save a new baseline even if BASELINE exists")
    record = p.add_argument_group("what a recorded baseline runs (as rocmath-bench's options)")
    record.add_argument("--suite", default=None, help="suite (default quick)")
    record.add_argument("--filter", default=None, metavar="SUBSTRING", help="only cases whose name contains it")
    record.add_argument("--warmup", type=int, default=None, metavar="N", help="untimed pairs (default 2)")
    record.add_argument("--module", action="append", default=[], metavar="MODULE", help="more cases (repeatable)")
    return p


def _record(args: argparse.Namespace, path: str, registry: Any, console: bool, out: TextIO) -> int:
    """Run the configuration of ``args`` and save it to ``path`` as the baseline; the run's exit status.
    Re-recording (``--record``), what ``args`` leaves out is the old baseline's."""
    from .cli import run_suite

    if os.path.exists(path):
        with contextlib.suppress(UsageError):
            config = load(path).get("config", {})
            args.suite = args.suite or config.get("suite")
            args.filter = args.filter or config.get("filter")
            args.module = args.module or list(config.get("modules") or [])
            args.repeats = args.repeats or config.get("repeats")
            args.warmup = config.get("warmup") if args.warmup is None else args.warmup
    argv = ["--suite", args.suite or "quick", "--json", path]
    if args.repeats is not None:
        argv += ["--repeats", str(args.repeats)]
    if args.warmup is not None:
        argv += ["--warmup", str(args.warmup)]
    if args.filter:
        argv += ["--filter", args.filter]
    for module in args.module:
        argv += ["--module", module]
    if args.no_prime:
        argv.append("--no-prime")
    status = run_suite(argv, registry=registry, out=out, console=console)
    if status != 2 and os.path.exists(path):
        out.write(f"\nbaseline recorded in {path}: later runs of 'rocmath-bench check {args.baseline}' on this "
                  "machine are checked against it\n")
    return status


def _run_again(baseline: dict[str, Any], args: argparse.Namespace, registry: Any, console: bool,
               out: TextIO, path: str) -> int:
    """Run the baseline's configuration into ``path``; the run's exit status."""
    from .cli import run_suite

    config = baseline.get("config", {})
    argv = ["--suite", str(config.get("suite") or "quick"), "--json", path,
            "--repeats", str(args.repeats or config.get("repeats") or 21), "--warmup", str(config.get("warmup", 2))]
    if config.get("filter"):
        argv += ["--filter", str(config["filter"])]
    for module in config.get("modules") or ():
        argv += ["--module", str(module)]
    if args.no_prime:
        argv.append("--no-prime")
    return run_suite(argv, registry=registry, out=out, console=console)


def _same_configuration(baseline: dict[str, Any], args: argparse.Namespace) -> None:
    """Raise :class:`UsageError` when the options that choose the cases differ from the baseline's."""
    config = baseline.get("config", {})
    given = {"suite": args.suite, "filter": args.filter, "modules": args.module or None}
    differ = [k for k, v in given.items() if v is not None and v != (config.get(k) or ("quick" if k == "suite"
                                                                                         else None))]
    if differ:
        raise UsageError(f"the baseline {args.baseline} was recorded with other {', '.join(differ)} "
                         f"({', '.join(f'{k}={config.get(k)!r}' for k in differ)}): --record to record a new one")


def main(argv: Sequence[str], out: TextIO | None = None, *, registry: Any = None, console: bool = False) -> int:
    """``rocmath-bench check``: the exit status.

    Parameters
    ----------
    argv
        The arguments after ``check``.
    out
        Where the report goes (stdout when None).
    registry, console
        For a new run, as :func:`rocmath.bench.cli.run_suite` takes them.
    """
    prog = "rocmath-bench check"
    out = out or sys.stdout
    try:
        args = _parser().parse_args(list(argv))
        if args.threshold < 0:
            raise UsageError(f"--threshold must be >= 0, got {args.threshold}")
        if args.repeats is not None and args.repeats < 1:
            raise UsageError(f"--repeats must be at least 1, got {args.repeats}")
        if args.warmup is not None and args.warmup < 0:
            raise UsageError(f"--warmup must be at least 0, got {args.warmup}")
        path = baseline_path(args.baseline)
        if args.current is None and (args.record or not os.path.exists(path)):
            return _record(args, path, registry, console, out)
        if args.record:
            raise UsageError("--record runs a new baseline: it takes no CURRENT file")
        baseline = load(path)
        _same_configuration(baseline, args)
        if args.current is not None:
            current, names = load(args.current), (path, args.current)
        else:
            new = args.save or os.path.join(tempfile.mkdtemp(prefix="rocmath-check-"), "current.json")
            status = _run_again(baseline, args, registry, console, out, new)
            if status == 2 or not os.path.exists(new):
                return usage_failure(prog, "the new run did not run (see above)")
            out.write("\n")
            current, names = load(new), (path, args.save or "this run")
            if not args.save:
                os.unlink(new)
                os.rmdir(os.path.dirname(new))
    except UsageError as exc:
        return usage_failure(prog, exc)
    metric = args.metric
    if metric == "auto":
        metric = "both" if same_machine(baseline, current) else "ratio"
    verdicts = compare_docs(baseline, current, metric=metric, threshold=args.threshold)
    if not any(v.status not in ("missing", "new") for v in verdicts):
        return usage_failure(prog, f"{names[0]} and {names[1]} have no case in common")
    report(verdicts, baseline, current, names, metric, args.threshold, out)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"baseline": names[0], "current": names[1], "metric": metric, "threshold": args.threshold,
                       "verdicts": [asdict(v) for v in verdicts]}, f, indent=1)
    return 1 if any(v.bad for v in verdicts) else 0

